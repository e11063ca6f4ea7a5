/* run.json: the record of the last run in an output folder (docs/output.md, "The output
 * directory"), its JSON helpers, and the record of a run that a failed write ends.  No MPI. */
#ifndef EFSI_RUN_RECORD_H
#define EFSI_RUN_RECORD_H

#include <stddef.h>
#include <stdio.h>

#include "base/limits.h"
#include "io/snapshot.h"

/* The record of a run in dir/run.json: written when the run starts (state "running") and
 * again when it ends; a record still "running" after its process is gone tells of a run
 * killed or stopped by a library failure (exit status 1). */
typedef struct {
  char run_id[SNAPSHOT_RUN_ID_LEN];
  char case_name[EFSI_NAME_LEN];
  char case_file[EFSI_PATH_LEN];
  char restart[EFSI_PATH_LEN + 64];  /* the file it continued from, "" for a fresh start */
  char state[16];                    /* running, finished, failed, refused, blew-up, stopped */
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

/* Write dir/run.json (through run.json.tmp and a rename; in place when no new file can be
 * written, a full disk).  Nonzero with a message. */
int history_record_write(const char *dir, const efsi_run_record *r, char *err, size_t errlen);

/* Read dir/run.json; nonzero when there is none or it cannot be read. */
int history_record_read(const char *dir, efsi_run_record *r);

/* JSON values on f: text as a string with its quotes, backslashes and control characters
 * escaped (NULL: null); a number exactly (%.17g; not finite: null). */
void history_json_text(FILE *f, const char *text);
void history_json_number(FILE *f, double x);

/* "2026-11-25T14:31:05Z": the time now, UTC. */
void history_utc_now(char *buf, size_t len);

/* Claim dir for a fresh start: create run.json with O_EXCL (atomic on local file systems
 * and NFS) holding a record of state "claimed" with this process's pid and host.  0 when
 * claimed; 1 when dir/run.json exists (another run's); -1 with a message in err when it
 * cannot be written. */
int history_record_claim(const char *dir, char *err, size_t errlen);

/* Remove dir/run.json when it is a claim whose process is gone from this host: a start that
 * died before its first step (killed, out of memory) does not hold the folder forever. */
void history_record_drop_stale(const char *dir);

/* Remove dir/run.json when it is this process's claim (a start refused before it began). */
void history_record_unclaim(const char *dir);

/* A write of the run in dir failed (why: the one line that names the file and the cause):
 * run.json's record, when it says "running", becomes "failed" with exit status 1, why and
 * the end time, so that the folder tells of the failure (efsi --status).  Any rank may call
 * it; nonzero when there is no running record or it cannot be written. */
int history_record_failure(const char *dir, const char *why);

#endif
