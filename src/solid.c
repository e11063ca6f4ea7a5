/* Transport of the solid's volume fractions and left Cauchy-Green tensor (see solid.h). */
#include "src/solid.h"

#include "stencils/location.h"
#include "stencils/oldroyd.h"
#include "stencils/weno5.h"

/* f += dt * rate on the owned cells */
static void advance(const efsi_grid *g, double dt, const double *restrict rate, double *restrict f)
{
#pragma omp parallel for
  for (int k = 0; k < g->n[2]; k++)
    for (int j = 0; j < g->n[1]; j++) {
      const ptrdiff_t row = grid_index(g, 0, j, k);
#pragma omp simd
      for (int i = 0; i < g->n[0]; i++) f[row + i] += dt * rate[row + i];
    }
}

/* The exchange in flight moves on to its next direction (timed as halo exchange). */
static void advance_exchange(efsi_halo *in_flight, efsi_timers *timers)
{
  if (!in_flight) return;
  timer_start(timers, TIMER_HALO);
  halo_advance(in_flight);
  timer_stop(timers, TIMER_HALO);
}

void solid_transport(efsi_state *s, double dt, double *const phi_rate[],
                     double *const b_rate[6], efsi_halo *in_flight, efsi_timers *timers)
{
  if (s->nmat == 0) return;
  const efsi_grid *g = &s->grid;
  timer_start(timers, TIMER_ADVECTION);
  /* volume fractions in conservative form: each material's volume is kept to round-off */
  for (int m = 0; m < s->nmat; m++)
    advection_weno5_conservative(g, s->phi[m], s->u, s->v, s->w, phi_rate[m]);
  timer_stop(timers, TIMER_ADVECTION);
  advance_exchange(in_flight, timers);
  timer_start(timers, TIMER_ADVECTION);
  for (int c = 0; c < 6; c++)
    advection_weno5(g, LOC_CENTRE, s->b[c], s->u, s->v, s->w, b_rate[c]);
  timer_stop(timers, TIMER_ADVECTION);
  advance_exchange(in_flight, timers);
  timer_start(timers, TIMER_OLDROYD);
  for (int m = 0; m < s->nmat; m++) advance(g, dt, phi_rate[m], s->phi[m]);
  /* the Oldroyd rate, the update of B and the fluid treatment in one pass (the treatment
   * reads the new phi) */
  oldroyd_update(g, s->nmat, s->phi, dt, SOLID_INTERFACE_KAPPA, s->u, s->v, s->w, b_rate,
                 s->b);
  timer_stop(timers, TIMER_OLDROYD);
}
