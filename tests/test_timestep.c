/* Time-step control: the limits and the one that binds, and the reason for the
 * advective-diffusive limit 2 nu / U^2.  Forward Euler is linearly unstable for pure
 * advection (WENO5's eigenvalues lie close to the imaginary axis for resolved waves); only
 * viscosity keeps it stable.  A Taylor-Green perturbation carried by a uniform stream U = 1
 * at Re = U L / nu = 1000 decays with dt = half the advective-diffusive limit 2 nu / U^2 and
 * grows with five times that limit, still far below the CFL limit h / U. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tests/fluid_case.h"
#include "tests/test_support.h"
#include "decomp/reduce.h"

static const char *stream_case =
  "[grid]\ncells = 16 4 16\nlength = 1 0.25 1\n"
  "[boundary]\ny = periodic\nz = periodic\n"
  "[fluid]\nviscosity = 1e-3\n"
  "[init]\nflow = taylor-green\nflow_amplitude = 0.01\n"
  "[time]\nsteps = 1\n";

/* Energy of the perturbation: sum over faces of (u - U0)^2 + v^2 + w^2. */
static double perturbation_energy(const fluid_case *fc, double U0)
{
  const efsi_grid *g = &fc->grid;
  double e = 0.0;
  for (int k = 0; k < g->n[2]; k++)
    for (int j = 0; j < g->n[1]; j++)
      for (int i = 0; i < g->n[0]; i++) {
        const ptrdiff_t at = grid_index(g, i, j, k);
        const double du = fc->state.u[at] - U0;
        e += du * du + fc->state.v[at] * fc->state.v[at] + fc->state.w[at] * fc->state.w[at];
      }
  global_sum(&fc->decomp, &e, 1);
  return e;
}

/* Growth factor of the perturbation's energy over `steps` steps of size dt_factor times
 * the auto dt, with a uniform stream U0 = 1 added to u. */
static double growth(double dt_factor, long steps, efsi_timestep *limits)
{
  fluid_case fc;
  fluid_case_open(&fc, MPI_COMM_WORLD, stream_case, NULL, 0, NULL);
  *limits = fc.ts;
  fc.solver.dt = dt_factor * fc.ts.dt;
  const efsi_grid *g = &fc.grid;
  for (int k = 0; k < g->n[2]; k++)
    for (int j = 0; j < g->n[1]; j++)
      for (int i = 0; i < g->n[0]; i++) fc.state.u[grid_index(g, i, j, k)] += 1.0;
  fluid_case_refresh(&fc);
  const double e0 = perturbation_energy(&fc, 1.0);
  fluid_case_steps(&fc, steps);
  const double e1 = perturbation_energy(&fc, 1.0);
  fluid_case_close(&fc);
  return e1 / e0;
}

START_TEST(advective_diffusive_limit_is_the_stability_limit)
{
  /* the velocity scale of the case is the perturbation's amplitude; the stream makes the
   * real U = 1, for which the advective-diffusive limit is 2 nu = 2e-3 and the CFL limit
   * h = 0.0625: set dt from those */
  efsi_timestep ts;
  const double stable = growth(1.0, 1, &ts) > 0 ? 0.5 * 2e-3 / ts.dt : 0.0;
  const double g_stable = growth(stable, 2000, &ts);
  const double g_unstable = growth(5.0 * 2e-3 / ts.dt, 2000, &ts);
  printf("perturbation energy after 2000 steps: x %.3g at dt = 0.5 x 2 nu/U^2, x %.3g at "
         "dt = 5 x 2 nu/U^2 (CFL %.2f)\n", g_stable, g_unstable, 5.0 * 2e-3 / 0.0625);
  ck_assert(g_stable < 1.0);
  ck_assert(g_unstable > 10.0);
}
END_TEST

START_TEST(limits_and_binding)
{
  efsi_config c;
  char err[512];
  config_defaults(&c);
  ck_assert(config_parse(&c, "t.ini", stream_case, NULL, 0, err, sizeof err) == 0);
  efsi_timestep ts;
  efsi_case cs;
  case_resolve(&c, &cs);
  ck_assert(timestep_choose(&cs, &ts, err, sizeof err) == 0);
  const double h = 1.0 / 16, nu = 1e-3, U = 0.01;
  ck_assert_double_eq_tol(ts.limit[LIMIT_VISCOUS], h * h / (6 * nu), 1e-15);
  ck_assert_double_eq_tol(ts.limit[LIMIT_ADVECTIVE], h / U, 1e-12);
  ck_assert_double_eq_tol(ts.limit[LIMIT_ADVECTIVE_DIFFUSIVE], 2 * nu / (U * U), 1e-9);
  ck_assert(isinf(ts.limit[LIMIT_ELASTIC]));
  ck_assert_int_eq(ts.binding, LIMIT_VISCOUS);
  ck_assert_double_eq_tol(ts.dt, 0.5 * h * h / (6 * nu), 1e-15);
  /* a stiff solid makes the elastic limit bind: h / (sqrt(3) sqrt(G/rho)) */
  const char *solid[] = {"sphere.center=0.5 0.125 0.5", "sphere.radius=0.1",
                         "sphere.modulus=1e4", "fluid.viscosity=1e-4"};
  config_defaults(&c);
  ck_assert(config_parse(&c, "t.ini", stream_case, solid, 4, err, sizeof err) == 0);
  case_resolve(&c, &cs);
  ck_assert(timestep_choose(&cs, &ts, err, sizeof err) == 0);
  ck_assert_int_eq(ts.binding, LIMIT_ELASTIC);
  ck_assert_double_eq_tol(ts.limit[LIMIT_ELASTIC], h / (sqrt(3.0) * 100.0), 1e-15);
  /* a fixed dt above the limit is refused, and accepted with time.unsafe */
  const char *fixed[] = {"time.dt=1"};
  config_defaults(&c);
  ck_assert(config_parse(&c, "t.ini", stream_case, fixed, 1, err, sizeof err) == 0);
  case_resolve(&c, &cs);
  ck_assert(timestep_choose(&cs, &ts, err, sizeof err) != 0);
  ck_assert_msg(strstr(err, "time.dt") && strstr(err, "stable limit"), "%s", err);
  c.unsafe = 1;
  ck_assert(timestep_choose(&cs, &ts, err, sizeof err) == 0);
  ck_assert_double_eq(ts.dt, 1.0);
}
END_TEST

static Suite *timestep_suite(void)
{
  Suite *s = suite_create("timestep");
  TCase *tc = tcase_create("limits");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, limits_and_binding);
  tcase_add_test(tc, advective_diffusive_limit_is_the_stability_limit);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) { return mpi_check_main(argc, argv, timestep_suite); }
