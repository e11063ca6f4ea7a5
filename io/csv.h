/* The CSV tables of the output directory (diagnostics.csv, bodies.csv): opened new with
 * their header, or, when a run continues from a restart, with the rows after the restart
 * step dropped (those were written by the run that went on past it), so the file reads as
 * one uninterrupted history. */
#ifndef EFSI_CSV_H
#define EFSI_CSV_H

#include <stddef.h>
#include <stdio.h>

/* Rank 0.  restart_step < 0: create path with the header line.  restart_step >= 0: keep the
 * header (it must match) and the whole rows whose step (the integer in column step_column,
 * counted from 0) is <= restart_step, rewritten through path.tmp, then append; a missing
 * file is started afresh.  Returns the open stream in *file, or nonzero with a one-line
 * message naming the file. */
int csv_open(const char *path, const char *header, int step_column, long restart_step,
             FILE **file, char *err, size_t errlen);

#endif
