/* Kernel timers: MPI_Wtime around each kernel family (on the GPU, events on its stream);
 * names and operation counts. */
#include "src/timers.h"

#include "base/device.h"
#include "stencils/oldroyd.h"
#include "stencils/solid_stress.h"

#include <mpi.h>
#include <string.h>

static const char *const names[TIMER_COUNT] = {
  "advection", "oldroyd", "stress", "divergence", "projection", "halo_exchange", "allreduce",
  "reduce_wait", "io",
};

/* Per owned cell and step, counted from the kernels (docs/performance.md lists them):
 * WENO5 advection of one field at one point: 3 directions x (interpolation 5, six
 *   differences 6, upwind blend 17, weno5_derivative 82) + the sum 5 = 335;
 * advection: three velocity components and six B components at 335; each volume fraction
 *   in conservative form: 3 directions x (two faces x (WENO5 face value 99: blend 17 and
 *   weno5_derivative 82, times the face velocity 1) + their difference 1) + 5 = 608;
 * Oldroyd: the rate L.B + B.L^T with L formed in the loop (OLDROYD_FLOPS), the updates
 *   of phi and B 2 each, the fluid treatment of B (SOLID_TREATMENT_FLOPS);
 * stress: viscous 33 (centres 15, edges 3 x 6) + solid (SOLID_STRESS_FLOPS with nmat);
 * divergence: stress divergence 3 x 9, velocity update 3 x 3, pressure gradient 3 x 3 = 45;
 * projection: divergence 8, two Laplacians 2 x 14, the nine sums 15, dp 3, pressure 2,
 *   correction 3 x 3 = 65 (ACM). */
void timers_reset(efsi_timers *t, int nmat)
{
  memset(t, 0, sizeof *t);
  const double weno = 335.0;
  const double weno_flux = 608.0;
  t->flops[TIMER_ADVECTION] = weno * (3 + (nmat > 0 ? 6 : 0)) + weno_flux * nmat;
  t->flops[TIMER_OLDROYD] =
    nmat > 0 ? OLDROYD_FLOPS + 2.0 * (nmat + 6) + SOLID_TREATMENT_FLOPS(nmat) : 0.0;
  t->flops[TIMER_STRESS] = 33.0 + (nmat > 0 ? SOLID_STRESS_FLOPS(nmat) : 0.0);
  t->flops[TIMER_DIVERGENCE] = 45.0;
  t->flops[TIMER_PROJECTION] = 65.0;
}

_Static_assert((int)TIMER_COUNT <= (int)DEVICE_CLOCKS, "the device has a clock for every timer");

void timers_zero_clocks(efsi_timers *t)
{
  timers_collect(t);   /* the device's pairs recorded so far are dropped with the rest */
  memset(t->seconds, 0, sizeof t->seconds);
  memset(t->calls, 0, sizeof t->calls);
}

void timers_collect(efsi_timers *t)
{
  if (t->device) device_clock_read(t->seconds, TIMER_COUNT);
}

void timer_start(efsi_timers *t, int which)
{
  if (t->device) device_clock_start(which);
  else t->started[which] = MPI_Wtime();
}

void timer_stop(efsi_timers *t, int which)
{
  if (t->device) device_clock_stop(which);
  else t->seconds[which] += MPI_Wtime() - t->started[which];
  t->calls[which]++;
}

const char *timer_name(int which) { return names[which]; }

