/* One time step (docs/method.md, "The time step"), first order in time:
 *   v*      = v^N + dt (-v.grad v + div(2 mu dev D + sum G phi^N dev B^N)/rho + f e_x/rho
 *                       - grad p^N/rho)
 *   solid   phi^{N+1}, B^{N+1} from v^N (src/step/solid.c), the membranes' bands
 *   D*      = rho div v*
 *   ACM:  (a, b) minimise <(D* + a lap D* + b lap p^N)^2>, b >= 0, from ONE reduction;
 *         dp = -(b p^N + a D*)/dt,  p^{N+1} = p^N + dp - <p^N + dp>
 *   SMAC: lap dp = D* / dt exactly (FFT/DCT + tridiagonal),  p^{N+1} = p^N + dp
 *   v^{N+1} = v* - (dt/rho) grad dp
 * In flow-rate mode the drive f is set after the reduction so that <u^{N+1}> is the bulk
 * velocity: D* does not depend on a uniform shift of u, so the same reduction serves.
 * Every kernel runs through RUN, which charges its time and its counted operations to its
 * family (stencils/kernel_list.h, src/case/timers.h); the exchanges are src/step/exchange.c's. */
#include "src/step/solver.h"

#include <math.h>
#include <string.h>

#include "base/errors.h"
#include "decomp/boundary.h"
#include "decomp/reduce.h"
#include "src/step/exchange.h"
#include "src/step/solid.h"
#include "stencils/location.h"

void solver_create(efsi_solver *sv, const efsi_case *cs, efsi_decomp *d, const efsi_grid *g,
                   double dt, const efsi_backend *b)
{
  memset(sv, 0, sizeof *sv);
  sv->cs = cs;
  sv->decomp = d;
  sv->dt = dt;
  sv->backend = b;
  sv->k = b->k;
  sv->layers = b->layers;
  char err[256];
  if (fields_layout(&sv->fields, cs->nmat, cs->viscosity_contrast, cs->membranes, err,
                    sizeof err))
    efsi_abort(EFSI_EXIT_RUNTIME, "src/case/solver_arrays.h: %s", err);
  for (int i = 0; i < sv->fields.count; i++) sv->fields.array[i] = backend_field_alloc(b, g);
  sv->scratch = scratch_of(b->gpu);
  size_t work, staging;
  kernel_scratch_bytes(g, b->gpu, &work, &staging);
  scratch_reserve(&sv->scratch, work, staging);
  /* one message per face carries the velocity, every phi_m and B, by the path the backend
   * planned for it (performance.halo_path) */
  sv->halo = halo_create(g, d, cs->exchanged_arrays, sv->layers, backend_halo_plan(b));
  if (cs->smac) sv->poisson = b->poisson->create(g, d);
  timers_reset(&sv->timers, cs->nmat, grid_cells(g));
  sv->timers.device = b->gpu;
}

void solver_free(efsi_solver *sv)
{
  const efsi_backend *b = sv->backend;
  if (!b) return;
  for (int i = 0; i < sv->fields.count; i++) backend_field_free(b, sv->fields.array[i]);
  scratch_free(&sv->scratch);
  if (sv->halo) halo_free(sv->halo);
  if (sv->poisson) b->poisson->free(sv->poisson);
  memset(sv, 0, sizeof *sv);
}

void solver_fill_halos(efsi_solver *sv, efsi_state *s) { exchange_state_fill(sv, s); }

void solver_sync(efsi_solver *sv, efsi_state *s)
{
  exchange_state_finish(sv, s);
  if (sv->tracers) tracers_advance_finish(sv->tracers);
}

void solver_move_tracers(efsi_solver *sv, efsi_tracers *t) { sv->tracers = t; }

/* A phase of the step begins (src/case/solver_arrays.h): a debug build checks that the
 * names live in it hold arrays of their own, none of them the state's. */
static void phase_begins(efsi_solver *sv, efsi_state *s, int phase)
{
#ifdef EFSI_DEBUG
  double **list[STATE_MAX_ARRAYS], *state[STATE_MAX_ARRAYS];
  const int n = state_arrays(s, list);
  for (int i = 0; i < n; i++) state[i] = *list[i];
  char err[256];
  if (fields_check_phase(&sv->fields, phase, state, n, err, sizeof err))
    efsi_abort(EFSI_EXIT_RUNTIME, "%s", err);
#else
  (void)sv;
  (void)s;
  (void)phase;
#endif
}

