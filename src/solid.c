/* Transport of the solid's volume fractions and left Cauchy-Green tensor (see solid.h). */
#include "src/solid.h"

#include "stencils/location.h"

void solid_transport(efsi_solver *sv, efsi_state *s)
{
  if (s->nmat == 0) return;
  const efsi_grid *g = &s->grid;
  const efsi_config *c = sv->cs->config;
  const double dt = sv->dt, thinc_beta = sv->cs->thinc ? c->thinc_steepness : 0.0;
  double *const *b_rate = sv->stress;   /* free once v* is formed */
  /* volume fractions in conservative form: each material's volume is kept to round-off */
  for (int m = 0; m < s->nmat; m++)
    RUN(sv, advection_weno5_conservative, g, s->phi[m], s->u, s->v, s->w, thinc_beta, dt,
        sv->phi_rate[m], &sv->scratch);
  for (int t = 0; t < 6; t++)
    RUN(sv, advection_weno5, g, LOC_CENTRE, s->b[t], s->u, s->v, s->w, b_rate[t]);
  for (int m = 0; m < s->nmat; m++) RUN(sv, field_axpy, g, dt, sv->phi_rate[m], s->phi[m]);
  /* the Oldroyd rate, the update of B and the fluid treatment in one pass (the treatment
   * reads the new phi) */
  RUN(sv, oldroyd_update, g, s->nmat, s->phi, dt, SOLID_INTERFACE_KAPPA, s->u, s->v, s->w,
      b_rate, s->b);
}
