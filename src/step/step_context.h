/* What the parts of the time step share: the solver's backend, kernels, exchanges, timers,
 * scratch and fields by name (src/step/fields.h), and RUN, which times every kernel call.
 * The step (src/step/solver.c) calls its parts (src/step/exchange.c, src/step/solid.c);
 * they see this context, never the step, so no part calls back up. */
#ifndef EFSI_STEP_CONTEXT_H
#define EFSI_STEP_CONTEXT_H

#include "base/device.h"
#include "decomp/decomp.h"
#include "decomp/halo.h"
#include "src/bodies/tracers.h"
#include "src/case/backend.h"
#include "src/case/case.h"
#include "src/case/state.h"
#include "src/case/timers.h"
#include "src/step/fields.h"
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
  efsi_fields fields;            /* the step's arrays by name: FIELD(sv, v_star), ... */
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

#endif
