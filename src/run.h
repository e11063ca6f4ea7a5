/* The run: allocate, initialise or restart, step until time.steps or time.end_time, write
 * diagnostics, fields and restart files, stop with a diagnosis when the run blows up. */
#ifndef EFSI_RUN_H
#define EFSI_RUN_H

#include "base/errors.h"
#include "src/backend.h"
#include "src/case.h"
#include "src/config.h"
#include "decomp/decomp.h"
#include "src/init_solid.h"
#include "src/timestep.h"

/* EFSI_EXIT_STOPPED (base/errors.h): stopped early, on a signal or before time.wall_limit,
 * with a restart file written: not a failure, and not the end of the run either, so that a
 * job script can tell "continue with --restart latest" from 0 (done) and from 1-3 (look at
 * the log). */

/* Collective.  cb: the case's bodies, validated by case_bodies.  Returns the exit status:
 * 0, EFSI_EXIT_INPUT (unreadable or mismatched restart or voxel file), EFSI_EXIT_BLOWUP or
 * EFSI_EXIT_STOPPED. */
int run(const efsi_case *cs, efsi_decomp *d, const efsi_timestep *ts, const char *dir,
        const char *restart_file, const efsi_case_bodies *cb, const efsi_backend *b);

#endif
