/* The materials of a case (see materials.h). */
#include "src/case/materials.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Append one material; counts it even when the list is full. */
static void add(efsi_materials *m, int *wanted, const char *name, const efsi_material_keys *k)
{
  if (*wanted < EFSI_MAX_MATERIALS) {
    snprintf(m->name[*wanted], EFSI_MATERIAL_NAME, "%s", name);
    m->model[*wanted] = k->model;
    memcpy(m->param[*wanted], k->param, sizeof k->param);
    m->modulus[*wanted] = material_parameters[MATERIAL_PARAM_MODULUS].model == k->model
                            ? k->param[MATERIAL_PARAM_MODULUS] : 0.0;
  }
  (*wanted)++;
}

int body_family_in_case(const efsi_config *c, int f)
{
  switch (f) {
  case BODY_FAMILY_RBC: return c->rbc_count > 0 || c->rbc_hematocrit > 0 || !isnan(c->rbc_center[0]);
  case BODY_FAMILY_PLATELET: return c->platelet_count > 0 || c->platelet_fraction > 0;
  case BODY_FAMILY_SPHERE: return c->sphere_radius > 0;
  case BODY_FAMILY_ELLIPSOID: return c->ellipsoid_semi_axes[0] > 0;
  case BODY_FAMILY_WALL: return c->vessel_shape == VESSEL_TUBE;
  default: return 0;
  }
}

int materials_of_case(const efsi_config *c, efsi_materials *m)
{
  memset(m, 0, sizeof *m);
  int wanted = 0;
  for (int f = 0; f < BODY_FAMILY_COUNT; f++)
    if (body_family_in_case(c, f)) add(m, &wanted, body_families[f].material, &c->material[f]);
  if (c->voxels_file[0]) {
    /* the neo-Hookean model, a modulus per label */
    efsi_material_keys voxel = {.model = MATERIAL_MODEL_NEO_HOOKEAN};
    for (int k = 0; k < MATERIAL_PARAM_COUNT; k++) voxel.param[k] = NAN;
    const int labels = c->voxels_variable == VOXELS_PHI ? 1 : c->voxels_moduli;
    for (int k = 0; k < labels; k++) {
      char name[EFSI_MATERIAL_NAME];
      if (c->voxels_variable == VOXELS_PHI) snprintf(name, sizeof name, "voxels");
      else snprintf(name, sizeof name, "voxels%d", k + 1);
      voxel.param[MATERIAL_PARAM_MODULUS] = c->voxels_modulus[k];
      add(m, &wanted, name, &voxel);
    }
  }
  m->count = wanted < EFSI_MAX_MATERIALS ? wanted : EFSI_MAX_MATERIALS;
  return wanted;
}

int materials_index(const efsi_materials *m, const char *name)
{
  for (int k = 0; k < m->count; k++)
    if (strcmp(m->name[k], name) == 0) return k;
  return -1;
}

int materials_own_fields(const efsi_materials *m)
{
  int n = 0;
  for (int k = 0; k < m->count; k++) n += material_own_fields(m->model[k]);
  return n;
}
