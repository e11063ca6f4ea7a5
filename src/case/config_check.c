/* The checks that relate several keys of the case file, made once the file and the --set
 * overrides are read (see config_check.h).  Bodies that do not fit or overlap are refused by
 * the seeding, which knows the geometry; the process grid against the grid by
 * config_validate_ranks, which knows the number of ranks. */
#include "src/case/config_check.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/grid.h"
#include "io/output.h"
#include "src/case/config_keys.h"
#include "src/case/materials.h"
#include "src/case/state.h"


/* A section is in use when any of its keys is given; then its required keys must be. */
static void require(parse_state *s, const char *section, const char *const *keys, int n,
                    const char *why)
{
  for (int k = 0; k < n; k++)
    if (!config_given(s, section, keys[k])) {
      config_fail(s, section, keys[k], "required key is missing (%s)", why);
    }
}

/* Whether a key of the section other than <family>.model (which names a model, with its
 * default, and asks for no body) is given. */
static int section_used(const parse_state *s, const char *section)
{
  for (int k = 0; k < config_key_count; k++) {
    const key_spec *key = &config_keys[k];
    if (strcmp(key->section, section) == 0 && strcmp(key->name, "model") != 0 &&
        config_given(s, section, key->name))
      return 1;
  }
  return 0;
}

/* Whether any material parameter of the section is given. */
static int parameters_given(const parse_state *s, const char *section)
{
  int given = 0;
  for (int k = 0; k < MATERIAL_PARAM_COUNT; k++)
    given |= config_given(s, section, material_parameters[k].key);
  return given;
}

/* Each body family's material: a parameter given belongs to the family's model, and a
 * family in the case has every parameter of its model that has no default. */
static void check_materials(parse_state *s)
{
  const efsi_config *c = config_of(s);
  for (int f = 0; f < BODY_FAMILY_COUNT; f++) {
    const char *section = body_families[f].section;
    const int model = c->material[f].model;
    const char *name = material_models[model].name;
    if (!((material_models_allowed(body_family_shaped(f)) >> model) & 1u))
      config_fail(s, section, "model", "a %s needs a body's shape for its level "
                  "(docs/membrane.md): rbc, platelet, sphere or ellipsoid, not the vessel", name);
    for (int k = 0; k < MATERIAL_PARAM_COUNT; k++) {
      const material_parameter *p = &material_parameters[k];
      char models[256];
      material_model_names(p->models, models, sizeof models);
      if (!material_has(model, k) && config_given(s, section, p->key))
        config_fail(s, section, p->key, "not a parameter of %s.model = %s (a parameter of %s)",
                    section, name, models);
      else if (material_has(model, k) && isnan(c->material[f].param[k]) &&
               body_family_in_case(c, f))
        config_fail(s, section, p->key, "required key is missing (the %s's %s, model %s)",
                    body_families[f].material, p->meaning, name);
    }
    /* C is Skalak's: the neo-Hookean membrane has no parameter of its own for the area */
    if (model == MATERIAL_MODEL_MEMBRANE && config_given(s, section, "dilatation") &&
        c->material[f].param[MATERIAL_PARAM_LAW] == MEMBRANE_LAW_NEO_HOOKEAN)
      config_fail(s, section, "dilatation", "a parameter of the Skalak law, not of %s.law = "
                  "neo-hookean (whose area modulus is 3 G_s)", section);
  }
}

/* The voxels' material: each parameter given is one of its model's, with one value for
 * every label or one a label (one for volume fractions), and a parameter without a default
 * is given. */
