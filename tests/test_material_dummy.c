/* Adding a material model is a row of the registry (src/case/material_models.h), its
 * formulas and its test: a model declared here, outside efsi's own tables, gets its
 * case-file keys and their checks, reaches the case's materials with its parameters, and
 * its field is allocated at its value at rest, named in the output and counted in the
 * memory efsi --check reports, with no other code written for it.  The modules that derive
 * these from the registry are compiled into this test with the model added. */
#include <math.h>

#define EFSI_EXTRA_MATERIAL_MODELS(X) X(DUMMY, "dummy", "tests/test_material_dummy.c", "a test model")
#define EFSI_EXTRA_MATERIAL_PARAMETERS(X, ...)                                          \
  X(__VA_ARGS__, IN(DUMMY), STIFFNESS, "stiffness", NAN, NULL, "a stiffness")           \
  X(__VA_ARGS__, IN(DUMMY), MEMORY, "memory", 3.0, NULL, "a relaxation time")
#define EFSI_EXTRA_MATERIAL_FIELDS(X) X(DUMMY, "age", 0.25, "age since the last relaxation")

/* the modules the registry feeds, with the model */
#include "src/case/case.c"
#include "src/case/config.c"
#include "src/case/config_check.c"
#include "src/case/config_keys.c"
#include "src/case/config_read.c"
#include "src/case/material_models.c"
#include "src/case/materials.c"
#include "src/case/state.c"

#include <check.h>
#include <string.h>

#include "tests/test_support.h"

#define CASE_TEXT \
  "[grid]\ncells = 8 8 8\nlength = 16 16 16\n[time]\nsteps = 1\n[rbc]\ncount = 1\n"

static char err[512];

static int parse(efsi_config *c, const char *set)
{
  const char *overrides[] = {"rbc.model=dummy", set};
  return config_parse(c, "x.ini", CASE_TEXT, overrides, set ? 2 : 1, err, sizeof err);
}

START_TEST(the_models_keys_are_read_and_checked)
{
  efsi_config c;
  ck_assert_msg(parse(&c, "rbc.stiffness=7") == 0, "%s", err);
  ck_assert_int_eq(c.material[BODY_FAMILY_RBC].model, MATERIAL_MODEL_DUMMY);
  ck_assert(c.material[BODY_FAMILY_RBC].param[MATERIAL_PARAM_STIFFNESS] == 7.0);
  ck_assert(c.material[BODY_FAMILY_RBC].param[MATERIAL_PARAM_MEMORY] == 3.0);
  ck_assert_int_ne(parse(&c, NULL), 0);
  ck_assert_msg(strstr(err, "rbc.stiffness: required key is missing (the rbc's a stiffness, "
                            "model dummy)"), "%s", err);
  ck_assert_int_ne(parse(&c, "rbc.modulus=1"), 0);
  ck_assert_msg(strstr(err, "rbc.modulus: not a parameter of rbc.model = dummy (a parameter "
                            "of neo-hookean)"), "%s", err);
  ck_assert_int_ne(parse(&c, "rbc.stiffness=-1"), 0);
  ck_assert_msg(strstr(err, "rbc.stiffness: expected a number > 0 (a stiffness)"), "%s", err);
  const char *neo[] = {"platelet.memory=2"};
  ck_assert_int_ne(config_parse(&c, "x.ini", CASE_TEXT, neo, 1, err, sizeof err), 0);
  ck_assert_msg(strstr(err, "platelet.memory: not a parameter of platelet.model = neo-hookean"),
                "%s", err);
}
END_TEST

START_TEST(the_models_material_and_field_follow)
{
  efsi_config c;
  ck_assert_msg(parse(&c, "rbc.stiffness=7") == 0, "%s", err);
  efsi_case cs;
  case_resolve(&c, &cs);
  ck_assert_int_eq(cs.nmat, 1);
  ck_assert_int_eq(cs.materials.model[0], MATERIAL_MODEL_DUMMY);
  ck_assert(cs.materials.param[0][MATERIAL_PARAM_STIFFNESS] == 7.0);
  ck_assert(cs.materials.modulus[0] == 0.0);   /* not a neo-Hookean solid */
  /* u v w p, phi_rbc, B's six and the model's one field */
  ck_assert_int_eq(cs.state_arrays, 4 + 1 + 6 + 1);
  ck_assert_int_eq(cs.exchanged_arrays, cs.state_arrays - 1);
  const efsi_grid g = test_grid((const int[3]){8, 8, 8}, (const double[3]){16, 16, 16}, 1, 0);
  efsi_state s;
  ck_assert_int_eq(state_alloc_case(&s, &g, &cs), 0);
  ck_assert_int_eq(state_held_arrays(&s), cs.state_arrays);
  ck_assert(s.own[0][grid_index(&g, 3, 4, 5)] == 0.25);
  efsi_snapshot snap;
  state_snapshot(&s, 1, &snap);
  ck_assert_int_eq(snap.nfields, cs.state_arrays);
  ck_assert_str_eq(snap.field[snap.nfields - 1].name, "age_rbc");
  ck_assert(snap.field[snap.nfields - 1].data == s.own[0]);
  state_free(&s);
  /* an output list may name it */
  ck_assert_msg(parse(&c, "rbc.stiffness=7") == 0, "%s", err);
  const char *listed[] = {"rbc.model=dummy", "rbc.stiffness=7", "output.fields=u age_rbc"};
  ck_assert_msg(config_parse(&c, "x.ini", CASE_TEXT, listed, 3, err, sizeof err) == 0, "%s", err);
}
END_TEST

static Suite *dummy_suite(void)
{
  Suite *s = suite_create("material_dummy");
  const TTest *tests[] = {the_models_keys_are_read_and_checked,
                          the_models_material_and_field_follow, NULL};
  test_case_add(s, "a model added", 0, tests);
  return s;
}

int main(int argc, char **argv) { return mpi_check_main(argc, argv, dummy_suite); }
