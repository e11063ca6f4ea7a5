/* Transport of the solid's volume fractions and left Cauchy-Green tensor (see solid.h). */
#include "src/solid.h"

#include "stencils/location.h"
#include "stencils/oldroyd.h"

/* The exchange in flight moves on to its next direction (timed as halo exchange). */
static void advance_exchange(efsi_halo *in_flight, efsi_timers *timers)
{
  if (!in_flight) return;
  timer_start(timers, TIMER_HALO);
  halo_advance(in_flight);
  timer_stop(timers, TIMER_HALO);
}

void solid_transport(const efsi_kernels *k, efsi_state *s, double dt, double thinc_beta,
                     double *const phi_rate[], double *const b_rate[6], efsi_halo *in_flight,
                     efsi_timers *timers)
{
  if (s->nmat == 0) return;
  const efsi_grid *g = &s->grid;
  timer_start(timers, TIMER_ADVECTION);
  /* volume fractions in conservative form: each material's volume is kept to round-off */
  for (int m = 0; m < s->nmat; m++)
    k->advection_weno5_conservative(g, s->phi[m], s->u, s->v, s->w, thinc_beta, dt,
                                    phi_rate[m]);
  timer_stop(timers, TIMER_ADVECTION);
  advance_exchange(in_flight, timers);
  timer_start(timers, TIMER_ADVECTION);
  for (int c = 0; c < 6; c++)
    k->advection_weno5(g, LOC_CENTRE, s->b[c], s->u, s->v, s->w, b_rate[c]);
  timer_stop(timers, TIMER_ADVECTION);
  advance_exchange(in_flight, timers);
  timer_start(timers, TIMER_OLDROYD);
  for (int m = 0; m < s->nmat; m++) k->field_axpy(g, dt, phi_rate[m], s->phi[m]);
  /* the Oldroyd rate, the update of B and the fluid treatment in one pass (the treatment
   * reads the new phi) */
  k->oldroyd_update(g, s->nmat, s->phi, dt, SOLID_INTERFACE_KAPPA, s->u, s->v, s->w, b_rate,
                    s->b);
  timer_stop(timers, TIMER_OLDROYD);
}
