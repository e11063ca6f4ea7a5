/* The progress line (docs/building.md, "Progress"): rank 0 prints one plain line every
 * output.progress_seconds of wall-clock time, from numbers it has without any collective:
 * the step's own reduction (div_rms, beta) and its own clock and block. */
#ifndef EFSI_PROGRESS_H
#define EFSI_PROGRESS_H

#include <stddef.h>

typedef struct {
  long step;
  long steps;                /* time.steps; < 0: not given */
  double time, end_time;     /* end_time < 0: not given */
  double dt;
  double mcups;              /* million cell-updates per second over the interval */
  double div_rms;            /* < 0: not known */
  double mach;               /* < 0: not known */
  double seconds_per_step;   /* over the interval */
} efsi_progress_values;

/* Steps left to the end of the run's history: the nearer of time.steps and
 * time.end_time (end_time reached by whole steps of dt). */
double progress_steps_left(const efsi_progress_values *v);

/* The line, without a newline:
 *   step 1200/12000  t 36  dt 0.03  12.3 Mcell-updates/s  div_rms 1.2e-05  mach 0.031  left 0:22:10 */
void progress_line(const efsi_progress_values *v, char *buf, size_t len);

#endif
