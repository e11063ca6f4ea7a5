/* Kernel timers: MPI_Wtime around each family's work (on the GPU, events on its stream),
 * one family at a time; names; the operation and memory counts of the kernels' calls. */
#include "src/case/timers.h"

#include "base/device.h"

#include <mpi.h>
#include <string.h>

static const char *const names[TIMER_COUNT] = {
  "advection", "oldroyd", "stress", "divergence", "projection", "halo_exchange", "allreduce",
  "reduce_wait", "io",
};

_Static_assert((int)TIMER_COUNT <= (int)DEVICE_CLOCKS, "the device has a clock for every timer");

void timers_reset(efsi_timers *t, int nmat, double cells)
{
  memset(t, 0, sizeof *t);
  t->nmat = nmat;
  t->cells = cells;
  t->running = -1;
}

void timers_zero_clocks(efsi_timers *t)
{
  timers_pause(t);
  timers_collect(t);   /* the device's pairs recorded so far are dropped with the rest */
  memset(t->seconds, 0, sizeof t->seconds);
  memset(t->calls, 0, sizeof t->calls);
  memset(t->flops, 0, sizeof t->flops);
  memset(t->values, 0, sizeof t->values);
  t->launches = device_launches();
  t->steps = 0;
  t->sampled = 0;
  t->quiet = t->device && TIMERS_GPU_SAMPLE > 1;
}

void timers_step(efsi_timers *t)
{
  timers_pause(t);   /* no clock runs across a step's end, where quiet may change */
  if (!t->quiet) t->sampled++;
  t->steps++;
  t->quiet = t->device && t->steps % TIMERS_GPU_SAMPLE != TIMERS_GPU_SAMPLE - 1;
}

double timers_seconds(const efsi_timers *t, int which)
{
  if (which == TIMER_IO || t->sampled == 0 || t->sampled == t->steps) return t->seconds[which];
  return t->seconds[which] * (double)t->steps / (double)t->sampled;
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

void timers_pause(efsi_timers *t)
{
  if (t->running < 0) return;
  if (t->quiet) t->calls[t->running]++;
  else timer_stop(t, t->running);
  t->running = -1;
}

void timers_switch(efsi_timers *t, int which)
{
  if (t->running == which) return;
  timers_pause(t);
  if (!t->quiet) timer_start(t, which);
  t->running = which;
}

void timers_kernel(efsi_timers *t, int id, const efsi_grid *g)
{
  const int family = efsi_kernel_infos[id].family;
  if (family >= KERNEL_FAMILIES) return;
  timers_switch(t, family);
  const double points = (double)grid_cells(g);
  t->flops[family] += kernel_flops(id, t->nmat) * points;
  t->values[family] += kernel_arrays(id, t->nmat) * points;
}

const char *timer_name(int which) { return names[which]; }

double timer_flops_per_cell(const efsi_timers *t, int which)
{
  return t->steps > 0 && t->cells > 0 ? t->flops[which] / (t->steps * t->cells) : 0.0;
}

double timer_bytes_per_cell(const efsi_timers *t, int which)
{
  return t->steps > 0 && t->cells > 0 ? 8.0 * t->values[which] / (t->steps * t->cells) : 0.0;
}
