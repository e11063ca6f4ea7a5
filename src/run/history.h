/* One history per output directory (docs/output.md, "One history per folder"): before a run
 * the driver decides what it continues from and that the folder stays one run's history
 * (a restart file older than the folder's newest output, or of another run, is refused, or
 * with --discard-newer the later files are moved aside); it records the run in run.json;
 * and efsi --status tells a person or a study driver what a folder holds. */
#ifndef EFSI_HISTORY_H
#define EFSI_HISTORY_H

#include <stddef.h>
#include <stdio.h>

#include "base/limits.h"
#include "decomp/decomp.h"
#include "io/snapshot.h"
#include "src/run/cli.h"
#include "src/case/case.h"
#include "src/case/config.h"

typedef struct {
  char dir[EFSI_PATH_LEN];            /* the output directory */
  char restart[EFSI_PATH_LEN + 64];   /* the restart file to continue from; "" to start */
  char run_id[SNAPSHOT_RUN_ID_LEN];   /* the history the run writes (its output files') */
  long discard_after;                 /* >= 0: --discard-newer moves what lies after this
                                         step aside when the run starts (history_begin) */
} efsi_output_plan;

/* Has a run at step / time reached the end of its history (time.steps, or time.end_time
 * within 1e-6 dt)?  efsi's one end-of-run rule: the run loop, the refusal to continue a
 * finished run and efsi --status use it. */
int history_finished(const efsi_config *c, long step, double time, double dt);

/* "time.steps = 1000 reached" or "time.end_time = 50 reached" (the rule that ends a run at
 * step / time) into buf. */
void history_end_reason(const efsi_config *c, long step, double time, double dt, char *buf,
                        size_t len);

/* Collective, after the case is checked.  Resolves --restart latest / latest-or-new,
 * checks that the restart file fits the case (src/case/state.h: state_check_restart) and that
 * the output directory stays one history (see above), and creates the directory
 * (io/output.h: output_prepare); nothing else is written or moved yet (history_begin).
 * *finished = 1 when the restart file is at the end of the run: rank 0 has said so.
 * Nonzero on every rank with one line in err when refused (exit status 2). */
int history_plan(const efsi_case *cs, const efsi_cli *cli, const efsi_grid *g,
                 const efsi_decomp *d, double dt, efsi_output_plan *p, int *finished,
                 char *err, size_t errlen);

/* Rank 0, when the run's initial or restarted state is read and sound (src/run/run.c): with
 * --discard-newer the files after the restart file's step go aside (said on stdout), and
 * run.json records the run's start at step / time.  Nonzero with a message in err when a
 * file cannot be moved (exit status 1; nothing is deleted). */
int history_begin(const efsi_config *c, const efsi_output_plan *p, long step, double time,
                  char *err, size_t errlen);

/* Rank 0, at the end of a run (src/run/run.c): run.json's end record (state, exit status, why,
 * where it ended, what it wrote).  A failure to write it is a warning. */
void history_record_end(const efsi_output_plan *p, int status, long step, double time,
                        const char *why, long fields, long restarts, long rows);

/* efsi --status DIR [CASE.ini]: what dir holds, as one JSON object on out (docs/output.md,
 * "efsi --status").  c (NULL: none given) and dt give the end the run is compared with;
 * without them, the end of the last run (run.json).  Returns the exit status: 0, or
 * EFSI_EXIT_INPUT with a message in err when dir cannot be read. */
int history_status(const char *dir, const efsi_config *c, double dt, FILE *out, char *err,
                   size_t errlen);

/* The command efsi --status DIR [CASE.ini] (with --set and --steps applied to the case):
 * rank 0 prints history_status; returns the exit status (0, or EFSI_EXIT_INPUT after one
 * line on stderr). */
int history_status_command(const efsi_cli *cli, int rank);

#endif
