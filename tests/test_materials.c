/* The material registry (src/case/material_models.h): docs/case-file.md's rows of the models
 * and their keys are the ones the registry makes; a case's materials carry the model and
 * parameters their family's keys give; the state holds the arrays the memory count says.
 * With EFSI_PRINT_DOC_ROWS=1 in the environment the rows are printed, to paste into
 * docs/case-file.md. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/case/case.h"
#include "src/case/config.h"
#include "src/case/material_models.h"
#include "src/case/materials.h"
#include "src/case/state.h"
#include "tests/test_support.h"

#define CASE_TEXT \
  "[grid]\ncells = 8 8 8\nlength = 16 16 16\n[time]\nsteps = 1\n[boundary]\nz = wall\n" \
  "[rbc]\ncount = 1\n[vessel]\nshape = tube\ndiameter = 12\nmodulus = 0.5\n"

enum { ROWS = 64, ROW = 512 };

/* A parameter's default as the page says it. */
static void describe_default(double value, char *out, size_t len)
{
  if (isnan(value)) snprintf(out, len, "required when used");
  else if (value == MATERIAL_FLUID_VISCOSITY) snprintf(out, len, "fluid.viscosity");
  else snprintf(out, len, "`%g`", value);
}

/* The rows docs/case-file.md shows of the registry, after the marker `which` ("material
 * models" or "material keys"). */
static int registry_rows(const char *which, char rows[ROWS][ROW])
{
  int n = 0;
  if (strcmp(which, "material models") == 0) {
    for (int m = 0; m < MATERIAL_MODEL_COUNT; m++)
      snprintf(rows[n++], ROW, "| `%s` | %s | `%s` |", material_models[m].name,
               material_models[m].meaning, material_models[m].formulas);
    return n;
  }
  efsi_config c;
  config_defaults(&c);
  /* the families, then the voxels, whose parameters are lists (one value a label) */
  for (int f = 0; f <= BODY_FAMILY_COUNT; f++) {
    /* the models the place may name (a membrane needs a body's shape), and of each
     * parameter the models among them that have it */
    const unsigned allowed = material_models_allowed(f < BODY_FAMILY_COUNT && body_family_shaped(f));
    char models[256];
    material_model_names(allowed, models, sizeof models);
    if (f == BODY_FAMILY_COUNT) {
      snprintf(rows[n++], ROW, "| `voxels.model` | word | `%s` | %s | the model of the voxels' "
               "materials |", material_models[c.voxels_material.model].name, models);
      for (int k = 0; k < MATERIAL_PARAM_COUNT; k++) {
        const material_parameter *p = &material_parameters[k];
        if (!(p->models & allowed)) continue;
        char owners[256];
        material_model_names(p->models & allowed, owners, sizeof owners);
        char fallback[64];
        describe_default(p->fallback, fallback, sizeof fallback);
        snprintf(rows[n++], ROW, "| `voxels.%s` | 1 to 7 numbers | %s | > 0; model %s | %s, "
                 "one for every label or one a label |", p->key, fallback, owners, p->meaning);
      }
      break;
    }
    const body_family *b = &body_families[f];
    snprintf(rows[n++], ROW, "| `%s.model` | word | `%s` | %s | the model of the %s material |",
             b->section, material_models[b->model].name, models, b->material);
    for (int k = 0; k < MATERIAL_PARAM_COUNT; k++) {
      const material_parameter *p = &material_parameters[k];
      if (!(p->models & allowed)) continue;
      const double value = c.material[f].param[k];
      char fallback[64];
      describe_default(value, fallback, sizeof fallback);
      char owners[256];
      material_model_names(p->models & allowed, owners, sizeof owners);
      if (p->words) {   /* a word: its default and the words */
        char words[256] = "";
        for (int w = 0; p->words[w]; w++)
          snprintf(words + strlen(words), sizeof words - strlen(words), "%s%s", w ? ", " : "",
                   p->words[w]);
        snprintf(rows[n++], ROW, "| `%s.%s` | word | `%s` | %s; model %s | %s |", b->section,
                 p->key, p->words[(int)value], words, owners, p->meaning);
        continue;
      }
      snprintf(rows[n++], ROW, "| `%s.%s` | number | %s | > 0; model %s | %s |", b->section,
               p->key, fallback, owners, p->meaning);
    }
  }
  return n;
}

/* The table rows that follow `<!-- which: ...` in docs/case-file.md, up to the first line
 * that is not a row. */
