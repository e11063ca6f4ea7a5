/* The run: allocate, initialise or restart, step until time.steps or time.end_time, write
 * diagnostics, fields and restart files, stop with a diagnosis when the run blows up. */
#ifndef EFSI_RUN_H
#define EFSI_RUN_H

#include "base/errors.h"
#include "src/case/backend.h"
#include "src/case/case.h"
#include "src/case/config.h"
#include "decomp/decomp.h"
#include "src/run/history.h"
#include "src/bodies/init_solid.h"
#include "src/step/timestep.h"

/* EFSI_EXIT_STOPPED (base/errors.h): stopped early, on a signal or before time.wall_limit,
 * with a restart file written: not a failure, and not the end of the run either, so that a
 * job script can tell "continue with --restart latest" from 0 (done) and from 1-3 (look at
 * the log). */

/* Collective.  out: the output directory, the restart file ("" for a fresh start) and the
 * run identity every output file carries (src/run/history.h: history_plan); cb: the case's
 * bodies, validated by case_bodies.  Ends with one line on rank 0 (where it stopped, why,
 * what it wrote) and the end of run.json's record.  Returns the exit status: 0,
 * EFSI_EXIT_INPUT (unreadable or mismatched restart or voxel file), EFSI_EXIT_BLOWUP or
 * EFSI_EXIT_STOPPED. */
int run(const efsi_case *cs, efsi_decomp *d, const efsi_timestep *ts,
        const efsi_output_plan *out, const efsi_case_bodies *cb, const efsi_backend *b);

#endif