static void check_voxel_material(parse_state *s)
{
  const efsi_config *c = config_of(s);
  const efsi_voxel_keys *v = &c->voxels_material;
  const char *name = material_models[v->model].name;
  const int labels = voxels_labels(c);
  if (!((material_models_allowed(0) >> v->model) & 1u))
    config_fail(s, "voxels", "model", "a %s needs a body's shape for its level "
                "(docs/membrane.md): rbc, platelet, sphere or ellipsoid, not voxels", name);
  for (int k = 0; k < MATERIAL_PARAM_COUNT; k++) {
    const material_parameter *p = &material_parameters[k];
    char models[256];
    material_model_names(p->models, models, sizeof models);
    if (!material_has(v->model, k)) {
      if (v->given[k])
        config_fail(s, "voxels", p->key, "not a parameter of voxels.model = %s (a parameter "
                    "of %s)", name, models);
    } else if (v->given[k] == 0 && isnan(p->fallback)) {
      config_fail(s, "voxels", p->key, "required key is missing (the voxels' %s, model %s)",
                  p->meaning, name);
    } else if (v->given[k] > 1 && c->voxels_variable == VOXELS_PHI) {
      config_fail(s, "voxels", p->key, "voxels.variable = phi is one material: give one "
                  "value, got %d", v->given[k]);
    } else if (v->given[k] > 1 && v->given[k] != labels) {
      config_fail(s, "voxels", p->key, "give one value for every label or one a label (%d "
                  "labels), got %d", labels, v->given[k]);
    }
  }
}

/* The solid's keys that depend on each other (bodies that do not fit or overlap are
 * refused by the seeding, which knows the geometry). */
