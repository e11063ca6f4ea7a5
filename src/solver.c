/* One time step (docs/method.md, "The time step"), first order in time:
 *   solid   phi^{N+1}, B^{N+1} from v^N (solid.c)
 *   v*      = v^N + dt (-v.grad v + div(2 mu dev D + sum G phi^N dev B^N)/rho + f e_x/rho
 *                       - grad p^N/rho)
 *   D*      = rho div v*
 *   ACM:  (a, b) minimise <(D* + a lap D* + b lap p^N)^2>, b >= 0, from ONE reduction;
 *         dp = -(b p^N + a D*)/dt,  p^{N+1} = p^N + dp - <p^N + dp>
 *   SMAC: lap dp = D* / dt exactly (FFT/DCT + tridiagonal),  p^{N+1} = p^N + dp
 *   v^{N+1} = v* - (dt/rho) grad dp
 * In flow-rate mode the drive f is set after the reduction so that <u^{N+1}> is the bulk
 * velocity: D* does not depend on a uniform shift of u, so the same reduction serves. */
#include "src/solver.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/device.h"
#include "base/errors.h"
#include "decomp/boundary.h"
#include "decomp/reduce.h"
#include "src/materials.h"
#include "src/solid.h"
#include "stencils/location.h"
#include "verify/poisson_cuda.h"
#include "verify/poisson_fft.h"

int solver_create(efsi_solver *sv, const efsi_config *c, efsi_decomp *d, const efsi_grid *g,
                  double dt, const efsi_backend *b)
{
  memset(sv, 0, sizeof *sv);
  sv->cfg = c;
  sv->decomp = d;
  sv->dt = dt;
  sv->backend = b;
  sv->k = b->k;
  sv->layers = b->layers;
  efsi_materials materials;
  materials_of_case(c, &materials);
  const int nmat = sv->nmat = materials.count;
  for (int m = 0; m < nmat; m++) sv->modulus[m] = materials.modulus[m];
  sv->wall_material = materials_index(&materials, "wall");
  sv->rbc_material = materials_index(&materials, "rbc");
  double **arrays[] = {&sv->fu, &sv->fv, &sv->fw, &sv->stress[0], &sv->stress[1],
                       &sv->stress[2], &sv->stress[3], &sv->stress[4], &sv->stress[5],
                       &sv->div, &sv->lap_div, &sv->lap_p, &sv->dp};
  int failed = 0;
  for (size_t a = 0; a < sizeof arrays / sizeof arrays[0]; a++) {
    *arrays[a] = backend_field_alloc(b, g);
    failed |= !*arrays[a];
  }
  for (int m = 0; m < nmat; m++) {
    sv->phi_rate[m] = backend_field_alloc(b, g);
    failed |= !sv->phi_rate[m];
  }
  /* the per-plane partials of every reduction kernel (the ACM's double-double pairs the
   * most) */
  _Static_assert(2 * SUM_COUNT >= FLOW_COUNT && 2 * SUM_COUNT >= MOMENT_COUNT
                 && 2 * SUM_COUNT >= LUMEN_COUNT, "plane_sums holds every reduction's partials");
  const size_t plane = (size_t)g->n[2] * 2 * SUM_COUNT;
  sv->plane_sums = b->gpu ? device_alloc(plane) : calloc(plane, sizeof(double));
  /* one message per face carries the velocity, every phi_m and B; between two GPUs of a
   * node the faces go GPU to GPU unless performance.peer_halos says no */
  sv->halo = halo_create(g, d, state_exchanged_count(nmat), sv->layers,
                         b->gpu && c->peer_halos);
  failed |= !sv->plane_sums || !sv->halo;
  if (!failed && c->pressure_method == PRESSURE_SMAC) {
    /* on the GPU the solve stays on the device, on several GPUs on rank 0's (docs/smac.md) */
    if (b->gpu) sv->poisson_gpu = poisson_cuda_create(g, d);
    else sv->poisson = poisson_create(g, d);
    failed |= !sv->poisson && !sv->poisson_gpu;
  }
  timers_reset(&sv->timers, nmat);
  sv->timers.device = b->gpu;
  /* the same verdict on every rank: freeing the halo and the FFT plans is collective */
  MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_LOR, d->comm));
  if (failed) solver_free(sv);
  return failed;
}

