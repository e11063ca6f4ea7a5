/* Body tracers: one point per body, started at its centroid and carried by the fluid,
 *   x^{N+1} = x^N + dt v^N(x^N)      (forward Euler, as the rest of the first-order step),
 * with v^N(x) the trilinear interpolation of each staggered velocity component from its own
 * faces.  A tracer lives on the rank whose block holds it and moves to a neighbour when it
 * crosses into that neighbour's block (docs/tracers.md). */
#ifndef EFSI_TRACERS_H
#define EFSI_TRACERS_H

#include "base/grid.h"
#include "base/tracer.h"
#include "decomp/decomp.h"
#include "stencils/kernels.h"

typedef struct efsi_tracers efsi_tracers;   /* the local tracers and migration buffers */

/* An empty set on decomposition d (kept by pointer: d must outlive the set) with this
 * rank's block g (copied).  The blocks must be equal (decomp_create makes them so).
 * pinned = 1 for a GPU run: the tracers live in page-locked memory, which the GPU's
 * velocity_at_tracers reads and writes in place (stencils/interpolate.h), and the set
 * waits for that kernel; 0 for a CPU run (which then touches no device, also in a build
 * with the GPU backend on a machine without a GPU). */
efsi_tracers *tracers_create(const efsi_decomp *d, const efsi_grid *g, int pinned);
void tracers_free(efsi_tracers *t);

/* Ownership: cell c_d = floor(x_d / h_d), clamped to 0..N_d-1, lies in the block
 * [offset_d, offset_d + n_d) in every direction, i.e. x in the half-open box
 * [offset h, (offset + n) h) up to the clamping at the domain's ends.  Every point of
 * [0, L]^3 has exactly one owner. */
int tracers_owns(const efsi_grid *g, const double x[3]);

/* Local: adds a tracer at x, which this rank must own (stops the run otherwise).  v = 0
 * until the first interpolation. */
void tracers_add(efsi_tracers *t, long id, int kind, const double x[3]);

long tracers_local_count(const efsi_tracers *t);

/* The local tracers, in no particular order; valid until the next add, advance, migrate or
 * scatter.  Reading the tracers (this, interpolate, gather, scatter, add) while a move is
 * under way (between tracers_advance_start and tracers_advance_finish) stops the run. */
const efsi_tracer *tracers_local(const efsi_tracers *t);

/* Local: v <- the velocity (u, v, w) at each tracer's x.  Reads the owned faces and one
 * halo layer (-1 and n), so the velocity halo of width 1 must be valid: exchanged, and at
 * walls filled by boundary_velocity (its reflected layer makes the interpolation give the
 * wall velocity on the wall). */
void tracers_interpolate(efsi_tracers *t, const efsi_kernels *k, const efsi_grid *g,
                         const double *u, const double *v, const double *w);

/* Collective: interpolate (halo of width 1 valid, as above), x += dt v, wrap periodic
 * directions into [0, L), reflect off walls (x < 0 -> -x, x > L -> 2L - x, then clamp to
 * [0, L]), then tracers_migrate.  Call it with the velocity of level N (before the step
 * overwrites it) to get x^{N+1} = x^N + dt v^N(x^N). */
void tracers_advance(efsi_tracers *t, const efsi_kernels *k, const efsi_grid *g,
                     const double *u, const double *v, const double *w,
                     double dt);

/* tracers_advance in two halves, so that a GPU run never waits for the tracers: _start
 * queues the interpolation (local; on a GPU a kernel on the compute stream, no wait), and
 * the collective _finish, called once the GPU has long done it (the step's reduction waited
 * for it; an output), waits for that kernel only and moves and migrates the tracers -- the
 * same arithmetic, so the same positions as tracers_advance.  _finish without a move under way
 * does nothing; _cancel drops a move under way (a run that blew up). */
void tracers_advance_start(efsi_tracers *t, const efsi_kernels *k, const efsi_grid *g,
                           const double *u, const double *v, const double *w, double dt);
void tracers_advance_finish(efsi_tracers *t);
void tracers_advance_cancel(efsi_tracers *t);

/* Collective: send each tracer that left the block to its owner, direction by direction
 * (x, then y, then z), so one that crossed an edge or a corner arrives in three hops.  A
 * tracer may move at most into the neighbouring block in each direction per call; a
 * farther jump stops the run with a message naming the tracer. */
void tracers_migrate(efsi_tracers *t);

/* Collective: every tracer on rank 0, sorted by id, in *all (malloc'd there, free() it);
 * *n their number on rank 0, 0 elsewhere (*all = NULL elsewhere). */
void tracers_gather(const efsi_tracers *t, long *n, efsi_tracer **all);

/* Collective: replaces the local tracers by those of all[0..n) (valid on rank 0 only; n is
 * taken from rank 0) that this rank owns. */
void tracers_scatter(efsi_tracers *t, long n, const efsi_tracer *all);

/* Collective: the number of tracers on all ranks. */
long tracers_total(const efsi_tracers *t);

#endif