static void check_solid(parse_state *s)
{
  const efsi_config *c = config_of(s);
  if (config_given(s, "rbc", "count") && config_given(s, "rbc", "hematocrit"))
    config_fail(s, "rbc", "hematocrit", "give rbc.count or rbc.hematocrit, not both");
  if (config_given(s, "platelet", "count") && config_given(s, "platelet", "fraction"))
    config_fail(s, "platelet", "fraction", "give platelet.count or platelet.fraction, not both");
  if (config_given(s, "rbc", "center")) {
    if (config_given(s, "rbc", "count") || config_given(s, "rbc", "hematocrit"))
      config_fail(s, "rbc", "center", "one RBC at rbc.center, or rbc.count / rbc.hematocrit "
                  "seeded ones, not both");
    else if (c->rbc_orientation == ORIENT_RANDOM)
      config_fail(s, "rbc", "center", "the RBC at rbc.center needs its symmetry axis: set "
                  "rbc.orientation = x, y or z");
  }
  /* the optical tweezers' pull (docs/membrane.md, "Stretching an RBC"): on the one membrane
   * RBC at rbc.center, along an axis in its disc's plane, over patches smaller than it */
  if (c->rbc_stretch > 0) {
    if (isnan(c->rbc_center[0]) || c->material[BODY_FAMILY_RBC].model != MATERIAL_MODEL_MEMBRANE)
      config_fail(s, "rbc", "stretch", "pulls the one RBC at rbc.center, a membrane: set "
                  "rbc.center and rbc.model = membrane");
    else if (c->rbc_stretch_axis + ORIENT_X == c->rbc_orientation)
      config_fail(s, "rbc", "stretch_axis", "the pull is along the disc's plane: an axis other "
                  "than rbc.orientation");
    else if (c->rbc_stretch_contact >= c->rbc_diameter)
      config_fail(s, "rbc", "stretch_contact", "the contact patches (%g across) must be "
                  "smaller than the RBC (rbc.diameter = %g)", c->rbc_stretch_contact,
                  c->rbc_diameter);
  }
  static const char *const sphere_keys[] = {"center", "radius"};
  if (section_used(s, "sphere")) require(s, "sphere", sphere_keys, 2, "[sphere] is in use");
  static const char *const ellipsoid_keys[] = {"center", "semi_axes"};
  if (section_used(s, "ellipsoid"))
    require(s, "ellipsoid", ellipsoid_keys, 2, "[ellipsoid] is in use");
  if (c->vessel_shape == VESSEL_TUBE) {
    static const char *const vessel_keys[] = {"diameter"};
    require(s, "vessel", vessel_keys, 1, "vessel.shape = tube");
    if (c->boundary[1] != BOUNDARY_WALL || c->boundary[2] != BOUNDARY_WALL)
      config_fail(s, "vessel", "shape", "a tube is anchored by the box walls: set boundary.y = wall and boundary.z = wall");
    const double room = fmin(c->length[1], c->length[2]);
    if (config_given(s, "vessel", "diameter") && c->vessel_diameter >= room)
      config_fail(s, "vessel", "diameter", "%g leaves no wall inside the %g x %g cross-section (must be < %g)",
           c->vessel_diameter, c->length[1], c->length[2], room);
  } else if (config_given(s, "vessel", "diameter") || parameters_given(s, "vessel")) {
    config_fail(s, "vessel", "shape", "vessel.diameter or the wall's material given, but "
                "vessel.shape is none (set vessel.shape = tube)");
  }
  check_materials(s);
  if (config_given(s, "voxels", "file") || parameters_given(s, "voxels")) {
    static const char *const voxel_keys[] = {"file"};
    require(s, "voxels", voxel_keys, 1, "[voxels] is in use");
    check_voxel_material(s);
  }
  /* a body smaller than a cell draws nothing (its cells' volume fractions round away) yet
   * would be tracked: refused, naming the size and the cell */
  double h = INFINITY;
  for (int d = 0; d < 3; d++) h = fmin(h, c->length[d] / c->cells[d]);
  const double platelet = 2 * fmax(c->platelet_semi_axes[0], fmax(c->platelet_semi_axes[1],
                                                                   c->platelet_semi_axes[2]));
  const double ellipsoid = 2 * fmax(c->ellipsoid_semi_axes[0], fmax(c->ellipsoid_semi_axes[1],
                                                                    c->ellipsoid_semi_axes[2]));
  const struct { int used; const char *section, *key; double size; } body[] = {
    {c->rbc_count > 0 || c->rbc_hematocrit > 0 || !isnan(c->rbc_center[0]), "rbc", "diameter",
     c->rbc_diameter},
    {c->platelet_count > 0 || c->platelet_fraction > 0, "platelet", "semi_axes", platelet},
    {c->sphere_radius > 0, "sphere", "radius", 2 * c->sphere_radius},
    {config_given(s, "ellipsoid", "semi_axes"), "ellipsoid", "semi_axes", ellipsoid}};
  for (size_t k = 0; k < sizeof body / sizeof body[0]; k++)
    if (body[k].used && isfinite(h) && body[k].size < h)
      config_fail(s, body[k].section, body[k].key, "the %s is %g across, smaller than a cell "
                  "(h = %g): it would draw nothing; refine grid.cells or enlarge it (16 cells "
                  "across or more resolve a body)", body[k].section, body[k].size, h);
  efsi_materials materials;
  if (materials_of_case(c, &materials) > EFSI_MAX_MATERIALS)
    config_fail(s, "voxels", "modulus", "the case uses more than %d materials", EFSI_MAX_MATERIALS);
  else if (materials_own_fields(&materials) > EFSI_MAX_OWN_FIELDS)
    config_fail(s, "rbc", "model", "the materials' models hold %d fields besides phi and B, "
                "more than %d (base/limits.h)", materials_own_fields(&materials),
                EFSI_MAX_OWN_FIELDS);
}

/* The names of the case's fields as the output files name them (state_snapshot of a state
 * of the case's materials). */
static void field_names(const efsi_config *c, efsi_snapshot *names)
{
  efsi_case cs;
  case_resolve(c, &cs);
  efsi_state shell;
  state_shell(&shell, NULL, &cs);
  state_snapshot(&shell, 1, names);
}

