/* The key schema of the case file and its defaults (see config_keys.h). */
#include "src/case/config_keys.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "src/case/config.h"

static const char *const boundary_words[] = {"periodic", "wall", NULL};
static const char *const drive_words[] = {"pressure", "flowrate", NULL};
static const char *const pressure_words[] = {"acm", "smac", NULL};
static const char *const flow_words[] = {"rest", "taylor-green", "couette", NULL};
static const char *const orientation_words[] = {"random", "x", "y", "z", NULL};
static const char *const axis_words[] = {"x", "y", "z", NULL};
static const char *const vessel_words[] = {"none", "tube", NULL};
static const char *const voxel_words[] = {"phi", "label", NULL};
static const char *const device_words[] = {"cpu", "gpu", NULL};
static const char *const halo_path_words[] = {"auto", "peer", "nccl", "cuda_aware_mpi", "host_mpi", NULL};
static const char *const phi_words[] = {"weno5", "thinc", NULL};
static const char *const bodies_csv_words[] = {"auto", "yes", "no", NULL};
/* the models' names as a message lists them */
#define MODEL_NAME(id, name, ...) " " name
#define MATERIAL_MODEL_LIST "a material model:" MATERIAL_MODELS(MODEL_NAME)


#define FIELD(f) offsetof(efsi_config, f)
#define ANY -HUGE_VAL, HUGE_VAL, 0

