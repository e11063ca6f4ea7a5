/* The progress line (see progress.h).  The estimate of the time left is the steps left
 * times the seconds per step of the last interval. */
#include "src/run/progress.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "src/run/stop.h"

double progress_steps_left(const efsi_progress_values *v)
{
  double left = HUGE_VAL;
  if (v->steps >= 0) left = (double)(v->steps - v->step);
  if (v->end_time > 0 && v->dt > 0)
    left = fmin(left, ceil((v->end_time - v->time) / v->dt - 1e-6));
  return fmax(left, 0.0);
}

void progress_line(const efsi_progress_values *v, char *buf, size_t len)
{
  char total[32] = "", rest[32] = "?", div[32] = "-", mach[32] = "-";
  if (v->steps >= 0) snprintf(total, sizeof total, "/%ld", v->steps);
  const double left = progress_steps_left(v);
  if (isfinite(left) && v->seconds_per_step >= 0)
    stop_format_duration(left * v->seconds_per_step, rest, sizeof rest);
  if (v->div_rms >= 0) snprintf(div, sizeof div, "%.2e", v->div_rms);
  if (v->mach >= 0) snprintf(mach, sizeof mach, "%.3g", v->mach);
  snprintf(buf, len, "step %ld%s  t %.6g  dt %.4g  %.4g Mcell-updates/s  div_rms %s  "
           "mach %s  left %s", v->step, total, v->time, v->dt, v->mcups, div, mach, rest);
}
