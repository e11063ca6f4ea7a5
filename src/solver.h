/* The time step (docs/method.md, "The time step") for the fluid: momentum without the new pressure,
 * then either the adaptive artificial-compressibility update (one global reduction) or the
 * exact SMAC projection.  The solver owns its work arrays, allocated once. */
#ifndef EFSI_SOLVER_H
#define EFSI_SOLVER_H

#include "src/backend.h"
#include "src/config.h"
#include "decomp/decomp.h"
#include "decomp/halo.h"
#include "src/state.h"
#include "src/timers.h"
#include "src/tracers.h"
#include "stencils/kernels.h"

struct efsi_poisson;
struct efsi_poisson_cuda;

/* What the last step did, from its one reduction. */
typedef struct {
  double beta, gamma;        /* ACM parameters (0 when the step had nothing to project) */
  double a, b;               /* (beta dt)^2 and a gamma */
  double div2_before;        /* <(D*)^2> */
  double div2_predicted;     /* <(D^{N+1})^2> predicted from the sums */
  double mean_p;             /* <p^{N+1}> before its removal */
  int degenerate;            /* 1 when A2 = 0: dp = 0 for the step */
} efsi_step_info;

typedef struct {
  const efsi_config *cfg;
  const efsi_backend *backend;   /* where the fields live and the kernels run */
  const efsi_kernels *k;         /* the backend's kernels (stencils/kernels.h) */
  const efsi_layer_ops *layers;  /* and its halo and wall-layer moves (decomp/layers.h) */
  efsi_decomp *decomp;
  efsi_halo *halo;
  struct efsi_poisson *poisson;  /* SMAC on the host */
  struct efsi_poisson_cuda *poisson_gpu;   /* SMAC on the GPU */
  double dt;
  int nmat;                      /* materials of the state, with their shear moduli */
  double modulus[EFSI_MAX_MATERIALS];
  int wall_material, rbc_material;   /* the indices of "wall" and "rbc" (-1: absent) */
  double *fu, *fv, *fw;          /* momentum right-hand side (acceleration) */
  double *stress[6];             /* sxx, syy, szz at centres; sxy, sxz, syz on edges */
  double *div;                   /* D* = rho div v* */
  double *lap_div, *lap_p;       /* compact Laplacians of D* and p */
  double *dp;                    /* pressure increment; sum_m G_m phi_m while the stress is formed */
  double *phi_rate[EFSI_MAX_MATERIALS];  /* -v.grad phi_m (the rate of B uses stress[]) */
  double *plane_sums;            /* per-k-plane partial sums: a fixed summation order */
  efsi_step_info info;
  efsi_timers timers;
  int state_pending;             /* the state's exchange is in flight (performance.overlap) */
  long interior_first;           /* steps whose momentum began on the interior under it */
  efsi_tracers *tracers;         /* moved with every new state (solver_move_tracers) */
  double stop_vote;              /* this rank's wish to stop (1) or not (0), set before a step */
  int stop_agreed;               /* some rank's vote in the last step's reduction was 1 */
} efsi_solver;

/* Allocate the work arrays for the case's materials (src/materials.h: the same order as
 * state_alloc_case).  Returns nonzero when memory runs out. */
int solver_create(efsi_solver *sv, const efsi_config *c, efsi_decomp *d, const efsi_grid *g,
                  double dt, const efsi_backend *b);
void solver_free(efsi_solver *sv);

/* Wall velocity u_wall(t) = U sin(omega t) (omega = 0: U) of every wall at time t. */
void solver_wall_velocity(const efsi_config *c, double t, double u_wall[3][2]);

/* Fill the halos (width EFSI_HALO) and wall layers of the velocity, volume fractions and B,
 * and of p (width 1), at the state's time: what every step expects on entry (after init
 * or restart). */
void solver_fill_halos(efsi_solver *sv, efsi_state *s);

/* Advance s by one step dt (ACM or SMAC by pressure.method).  The step's one reduction also
 * sums the ranks' sv->stop_vote into sv->stop_agreed (docs/building.md, "Long runs on
 * clusters"), so every rank learns of a stop after the same step without a collective of
 * its own.  On entry the halos of the
 * velocity, phi and B (width 3) and of p (width 1) are valid, or the exchange of the first
 * three is in flight from the step before.  On return the halos of p are valid; with
 * performance.overlap the exchange of the new velocity, phi and B is left in flight, to be
 * completed under the next step's interior work or by solver_sync.  Returns nonzero when the
 * global sums are not finite (the caller diagnoses the blow-up). */
int solver_step(efsi_solver *sv, efsi_state *s);

/* Complete the exchange left in flight by the last step (nothing when there is none): call
 * it before reading any halo or writing the state.  Collective. */
void solver_sync(efsi_solver *sv, efsi_state *s);

/* The tracers advance by dt with the velocity of every state solver_step makes, once its
 * halos are valid (inside the next step, in solver_sync, or at the end of the step without
 * overlap), before that velocity is replaced.  NULL: none. */
void solver_move_tracers(efsi_solver *sv, efsi_tracers *t);

/* Move the exchange in flight on sv->halo to its next direction (timed as halo exchange). */
void solver_advance_exchange(efsi_solver *sv);

/* (a, b) minimising <(D + a X + b Y)^2> with b >= 0 from the five sums of docs/method.md,
 * "The time step" (A1 = -<D X>, A2 = <X^2>, A3 = <Y^2>, B1 = <D Y>, B2 = <X Y>); a = b = 0 when
 * there is nothing to project.  Returns 1 in that degenerate case. */
int acm_parameters(double A1, double A2, double A3, double B1, double B2, double *a, double *b);

#endif