void solver_free(efsi_solver *sv)
{
  const efsi_backend *b = sv->backend;
  double *arrays[] = {sv->fu, sv->fv, sv->fw, sv->stress[0], sv->stress[1], sv->stress[2],
                      sv->stress[3], sv->stress[4], sv->stress[5], sv->div, sv->lap_div,
                      sv->lap_p, sv->dp};
  for (size_t a = 0; a < sizeof arrays / sizeof arrays[0]; a++)
    if (arrays[a]) backend_field_free(b, arrays[a]);
  for (int m = 0; m < sv->nmat; m++)
    if (sv->phi_rate[m]) backend_field_free(b, sv->phi_rate[m]);
  if (b && b->gpu) device_free(sv->plane_sums);
  else free(sv->plane_sums);
  if (sv->halo) halo_free(sv->halo);
  if (sv->poisson) poisson_free(sv->poisson);
  if (sv->poisson_gpu) poisson_cuda_free(sv->poisson_gpu);
  memset(sv, 0, sizeof *sv);
}

void solver_wall_velocity(const efsi_config *c, double t, double u_wall[3][2])
{
  const double factor = c->wall_omega != 0.0 ? sin(c->wall_omega * t) : 1.0;
  for (int d = 0; d < 3; d++)
    for (int side = 0; side < 2; side++) u_wall[d][side] = c->wall_u[d][side] * factor;
}

/* Let the exchange in flight move on to its next direction (timed as halo exchange). */
void solver_advance_exchange(efsi_solver *sv)
{
  timer_start(&sv->timers, TIMER_HALO);
  halo_advance(sv->halo);
  timer_stop(&sv->timers, TIMER_HALO);
}

/* The state's fields that travel in one message per face: velocity, every phi_m, B. */
static int state_fields(const efsi_state *s, double *fields[3 + EFSI_MAX_MATERIALS + 6])
{
  int n = 0;
  fields[n++] = s->u;
  fields[n++] = s->v;
  fields[n++] = s->w;
  if (s->nmat > 0) {
    for (int m = 0; m < s->nmat; m++) fields[n++] = s->phi[m];
    for (int c = 0; c < 6; c++) fields[n++] = s->b[c];
  }
  return n;
}

/* Wall layers of the state at its time, after its exchange (width 3). */
static void state_walls(efsi_solver *sv, efsi_state *s)
{
  double *fields[3 + EFSI_MAX_MATERIALS + 6];
  const int n = state_fields(s, fields);
  double u_wall[3][2];
  solver_wall_velocity(sv->cfg, s->time, u_wall);
  boundary_fill(sv->layers, &s->grid, fields, u_wall, fields + 3, n - 3, EFSI_HALO);
}

/* Start the exchange (width 3) of the state's fields. */
static void start_state(efsi_solver *sv, efsi_state *s)
{
  double *fields[3 + EFSI_MAX_MATERIALS + 6];
  const int n = state_fields(s, fields);
  timer_start(&sv->timers, TIMER_HALO);
  halo_start(sv->halo, fields, n, EFSI_HALO);
  timer_stop(&sv->timers, TIMER_HALO);
  sv->state_pending = 1;
}

/* Finish it and fill the wall layers. */
static void finish_state(efsi_solver *sv, efsi_state *s)
{
  timer_start(&sv->timers, TIMER_HALO);
  halo_finish(sv->halo);
  state_walls(sv, s);
  timer_stop(&sv->timers, TIMER_HALO);
  sv->state_pending = 0;
}

/* The halos of a state made by solver_step are valid: the tracers move with its velocity. */
static void complete_state(efsi_solver *sv, efsi_state *s)
{
  finish_state(sv, s);
  if (sv->tracers) tracers_advance(sv->tracers, sv->k, &s->grid, s->u, s->v, s->w, sv->dt);
}

void solver_sync(efsi_solver *sv, efsi_state *s)
{
  if (sv->state_pending) complete_state(sv, s);
}

void solver_move_tracers(efsi_solver *sv, efsi_tracers *t) { sv->tracers = t; }

/* Exchange and even wall reflection of cell-centred fields. */
static void fill_scalars(efsi_solver *sv, const efsi_grid *g, double **f, int n, int width)
{
  timer_start(&sv->timers, TIMER_HALO);
  halo_exchange(sv->halo, f, n, width);
  boundary_fill(sv->layers, g, NULL, NULL, f, n, width);
  timer_stop(&sv->timers, TIMER_HALO);
}

