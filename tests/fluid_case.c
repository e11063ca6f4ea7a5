/* Test support for whole-solver tests (see fluid_case.h). */
#include "tests/fluid_case.h"

#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "decomp/reduce.h"
#include "src/case/init.h"

void fluid_case_open(fluid_case *fc, MPI_Comm comm, const char *text,
                     const char *const *overrides, int n_overrides, const int *ranks)
{
  memset(fc, 0, sizeof *fc);
  char err[2048];
  config_defaults(&fc->cfg);
  if (config_parse(&fc->cfg, "test.ini", text, overrides, n_overrides, err, sizeof err))
    efsi_abort(EFSI_EXIT_INPUT, "test case: %s", err);
  if (ranks)
    for (int d = 0; d < 3; d++) fc->cfg.ranks[d] = ranks[d];
  /* EFSI_TEST_DEVICE=gpu runs the solver on the GPU (verify/gpu-check) */
  const char *device = getenv("EFSI_TEST_DEVICE");
  if (device && strcmp(device, "gpu") == 0) fc->cfg.device = DEVICE_GPU;
  case_resolve(&fc->cfg, &fc->cs);
  if (timestep_choose(&fc->cs, &fc->ts, err, sizeof err))
    efsi_abort(EFSI_EXIT_INPUT, "test case: %s", err);
  if (decomp_create(&fc->decomp, comm, fc->cfg.cells, fc->cfg.ranks, fc->cs.periodic, err,
                    sizeof err))
    efsi_abort(EFSI_EXIT_INPUT, "test case: %s", err);
  decomp_grid(&fc->decomp, fc->cfg.cells, fc->cfg.length, &fc->grid);
  if (backend_choose(&fc->cfg, &fc->decomp, &fc->backend, err, sizeof err))
    efsi_abort(EFSI_EXIT_INPUT, "test case: %s", err);
  state_alloc_case(&fc->state, &fc->grid, &fc->cs);
  if (fc->backend.gpu) state_alloc_like(&fc->device, &fc->state, &fc->backend);
  solver_create(&fc->solver, &fc->cs, &fc->decomp, &fc->grid, fc->ts.dt, &fc->backend);
  if (case_bodies(&fc->cs, &fc->bodies, err, sizeof err))
    efsi_abort(EFSI_EXIT_INPUT, "test case: %s", err);
  fc->tracers = tracers_create(&fc->decomp, &fc->grid, fc->backend.gpu);
  init_flow(&fc->cfg, &fc->state);
  if (fc->state.nmat > 0
      && init_solid(&fc->cs, &fc->bodies, &fc->decomp, &fc->state, fc->tracers, err,
                         sizeof err))
    efsi_abort(EFSI_EXIT_INPUT, "test case: %s", err);
  fluid_case_refresh(fc);
}

/* The state the solver steps: the host's, or its copy on the GPU. */
static efsi_state *stepped(fluid_case *fc) { return fc->backend.gpu ? &fc->device : &fc->state; }

void fluid_case_refresh(fluid_case *fc)
{
  if (fc->backend.gpu) state_transfer(&fc->device, &fc->state, &fc->backend, 1);
  solver_fill_halos(&fc->solver, stepped(fc));
  if (fc->backend.gpu) state_transfer(&fc->device, &fc->state, &fc->backend, 0);
}

void fluid_case_open_channel(fluid_case *fc, int ny, double height, double rho, double mu,
                             const char *more, ...)
{
  char text[8192];
  const double h = height / ny;
  int at = snprintf(text, sizeof text,
                    "[grid]\ncells = 4 %d 4\nlength = %.17g %.17g %.17g\n"
                    "[boundary]\ny = wall\nz = periodic\n"
                    "[fluid]\ndensity = %.17g\nviscosity = %.17g\n"
                    "[time]\ndt = auto\nsteps = 1\n",
                    ny, 4 * h, height, 4 * h, rho, mu);
  va_list args;
  va_start(args, more);
  at += vsnprintf(text + at, sizeof text - (size_t)at, more, args);
  va_end(args);
  if (at >= (int)sizeof text) efsi_abort(EFSI_EXIT_INPUT, "test case: channel text too long");
  fluid_case_open(fc, MPI_COMM_WORLD, text, NULL, 0, NULL);
  /* dt = safety h^2/(6 nu): the forward Euler error O(dt) is O(h^2) like the space error */
  ck_assert_int_eq(fc->ts.binding, LIMIT_VISCOUS);
}

