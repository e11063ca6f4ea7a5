/* The materials of a case: which solid materials it uses, in the order the state stores
 * their volume fractions (rbc, platelet, sphere, ellipsoid, wall, then voxels or voxels1,
 * voxels2, ...), with their names, models and parameters (src/case/material_models.h).
 * Every module that needs the list (the state, the solver, the time step, the initial
 * state, the memory estimate) asks here. */
#ifndef EFSI_MATERIALS_H
#define EFSI_MATERIALS_H

#include "base/limits.h"
#include "src/case/config.h"
#include "src/case/material_models.h"

typedef struct {
  int count;                                      /* materials in use (0 = fluid only) */
  char name[EFSI_MAX_MATERIALS][EFSI_MATERIAL_NAME];
  int model[EFSI_MAX_MATERIALS];                  /* MATERIAL_MODEL_* */
  double modulus[EFSI_MAX_MATERIALS];             /* shear modulus G_m, in the form the
                                                     kernels take (0 for a model without) */
  double viscosity[EFSI_MAX_MATERIALS];           /* viscosity mu_m (the fluid's for a
                                                     model without, or when not given) */
  double viscosity_excess[EFSI_MAX_MATERIALS];    /* mu_m - mu, the fluid's mu */
  int viscosity_contrast;                         /* some mu_m differs from the fluid's */
  double param[EFSI_MAX_MATERIALS][MATERIAL_PARAM_COUNT];   /* its model's parameters */
} efsi_materials;

/* Fill m with the case's materials.  Returns how many the case asks for, which may exceed
 * EFSI_MAX_MATERIALS (then only the first EFSI_MAX_MATERIALS are listed and m->count is
 * that limit; the case-file checks refuse such a case). */
int materials_of_case(const efsi_config *c, efsi_materials *m);

/* How many materials the voxels file holds: 1 for volume fractions, else the labels (the
 * longest list of the voxels' parameters), 0 without a voxels file. */
int voxels_labels(const efsi_config *c);

/* Whether the case c uses body family f (BODY_*): bodies to seed, a body placed, a tube. */
int body_family_in_case(const efsi_config *c, int f);

/* Index of material `name` in m, -1 when absent. */
int materials_index(const efsi_materials *m, const char *name);

/* The fields the materials hold besides their volume fractions (material_models.h,
 * MATERIAL_FIELDS), summed over the materials. */
int materials_own_fields(const efsi_materials *m);

#endif
