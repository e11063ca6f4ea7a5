/* What a run will cost, said before it starts (docs/building.md, "Running"): the number of
 * steps, the cell-updates, the wall-clock time on this machine from a short measurement of
 * the time step, and the disk its output will take; and warnings about a case that will
 * run but not resolve its bodies. */
#ifndef EFSI_PLAN_H
#define EFSI_PLAN_H

#include <mpi.h>
#include <stddef.h>

#include "decomp/decomp.h"
#include "src/case/backend.h"
#include "src/case/case.h"
#include "src/case/config.h"
#include "src/step/timestep.h"

/* The steps of the run's whole history: time.steps, or the steps of dt that reach
 * time.end_time (efsi's end rule, src/run/history.h), whichever comes first; as a double, since
 * an end time far away gives more steps than a long holds. */
double plan_steps(const efsi_config *c, double dt);

/* Bytes of the output of a run of steps steps with bodies body tracers: its fields and
 * restart files, diagnostics.csv and bodies.csv; *fields_files and *restart_files get their
 * numbers. */
double plan_output_bytes(const efsi_case *cs, double steps, long bodies, long *fields_files,
                         long *restart_files);

/* Collective over comm: the plan's lines of efsi --check (rank 0 prints them): the steps
 * and cell-updates, the wall time on this machine at the rate of the time step measured on
 * every rank at once (a few steps of the case's solver, its materials, pressure method and
 * backend, on a block of this rank's g, at most PLAN_BLOCK cells along each axis), for a run
 * on ranks ranks, and the disk its output takes with bodies body tracers. */
enum { PLAN_BLOCK = 64 };
void plan_report(const efsi_case *cs, const efsi_grid *g, const efsi_timestep *ts,
                 const efsi_backend *b, MPI_Comm comm, int ranks, long bodies);

/* Rank 0: warnings about resolution (bodies that span few cells). */
void plan_warnings(const efsi_config *c);

#endif
