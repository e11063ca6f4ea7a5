/* bodies.csv: the body tracers, one row per body per output step, sorted by id, columns
 * id,kind,step,time,x,y,z,u,v,w; numbers in %.17g so a restarted run's rows compare
 * bitwise with the uninterrupted run's. */
#ifndef EFSI_BODIES_CSV_H
#define EFSI_BODIES_CSV_H

#include <stddef.h>

#include "base/tracer.h"
#include "io/csv.h"

/* The header row, without the newline. */
extern const char bodies_csv_header[];

/* The column of the step, counted from 0 (id, kind, step). */
enum { BODIES_CSV_STEP_COLUMN = 2 };

/* Rank 0 only.  Opens dir/bodies.csv into t: a new file with the header row, or, when
 * restart_step >= 0 and the file exists, the same file keeping only the rows with
 * step <= restart_step (rewritten through a temporary file; a last row cut short by a
 * crash is dropped) and appending after them.  Returns nonzero with a one-line message
 * naming the file on failure (also when the first line is not this header). */
int bodies_csv_open(efsi_csv *t, const char *dir, long restart_step, char *err, size_t errlen);

/* Rank 0 only.  One row per tracer of sorted[0..n) (from tracers_gather), kind written as
 * kind_names[kind]; flushed.  An I/O error stops the run, naming the file. */
void bodies_csv_write(efsi_csv *t, long step, double time, long n, const efsi_tracer *sorted,
                      const char *const *kind_names);

#endif