const key_spec config_keys[] = {
  {"case", "name", KIND_NAME, FIELD(name), 1, ANY, NULL,
   "a label of letters, digits and . _ - + (at most 127 characters)"},
  {"grid", "cells", KIND_INTS, FIELD(cells), 3, 1, INT_MAX, 0, NULL,
   "three positive integers"},
  {"grid", "length", KIND_DOUBLES, FIELD(length), 3, 0, HUGE_VAL, 1, NULL,
   "three positive numbers"},
  {"grid", "ranks", KIND_INTS, FIELD(ranks), 3, 0, INT_MAX, 0, NULL,
   "three integers >= 0 (0 = chosen by efsi)"},
  {"boundary", "y", KIND_WORD, FIELD(boundary[1]), 1, ANY, boundary_words,
   "wall or periodic"},
  {"boundary", "z", KIND_WORD, FIELD(boundary[2]), 1, ANY, boundary_words,
   "wall or periodic"},
  {"boundary", "y_lo_u", KIND_DOUBLES, FIELD(wall_u[1][0]), 1, ANY, NULL, "a number"},
  {"boundary", "y_hi_u", KIND_DOUBLES, FIELD(wall_u[1][1]), 1, ANY, NULL, "a number"},
  {"boundary", "z_lo_u", KIND_DOUBLES, FIELD(wall_u[2][0]), 1, ANY, NULL, "a number"},
  {"boundary", "z_hi_u", KIND_DOUBLES, FIELD(wall_u[2][1]), 1, ANY, NULL, "a number"},
  {"boundary", "wall_omega", KIND_DOUBLES, FIELD(wall_omega), 1, ANY, NULL, "a number"},
  {"fluid", "density", KIND_DOUBLES, FIELD(density), 1, 0, HUGE_VAL, 1, NULL,
   "a number > 0"},
  {"fluid", "viscosity", KIND_DOUBLES, FIELD(viscosity), 1, 0, HUGE_VAL, 1, NULL,
   "a number > 0"},
  {"drive", "mode", KIND_WORD, FIELD(drive_mode), 1, ANY, drive_words,
   "pressure or flowrate"},
  {"drive", "pressure_gradient", KIND_DOUBLES, FIELD(pressure_gradient), 1, ANY, NULL,
   "a number"},
  {"drive", "bulk_velocity", KIND_DOUBLES, FIELD(bulk_velocity), 1, ANY, NULL, "a number"},
  {"pressure", "method", KIND_WORD, FIELD(pressure_method), 1, ANY, pressure_words,
   "acm or smac"},
  {"time", "dt", KIND_DT, FIELD(dt), 1, 0, HUGE_VAL, 1, NULL, "auto or a number > 0"},
  {"time", "safety", KIND_DOUBLES, FIELD(safety), 1, 0, 1, 1, NULL, "a number in (0, 1]"},
  {"time", "unsafe", KIND_BOOL, FIELD(unsafe), 1, ANY, NULL,
   "true or false (or yes/no, 1/0)"},
  {"time", "steps", KIND_LONG, FIELD(steps), 1, 0, HUGE_VAL, 0, NULL, "an integer >= 0"},
  {"time", "end_time", KIND_DOUBLES, FIELD(end_time), 1, 0, HUGE_VAL, 1, NULL,
   "a number > 0"},
  {"time", "wall_limit", KIND_DURATION, FIELD(wall_limit), 1, 0, HUGE_VAL, 1, NULL,
   "seconds > 0 or HH:MM:SS"},
  {"init", "seed", KIND_SEED, FIELD(seed), 1, ANY, NULL, "an integer >= 0"},
  {"init", "interface_width", KIND_DOUBLES, FIELD(interface_width), 1, 0, HUGE_VAL, 0, NULL,
   "a number >= 0 (cells)"},
  {"solid", "phi_transport", KIND_WORD, FIELD(phi_transport), 1, ANY, phi_words,
   "weno5 or thinc"},
  {"solid", "thinc_steepness", KIND_DOUBLES, FIELD(thinc_steepness), 1, 0, 50, 1, NULL,
   "a number in (0, 50]"},
  {"init", "flow", KIND_WORD, FIELD(init_flow), 1, ANY, flow_words, "rest, taylor-green or couette"},
  {"init", "flow_amplitude", KIND_DOUBLES, FIELD(flow_amplitude), 1, ANY, NULL, "a number"},
  {"output", "fields_every", KIND_LONG, FIELD(fields_every), 1, -1, HUGE_VAL, 0, NULL,
   "an integer >= -1 (0 = at the end only, -1 = never)"},
  {"output", "diagnostics_every", KIND_LONG, FIELD(diagnostics_every), 1, 0, HUGE_VAL, 0,
   NULL, "an integer >= 0 (0 = at the end only)"},
  {"output", "restart_every", KIND_LONG, FIELD(restart_every), 1, -1, HUGE_VAL, 0, NULL,
   "an integer >= -1 (0 = at the end only, -1 = never)"},
  {"output", "progress_seconds", KIND_DOUBLES, FIELD(progress_seconds), 1, 0, HUGE_VAL, 0,
   NULL, "a number of seconds >= 0 (0 = no progress lines)"},
  /* the selective outputs (docs/output.md, "Selective outputs") */
#define FIELD_LIST "all, or names of the case's fields (u v w p phi_<material> bxx byy bzz bxy bxz byz) separated by spaces"
#define DEFLATE "an integer in 0..9 (0 = no compression)"
#define QUANTIZE "an integer in 0..15 (significant digits kept; 0 = exact)"
#define EVERY "an integer >= -1 (0 = at the end only, -1 = never)"
  {"output", "fields", KIND_TEXT, FIELD(fields_list), 1, ANY, NULL, FIELD_LIST},
  {"output", "deflate", KIND_INTS, FIELD(fields_deflate), 1, 0, CONFIG_DEFLATE_MAX, 0, NULL,
   DEFLATE},
  {"output", "quantize", KIND_INTS, FIELD(fields_quantize), 1, 0, CONFIG_QUANTIZE_MAX, 0, NULL,
   QUANTIZE},
  {"output", "bodies_every", KIND_LONG, FIELD(bodies_every), 1, -1, HUGE_VAL, 0, NULL, EVERY},
  {"output", "bodies_csv", KIND_WORD, FIELD(bodies_csv), 1, ANY, bodies_csv_words,
   "auto, yes or no"},
  {"box", "every", KIND_LONG, FIELD(box.every), 1, -1, HUGE_VAL, 0, NULL, EVERY},
  {"box", "fields", KIND_TEXT, FIELD(box.fields), 1, ANY, NULL, FIELD_LIST},
  {"box", "lo", KIND_DOUBLES, FIELD(box_lo), 3, 0, HUGE_VAL, 0, NULL, "three numbers >= 0"},
  {"box", "hi", KIND_DOUBLES, FIELD(box_hi), 3, 0, HUGE_VAL, 0, NULL, "three numbers >= 0"},
  {"box", "stride", KIND_INTS, FIELD(box_stride), 3, 1, INT_MAX, 0, NULL,
   "three positive integers"},
  {"box", "deflate", KIND_INTS, FIELD(box.deflate), 1, 0, CONFIG_DEFLATE_MAX, 0, NULL, DEFLATE},
  {"box", "quantize", KIND_INTS, FIELD(box.quantize), 1, 0, CONFIG_QUANTIZE_MAX, 0, NULL,
   QUANTIZE},
  {"slices", "every", KIND_LONG, FIELD(slices.every), 1, -1, HUGE_VAL, 0, NULL, EVERY},
  {"slices", "fields", KIND_TEXT, FIELD(slices.fields), 1, ANY, NULL, FIELD_LIST},
  {"slices", "x", KIND_NUMBERS, FIELD(slice_at[0]), CONFIG_MAX_PLANES, 0, HUGE_VAL, 0, NULL,
   "1 to 16 positions >= 0"},
  {"slices", "y", KIND_NUMBERS, FIELD(slice_at[1]), CONFIG_MAX_PLANES, 0, HUGE_VAL, 0, NULL,
   "1 to 16 positions >= 0"},
  {"slices", "z", KIND_NUMBERS, FIELD(slice_at[2]), CONFIG_MAX_PLANES, 0, HUGE_VAL, 0, NULL,
   "1 to 16 positions >= 0"},
  {"slices", "deflate", KIND_INTS, FIELD(slices.deflate), 1, 0, CONFIG_DEFLATE_MAX, 0, NULL,
   DEFLATE},
  {"slices", "quantize", KIND_INTS, FIELD(slices.quantize), 1, 0, CONFIG_QUANTIZE_MAX, 0, NULL,
   QUANTIZE},
  {"average", "sample_every", KIND_LONG, FIELD(average_every), 1, 0, HUGE_VAL, 0, NULL,
   "an integer >= 0 (0 = no averages)"},
  {"average", "start", KIND_DOUBLES, FIELD(average_start), 1, 0, HUGE_VAL, 0, NULL,
   "a time >= 0"},
  {"average", "fields", KIND_TEXT, FIELD(average_fields), 1, ANY, NULL, FIELD_LIST},
  {"average", "deflate", KIND_INTS, FIELD(average_deflate), 1, 0, CONFIG_DEFLATE_MAX, 0, NULL,
   DEFLATE},
#undef FIELD_LIST
#undef DEFLATE
#undef QUANTIZE
#undef EVERY
  {"performance", "peak_gflops", KIND_DOUBLES, FIELD(peak_gflops), 1, 0, HUGE_VAL, 0, NULL,
   "a number >= 0 (0 = not given)"},
  {"performance", "overlap", KIND_BOOL, FIELD(overlap), 1, ANY, NULL,
   "true or false (or yes/no, 1/0)"},
  {"performance", "device", KIND_WORD, FIELD(device), 1, ANY, device_words, "cpu or gpu"},
  {"performance", "halo_path", KIND_WORD, FIELD(halo_path), 1, ANY, halo_path_words,
   "auto, peer, nccl, cuda_aware_mpi or host_mpi"},
  {"performance", "sync_timers", KIND_BOOL, FIELD(sync_timers), 1, ANY, NULL,
   "true or false (or yes/no, 1/0)"},
  {"rbc", "count", KIND_LONG, FIELD(rbc_count), 1, 0, HUGE_VAL, 0, NULL, "an integer >= 0"},
  {"rbc", "hematocrit", KIND_DOUBLES, FIELD(rbc_hematocrit), 1, 0, 1, 0, NULL,
   "a volume fraction in [0, 1]"},
  {"rbc", "diameter", KIND_DOUBLES, FIELD(rbc_diameter), 1, 0, HUGE_VAL, 1, NULL,
   "a number > 0"},
  {"rbc", "orientation", KIND_WORD, FIELD(rbc_orientation), 1, ANY, orientation_words,
   "random, x, y or z"},
  {"rbc", "center", KIND_DOUBLES, FIELD(rbc_center), 3, ANY, NULL, "three numbers"},
  {"rbc", "stretch", KIND_DOUBLES, FIELD(rbc_stretch), 1, 0, HUGE_VAL, 0, NULL,
   "a number >= 0 (the force pulling each end, pg um us^-2 = 1000 pN)"},
  {"rbc", "stretch_axis", KIND_WORD, FIELD(rbc_stretch_axis), 1, ANY, axis_words,
   "x, y or z"},
  {"rbc", "stretch_contact", KIND_DOUBLES, FIELD(rbc_stretch_contact), 1, 0, HUGE_VAL, 1, NULL,
   "a number > 0 (the contact patch's diameter)"},
  {"platelet", "count", KIND_LONG, FIELD(platelet_count), 1, 0, HUGE_VAL, 0, NULL,
   "an integer >= 0"},
  {"platelet", "fraction", KIND_DOUBLES, FIELD(platelet_fraction), 1, 0, 1, 0, NULL,
   "a volume fraction in [0, 1]"},
  {"platelet", "semi_axes", KIND_DOUBLES, FIELD(platelet_semi_axes), 3, 0, HUGE_VAL, 1, NULL,
   "three numbers > 0"},
  {"platelet", "orientation", KIND_WORD, FIELD(platelet_orientation), 1, ANY,
   orientation_words, "random, x, y or z"},
  {"platelet", "radial_band", KIND_DOUBLES, FIELD(platelet_radial_band), 2, 0, 1, 0, NULL,
   "two fractions of the lumen radius in [0, 1], r_lo < r_hi"},
  {"sphere", "center", KIND_DOUBLES, FIELD(sphere_center), 3, ANY, NULL, "three numbers"},
  {"sphere", "radius", KIND_DOUBLES, FIELD(sphere_radius), 1, 0, HUGE_VAL, 1, NULL,
   "a number > 0"},
  {"ellipsoid", "center", KIND_DOUBLES, FIELD(ellipsoid_center), 3, ANY, NULL,
   "three numbers"},
  {"ellipsoid", "semi_axes", KIND_DOUBLES, FIELD(ellipsoid_semi_axes), 3, 0, HUGE_VAL, 1,
   NULL, "three numbers > 0"},
  {"vessel", "shape", KIND_WORD, FIELD(vessel_shape), 1, ANY, vessel_words, "none or tube"},
  {"vessel", "diameter", KIND_DOUBLES, FIELD(vessel_diameter), 1, 0, HUGE_VAL, 1, NULL,
   "a number > 0"},
  {"voxels", "file", KIND_PATH, FIELD(voxels_file), 1, ANY, NULL, "a NetCDF file name"},
  {"voxels", "variable", KIND_WORD, FIELD(voxels_variable), 1, ANY, voxel_words,
   "phi or label"},
  /* the voxels' material: voxels.model and each parameter a list (one value for every
   * label, or one a label) */
  {"voxels", "model", KIND_WORD, FIELD(voxels_material.model), 1, ANY, material_model_words,
   MATERIAL_MODEL_LIST},
#define VOXEL_KEY(unused, models, id, key, fallback, words, meaning) \
  {"voxels", key, KIND_LIST, FIELD(voxels_material.param[MATERIAL_PARAM_##id]), \
   EFSI_MAX_MATERIALS - 1, 0, HUGE_VAL, 1, NULL, \
   "1 to 7 numbers > 0 (" meaning "), one for every label or one a label"},
  MATERIAL_PARAMETERS(VOXEL_KEY, 0)
#undef VOXEL_KEY
  /* each body family's material: <family>.model and every model's parameters
   * (src/case/material_models.h; config_check refuses a parameter of another model) */
#define PARAMETER_KEY(family, section, models, id, key, fallback, words, meaning) \
  {section, key, KIND_DOUBLES, FIELD(material[BODY_FAMILY_##family].param[MATERIAL_PARAM_##id]), 1, 0, \
   HUGE_VAL, 1, words, PARAMETER_EXPECTED_##words(meaning)},
/* what a parameter's key expects, by its words (material_models.h): a number, or the words
 * its meaning names */
#define PARAMETER_EXPECTED_NULL(meaning) "a number > 0 (" meaning ")"
#define PARAMETER_EXPECTED_MEMBRANE_LAW_WORDS(meaning) meaning
#define FAMILY_KEYS(family, section, material_name, default_model, parameter, value) \
  {section, "model", KIND_WORD, FIELD(material[BODY_FAMILY_##family].model), 1, ANY, \
   material_model_words, MATERIAL_MODEL_LIST}, \
  MATERIAL_PARAMETERS(PARAMETER_KEY, family, section)
  BODY_FAMILIES(FAMILY_KEYS)
#undef FAMILY_KEYS
#undef PARAMETER_KEY
#undef PARAMETER_EXPECTED_NULL
#undef PARAMETER_EXPECTED_MEMBRANE_LAW_WORDS
};

const int config_key_count = sizeof config_keys / sizeof config_keys[0];
_Static_assert(sizeof config_keys / sizeof config_keys[0] <= CONFIG_MAX_KEYS,
               "efsi_config.where has a record for every key");

/* Keys efsi read once, with the line that says what took their place. */
static const struct { const char *section, *name, *instead; } retired_keys[] = {
  {"performance", "peer_halos", "replaced by performance.halo_path (auto, peer, nccl, "
   "cuda_aware_mpi, host_mpi; docs/case-file.md): peer_halos = true is halo_path = auto, "
   "false is host_mpi or cuda_aware_mpi"},
  {"performance", "cuda_aware_mpi", "replaced by performance.halo_path (auto, peer, nccl, "
   "cuda_aware_mpi, host_mpi; docs/case-file.md): cuda_aware_mpi = auto is halo_path = auto, "
   "yes is cuda_aware_mpi, no is host_mpi"},
};

const char *config_key_retired(const char *section, const char *name)
{
  for (size_t k = 0; k < sizeof retired_keys / sizeof retired_keys[0]; k++)
    if (strcmp(retired_keys[k].section, section) == 0 && strcmp(retired_keys[k].name, name) == 0)
      return retired_keys[k].instead;
  return NULL;
}

int config_key_find(const char *section, const char *name)
{
  for (int k = 0; k < config_key_count; k++)
    if (strcmp(config_keys[k].section, section) == 0 && strcmp(config_keys[k].name, name) == 0)
      return k;
  return -1;
}

void config_defaults(efsi_config *c)
{
  memset(c, 0, sizeof *c);
  snprintf(c->name, sizeof c->name, "case");
  c->boundary[0] = BOUNDARY_PERIODIC;
  c->boundary[1] = BOUNDARY_WALL;
  c->boundary[2] = BOUNDARY_PERIODIC;
  c->density = 1;
  c->viscosity = 1;
  c->drive_mode = DRIVE_PRESSURE;
  c->pressure_method = PRESSURE_ACM;
  c->dt_auto = 1;
  c->safety = 0.5;
  c->steps = -1;
  c->end_time = -1;
  c->seed = 1;
  c->init_flow = INIT_REST;
  c->phi_transport = PHI_THINC;
  c->thinc_steepness = 3.5;   /* docs/method.md, "The solid in the step" */
  c->flow_amplitude = 1;
  c->diagnostics_every = 10;
  c->progress_seconds = 10;
  c->overlap = 0;   /* measured no faster on one node: docs/scaling.md */
  c->halo_path = HALO_PATH_AUTO;   /* the fastest path that works, per face: docs/gpu.md */
  c->rbc_diameter = 8;
  c->rbc_stretch_contact = 2;
  for (int d = 0; d < 3; d++) c->rbc_center[d] = NAN;
  c->voxels_material.model = MATERIAL_MODEL_NEO_HOOKEAN;
  for (int f = 0; f < BODY_FAMILY_COUNT; f++) {
    efsi_material_keys *m = &c->material[f];
    m->model = body_families[f].model;
    for (int k = 0; k < MATERIAL_PARAM_COUNT; k++) m->param[k] = material_parameters[k].fallback;
    if (body_families[f].own_parameter >= 0)
      m->param[body_families[f].own_parameter] = body_families[f].own_default;
  }
  c->platelet_semi_axes[0] = 1;
  c->platelet_semi_axes[1] = 1;
  c->platelet_semi_axes[2] = 0.8;
  c->platelet_radial_band[1] = 1;   /* 0 1: the whole lumen, no band */
  /* the outputs: every field, uncompressed; no box, slices or averages */
  snprintf(c->fields_list, sizeof c->fields_list, "all");
  c->bodies_every = BODIES_EVERY_DIAGNOSTICS;
  c->bodies_csv = BODIES_CSV_AUTO;
  efsi_output_keys *selective[2] = {&c->box, &c->slices};
  for (int o = 0; o < 2; o++) {
    selective[o]->every = -1;
    snprintf(selective[o]->fields, sizeof selective[o]->fields, "all");
  }
  for (int d = 0; d < 3; d++) {
    c->box_hi[d] = NAN;
    c->box_stride[d] = 1;
  }
  snprintf(c->average_fields, sizeof c->average_fields, "all");
}