/* A field list: "all", or names of the case's fields, each once. */
static void check_field_list(parse_state *s, const char *section, const char *key,
                             const char *list)
{
  efsi_snapshot names;
  field_names(config_of(s), &names);
  const int n = names.nfields;
  char known[512] = "";
  for (int f = 0; f < n; f++) {
    const size_t used = strlen(known);
    if (used + strlen(names.field[f].name) + 2 < sizeof known)
      snprintf(known + used, sizeof known - used, "%s%.40s", f ? " " : "", names.field[f].name);
  }
  char copy[CONFIG_TEXT_LEN], *word[CONFIG_TEXT_LEN / 2];
  int words = 0;
  snprintf(copy, sizeof copy, "%s", list);
  for (char *t = strtok(copy, " \t"); t; t = strtok(NULL, " \t")) word[words++] = t;
  for (int w = 0; w < words; w++) {
    if (strcmp(word[w], "all") == 0) {
      if (words > 1)
        config_fail(s, section, key, "all stands alone (it names every field), got \"%s\"", list);
      return;
    }
    int found = 0;
    for (int f = 0; f < n && !found; f++) found = strcmp(word[w], names.field[f].name) == 0;
    if (!found) {
      config_fail(s, section, key, "'%s' is not a field of this case (its fields: %s)", word[w],
                  known);
      return;
    }
    for (int v = 0; v < w; v++)
      if (strcmp(word[v], word[w]) == 0) {
        config_fail(s, section, key, "'%s' is named twice", word[w]);
        return;
      }
  }
}

/* The output keys: field lists, what this NetCDF library can do, the box and the planes
 * inside the grid. */
static void check_outputs(parse_state *s)
{
  const efsi_config *c = config_of(s);
  check_field_list(s, "output", "fields", c->fields_list);
  check_field_list(s, "box", "fields", c->box.fields);
  check_field_list(s, "slices", "fields", c->slices.fields);
  check_field_list(s, "average", "fields", c->average_fields);
  char why[256];
  const struct { const char *section; int deflate, quantize; } compressed[] = {
    {"output", c->fields_deflate, c->fields_quantize}, {"box", c->box.deflate, c->box.quantize},
    {"slices", c->slices.deflate, c->slices.quantize}, {"average", c->average_deflate, 0}};
  for (size_t o = 0; o < sizeof compressed / sizeof compressed[0]; o++) {
    if (compressed[o].deflate > 0 && !ncfile_can_deflate(why, sizeof why))
      config_fail(s, compressed[o].section, "deflate", "%s", why);
    if (compressed[o].quantize > 0 && !ncfile_can_quantize(why, sizeof why))
      config_fail(s, compressed[o].section, "quantize", "%s", why);
  }
  static const char axis[] = "xyz";
  for (int d = 0; d < 3; d++) {
    const double h = c->length[d] / c->cells[d];
    const double hi = isnan(c->box_hi[d]) ? c->length[d] : c->box_hi[d];
    if (c->box_lo[d] >= c->length[d])
      config_fail(s, "box", "lo", "%c = %g is not inside the box (0 to %g)", axis[d],
                  c->box_lo[d], c->length[d]);
    else if (hi > c->length[d])
      config_fail(s, "box", "hi", "%c = %g is beyond the box (0 to %g)", axis[d], hi,
                  c->length[d]);
    else if (!(floor(hi / h - 0.5) >= ceil(c->box_lo[d] / h - 0.5)))
      config_fail(s, "box", config_given(s, "box", "hi") ? "hi" : "lo", "%c from %g to %g holds no cell centre (h = %g): the box needs "
                  "lo <= (i + 1/2) h <= hi for some cell i", axis[d], c->box_lo[d], hi, h);
    const char key[2] = {axis[d], '\0'};
    for (int k = 0; k < c->slice_at[d].n; k++)
      if (c->slice_at[d].value[k] > c->length[d])
        config_fail(s, "slices", key, "%g is beyond the box (0 to %g)", c->slice_at[d].value[k],
                    c->length[d]);
  }
  if (c->slices.every >= 0 && c->slice_at[0].n + c->slice_at[1].n + c->slice_at[2].n == 0)
    config_fail(s, "slices", "every", "no plane is given (slices.x, slices.y or slices.z: "
                "positions of planes x, y or z = const)");
}

