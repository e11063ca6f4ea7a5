/* Performance report (see report.h).  GFLOP/s of a kernel family = counted operations per
 * cell (timers.c) x cells x steps / its time; % of peak against performance.peak_gflops
 * (the whole machine's peak in GFLOP/s, e.g. from bench/bench) when the case gives it.
 * Kernel seconds are the slowest rank's (the table, "seconds") and the mean over ranks
 * ("mean_seconds" in performance.json). */
#include "src/run/report.h"

#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "base/device.h"
#include "decomp/reduce.h"

void report_performance(const efsi_config *c, const efsi_decomp *d, const efsi_grid *g,
                        const efsi_timers *t, long steps, double seconds, const char *dir)
{
  double slowest[TIMER_COUNT + 1];
  for (int k = 0; k < TIMER_COUNT; k++) slowest[k] = timers_seconds(t, k);
  slowest[TIMER_COUNT] = seconds;
  global_max(d, slowest, TIMER_COUNT + 1);
  /* the mean over ranks too: the slowest rank's total less the mean kernel times is the
   * time ranks spend waiting for each other outside the timed calls */
  double mean[TIMER_COUNT];
  for (int k = 0; k < TIMER_COUNT; k++) mean[k] = timers_seconds(t, k);
  global_sum(d, mean, TIMER_COUNT);
  for (int k = 0; k < TIMER_COUNT; k++) mean[k] /= d->size;
  if (d->rank != 0) return;
  int threads = 1;
#ifdef _OPENMP
  threads = omp_get_max_threads();
#endif
  const double cells = (double)g->global_n[0] * g->global_n[1] * g->global_n[2];
  /* the step rate excludes output: I/O is reported on its own line */
  const double total = slowest[TIMER_COUNT];
  const double stepping = total - slowest[TIMER_IO];
  const double per_step = steps > 0 ? stepping / steps : 0.0;
  const double mcups = stepping > 0 ? cells * steps / stepping * 1e-6 : 0.0;
  double flops = 0.0;
  for (int k = 0; k < TIMER_COUNT; k++) flops += timer_flops_per_cell(t, k);
  const double gflops = stepping > 0 ? flops * cells * steps / stepping * 1e-9 : 0.0;

  printf("\nperformance: %.0f cells, %ld steps, %d ranks x %d threads\n", cells, steps,
         d->size, threads);
  printf("  %.4g s per step (output excluded), %.4g M cell-updates/s, %.4g GFLOP/s", per_step,
         mcups, gflops);
  if (c->peak_gflops > 0) printf(" (%.3g %% of %.4g GFLOP/s peak)", 100 * gflops / c->peak_gflops, c->peak_gflops);
  /* rank 0's: every rank launches the same kernels, but for its faces */
  const double launches = t->device && steps > 0 ? (double)(device_launches() - t->launches) / steps
                                                 : 0.0;
  if (t->device)
    printf("\n  %.1f GPU kernel launches a step (output's included); the families timed on %ld "
           "of the %ld steps (one in %d)", launches, t->sampled, t->steps, TIMERS_GPU_SAMPLE);
  printf("\n  %-14s %10s %7s %11s %9s %8s %8s\n", "kernel", "seconds", "share", "flop/cell",
         "GFLOP/s", "B/cell", "GB/s");
  for (int k = 0; k < TIMER_COUNT; k++) {
    const double s = slowest[k];
    const double kf = timer_flops_per_cell(t, k), kb = timer_bytes_per_cell(t, k);
    printf("  %-14s %10.4g %6.1f%% %11.0f %9.4g %8.0f %8.4g\n", timer_name(k), s,
           total > 0 ? 100 * s / total : 0.0, kf, s > 0 ? kf * cells * steps / s * 1e-9 : 0.0,
           kb, s > 0 ? kb * cells * steps / s * 1e-9 : 0.0);
  }

  char path[EFSI_PATH_LEN + 32];
  snprintf(path, sizeof path, "%s/performance.json", dir);
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "efsi: warning: cannot write %s\n", path);
    return;
  }
  fprintf(f, "{\n  \"case\": \"%s\",\n  \"cells\": %.0f,\n  \"steps\": %ld,\n", c->name, cells, steps);
  fprintf(f, "  \"ranks\": %d,\n  \"process_grid\": [%d, %d, %d],\n  \"threads\": %d,\n",
          d->size, d->dims[0], d->dims[1], d->dims[2], threads);
  fprintf(f, "  \"seconds\": %.6g,\n  \"seconds_output\": %.6g,\n  \"seconds_per_step\": %.6g,\n",
          total, slowest[TIMER_IO], per_step);
  fprintf(f, "  \"mcell_updates_per_second\": %.6g,\n  \"gflops\": %.6g,\n", mcups, gflops);
  if (t->device)
    fprintf(f, "  \"gpu_launches_per_step\": %.6g,\n  \"timed_steps\": %ld,\n", launches,
            t->sampled);
  if (c->peak_gflops > 0) fprintf(f, "  \"peak_gflops\": %.6g,\n  \"percent_of_peak\": %.6g,\n",
                                  c->peak_gflops, 100 * gflops / c->peak_gflops);
  fprintf(f, "  \"kernels\": {\n");
  for (int k = 0; k < TIMER_COUNT; k++) {
    const double s = slowest[k], kf = timer_flops_per_cell(t, k);
    const double kg = s > 0 ? kf * cells * steps / s * 1e-9 : 0.0;
    fprintf(f, "    \"%s\": {\"seconds\": %.6g, \"mean_seconds\": %.6g, \"share\": %.6g, "
               "\"flops_per_cell\": %.6g, \"gflops\": %.6g, \"bytes_per_cell\": %.6g",
            timer_name(k), s, mean[k], total > 0 ? s / total : 0.0, kf, kg,
            timer_bytes_per_cell(t, k));
    if (c->peak_gflops > 0) fprintf(f, ", \"percent_of_peak\": %.6g", 100 * kg / c->peak_gflops);
    fprintf(f, "}%s\n", k + 1 < TIMER_COUNT ? "," : "");
  }
  fprintf(f, "  }\n}\n");
  fclose(f);
}
