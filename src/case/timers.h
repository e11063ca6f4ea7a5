/* Wall-clock time per kernel family, for the performance table and performance.json.  The
 * families are those of the paper's Table 1 (stencils/kernel_list.h: each kernel's family,
 * operations and memory traffic per point are declared there), then the exchange, the
 * reduction and the output.  One family's clock runs at a time: a kernel's call
 * (timers_kernel) or an exchange (timers_switch) stops the clock of the family before it,
 * so that the step's code names no clock.
 *
 * On a GPU a clock is a pair of events in the compute stream's queue, and each one the
 * stream passes costs it time: two events a switch, some twenty a step, made the 72^3
 * hematocrit case's step 11 % slower (docs/performance-gpu.md).  So there the families'
 * clocks run on one step in TIMERS_GPU_SAMPLE (the TIMERS_GPU_SAMPLE-th after the clocks
 * are zeroed, and every TIMERS_GPU_SAMPLE-th after it: never the first, whose launches pay
 * for the set-up), and timers_seconds scales what they measured to all steps; the whole
 * step's time is the wall clock's (src/run/report.c), and the output's clock runs whenever
 * there is output.  A GPU run of fewer steps times no family. */
#ifndef EFSI_TIMERS_H
#define EFSI_TIMERS_H

#include "base/grid.h"
#include "stencils/kernel_list.h"

enum {
  TIMER_ADVECTION = KERNEL_FAMILY_ADVECTION,
  TIMER_OLDROYD = KERNEL_FAMILY_OLDROYD,
  TIMER_STRESS = KERNEL_FAMILY_STRESS,
  TIMER_DIVERGENCE = KERNEL_FAMILY_DIVERGENCE,
  TIMER_PROJECTION = KERNEL_FAMILY_PROJECTION,
  TIMER_HALO = KERNEL_FAMILIES,  /* halo exchange and boundary layers */
  TIMER_ALLREDUCE,               /* global reductions */
  TIMER_SYNC,                    /* waiting at a barrier before the reduction (performance.sync_timers) */
  TIMER_IO,                      /* NetCDF and CSV output */
  TIMER_COUNT
};

typedef struct {
  double seconds[TIMER_COUNT];
  double started[TIMER_COUNT];
  long calls[TIMER_COUNT];
  double flops[TIMER_COUNT];     /* counted operations and values streamed by the kernels */
  double values[TIMER_COUNT];    /* charged to each family since the clocks were zeroed */
  long steps;                    /* steps since then (timers_step) */
  double cells;                  /* owned cells of the rank */
  int nmat;                      /* materials of the case (the kernels' counts use it) */
  int running;                   /* the family whose clock runs, -1: none */
  int device;                    /* a GPU run: the clocks are events on its compute stream
                                    (base/device.h), read by timers_collect */
  long launches;                 /* the GPU's kernel launches when the clocks were zeroed */
  long sampled;                  /* steps whose families' clocks ran (all of them on a CPU) */
  int quiet;                     /* this step's switches run no clock (a GPU's unsampled step) */
} efsi_timers;

enum { TIMERS_GPU_SAMPLE = 8 };

/* Zero everything for a case with nmat materials on a block of `cells` owned cells. */
void timers_reset(efsi_timers *t, int nmat, double cells);
/* Zero the clocks and counts only (the time loop's figures exclude the set-up before it). */
void timers_zero_clocks(efsi_timers *t);
/* Add the device's clocks into seconds (a GPU run; nothing to do on the CPU). */
void timers_collect(efsi_timers *t);

/* The clock of `which` runs from now (the one running before stops); timers_pause stops
 * the one running. */
void timers_switch(efsi_timers *t, int which);
void timers_pause(efsi_timers *t);
/* A call of kernel id (KERNEL_ID_*) on the points of grid g: its family's clock runs, and
 * its counted operations and values for those points are charged to the family.  The
 * diagnostics' kernels are neither timed nor counted. */
void timers_kernel(efsi_timers *t, int id, const efsi_grid *g);
/* One step done: the counts per cell and step are over the steps since the clocks were
 * zeroed; on a GPU it also decides whether the next step's switches run clocks. */
void timers_step(efsi_timers *t);
/* The seconds of clock `which` over the steps since the clocks were zeroed (after
 * timers_collect): a GPU's families' sampled steps scaled to all of them. */
double timers_seconds(const efsi_timers *t, int which);

/* A clock of its own, outside the families' switching (the output). */
void timer_start(efsi_timers *t, int which);
void timer_stop(efsi_timers *t, int which);
const char *timer_name(int which);

/* Floating-point operations (add, multiply, divide, sqrt 1; FMA 2) and bytes per owned
 * cell and step of family `which`, as counted by the kernels' calls. */
double timer_flops_per_cell(const efsi_timers *t, int which);
double timer_bytes_per_cell(const efsi_timers *t, int which);

#endif
