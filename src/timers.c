/* Kernel timers: MPI_Wtime around each kernel family; names and operation counts. */
#include "timers.h"

#include <mpi.h>
#include <string.h>

static const char *const names[TIMER_COUNT] = {
  "advection", "stress", "divergence", "projection", "halo_exchange", "allreduce", "io",
};

/* Per cell and step, counted from the kernels (docs/performance.md shows the count):
 * advection: three velocity components x three directions x (interpolation 3, five
 * differences 5, WENO5 derivative 58, upwind blend 2, product-sum 2) = 630;
 * stress: 3 centre components (div 5 + 3 each) + 3 edge components (5 each) = 39;
 * divergence: 3 components x (6 differences/scales + 2 update) = 24, plus the pressure
 * gradient 3 x 3 = 9;
 * projection: divergence 6, two Laplacians 2 x 13, sums 12, dp 3, correction 3 x 3,
 * pressure 2 = 58. */
static const double flops[TIMER_COUNT] = { 630.0, 39.0, 33.0, 58.0, 0.0, 0.0, 0.0 };

void timers_reset(efsi_timers *t) { memset(t, 0, sizeof *t); }

void timer_start(efsi_timers *t, int which) { t->started[which] = MPI_Wtime(); }

void timer_stop(efsi_timers *t, int which)
{
  t->seconds[which] += MPI_Wtime() - t->started[which];
  t->calls[which]++;
}

const char *timer_name(int which) { return names[which]; }

double timer_flops_per_cell(int which) { return flops[which]; }
