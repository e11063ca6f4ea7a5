/* The performance report at the end of a run: a table on stdout and performance.json with
 * cells, steps, ranks, threads, seconds per step, M cell-updates/s and, per kernel family,
 * time share, GFLOP/s from counted operations and % of the given peak. */
#ifndef EFSI_REPORT_H
#define EFSI_REPORT_H

#include "src/case/config.h"
#include "decomp/decomp.h"
#include "base/grid.h"
#include "src/case/timers.h"

/* Collective (one reduction of the timers: the slowest rank counts).  Rank 0 writes
 * dir/performance.json and prints the table. */
void report_performance(const efsi_config *c, const efsi_decomp *d, const efsi_grid *g,
                        const efsi_timers *t, long steps, double seconds, const char *dir);

#endif