int acm_parameters(double A1, double A2, double A3, double B1, double B2, double *a, double *b)
{
  *a = 0.0;
  *b = 0.0;
  /* A2 = <(lap D*)^2> = 0 means D* is uniform (zero for a periodic or walled box): nothing
   * to project, e.g. a fluid at rest under a uniform force.  A1 = <|grad D*|^2> >= 0. */
  if (!(A2 > 0.0) || !(A1 > 0.0)) return 1;
  const double den = A2 * A3 - B2 * B2;
  /* The 2x2 system is used only when it is safely non-singular (Cauchy-Schwarz makes den
   * >= 0; near-parallel lap D* and lap p leave it to round-off) and gives b >= 0, a > 0. */
  if (den > 1e-12 * A2 * A3) {
    const double aa = (A1 * A3 + B1 * B2) / den;
    const double bb = -(A1 * B2 + A2 * B1) / den;
    if (bb >= 0.0 && aa > 0.0) {
      *a = aa;
      *b = bb;
      return 0;
    }
  }
  *a = A1 / A2;
  return 0;
}

/* v* = v^N + dt (F + f e_x / rho) - (dt/rho) grad p^N on the box [lo, hi) of owned cells,
 * in v_star, so that v^N stays for the solid's transport: the stress of level N, viscous
 * and G_m phi_m^N dev(B^N) (with sum_g_phi = sum_m G_m phi_m), with a viscosity contrast
 * its excess, and the membranes' tension (docs/membrane.md), then v* in one pass per
 * component, and the membranes' bending force added to it (kappa formed first on the box
 * and two rings round it).  The kernels read up to three cells around the box (WENO5; the stress is
 * formed on the box and one layer around it, where neighbouring boxes form the same
 * values). */
static void momentum(efsi_solver *sv, efsi_state *s, const int lo[3], const int hi[3])
{
  efsi_grid view;
  ptrdiff_t sh;
  grid_view(&s->grid, lo, hi, &view, &sh);
  const efsi_grid *g = &view;
  const efsi_config *c = sv->cs->config;
  const double body = c->drive_mode == DRIVE_FLOWRATE ? 0.0 : c->pressure_gradient;
  double *stress[6], *b[6], *phi[EFSI_MAX_MATERIALS], *v_star[3];
  for (int t = 0; t < 6; t++) {
    stress[t] = FIELDS(sv, stress)[t] + sh;
    b[t] = s->nmat > 0 ? s->b[t] + sh : NULL;
  }
  for (int m = 0; m < s->nmat; m++) phi[m] = s->phi[m] + sh;
  for (int d = 0; d < 3; d++) v_star[d] = FIELDS(sv, v_star)[d] + sh;
  double *const gphi = s->nmat > 0 ? FIELD(sv, sum_g_phi) + sh : NULL;
  if (s->nmat > 0) RUN(sv, modulus_sum, g, s->nmat, sv->cs->materials.modulus, phi, gphi);
  RUN(sv, stress_total, g, c->viscosity, s->nmat, b, s->u + sh, s->v + sh, s->w + sh, gphi,
      stress);
  if (sv->cs->viscosity_contrast) {   /* mu = mu_f + sum_m (mu_m - mu_f) phi_m */
    double *const excess = FIELD(sv, mu_excess) + sh;
    RUN(sv, modulus_sum, g, s->nmat, sv->cs->materials.viscosity_excess, phi, excess);
    RUN(sv, stress_contrast_add, g, excess, s->u + sh, s->v + sh, s->w + sh, stress);
  }
  solid_membranes mem;
  const int nmem = solid_membranes_of(sv, s, sh, &mem);
  if (nmem > 0)   /* the membranes' tension over their bands */
    RUN(sv, membrane_stress_add, g, nmem, mem.level, mem.param[MATERIAL_PARAM_SURFACE_MODULUS],
        mem.param[MATERIAL_PARAM_DILATATION], mem.param[MATERIAL_PARAM_LAW], b, stress);
  RUN(sv, momentum_predictor, g, sv->dt, 1.0 / c->density, body / c->density,
      -sv->dt / c->density, stress, s->p + sh, s->u + sh, s->v + sh, s->w + sh, v_star[0],
      v_star[1], v_star[2]);
  if (nmem > 0) {   /* the membranes' bending force, added to v*, from kappa on two rings */
    efsi_grid ring;
    ptrdiff_t rs;
    const int rlo[3] = {-2, -2, -2}, rhi[3] = {g->n[0] + 2, g->n[1] + 2, g->n[2] + 2};
    grid_view(g, rlo, rhi, &ring, &rs);
    double *kappa[EFSI_MAX_MATERIALS], *level_r[EFSI_MAX_MATERIALS], *kappa_r[EFSI_MAX_MATERIALS];
    for (int m = 0; m < nmem; m++) {
      kappa[m] = FIELDS(sv, kappa)[m] + sh;
      kappa_r[m] = kappa[m] + rs;
      level_r[m] = mem.level[m] + rs;
    }
    RUN(sv, level_kappa, &ring, nmem, level_r, kappa_r);
    RUN(sv, membrane_bending_add, g, nmem, mem.level, kappa, mem.param[MATERIAL_PARAM_BENDING],
        sv->dt / c->density, v_star[0], v_star[1], v_star[2]);
  }
}

