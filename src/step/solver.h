/* The time step (docs/method.md, "The time step"): momentum without the new pressure, the
 * solid's transport, then either the adaptive artificial-compressibility update (one global
 * reduction) or the exact SMAC projection.  The solver (src/step/step_context.h) owns its
 * arrays, named by what they hold (src/step/fields.h), and its kernels' scratch, allocated
 * once; it calls its exchanges (src/step/exchange.c) and the solid's transport
 * (src/step/solid.c), which see only its context. */
#ifndef EFSI_SOLVER_H
#define EFSI_SOLVER_H

#include "src/step/step_context.h"

/* Collective: allocate the arrays (src/case/solver_arrays.h) and the scratch for the case
 * on block g.  Running out of memory stops the run (base/errors.h). */
void solver_create(efsi_solver *sv, const efsi_case *cs, efsi_decomp *d, const efsi_grid *g,
                   double dt, const efsi_backend *b);
void solver_free(efsi_solver *sv);

/* Advance s by one step dt (ACM or SMAC by pressure.method).  On entry the halos of the
 * velocity, phi and B (width 3) and of p (width 1) are valid, or the exchange of the first
 * three is in flight from the step before.  On return the halos of p are valid; with
 * performance.overlap the exchange of the new velocity, phi and B is left in flight, to be
 * completed under the next step's interior work or by solver_sync.  The step's one
 * reduction also carries the ranks' stop votes (src/run/stop.h): sv->stop_vote in,
 * sv->stop_agreed out.  Returns nonzero when the global sums are not finite (the caller
 * diagnoses the blow-up). */
int solver_step(efsi_solver *sv, efsi_state *s);

/* (a, b) minimising <(D + a X + b Y)^2> with b >= 0 from the five sums of docs/method.md,
 * "The time step" (A1 = -<D X>, A2 = <X^2>, A3 = <Y^2>, B1 = <D Y>, B2 = <X Y>); a = b = 0 when
 * there is nothing to project.  Returns 1 in that degenerate case. */
int acm_parameters(double A1, double A2, double A3, double B1, double B2, double *a, double *b);

/* Between steps: the state's halos (exchanged by src/step/exchange.c) and the tracers. */

/* Fill the halos (width EFSI_HALO) and wall layers of the velocity, volume fractions and B,
 * and of p (width 1), at the state's time: what every step expects on entry (after init
 * or restart). */
void solver_fill_halos(efsi_solver *sv, efsi_state *s);

/* Complete the exchange left in flight by the last step and the tracers' move (nothing when
 * there is none): call it before reading any halo, the tracers or writing the state.
 * Collective. */
void solver_sync(efsi_solver *sv, efsi_state *s);

/* The tracers advance by dt with the velocity of every state solver_step makes, once its
 * halos are valid (inside the next step, in solver_sync, or at the end of the step without
 * overlap), before that velocity is replaced: the interpolation is queued then, and the
 * move is finished at the end of the next step, after its reduction waited for the GPU
 * (or in solver_sync), so that a GPU is not left idle while the host moves them.  NULL:
 * none. */
void solver_move_tracers(efsi_solver *sv, efsi_tracers *t);

#endif