static int page_rows(const char *which, char rows[ROWS][ROW])
{
  FILE *doc = fopen(EFSI_TOP_SRCDIR "/docs/case-file.md", "r");
  ck_assert_ptr_nonnull(doc);
  char line[ROW], marker[64];
  snprintf(marker, sizeof marker, "<!-- %s:", which);
  int n = 0, inside = 0;
  while (fgets(line, sizeof line, doc) && n < ROWS) {
    line[strcspn(line, "\n")] = '\0';
    if (inside && line[0] != '|') break;
    if (inside) snprintf(rows[n++], ROW, "%s", line);
    if (strncmp(line, marker, strlen(marker)) == 0) inside = 1;
  }
  fclose(doc);
  return n;
}

static void same_rows(const char *which)
{
  static char want[ROWS][ROW], have[ROWS][ROW];
  const int n = registry_rows(which, want), m = page_rows(which, have);
  for (int r = 0; r < n; r++)
    ck_assert_msg(r < m && strcmp(want[r], have[r]) == 0,
                  "docs/case-file.md, %s, row %d: expected\n%s\ngot\n%s", which, r + 1, want[r],
                  r < m ? have[r] : "(no row)");
  ck_assert_msg(m == n, "docs/case-file.md has %d rows of %s, the registry makes %d", m, which, n);
}

START_TEST(case_file_rows_are_the_registrys)
{
  if (getenv("EFSI_PRINT_DOC_ROWS")) {   /* both tables first, to paste */
    static char rows[ROWS][ROW];
    const char *const tables[] = {"material models", "material keys"};
    for (int t = 0; t < 2; t++) {
      printf("<!-- %s: made from src/case/material_models.h -->\n", tables[t]);
      for (int r = 0, n = registry_rows(tables[t], rows); r < n; r++) printf("%s\n", rows[r]);
    }
  }
  same_rows("material models");
  same_rows("material keys");
}
END_TEST

START_TEST(materials_carry_their_familys_model_and_parameters)
{
  efsi_config c;
  char err[512];
  const char *set[] = {"rbc.modulus=0.03"};
  ck_assert_msg(config_parse(&c, "x.ini", CASE_TEXT, set, 1, err, sizeof err) == 0, "%s", err);
  efsi_materials m;
  ck_assert_int_eq(materials_of_case(&c, &m), 2);
  ck_assert_str_eq(m.name[0], "rbc");
  ck_assert_str_eq(m.name[1], "wall");
  for (int k = 0; k < 2; k++) ck_assert_int_eq(m.model[k], MATERIAL_MODEL_NEO_HOOKEAN);
  ck_assert(m.param[0][MATERIAL_PARAM_MODULUS] == 0.03 && m.modulus[0] == 0.03);
  ck_assert(m.param[1][MATERIAL_PARAM_MODULUS] == 0.5 && m.modulus[1] == 0.5);
  /* the family default (the paper's RBC) when the key is not given */
  ck_assert_msg(config_parse(&c, "x.ini", CASE_TEXT, NULL, 0, err, sizeof err) == 0, "%s", err);
  materials_of_case(&c, &m);
  ck_assert(m.modulus[0] == 2e-2);
}
END_TEST

START_TEST(state_holds_what_the_memory_count_says)
{
  efsi_config c;
  char err[512];
  ck_assert_msg(config_parse(&c, "x.ini", CASE_TEXT, NULL, 0, err, sizeof err) == 0, "%s", err);
  efsi_case cs;
  case_resolve(&c, &cs);
  const efsi_grid g = test_grid((const int[3]){8, 8, 8}, (const double[3]){16, 16, 16}, 1, 1);
  efsi_state s;
  ck_assert_int_eq(state_alloc_case(&s, &g, &cs), 0);
  ck_assert_int_eq(state_held_arrays(&s), cs.state_arrays);
  double **list[STATE_MAX_ARRAYS];
  ck_assert_int_eq(state_arrays(&s, list), cs.state_arrays);
  ck_assert_int_eq(cs.state_arrays, 4 + 2 + 6 + materials_own_fields(&cs.materials));
  state_free(&s);
}
END_TEST

static Suite *materials_suite(void)
{
  Suite *s = suite_create("materials");
  const TTest *tests[] = {case_file_rows_are_the_registrys,
                          materials_carry_their_familys_model_and_parameters,
                          state_holds_what_the_memory_count_says, NULL};
  test_case_add(s, "registry", 0, tests);
  return s;
}

int main(int argc, char **argv) { return mpi_check_main(argc, argv, materials_suite); }