/* The optical tweezers' pull on the one RBC at rbc.center (docs/membrane.md, "Stretching an
 * RBC"), added to v* on the owned faces of its axis once the state's halos are in: the two
 * patches' areas from psi^N (one global sum), then F over each patch.  The RBC is the first
 * material, so its level is the first membrane's. */
static void membrane_stretch(efsi_solver *sv, efsi_state *s)
{
  const efsi_config *c = sv->cs->config;
  if (!(c->rbc_stretch > 0)) return;
  solid_membranes mem;
  if (solid_membranes_of(sv, s, 0, &mem) == 0) return;
  const double radius = 0.5 * c->rbc_stretch_contact;
  double pairs[4];
  RUN(sv, membrane_patch_sums, &s->grid, mem.level[0], c->rbc_center, c->rbc_stretch_axis,
      radius, &sv->scratch, pairs);
  timers_switch(&sv->timers, TIMER_ALLREDUCE);
  global_sum_dd(sv->decomp, pairs, 2);
  timers_pause(&sv->timers);
  if (!(pairs[0] > 0.0 && pairs[2] > 0.0)) return;   /* no band inside a patch */
  double *const fa = FIELDS(sv, v_star)[c->rbc_stretch_axis];
  RUN(sv, membrane_stretch_add, &s->grid, mem.level[0], c->rbc_center, c->rbc_stretch_axis,
      radius, c->rbc_stretch / pairs[0], c->rbc_stretch / pairs[2], sv->dt / c->density, fa);
}

/* v* becomes the state's velocity; v^N's arrays are the rate arrays now (v_n). */
static void take_velocity(efsi_solver *sv, efsi_state *s)
{
  double **const velocity[3] = {&s->u, &s->v, &s->w};
  FIELDS_SWAP(sv, v_star, velocity);
}

/* D* = rho div v* on owned cells and (ACM) on the first halo layer too, from the width-2
 * halo of v*: the same values the neighbours compute for their own cells, so D* needs no
 * exchange; at walls the layer is then the even reflection, as for any scalar. */
static void divergence_star(efsi_solver *sv, efsi_state *s)
{
  const efsi_grid *g = &s->grid;
  const int acm = !sv->cs->smac;
  efsi_grid ring;
  ptrdiff_t shift;
  const int lo[3] = {-acm, -acm, -acm};
  const int hi[3] = {g->n[0] + acm, g->n[1] + acm, g->n[2] + acm};
  grid_view(g, lo, hi, &ring, &shift);
  double *const div_star = FIELD(sv, div_star);
  RUN(sv, divergence, &ring, sv->cs->config->density, s->u + shift, s->v + shift,
      s->w + shift, div_star + shift);
  if (acm) boundary_even(sv->layers, g, div_star, 1);
}

/* The step's one global reduction: the sums of D*, its Laplacian, p^N's and u's (SMAC: D*,
 * D*^2, p and u only; acm_sums forms the Laplacians), as double-double pairs, the same bits
 * on any process grid; one pair more carries the ranks' stop votes (src/run/stop.h), so a stop
 * needs no collective of its own.  sums_start queues the local sums (the GPU's come as its
 * queue reaches them, so that the step queues B's update before it waits); global_sums
 * waits for them and adds the ranks'.  It returns nonzero when the sums are not finite or
 * past 1e150, a blow-up on its way (their products in acm_parameters would overflow before
 * anything is non-finite). */