void solver_fill_halos(efsi_solver *sv, efsi_state *s)
{
  /* an exchange still in flight (a state replaced between steps) is finished, then redone */
  if (sv->state_pending) finish_state(sv, s);
  start_state(sv, s);
  finish_state(sv, s);
  fill_scalars(sv, &s->grid, &s->p, 1, 1);
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

static void swap_arrays(double **a, double **b)
{
  double *t = *a;
  *a = *b;
  *b = t;
}

/* v* = v^N + dt (F + f e_x / rho) - (dt/rho) grad p^N on the box [lo, hi) of owned cells,
 * in the rate arrays.  The kernels read up to three cells around the box (WENO5; the stress
 * is formed on the box and one layer around it, where neighbouring boxes form the same
 * values).  The exchange in flight moves on after each of the first `advances` advections. */
static void momentum_box(efsi_solver *sv, efsi_state *s, const int lo[3], const int hi[3],
                         double body, int advances)
{
  efsi_grid view;
  ptrdiff_t sh;
  grid_view(&s->grid, lo, hi, &view, &sh);
  const efsi_grid *g = &view;
  const efsi_config *c = sv->cfg;
  const efsi_kernels *k = sv->k;
  double *const u = s->u + sh, *const v = s->v + sh, *const w = s->w + sh;
  double *const vel[3] = {u, v, w};
  double *const rhs[3] = {sv->fu + sh, sv->fv + sh, sv->fw + sh};
  double *stress[6], *b[6], *phi[EFSI_MAX_MATERIALS];
  for (int k = 0; k < 6; k++) {
    stress[k] = sv->stress[k] + sh;
    b[k] = s->nmat > 0 ? s->b[k] + sh : NULL;
  }
  for (int m = 0; m < s->nmat; m++) phi[m] = s->phi[m] + sh;

  for (int comp = 0; comp < 3; comp++) {
    timer_start(&sv->timers, TIMER_ADVECTION);
    k->advection_weno5(g, LOC_FACE_X + comp, vel[comp], u, v, w, rhs[comp]);
    timer_stop(&sv->timers, TIMER_ADVECTION);
    if (comp < advances) solver_advance_exchange(sv);
  }
  /* the stress of level N: viscous, and G_m phi_m^N dev(B^N) (dp holds sum G_m phi_m) */
  timer_start(&sv->timers, TIMER_STRESS);
  k->stress_viscous(g, c->viscosity, u, v, w, stress);
  if (s->nmat > 0) k->solid_stress_add(g, s->nmat, sv->modulus, phi, b, stress, sv->dp + sh);
  timer_stop(&sv->timers, TIMER_STRESS);
  timer_start(&sv->timers, TIMER_DIVERGENCE);
  k->stress_divergence_add(g, 1.0 / c->density, stress, rhs[0], rhs[1], rhs[2]);
  for (int comp = 0; comp < 3; comp++)
    k->velocity_update(g, comp, sv->dt, comp == 0 ? body / c->density : 0.0, vel[comp],
                       rhs[comp]);
  k->gradient_add(g, -sv->dt / c->density, s->p + sh, rhs[0], rhs[1], rhs[2]);
  timer_stop(&sv->timers, TIMER_DIVERGENCE);
}

/* Momentum without the new pressure, formed in the rate arrays (fu, fv, fw) so that v^N
 * stays for the solid's transport.  When the exchange of the state is still in flight
 * (performance.overlap), v* is formed first on the interior, three cells away from the
 * faces of the block in y and z, while the exchange moves on to y and z, then on the slabs
 * of the boundary shell.  The exchange of v* (width 2) then runs while the solid moves, and the
 * arrays swap: s->u, v, w hold v* with valid halos on return. */
static void momentum(efsi_solver *sv, efsi_state *s, double body)
{
  const efsi_grid *g = &s->grid;
  const efsi_config *c = sv->cfg;
  const int *n = g->n, H = EFSI_HALO;
  if (sv->state_pending && n[1] > 2 * H && n[2] > 2 * H) {
    /* The interior spans x: x's layers are copied in place by halo_start (x held by one
     * rank) or received first.  Slabs 3 cells thin in x, with rows 3 cells long, cost more
     * than the x messages save (measured: docs/scaling.md). */
    int advances = 2;
    if (!halo_filled_at_start(sv->halo, 0)) {
      solver_advance_exchange(sv);
      advances = 1;
    }
    const int inner_lo[3] = {0, H, H}, inner_hi[3] = {n[0], n[1] - H, n[2] - H};
    momentum_box(sv, s, inner_lo, inner_hi, body, advances);
    complete_state(sv, s);
    sv->interior_first++;
    /* the shell: slabs in z over the whole x-y block, in y over the inner z range */
    for (int d = 2; d >= 1; d--)
      for (int side = 0; side < 2; side++) {
        int lo[3], hi[3];
        for (int e = 0; e < 3; e++) {
          lo[e] = e < d ? 0 : inner_lo[e];
          hi[e] = e < d ? n[e] : inner_hi[e];
        }
        lo[d] = side ? n[d] - H : 0;
        hi[d] = side ? n[d] : H;
        momentum_box(sv, s, lo, hi, body, 0);
      }
  } else {
    solver_sync(sv, s);
    const int lo[3] = {0, 0, 0};
    momentum_box(sv, s, lo, n, body, 0);
  }

  /* the solid moves with v^N (the stress arrays are free now) while v* is exchanged, two
   * layers deep so that D* can be formed on its first halo layer without an exchange */
  double *rhs[3] = {sv->fu, sv->fv, sv->fw};
  const int overlap = c->overlap;
  timer_start(&sv->timers, TIMER_HALO);
  if (overlap) halo_start(sv->halo, rhs, 3, 2);
  else halo_exchange(sv->halo, rhs, 3, 2);
  timer_stop(&sv->timers, TIMER_HALO);
  const double thinc_beta = c->phi_transport == PHI_THINC ? c->thinc_steepness : 0;
  solid_transport(sv->k, s, sv->dt, thinc_beta, sv->phi_rate, sv->stress,
                  overlap ? sv->halo : NULL, &sv->timers);
  timer_start(&sv->timers, TIMER_HALO);
  if (overlap) halo_finish(sv->halo);
  double u_wall[3][2];
  solver_wall_velocity(c, s->time + sv->dt, u_wall);
  boundary_velocity(sv->layers, g, sv->fu, sv->fv, sv->fw, u_wall, 2);
  timer_stop(&sv->timers, TIMER_HALO);
  /* v* becomes the state's velocity; v^N's arrays hold the next step's rates */
  swap_arrays(&s->u, &sv->fu);
  swap_arrays(&s->v, &sv->fv);
  swap_arrays(&s->w, &sv->fw);
}

/* D* = rho div v* on owned cells and (ACM) on the first halo layer too, from the width-2
 * halo of v*: the same values the neighbours compute for their own cells, so D* needs no
 * exchange; at walls the layer is then the even reflection, as for any scalar. */
static void divergence_star(efsi_solver *sv, efsi_state *s)
{
  const efsi_grid *g = &s->grid;
  const int acm = sv->cfg->pressure_method == PRESSURE_ACM;
  timer_start(&sv->timers, TIMER_PROJECTION);
  efsi_grid ring;
  ptrdiff_t shift;
  const int lo[3] = {-acm, -acm, -acm};
  const int hi[3] = {g->n[0] + acm, g->n[1] + acm, g->n[2] + acm};
  grid_view(g, lo, hi, &ring, &shift);
  sv->k->divergence(&ring, sv->cfg->density, s->u + shift, s->v + shift, s->w + shift,
                    sv->div + shift);
  if (acm) boundary_even(sv->layers, g, sv->div, 1);
  timer_stop(&sv->timers, TIMER_PROJECTION);
}

/* dp <- the solution of lap dp = div (div holds D* / dt), by the GPU's solver or the CPU's. */
static void poisson(efsi_solver *sv)
{
  if (sv->poisson_gpu) poisson_cuda_solve(sv->poisson_gpu, sv->div, sv->dp);
  else poisson_solve(sv->poisson, sv->div, sv->dp);
}

int solver_step(efsi_solver *sv, efsi_state *s)
{
  const efsi_config *c = sv->cfg;
  const efsi_grid *g = &s->grid;
  const double dt = sv->dt;
  const double cells = (double)g->global_n[0] * g->global_n[1] * g->global_n[2];
  const int flowrate = c->drive_mode == DRIVE_FLOWRATE;

  momentum(sv, s, flowrate ? 0.0 : c->pressure_gradient);
  divergence_star(sv, s);

  timer_start(&sv->timers, TIMER_PROJECTION);
  const efsi_kernels *k = sv->k;
  if (c->pressure_method == PRESSURE_ACM) {   /* SMAC sums only D*, D*^2, p and u */
    k->laplacian(g, sv->div, sv->lap_div);
    k->laplacian(g, s->p, sv->lap_p);
  }
  /* the sums as double-double pairs, and one pair more: the stop votes (src/stop.h) */
  double pairs[2 * (SUM_COUNT + 1)], sums[SUM_COUNT];
  k->acm_sums(g, sv->div, sv->lap_div, s->p, sv->lap_p, s->u, sv->plane_sums, pairs);
  pairs[2 * SUM_COUNT] = sv->stop_vote;
  pairs[2 * SUM_COUNT + 1] = 0;
  timer_stop(&sv->timers, TIMER_PROJECTION);

  if (c->sync_timers) {   /* the waiting for the slowest rank, apart from the collective */
    timer_start(&sv->timers, TIMER_SYNC);
    MPI_Barrier(sv->decomp->comm);
    timer_stop(&sv->timers, TIMER_SYNC);
  }
  timer_start(&sv->timers, TIMER_ALLREDUCE);
  global_sum_dd(sv->decomp, pairs, SUM_COUNT + 1);
  for (int c = 0; c < SUM_COUNT; c++) sums[c] = pairs[2 * c];   /* the rounded sums */
  timer_stop(&sv->timers, TIMER_ALLREDUCE);
  sv->stop_agreed = pairs[2 * SUM_COUNT] > 0;
  /* Sums past 1e150 are a blow-up on its way: their products in acm_parameters would
   * overflow (a trap in the --enable-debug build) before anything is non-finite. */
  for (int k = 0; k < SUM_COUNT; k++)
    if (!isfinite(sums[k]) || fabs(sums[k]) > 1e150) return 1;

  /* Flow-rate drive: the uniform force that brings <u> to the bulk velocity. */
  if (flowrate) {
    const double shift = c->bulk_velocity - sums[SUM_U] / cells;
    s->drive_force = c->density * shift / dt;
    k->velocity_shift(g, 0, shift, s->u);
  } else {
    s->drive_force = c->pressure_gradient;
  }

  efsi_step_info *info = &sv->info;
  memset(info, 0, sizeof *info);
  info->div2_before = sums[SUM_D2] / cells;
  timer_start(&sv->timers, TIMER_PROJECTION);
  if (c->pressure_method == PRESSURE_ACM) {
    const double A1 = -sums[SUM_D_LAPD] / cells, A2 = sums[SUM_LAPD2] / cells;
    const double A3 = sums[SUM_LAPP2] / cells, B1 = sums[SUM_D_LAPP] / cells;
    const double B2 = sums[SUM_LAPD_LAPP] / cells;
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
    /* dp on the owned cells and one halo layer: p^N and D* halos are valid, so the
     * correction and p^{N+1} need no further exchange. */
    k->pressure_increment(g, 1, a / dt, b / dt, s->p, sv->div, sv->dp);
    k->pressure_update(g, 1, info->mean_p, sv->dp, s->p);
  } else {
    /* lap dp = D* / dt; D* becomes the right-hand side in place. */
    k->field_scale(g, 1.0 / dt, sv->div);
    poisson(sv);
    timer_stop(&sv->timers, TIMER_PROJECTION);
    fill_scalars(sv, g, &sv->dp, 1, 1);
    timer_start(&sv->timers, TIMER_PROJECTION);
    k->pressure_update(g, 1, 0.0, sv->dp, s->p);
  }
  k->gradient_add(g, -dt / c->density, sv->dp, s->u, s->v, s->w);
  timer_stop(&sv->timers, TIMER_PROJECTION);

  s->time += dt;
  s->step++;
  /* the new state's exchange: left in flight for the next step's interior (overlap) */
  start_state(sv, s);
  if (!c->overlap) complete_state(sv, s);
  return 0;
}
