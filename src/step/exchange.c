/* The solver's exchanges (see exchange.h). */
#include "src/step/exchange.h"

#include <math.h>

#include "decomp/boundary.h"

void wall_velocity(const efsi_config *c, double t, double u_wall[3][2])
{
  const double factor = c->wall_omega != 0.0 ? sin(c->wall_omega * t) : 1.0;
  for (int d = 0; d < 3; d++)
    for (int side = 0; side < 2; side++) u_wall[d][side] = c->wall_u[d][side] * factor;
}

void exchange_state_start(efsi_solver *sv, efsi_state *s)
{
  double *fields[STATE_MAX_ARRAYS];
  const int n = state_exchanged(s, fields);
  timers_switch(&sv->timers, TIMER_HALO);
  halo_start(sv->halo, fields, n, EFSI_HALO);
  timers_pause(&sv->timers);
}

/* Finish the state's exchange in flight and fill its wall layers. */
static void finish_state(efsi_solver *sv, efsi_state *s)
{
  double *fields[STATE_MAX_ARRAYS];
  const int n = state_exchanged(s, fields);
  double u_wall[3][2];
  wall_velocity(sv->cs->config, s->time, u_wall);
  timers_switch(&sv->timers, TIMER_HALO);
  halo_finish(sv->halo);
  boundary_fill(sv->layers, &s->grid, fields, u_wall, fields + 3, n - 3, EFSI_HALO);
  timers_pause(&sv->timers);
}

void exchange_state_finish(efsi_solver *sv, efsi_state *s)
{
  if (!halo_pending(sv->halo)) return;
  finish_state(sv, s);
  if (sv->tracers)
    tracers_advance_start(sv->tracers, sv->k, &s->grid, s->u, s->v, s->w, sv->dt);
}

void exchange_state_around(efsi_solver *sv, efsi_state *s, efsi_box_work work)
{
  const int *n = s->grid.n, H = EFSI_HALO;
  if (!halo_pending(sv->halo) || n[1] <= 2 * H || n[2] <= 2 * H) {
    exchange_state_finish(sv, s);
    const int lo[3] = {0, 0, 0};
    work(sv, s, lo, n);
    return;
  }
  /* The interior spans x: x's layers are copied in place at the start (x held by one
   * rank) or received first.  Slabs 3 cells thin in x, with rows 3 cells long, cost more
   * than the x messages save (measured: docs/scaling.md). */
  if (!halo_filled_at_start(sv->halo, 0)) {
    timers_switch(&sv->timers, TIMER_HALO);
    halo_advance(sv->halo);
    timers_pause(&sv->timers);
  }
  const int inner_lo[3] = {0, H, H}, inner_hi[3] = {n[0], n[1] - H, n[2] - H};
  work(sv, s, inner_lo, inner_hi);
  exchange_state_finish(sv, s);
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
      work(sv, s, lo, hi);
    }
}

void exchange_velocity_start(efsi_solver *sv)
{
  timers_switch(&sv->timers, TIMER_HALO);
  halo_start(sv->halo, FIELDS(sv, v_star), 3, 2);
  if (!sv->cs->config->overlap) halo_finish(sv->halo);
  timers_pause(&sv->timers);
}

void exchange_velocity_finish(efsi_solver *sv, const efsi_grid *g, double t)
{
  double u_wall[3][2];
  wall_velocity(sv->cs->config, t, u_wall);
  timers_switch(&sv->timers, TIMER_HALO);
  if (halo_pending(sv->halo)) halo_finish(sv->halo);
  double *const *v_star = FIELDS(sv, v_star);
  boundary_velocity(sv->layers, g, v_star[0], v_star[1], v_star[2], u_wall, 2);
  timers_pause(&sv->timers);
}

void exchange_scalars(efsi_solver *sv, const efsi_grid *g, double **f, int n, int width)
{
  timers_switch(&sv->timers, TIMER_HALO);
  halo_exchange(sv->halo, f, n, width);
  boundary_fill(sv->layers, g, NULL, NULL, f, n, width);
  timers_pause(&sv->timers);
}

void exchange_state_fill(efsi_solver *sv, efsi_state *s)
{
  /* an exchange still in flight (a state replaced between steps) is finished, then redone;
   * the tracers stay where they are */
  if (halo_pending(sv->halo)) finish_state(sv, s);
  exchange_state_start(sv, s);
  finish_state(sv, s);
  exchange_scalars(sv, &s->grid, &s->p, 1, 1);
}