void config_check(parse_state *s)
{
  const efsi_config *c = config_of(s);
  static const char *const required[] = {"cells", "length"};
  for (int m = 0; m < 2; m++)
    if (!config_given(s, "grid", required[m]))
      config_fail(s, "grid", required[m], "required key is missing (%s)",
                  config_keys[config_key_find("grid", required[m])].expected);
  if (c->steps < 0 && c->end_time < 0)
    config_fail(s, "time", "steps",
                "required key is missing: give time.steps or time.end_time (or both)");
  const int bulk_given = config_given(s, "drive", "bulk_velocity");
  if (c->drive_mode == DRIVE_FLOWRATE && !bulk_given)
    config_fail(s, "drive", "bulk_velocity",
                "required key is missing (drive.mode = flowrate holds this bulk velocity in x)");
  if (c->drive_mode == DRIVE_PRESSURE && bulk_given)
    config_fail(s, "drive", "bulk_velocity", "given, but drive.mode is pressure (it is used "
                "only with drive.mode = flowrate)");
  static const char *const axis = "xyz", *const side[2] = {"lo", "hi"};
  for (int d = 1; d < 3; d++) {
    for (int h = 0; h < 2; h++) {
      char name[16];
      snprintf(name, sizeof name, "%c_%s_u", axis[d], side[h]);
      if (c->boundary[d] == BOUNDARY_PERIODIC && c->wall_u[d][h] != 0)
        config_fail(s, "boundary", name,
                    "wall speed %g given, but boundary.%c is periodic (no wall to move)",
                    c->wall_u[d][h], axis[d]);
    }
  }
  if (c->init_flow == INIT_COUETTE && c->boundary[1] != BOUNDARY_WALL)
    config_fail(s, "init", "flow", "couette is the flow between the y walls: set boundary.y = wall");
  /* WENO5 reads three cells on either side; the halo and wall layers are three deep */
  for (int d = 0; d < 3; d++)
    if (c->cells[d] < EFSI_HALO)
      config_fail(s, "grid", "cells",
                  "%c needs at least %d cells (the WENO5 stencil's halo width), got %d", axis[d],
           EFSI_HALO, c->cells[d]);
  if (c->device == DEVICE_CPU && c->halo_path != HALO_PATH_AUTO && c->halo_path != HALO_PATH_HOST_MPI)
    config_fail(s, "performance", "halo_path", "%s carries the halos of GPU ranks: set "
                "performance.device = gpu (CPU ranks exchange through MPI from host memory: "
                "auto or host_mpi)",
                config_keys[config_key_find("performance", "halo_path")].words[c->halo_path]);
  check_solid(s);
  check_outputs(s);
}

int config_validate_ranks(const efsi_config *c, int nranks, char *err, size_t errlen)
{
  const char *where = config_where(c, "grid.ranks");
  static const char axis[] = "xyz";
  long given = 1;
  int all_given = 1;
  for (int d = 0; d < 3; d++) {
    if (c->ranks[d] == 0) {
      all_given = 0;
      continue;
    }
    given *= c->ranks[d];
    if (c->cells[d] % c->ranks[d] != 0) {
      snprintf(err, errlen, "%s: grid.ranks: %d ranks in %c do not divide the %d cells in %c "
               "(each factor must divide its grid.cells entry)",
               where, c->ranks[d], axis[d], c->cells[d], axis[d]);
      return 1;
    }
  }
  if (all_given && given != nranks) {
    snprintf(err, errlen, "%s: grid.ranks: %d x %d x %d = %ld ranks, but the run has %d "
             "(the product must equal the number of MPI ranks)",
             where, c->ranks[0], c->ranks[1], c->ranks[2], given, nranks);
    return 1;
  }
  if (!all_given && nranks % given != 0) {
    snprintf(err, errlen, "%s: grid.ranks: the given factors multiply to %ld, which does not "
             "divide the %d ranks of the run", where, given, nranks);
    return 1;
  }
  return 0;
}
