/* The materials of a case (see materials.h). */
#include "src/case/materials.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Append one material of a case whose fluid has viscosity mu; counts it even when the list
 * is full. */
static void add(efsi_materials *m, int *wanted, const char *name, const efsi_material_keys *k,
                double mu)
{
  if (*wanted < EFSI_MAX_MATERIALS) {
    const int n = *wanted;
    snprintf(m->name[n], EFSI_MATERIAL_NAME, "%s", name);
    m->model[n] = k->model;
    memcpy(m->param[n], k->param, sizeof k->param);
    m->modulus[n] = material_has(k->model, MATERIAL_PARAM_MODULUS)
                      ? k->param[MATERIAL_PARAM_MODULUS] : 0.0;
    const double given = k->param[MATERIAL_PARAM_VISCOSITY];
    m->viscosity[n] = material_has(k->model, MATERIAL_PARAM_VISCOSITY) &&
                      given != MATERIAL_FLUID_VISCOSITY ? given : mu;
    m->viscosity_excess[n] = m->viscosity[n] - mu;
    m->viscosity_contrast |= m->viscosity[n] != mu;
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
    if (body_family_in_case(c, f))
      add(m, &wanted, body_families[f].material, &c->material[f], c->viscosity);
  /* the voxels: a material a label, each parameter from its list (one value for all, or one
   * a label) or its default */
  const efsi_voxel_keys *v = &c->voxels_material;
  for (int l = 0, labels = voxels_labels(c); l < labels; l++) {
    efsi_material_keys voxel = {.model = v->model};
    for (int k = 0; k < MATERIAL_PARAM_COUNT; k++)
      voxel.param[k] = v->given[k] == 0 ? material_parameters[k].fallback
                                        : v->param[k][v->given[k] == 1 ? 0 : l];
    char name[EFSI_MATERIAL_NAME];
    if (c->voxels_variable == VOXELS_PHI) snprintf(name, sizeof name, "voxels");
    else snprintf(name, sizeof name, "voxels%d", l + 1);
    add(m, &wanted, name, &voxel, c->viscosity);
  }
  m->count = wanted < EFSI_MAX_MATERIALS ? wanted : EFSI_MAX_MATERIALS;
  return wanted;
}

int voxels_labels(const efsi_config *c)
{
  if (!c->voxels_file[0]) return 0;
  if (c->voxels_variable == VOXELS_PHI) return 1;
  int labels = 1;
  for (int k = 0; k < MATERIAL_PARAM_COUNT; k++)
    if (c->voxels_material.given[k] > labels) labels = c->voxels_material.given[k];
  return labels;
}

int materials_index(const efsi_materials *m, const char *name)
{
  for (int k = 0; k < m->count; k++)
    if (strcmp(m->name[k], name) == 0) return k;
  return -1;
}

int materials_own_fields(const efsi_materials *m) { return models_own_fields(m->model, m->count); }
