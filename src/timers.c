/* Kernel timers: MPI_Wtime around each kernel family; names and operation counts. */
#include "timers.h"

#include <mpi.h>
#include <string.h>

static const char *const names[TIMER_COUNT] = {
  "advection", "stress", "divergence", "projection", "halo_exchange", "allreduce", "io",
};

/* Per owned cell and step, counted from the kernels (docs/performance.md lists them):
 * advection: 3 velocity components x 3 directions x (interpolation 5, six differences 6,
 *   upwind blend 17, weno5_derivative 82) + the sum 5 per component = 1005;
 * stress: centres 15 (three differences 6, trace/3 3, three deviators 6), edges 3 x 6 = 33;
 * divergence: stress divergence 3 x 9, velocity update 3 x 3, pressure gradient 3 x 3 = 45;
 * projection: divergence 8, two Laplacians 2 x 14, the nine sums 15, dp 3, pressure 2,
 *   correction 3 x 3 = 65 (ACM). */
static const double flops[TIMER_COUNT] = { 1005.0, 33.0, 45.0, 65.0, 0.0, 0.0, 0.0 };

void timers_reset(efsi_timers *t) { memset(t, 0, sizeof *t); }

void timer_start(efsi_timers *t, int which) { t->started[which] = MPI_Wtime(); }

void timer_stop(efsi_timers *t, int which)
{
  t->seconds[which] += MPI_Wtime() - t->started[which];
  t->calls[which]++;
}

const char *timer_name(int which) { return names[which]; }

double timer_flops_per_cell(int which) { return flops[which]; }
