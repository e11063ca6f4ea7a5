/* Wall-clock time per kernel family, for the performance table and performance.json.
 * The families are those of the paper's Table 1; flop counts per cell and per call are
 * documented in docs/performance.md and kept in timers.c next to the names. */
#ifndef EFSI_TIMERS_H
#define EFSI_TIMERS_H

enum {
  TIMER_ADVECTION = 0,   /* WENO5 advection of velocity, volume fractions and B */
  TIMER_OLDROYD,         /* the Oldroyd rate L.B + B.L^T, update of phi and B */
  TIMER_STRESS,          /* stress tensor on centres and edges */
  TIMER_DIVERGENCE,      /* stress divergence and velocity update */
  TIMER_PROJECTION,      /* D*, Laplacians, sums, dp, pressure and velocity correction */
  TIMER_HALO,            /* halo exchange and boundary layers */
  TIMER_ALLREDUCE,       /* global reductions */
  TIMER_SYNC,            /* waiting at a barrier before the reduction (performance.sync_timers) */
  TIMER_IO,              /* NetCDF and CSV output */
  TIMER_COUNT
};

typedef struct {
  double flops[TIMER_COUNT];     /* per owned cell and step, for this case */
  double seconds[TIMER_COUNT];
  double started[TIMER_COUNT];
  long calls[TIMER_COUNT];
  int device;                    /* a GPU run: the clocks are events on its compute stream
                                    (base/device.h), read by timers_collect */
} efsi_timers;

/* Zero the clocks and set the operation counts for a case with nmat materials. */
void timers_reset(efsi_timers *t, int nmat);
/* Zero the clocks only (the time loop's figures exclude the set-up before it). */
void timers_zero_clocks(efsi_timers *t);
/* Add the device's clocks into seconds (a GPU run; nothing to do on the CPU). */
void timers_collect(efsi_timers *t);
void timer_start(efsi_timers *t, int which);
void timer_stop(efsi_timers *t, int which);
const char *timer_name(int which);
/* Floating-point operations per owned cell for one step of this kernel family
 * (add, multiply, divide, sqrt = 1; FMA = 2), counted from the source. */
static inline double timer_flops_per_cell(const efsi_timers *t, int which) { return t->flops[which]; }

#endif
