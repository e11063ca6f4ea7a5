/* Restart files: the full state as stored (the arrays of a snapshot: staggered velocities,
 * p, phi_m, B; step, time, drive force; the body tracers) on the global grid, written
 * atomically, readable on any process grid, and read back bitwise, so a restarted run
 * continues exactly as the uninterrupted one. */
#ifndef EFSI_RESTART_H
#define EFSI_RESTART_H

#include <stddef.h>
#include <stdio.h>

#include "base/tracer.h"
#include "decomp/decomp.h"
#include "io/snapshot.h"

/* Collective.  Writes dir/restart_NNNNNNNN.nc (NNNNNNNN = s->step) under a temporary name
 * and renames it when complete, so a crash never leaves a partial file under that name.
 * The body tracers (n of them, sorted by id: tracers_gather) are given on rank 0. */
void restart_write(const char *dir, const efsi_snapshot *s, const efsi_decomp *d,
                   long n_tracers, const efsi_tracer *tracers);

/* Collective.  s names the arrays of the current case on the current process grid (which
 * may differ from the writer's).  Checks the global grid size, lengths, boundary types,
 * the material list and every array against s and d; on a mismatch or an unreadable file
 * returns nonzero on every rank with the same one-line message naming the file (exit
 * status 2 is the caller's).  Fills the owned cells of every array and s's step, time,
 * drive_force and run_id; halos are not filled (the caller exchanges them).  An optional
 * array the file lacks is marked missing and left alone; s's numbers get the file's
 * attributes of their names (NaN when absent; restart_write writes them). */
int restart_read(const char *path, efsi_snapshot *s, const efsi_decomp *d, char *err,
                 size_t errlen);

/* Collective: the checks of restart_read on the header alone (s's arrays are not touched,
 * they may be NULL), so that a file that does not fit the case is refused before anything
 * is allocated.  Same contract as restart_read. */
int restart_check(const char *path, const efsi_snapshot *s, const efsi_decomp *d, char *err,
                  size_t errlen);

/* Rank 0: the body tracers stored in a restart file that restart_read, restart_check or
 * restart_peek has probed in this process (*n = 0 and *tracers = NULL when it has none;
 * free() them).  Nonzero with a message when they cannot be read or one is not a
 * possible tracer: an id that is not a whole number >= 0, a kind outside 0..kinds-1, a
 * position outside the box [0, length]. */
int restart_read_tracers(const char *path, int kinds, const double length[3], long *n,
                         efsi_tracer **tracers, char *err, size_t errlen);

/* Any one rank: step, time and run identity (run_id: SNAPSHOT_RUN_ID_LEN bytes, "" when the
 * file has none; NULL: not wanted) stored in a restart file, without reading the fields.
 * Nonzero with a message on failure, also for a step or time below 0. */
int restart_peek(const char *path, long *step, double *time, char *run_id, char *err,
                 size_t errlen);

/* restart_peek of a file this process has probed already (restart_check, restart_peek or
 * restart_latest took it): without a second child process. */
int restart_stamp(const char *path, long *step, double *time, char *run_id, char *err,
                  size_t errlen);

/* Rank 0: the newest complete restart file in dir (--restart latest): the restart_N.nc
 * names (not the .tmp of a write that did not finish), newest step first; the first that
 * opens as an efsi restart file of this format whose step is the one its name says is
 * taken (path).  Each one skipped (damaged, truncated, empty, not NetCDF, another format)
 * gets one warning line on warnings.  Returns nonzero with a message in err when there is
 * none. */
int restart_latest(const char *dir, char *path, size_t len, FILE *warnings, char *err,
                   size_t errlen);

#endif
