/* The time step (docs/method.md, "The time step"): momentum without the new pressure, the
 * solid's transport, then either the adaptive artificial-compressibility update (one global
 * reduction) or the exact SMAC projection.  The solver owns its work arrays and its
 * kernels' scratch, allocated once; its exchanges are in src/step/exchange.c. */
#ifndef EFSI_SOLVER_H
#define EFSI_SOLVER_H

#include "base/device.h"
#include "decomp/decomp.h"
#include "decomp/halo.h"
#include "src/case/backend.h"
#include "src/case/case.h"
#include "src/case/solver_arrays.h"
#include "src/case/state.h"
#include "src/case/timers.h"
#include "src/bodies/tracers.h"
#include "stencils/kernels.h"

/* What the last step did, from its one reduction. */
typedef struct {
  double beta, gamma;        /* ACM parameters (0 when the step had nothing to project) */
  double a, b;               /* (beta dt)^2 and a gamma */
  double div2_before;        /* <(D*)^2> */
  double div2_predicted;     /* <(D^{N+1})^2> predicted from the sums */
  double mean_p;             /* <p^{N+1}> before its removal */
  int degenerate;            /* 1 when A2 = 0: dp = 0 for the step */
} efsi_step_info;

typedef struct efsi_solver {
  const efsi_case *cs;
  const efsi_backend *backend;   /* where the fields live and the kernels run */
  const efsi_kernels *k;         /* the backend's kernels (stencils/kernels.h) */
  const efsi_layer_ops *layers;  /* and its halo and wall-layer moves (decomp/layers.h) */
  efsi_decomp *decomp;
  efsi_halo *halo;
  void *poisson;                 /* SMAC: the backend's Poisson solver (backend.h) */
  double dt;
  double *fu, *fv, *fw;          /* v* */
  double *work[6];               /* the stress (sxx, syy, szz at centres; sxy, sxz, syz on
                                    edges), then B^{N+1}, then D* and dp (SOLVER_ARRAYS) */
  double *div, *dp;              /* D* = rho div v* (and the diagnostics' divergence between
                                    steps): phi_next[0] with a solid (phi^N's, free once the
                                    new phi is the state's, while work[] takes B^{N+1}), else
                                    work[0]; the pressure increment: work[1] */
  double *phi_next[EFSI_MAX_MATERIALS];  /* phi_m^{N+1} until it becomes the state's; the
                                    first holds sum_m G_m phi_m while the stress is formed */
  efsi_scratch scratch;          /* the kernels' scratch, reserved at creation */
  efsi_step_info info;
  efsi_timers timers;
  long interior_first;           /* steps whose momentum began on the interior (overlap) */
  efsi_tracers *tracers;         /* moved with every new state (solver_move_tracers) */
  double pairs[2 * (SUM_COUNT + 1)];  /* the step's sums (acm_sums) and the stop votes */
  double stop_vote;              /* this rank's wish to stop (1) or not (0), set before a step */
  int stop_agreed;               /* some rank's vote in the last step's reduction was 1 */
} efsi_solver;

/* Run kernel `name` of the solver's backend on grid g (its first argument), its time and
 * its counted operations charged to the kernel's family (stencils/kernel_list.h). */
#define RUN(sv, name, g, ...) \
  (timers_kernel(&(sv)->timers, KERNEL_ID_##name, (g)), (sv)->k->name((g), __VA_ARGS__))

/* Collective: allocate the work arrays and the scratch for the case on block g.  Running
 * out of memory stops the run (base/errors.h). */
void solver_create(efsi_solver *sv, const efsi_case *cs, efsi_decomp *d, const efsi_grid *g,
                   double dt, const efsi_backend *b);
void solver_free(efsi_solver *sv);

/* div and dp pointed at the arrays they use (efsi_solver): at creation, and whenever
 * work[] or phi_next[] change hands (src/step/solid.c, the pressure's update). */
void solver_projection_arrays(efsi_solver *sv);

/* Wall velocity u_wall(t) = U sin(omega t) (omega = 0: U) of every wall at time t. */
void solver_wall_velocity(const efsi_config *c, double t, double u_wall[3][2]);

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

/* The solver's exchanges (src/step/exchange.c). */

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
