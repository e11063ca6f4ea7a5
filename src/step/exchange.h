/* The solver's exchanges (docs/parallel.md): the halos and wall layers of the state, of v*
 * and of scalars, each timed as halo exchange, and the overlap of the state's exchange with
 * the interior of the next step's work (performance.overlap).  The time step
 * (src/step/solver.c) names what it exchanges when; how, and what runs under it, is here. */
#ifndef EFSI_EXCHANGE_H
#define EFSI_EXCHANGE_H

#include "src/step/step_context.h"

/* Start the exchange (width EFSI_HALO) of the state's velocity, volume fractions and B. */
void exchange_state_start(efsi_solver *sv, efsi_state *s);
/* Finish it for a state solver_step made: the wall layers at the state's time, then the
 * tracers' move with its velocity is started (solver_move_tracers; finished by the next
 * step's reduction or by solver_sync).  Nothing when no exchange is in flight. */
void exchange_state_finish(efsi_solver *sv, efsi_state *s);

/* Work on the box lo <= (i, j, k) < hi of owned cells. */
typedef void (*efsi_box_work)(efsi_solver *sv, efsi_state *s, const int lo[3], const int hi[3]);

/* Run work on the owned cells, reading up to EFSI_HALO cells around them, with the state's
 * halos valid: when its exchange is in flight (performance.overlap), on the interior first,
 * EFSI_HALO cells away from the block's y and z faces, then the exchange is finished and
 * the boundary shell follows slab by slab; otherwise after the exchange, on the whole
 * block.  Work writes only inside its box, so the result does not depend on the split.
 * On a GPU the interior's kernels are only queued on the compute stream: they run while
 * the halo stream packs, copies and unpacks and the host drives MPI (or NCCL moves the
 * faces by itself), and the shell's kernels wait for the unpacking by an event (docs/gpu.md,
 * "Overlap"). */
void exchange_state_around(efsi_solver *sv, efsi_state *s, efsi_box_work work);

/* The exchange (width 2) of v* (the solver's field v_star), and its wall layers at time t:
 * started before the solid's transport, finished after it. */
void exchange_velocity_start(efsi_solver *sv);
void exchange_velocity_finish(efsi_solver *sv, const efsi_grid *g, double t);

/* Exchange and even wall reflection of n cell-centred fields of grid g, width 1..3. */
void exchange_scalars(efsi_solver *sv, const efsi_grid *g, double **f, int n, int width);

/* Fill the halos (width EFSI_HALO) and wall layers of the state's velocity, volume
 * fractions and B, and of p (width 1), at the state's time (solver_fill_halos): an
 * exchange still in flight is finished first, the tracers left where they are. */
void exchange_state_fill(efsi_solver *sv, efsi_state *s);

/* Wall velocity u_wall(t) = U sin(omega t) (omega = 0: U) of every wall at time t: the
 * velocity the wall layers are filled with (and the diagnostics' wall shear). */
void wall_velocity(const efsi_config *c, double t, double u_wall[3][2]);

#endif
