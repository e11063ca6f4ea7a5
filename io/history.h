/* The output directory as one run's history (docs/output.md, "One history per folder"):
 * which efsi files it holds, the step, time and run identity of each, how far its tables
 * go, and the record of the last run (run.json); and the move of what lies after a step
 * into a folder aside.  Rank 0 only (no MPI): the driver shares the verdicts. */
#ifndef EFSI_HISTORY_IO_H
#define EFSI_HISTORY_IO_H

#include <stddef.h>
#include <stdio.h>

#include "base/limits.h"
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

/* The record of a run in dir/run.json: written when the run starts (state "running") and
 * again when it ends; a record still "running" after its process is gone tells of a run
 * killed or stopped by a library failure (exit status 1). */
typedef struct {
  char run_id[SNAPSHOT_RUN_ID_LEN];
  char case_name[EFSI_NAME_LEN];
  char case_file[EFSI_PATH_LEN];
  char restart[EFSI_PATH_LEN + 64];  /* the file it continued from, "" for a fresh start */
  char state[16];                    /* running, finished, stopped, blew-up */
  int exit_status;                   /* -1 while running */
  char why[256];                     /* why it stopped */
  long first_step, step;             /* where it started and where it is (or ended) */
  double time;
  long steps;                        /* time.steps of the run (-1: not given) */
  double end_time;                   /* time.end_time (< 0: not given) */
  char started[32], ended[32];       /* UTC, ISO 8601 */
  long pid;
  char host[256];
  long fields_written, restarts_written, rows_written;
} efsi_run_record;

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


/* Write dir/run.json (through run.json.tmp and a rename).  Nonzero with a message. */
int history_record_write(const char *dir, const efsi_run_record *r, char *err, size_t errlen);

/* Read dir/run.json; nonzero when there is none or it cannot be read. */
int history_record_read(const char *dir, efsi_run_record *r);

/* JSON values on f: text as a string with its quotes, backslashes and control characters
 * escaped (NULL: null); a number exactly (%.17g; not finite: null). */
void history_json_text(FILE *f, const char *text);
void history_json_number(FILE *f, double x);

/* "2026-11-25T14:31:05Z": the time now, UTC. */
void history_utc_now(char *buf, size_t len);

#endif
