/* The CSV tables of the output directory (diagnostics.csv, bodies.csv) as objects: each
 * table is opened new with its header, or, when a run continues from a restart, with the
 * rows after the restart step dropped (those were written by the run that went on past it),
 * so the file reads as one uninterrupted history.  No state outside the object: a process
 * may hold any number of tables. */
#ifndef EFSI_CSV_H
#define EFSI_CSV_H

#include <stddef.h>
#include <stdio.h>

#include "base/limits.h"

typedef struct {
  FILE *file;                      /* NULL while closed */
  char path[EFSI_PATH_LEN + 32];
} efsi_csv;

/* Rank 0.  path <- dir/name.  restart_step < 0: create the file with the header line.
 * restart_step >= 0: keep the header (it must match) and the whole rows whose step (the
 * integer in column step_column, counted from 0) is <= restart_step, rewritten through
 * path.tmp, then append; a missing file is started afresh.  Returns nonzero with a one-line
 * message naming the file (t stays closed). */
int csv_open(efsi_csv *t, const char *dir, const char *name, const char *header,
             int step_column, long restart_step, char *err, size_t errlen);

/* After a row was printed with fprintf (printed < 0: it failed): flush it; an I/O error
 * stops the run with status 1, naming the file (base/errors.h, rule 4). */
void csv_row_done(efsi_csv *t, int printed);

/* Close (nothing when closed); an I/O error stops the run like csv_row_done. */
void csv_close(efsi_csv *t);

/* The step of the last whole row of the CSV file path (step in column step_column, counted
 * from 0, and *time the number in the column after it), or -1 when it has none or cannot be
 * read.  Reads the file's last 64 KiB only: a table of millions of rows costs nothing. */
long csv_last_step(const char *path, int step_column, double *time);

#endif