static void sums_start(efsi_solver *sv, efsi_state *s)
{
  RUN(sv, acm_sums, &s->grid, !sv->cs->smac, FIELD(sv, div_star), s->p, s->u, &sv->scratch,
      sv->pairs);
}

static int global_sums(efsi_solver *sv, double sums[SUM_COUNT])
{
  double *const pairs = sv->pairs;
  sv->k->sums_wait(&sv->scratch);   /* this rank's sums, queued by sums_start */
  if (sv->cs->config->sync_timers) {   /* the waiting for the slowest rank, apart */
    timers_switch(&sv->timers, TIMER_SYNC);
    MPI_Barrier(sv->decomp->comm);
  }
  timers_switch(&sv->timers, TIMER_ALLREDUCE);
  pairs[2 * SUM_COUNT] = sv->stop_vote;
  pairs[2 * SUM_COUNT + 1] = 0;
  global_sum_dd(sv->decomp, pairs, SUM_COUNT + 1);
  timers_pause(&sv->timers);
  sv->stop_agreed = pairs[2 * SUM_COUNT] > 0;
  int finite = 1;
  for (int c = 0; c < SUM_COUNT; c++) {
    sums[c] = pairs[2 * c];   /* the rounded sums */
    finite &= isfinite(sums[c]) && fabs(sums[c]) <= 1e150;
  }
  return !finite;
}

/* The drive: the pressure gradient as given, or in flow-rate mode the uniform force that
 * brings <u> to the bulk velocity (a shift of v*'s u). */
static void drive(efsi_solver *sv, efsi_state *s, const double sums[SUM_COUNT])
{
  const efsi_config *c = sv->cs->config;
  if (c->drive_mode != DRIVE_FLOWRATE) {
    s->drive_force = c->pressure_gradient;
    return;
  }
  const efsi_grid *g = &s->grid;
  const double cells = (double)g->global_n[0] * g->global_n[1] * g->global_n[2];
  const double shift = c->bulk_velocity - sums[SUM_U] / cells;
  s->drive_force = c->density * shift / sv->dt;
  RUN(sv, velocity_shift, g, 0, shift, s->u);
}

/* ACM: (a, b) from the sums; dp = -(b p^N + a D*)/dt and p^{N+1} = p^N + dp - <p^{N+1}> on
 * the owned cells and one halo layer (p^N's and D*'s are valid), so the correction needs
 * no exchange, and v^{N+1} = v* - (dt/rho) grad dp, in one pass (pressure_correct: p^{N+1}
 * into p_next, which then changes places with the state's p).  The step's figures go to
 * sv->info. */
static void pressure_acm(efsi_solver *sv, efsi_state *s, const double sums[SUM_COUNT])
{
  const efsi_grid *g = &s->grid;
  const double dt = sv->dt;
  const double cells = (double)g->global_n[0] * g->global_n[1] * g->global_n[2];
  const double A1 = -sums[SUM_D_LAPD] / cells, A2 = sums[SUM_LAPD2] / cells;
  const double A3 = sums[SUM_LAPP2] / cells, B1 = sums[SUM_D_LAPP] / cells;
  const double B2 = sums[SUM_LAPD_LAPP] / cells;
  efsi_step_info *info = &sv->info;
  double a, b;
  info->degenerate = acm_parameters(A1, A2, A3, B1, B2, &a, &b);
  info->a = a;
  info->b = b;
  info->beta = sqrt(a) / dt;
  info->gamma = a > 0.0 ? b / a : 0.0;
  info->div2_predicted = info->div2_before - 2.0 * a * A1 + 2.0 * b * B1 + a * a * A2
                       + 2.0 * a * b * B2 + b * b * A3;
  /* <p^N + dp> from the sums: dp = -(b p + a D*)/dt is linear in them.  A mean within the
   * round-off of the sums of |p| and |dp| is noise: it is left alone, so that its last
   * bits -- which depend on the order the cells were added in -- never enter p, and a
   * run gives the same bits on any process grid, thread count and backend. */
  const double mean_p = (sums[SUM_P] - (b * sums[SUM_P] + a * sums[SUM_D]) / dt) / cells;
  const double noise = 1e-14 * (sums[SUM_ABS_P] + (b * sums[SUM_ABS_P] + a * sums[SUM_ABS_D]) / dt)
                     / cells;
  info->mean_p = fabs(mean_p) > noise ? mean_p : 0.0;
  const double rho = sv->cs->config->density;
  RUN(sv, pressure_correct, g, a / dt, b / dt, info->mean_p, -dt / rho, s->p,
      FIELD(sv, div_star), FIELD(sv, p_next), s->u, s->v, s->w);
  double **const p[1] = {&s->p};
  FIELDS_SWAP(sv, p_next, p);
}

