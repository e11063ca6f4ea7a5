/* Transport of the solid's volume fractions and left Cauchy-Green tensor (see solid.h). */
#include "src/step/solid.h"

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
}

void solid_tensor(efsi_solver *sv, efsi_state *s)
{
  if (s->nmat == 0) return;
  /* B's advection, the Oldroyd rate, the update and the fluid treatment in one pass (the
   * treatment reads the new phi) */
  double *const *v_n = FIELDS(sv, v_n);
  RUN(sv, b_advance, &s->grid, s->nmat, s->phi, sv->dt, SOLID_INTERFACE_KAPPA, v_n[0], v_n[1],
      v_n[2], s->b, FIELDS(sv, b_next));
  double **b[6];
  for (int t = 0; t < 6; t++) b[t] = &s->b[t];
  FIELDS_SWAP(sv, b_next, b);
}
