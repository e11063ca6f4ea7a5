/* Transport of the solid's volume fractions, the membranes' levels and the left
 * Cauchy-Green tensor (see solid.h). */
#include "src/step/solid.h"

/* The volume fractions of the materials that hold B by their fraction (the elastic solids:
 * the neo-Hookean model), in their order, into phi; how many. */
static int holding_fractions(const efsi_state *s, double *phi[])
{
  int n = 0;
  for (int m = 0; m < s->nmat; m++)
    if (s->model[m] == MATERIAL_MODEL_NEO_HOOKEAN) phi[n++] = s->phi[m];
  return n;
}

int solid_levels(const efsi_state *s, double **level[])
{
  int n = 0;
  for (int m = 0; m < s->nmat; m++)
    if (s->model[m] == MATERIAL_MODEL_MEMBRANE) level[n++] = (double **)&s->own[state_own_first(s, m)];
  return n;
}

int solid_membranes_of(const efsi_solver *sv, const efsi_state *s, ptrdiff_t sh,
                       solid_membranes *mem)
{
  double **level_of[EFSI_MAX_MATERIALS];
  const int n = solid_levels(s, level_of);
  for (int m = 0, k = 0; m < s->nmat && k < n; m++)
    if (s->model[m] == MATERIAL_MODEL_MEMBRANE) {
      mem->level[k] = *level_of[k] + sh;
      for (int q = 0; q < MATERIAL_PARAM_COUNT; q++)
        mem->param[q][k] = sv->cs->materials.param[m][q];
      k++;
    }
  return n;
}

void solid_fractions(efsi_solver *sv, efsi_state *s)
{
  if (s->nmat == 0) return;
  const efsi_grid *g = &s->grid;
  const efsi_config *c = sv->cs->config;
  const double dt = sv->dt, thinc_beta = sv->cs->thinc ? c->thinc_steepness : 0.0;
  /* volume fractions in conservative form: each material's volume is kept to round-off */
  double *const *phi_next = FIELDS(sv, phi_next);
  for (int m = 0; m < s->nmat; m++)
    RUN(sv, phi_advance, g, s->phi[m], s->u, s->v, s->w, thinc_beta, dt, phi_next[m],
        FIELDS(sv, phi_flux));
  double **phi[EFSI_MAX_MATERIALS];
  for (int m = 0; m < s->nmat; m++) phi[m] = &s->phi[m];
  FIELDS_SWAP(sv, phi_next, phi);
  /* the membranes' levels, advected with the same velocity (docs/membrane.md) */
  double **level[EFSI_MAX_MATERIALS];
  const int nlevel = solid_levels(s, level);
  if (nlevel == 0) return;
  double *const *level_next = FIELDS(sv, level_next);
  for (int m = 0; m < nlevel; m++)
    RUN(sv, level_advance, g, *level[m], s->u, s->v, s->w, dt, level_next[m]);
  FIELDS_SWAP(sv, level_next, level);
}

void solid_tensor(efsi_solver *sv, efsi_state *s)
{
  if (s->nmat == 0) return;
  /* B's advection, the Oldroyd rate, the update and the fluid treatment in one pass (the
   * treatment reads the new phi of the elastic solids and the membranes' new levels) */
  double *const *v_n = FIELDS(sv, v_n);
  double *phi[EFSI_MAX_MATERIALS], **level_of[EFSI_MAX_MATERIALS], *level[EFSI_MAX_MATERIALS];
  const int nphi = holding_fractions(s, phi), nlevel = solid_levels(s, level_of);
  for (int m = 0; m < nlevel; m++) level[m] = *level_of[m];
  RUN(sv, b_advance, &s->grid, nphi, phi, nlevel, level, sv->dt, SOLID_INTERFACE_KAPPA, v_n[0],
      v_n[1], v_n[2], s->b, FIELDS(sv, b_next));
  double **b[6];
  for (int t = 0; t < 6; t++) b[t] = &s->b[t];
  FIELDS_SWAP(sv, b_next, b);
  /* in the membranes' bands, B's tilted normal fibres reset with the normals of psi^N */
  if (nlevel > 0) RUN(sv, membrane_reset, &s->grid, nlevel, FIELDS(sv, level_before), s->b);
}