/* SMAC: lap dp = D* / dt exactly (the backend's Poisson solver; D* becomes the right-hand
 * side in place), dp's halo, p^{N+1} = p^N + dp, v^{N+1} = v* - (dt/rho) grad dp. */
static void pressure_smac(efsi_solver *sv, efsi_state *s)
{
  const efsi_grid *g = &s->grid;
  double *const div_star = FIELD(sv, div_star);
  RUN(sv, field_scale, g, 1.0 / sv->dt, div_star);
  timers_switch(&sv->timers, TIMER_PROJECTION);
  sv->backend->poisson->solve(sv->poisson, div_star, FIELD(sv, dp));
  exchange_scalars(sv, g, FIELDS(sv, dp), 1, 1);
  RUN(sv, pressure_update, g, 1, 0.0, FIELD(sv, dp), s->p);
  RUN(sv, gradient_add, g, -sv->dt / sv->cs->config->density, FIELD(sv, dp), s->u, s->v,
      s->w);
}

int solver_step(efsi_solver *sv, efsi_state *s)
{
  const efsi_config *c = sv->cs->config;
  memset(&sv->info, 0, sizeof sv->info);
  /* v*, on the interior first while the state's halos arrive (performance.overlap) */
  phase_begins(sv, s, PHASE_MOMENTUM);
  exchange_state_around(sv, s, momentum);
  membrane_stretch(sv, s);
  /* phi^{N+1} with v^N, while v* is exchanged (width 2) */
  phase_begins(sv, s, PHASE_FRACTIONS);
  exchange_velocity_start(sv);
  solid_fractions(sv, s);
  exchange_velocity_finish(sv, &s->grid, s->time + sv->dt);
  take_velocity(sv, s);
  /* D* = rho div v*, and the one global reduction: B^{N+1} with v^N (now v_n, in the
   * rate arrays) while its sums come */
  phase_begins(sv, s, PHASE_DIVERGENCE);
  divergence_star(sv, s);
  sums_start(sv, s);
  phase_begins(sv, s, PHASE_TENSOR);
  solid_tensor(sv, s);
  double sums[SUM_COUNT];
  if (global_sums(sv, sums)) {
    if (sv->tracers) tracers_advance_cancel(sv->tracers);   /* a run that blew up */
    return 1;
  }
  const double cells = (double)s->grid.global_n[0] * s->grid.global_n[1] * s->grid.global_n[2];
  sv->info.div2_before = sums[SUM_D2] / cells;
  drive(sv, s, sums);
  /* the membranes' bands: B from the foot points, the levels' volume and distance */
  phase_begins(sv, s, PHASE_BANDS);
  solid_bands(sv, s);
  /* dp, p^{N+1} and v^{N+1} = v* - (dt/rho) grad dp */
  phase_begins(sv, s, sv->cs->smac ? PHASE_SMAC : PHASE_ACM);
  if (sv->cs->smac) pressure_smac(sv, s);
  else pressure_acm(sv, s, sums);
  timers_pause(&sv->timers);
  timers_step(&sv->timers);
  s->time += sv->dt;
  s->step++;
  /* the new state's exchange: left in flight for the next step's interior (overlap) */
  exchange_state_start(sv, s);
  /* the tracers' move with v^N, queued when v^N's exchange ended: its velocities came
   * before the reduction, and the host moves them while the GPU works on this step's end */
  if (sv->tracers) tracers_advance_finish(sv->tracers);
  if (!c->overlap) exchange_state_finish(sv, s);
  phase_begins(sv, s, PHASE_BETWEEN);
  return 0;
}
