/* The material registry: which solid materials a case uses, in the order the state stores
 * their volume fractions (rbc, platelet, sphere, ellipsoid, wall, then voxels or voxels1,
 * voxels2, ...), with their names and shear moduli.  Every module that needs the list (the
 * state, the solver, the time step, the initial state, the memory estimate) asks here. */
#ifndef EFSI_MATERIALS_H
#define EFSI_MATERIALS_H

#include "base/limits.h"
#include "src/case/config.h"

typedef struct {
  int count;                                      /* materials in use (0 = fluid only) */
  char name[EFSI_MAX_MATERIALS][EFSI_MATERIAL_NAME];
  double modulus[EFSI_MAX_MATERIALS];             /* shear modulus G_m */
} efsi_materials;

/* Fill m with the case's materials.  Returns how many the case asks for, which may exceed
 * EFSI_MAX_MATERIALS (then only the first EFSI_MAX_MATERIALS are listed and m->count is
 * that limit; the case-file checks refuse such a case). */
int materials_of_case(const efsi_config *c, efsi_materials *m);

/* Index of material `name` in m, -1 when absent. */
int materials_index(const efsi_materials *m, const char *name);

#endif
