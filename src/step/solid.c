/* Transport of the solid's volume fractions and left Cauchy-Green tensor (see solid.h). */
#include "src/step/solid.h"

void solid_fractions(efsi_solver *sv, efsi_state *s)
{
  if (s->nmat == 0) return;
  const efsi_grid *g = &s->grid;
  const efsi_config *c = sv->cs->config;
  const double dt = sv->dt, thinc_beta = sv->cs->thinc ? c->thinc_steepness : 0.0;
  /* the stress is spent once v* is formed: work[] lends the GPU's transport its face
   * fluxes */
  double *const lent[4] = {sv->work[0], sv->work[1], sv->work[2], sv->work[3]};
  /* volume fractions in conservative form: each material's volume is kept to round-off */
  for (int m = 0; m < s->nmat; m++)
    RUN(sv, phi_advance, g, s->phi[m], s->u, s->v, s->w, thinc_beta, dt, sv->phi_next[m], lent);
  for (int m = 0; m < s->nmat; m++) {
    double *const old = s->phi[m];
    s->phi[m] = sv->phi_next[m];
    sv->phi_next[m] = old;
  }
  solver_projection_arrays(sv);
}

void solid_tensor(efsi_solver *sv, efsi_state *s, const double *u, const double *v,
                  const double *w)
{
  if (s->nmat == 0) return;
  /* B's advection, the Oldroyd rate, the update and the fluid treatment in one pass (the
   * treatment reads the new phi) */
  RUN(sv, b_advance, &s->grid, s->nmat, s->phi, sv->dt, SOLID_INTERFACE_KAPPA, u, v, w, s->b,
      sv->work);
  for (int t = 0; t < 6; t++) {
    double *const old = s->b[t];
    s->b[t] = sv->work[t];
    sv->work[t] = old;
  }
  solver_projection_arrays(sv);
}
