/* The output directory as one run's history (docs/output.md, "One history per folder"):
 * which efsi files it holds, the step, time and run identity of each, how far its tables
 * go, and the record of the last run (run.json); and the move of what lies after a step
 * into a folder aside.  Rank 0 only (no MPI): the driver shares the verdicts. */
#ifndef EFSI_HISTORY_IO_H
#define EFSI_HISTORY_IO_H

#include <stddef.h>
#include <stdio.h>

#include "base/limits.h"
#include "io/run_record.h"
#include "io/snapshot.h"

/* The files of a history: restart files, fields files, and the selective outputs (box_*.nc,
 * slices_*.nc, average.nc: docs/output.md, "Selective outputs"). */
enum { HISTORY_RESTART = 0, HISTORY_FIELDS = 1, HISTORY_OUTPUT = 2 };

typedef struct {
  char name[64];                     /* restart_, fields_, box_ or slices_NNNNNNNN.nc, average.nc */
  int kind;                          /* HISTORY_RESTART, HISTORY_FIELDS or HISTORY_OUTPUT */
  long step;                         /* the step its name says (average.nc: its header's) */
  int read;                          /* its header was read (history_scan's headers_after) */
  int readable;                      /* read, and it opens and holds that step */
  double time;                       /* when readable */
  char run_id[SNAPSHOT_RUN_ID_LEN];  /* "" when it has none or is not readable */
  char problem[256];                 /* why it is not readable */
} efsi_history_file;

typedef struct {
  char dir[EFSI_PATH_LEN];
  int exists;                        /* the folder exists */
  int output;                        /* it holds efsi output (output_prepare's rule) */
  int nfiles;
  efsi_history_file *file;           /* by step, a restart before the fields of its step */
  int diagnostics, bodies, bodies_nc;   /* the tables are there (bodies.csv, bodies.nc) */
  long diagnostics_last, bodies_last;   /* the step of their last whole row (-1: none) */
  long bodies_nc_last;               /* the step of bodies.nc's last record (-1: none) */
  double diagnostics_last_time;
  int temporaries;                   /* NAME.nc.tmp of writes that did not finish */
  int recorded;                      /* run.json was read into record */
  efsi_run_record record;
} efsi_history;

/* What dir holds: every restart, fields, box and slices file by name and step, average.nc,
 * the last row of each table (read from the file's end; bodies.nc's last record), run.json;
 * and the header (step, time, run identity) of every file whose step is after
 * headers_after (-1: all of them; a restart file is probed first, ncfile_probe; a fields
 * file, efsi's own and written whole, is opened directly; average.nc's always).
 * Reading headers costs a file open (and a process, for a restart file) each, so a run's
 * start reads only those after its restart file.  Nonzero with a message only when dir
 * exists and cannot be listed. */
int history_scan(efsi_history *h, const char *dir, long headers_after, char *err,
                 size_t errlen);
void history_free(efsi_history *h);

/* The newest readable restart file (NULL: none). */
const efsi_history_file *history_newest_restart(const efsi_history *h);

/* Move every restart, fields, box and slices file of h (and the .tmp of one) and
 * average.nc whose step is after step into a new folder dir/discarded-after-NNNNNNNN (a
 * suffix -2, -3 ... when it exists), and copy diagnostics.csv, bodies.csv, bodies.nc,
 * performance.json and run.json there whole.  aside gets
 * the folder, moved the number of files moved.  Nonzero with a message on failure (what
 * was moved stays moved: nothing is deleted). */
int history_move_aside(const efsi_history *h, long step, char *aside, size_t len, int *moved,
                       char *err, size_t errlen);


#endif