void fluid_case_steps(fluid_case *fc, long n)
{
  efsi_state *s = stepped(fc);
  if (fc->backend.gpu) {   /* the host state may have been changed since the last call */
    state_transfer(s, &fc->state, &fc->backend, 1);
    solver_fill_halos(&fc->solver, s);
  }
  if (fc->bodies.total > 0) solver_move_tracers(&fc->solver, fc->tracers);
  for (long k = 0; k < n; k++)
    if (solver_step(&fc->solver, s))
      efsi_abort(EFSI_EXIT_RUNTIME, "test case blew up at step %ld", s->step);
  /* the tests read halos and state between calls */
  solver_sync(&fc->solver, s);
  if (fc->backend.gpu) state_transfer(s, &fc->state, &fc->backend, 0);
}

void fluid_case_close(fluid_case *fc)
{
  tracers_free(fc->tracers);
  solver_free(&fc->solver);
  if (fc->backend.gpu) state_free_on(&fc->device, &fc->backend);
  state_free(&fc->state);
  decomp_free(&fc->decomp);
}

void fluid_case_gather(const fluid_case *fc, const double *field, double *global)
{
  const efsi_grid *g = &fc->grid;
  const efsi_decomp *d = &fc->decomp;
  const size_t n = grid_cells(g);
  /* each rank packs its block, x fastest, after its offset and size */
  double *block = malloc((n + 6) * sizeof(double));
  for (int c = 0; c < 3; c++) {
    block[c] = g->offset[c];
    block[3 + c] = g->n[c];
  }
  size_t at = 6;
  for (int k = 0; k < g->n[2]; k++)
    for (int j = 0; j < g->n[1]; j++)
      for (int i = 0; i < g->n[0]; i++) block[at++] = field[grid_index(g, i, j, k)];
  double *all = NULL;
  if (d->rank == 0) all = malloc((n + 6) * d->size * sizeof(double));
  /* blocks are equal in size: the grid divides evenly */
  MPI_CHECK(MPI_Gather(block, (int)(n + 6), MPI_DOUBLE, all, (int)(n + 6), MPI_DOUBLE, 0, d->comm));
  if (d->rank == 0) {
    const int *N = g->global_n;
    for (int r = 0; r < d->size; r++) {
      const double *b = all + (size_t)r * (n + 6);
      const int o[3] = {(int)b[0], (int)b[1], (int)b[2]}, m[3] = {(int)b[3], (int)b[4], (int)b[5]};
      size_t q = 6;
      for (int k = 0; k < m[2]; k++)
        for (int j = 0; j < m[1]; j++)
          for (int i = 0; i < m[0]; i++)
            global[(size_t)(o[0] + i) + (size_t)N[0] * ((o[1] + j) + (size_t)N[1] * (o[2] + k))] = b[q++];
    }
  }
  free(all);
  free(block);
}

double fluid_case_u_error(const fluid_case *fc, double (*exact)(double y, double t))
{
  const efsi_grid *g = &fc->grid;
  double err = 0.0;
  for (int k = 0; k < g->n[2]; k++)
    for (int j = 0; j < g->n[1]; j++) {
      const double y = (g->offset[1] + j + 0.5) * g->h[1];
      const double ue = exact(y, fc->state.time);
      for (int i = 0; i < g->n[0]; i++)
        err = fmax(err, fabs(fc->state.u[grid_index(g, i, j, k)] - ue));
    }
  global_max(&fc->decomp, &err, 1);
  return err;
}

double fluid_case_volume(const fluid_case *fc, int m)
{
  const efsi_grid *g = &fc->grid;
  double v = 0.0;
  for (int k = 0; k < g->n[2]; k++)
    for (int j = 0; j < g->n[1]; j++)
      for (int i = 0; i < g->n[0]; i++) v += fc->state.phi[m][grid_index(g, i, j, k)];
  v *= g->h[0] * g->h[1] * g->h[2];
  global_sum(&fc->decomp, &v, 1);
  return v;
}
