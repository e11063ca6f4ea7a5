/* The material registry (see materials.h). */
#include "src/case/materials.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Append one material; counts it even when the list is full. */
static void add(efsi_materials *m, int *wanted, const char *name, double modulus)
{
  if (*wanted < EFSI_MAX_MATERIALS) {
    snprintf(m->name[*wanted], EFSI_MATERIAL_NAME, "%s", name);
    m->modulus[*wanted] = modulus;
  }
  (*wanted)++;
}

int materials_of_case(const efsi_config *c, efsi_materials *m)
{
  memset(m, 0, sizeof *m);
  int wanted = 0;
  if (c->rbc_count > 0 || c->rbc_hematocrit > 0 || !isnan(c->rbc_center[0]))
    add(m, &wanted, "rbc", c->rbc_modulus);
  if (c->platelet_count > 0 || c->platelet_fraction > 0)
    add(m, &wanted, "platelet", c->platelet_modulus);
  if (c->sphere_radius > 0) add(m, &wanted, "sphere", c->sphere_modulus);
  if (c->ellipsoid_semi_axes[0] > 0) add(m, &wanted, "ellipsoid", c->ellipsoid_modulus);
  if (c->vessel_shape == VESSEL_TUBE) add(m, &wanted, "wall", c->vessel_modulus);
  if (c->voxels_file[0]) {
    if (c->voxels_variable == VOXELS_PHI) {
      add(m, &wanted, "voxels", c->voxels_modulus[0]);
    } else {
      for (int k = 0; k < c->voxels_moduli; k++) {
        char name[EFSI_MATERIAL_NAME];
        snprintf(name, sizeof name, "voxels%d", k + 1);
        add(m, &wanted, name, c->voxels_modulus[k]);
      }
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
