/* Plane Poiseuille flow between walls at y = 0 and y = H under a body force f in x, from rest:
 *   u(y,t) = f/(2 mu) y (H - y)
 *            - sum_{n odd} 4 f H^2/(mu pi^3 n^3) sin(n pi y/H) e^{-n^2 pi^2 nu t/H^2}
 * (the start-up transient: space-time error second order with dt ~ h^2), the steady profile
 * (centre-line f H^2/(8 mu) within 1e-3 at 32 cells across), and flow-rate mode (<u> = U_b
 * every step, the drive converging to the discrete steady value of 12 mu U_b/H^2). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/fluid_case.h"
#include "tests/test_support.h"
#include "decomp/reduce.h"

/* rho != 1 and mu != nu so that a density or viscosity slip shows; H^2/nu = 4. */
static const double H = 1.0, RHO = 2.0, MU = 0.5, FORCE = 4.0;   /* u_centre = f H^2/(8 mu) = 1 */
static const double BULK = 1.0;

/* The channel driven as the [drive] line says. */
static void open_channel(fluid_case *fc, int ny, const char *drive)
{
  fluid_case_open_channel(fc, ny, H, RHO, MU, "[drive]\n%s\n", drive);
}

static double series(double y, double t)
{
  const double nu = MU / RHO;
  double u = FORCE / (2.0 * MU) * y * (H - y);
  for (int n = 1; n < 400; n += 2) {
    const double decay = exp(-n * n * M_PI * M_PI * nu * t / (H * H));
    const double term = 4.0 * FORCE * H * H / (MU * pow(M_PI * n, 3)) * decay;
    u -= term * sin(n * M_PI * y / H);
    if (term < 1e-18) break;
  }
  return u;
}

/* The u profile of the column i = 0, k = 0 on every rank. */
static double *profile(const fluid_case *fc)
{
  const int *N = fc->grid.global_n;
  double *all = fc->decomp.rank == 0 ? malloc(sizeof(double) * N[0] * N[1] * N[2]) : NULL;
  double *prof = malloc(sizeof(double) * N[1]);
  fluid_case_gather(fc, fc->state.u, all);
  if (fc->decomp.rank == 0)
    for (int j = 0; j < N[1]; j++) prof[j] = all[(size_t)N[0] * j];
  MPI_Bcast(prof, N[1], MPI_DOUBLE, 0, fc->decomp.comm);
  free(all);
  return prof;
}

START_TEST(startup_converges_at_second_order)
{
  const double t_end = 0.15 * H * H * RHO / MU;   /* the n = 1 mode is still 23 % */
  const int sizes[] = {16, 32, 64};
  double err[3];
  char drive[64];
  snprintf(drive, sizeof drive, "pressure_gradient = %.17g", FORCE);
  for (int s = 0; s < 3; s++) {
    fluid_case fc;
    open_channel(&fc, sizes[s], drive);
    fluid_case_steps(&fc, (long)ceil(t_end / fc.solver.dt - 1e-9));
    err[s] = fluid_case_u_error(&fc, series) / (FORCE * H * H / (8.0 * MU));
    if (fc.decomp.rank == 0)
      printf("poiseuille start-up: Ny = %d, t nu/H^2 = %.2g, steps = %ld, "
             "max |u - u_exact| / u_centre = %.1e\n",
             sizes[s], fc.state.time * MU / (RHO * H * H), fc.state.step, err[s]);
    fluid_case_close(&fc);
  }
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int s = 1; s < 3; s++) {
    const double order = log2(err[s - 1] / err[s]);
    if (rank == 0)
      printf("poiseuille start-up: order %d -> %d = %.1f\n", sizes[s - 1], sizes[s], order);
    ck_assert_msg(order >= 1.8, "order %g between Ny = %d and %d", order, sizes[s - 1], sizes[s]);
  }
}
END_TEST

/* The steady parabola.  The discrete steady state is c (y (H - y) + h^2/4), c = f/(2 mu):
 * the compact second difference is exact on a parabola, and the odd reflection
 * u(-h/2) = -u(h/2) at the walls adds the constant c h^2/4. */
static double steady_parabola(double y, double t)
{
  (void)t;
  return FORCE / (2.0 * MU) * y * (H - y);
}

START_TEST(steady_profile_from_rest)
{
  const int ny = 32;
  const double h = H / ny, u_centre = FORCE * H * H / (8.0 * MU);
  char drive[64];
  snprintf(drive, sizeof drive, "pressure_gradient = %.17g", FORCE);
  fluid_case fc;
  open_channel(&fc, ny, drive);
  /* the slowest mode decays as e^{-pi^2 nu t/H^2}: 2e-11 of u_centre by t = 2.5 H^2/nu */
  fluid_case_steps(&fc, (long)ceil(2.5 * H * H * RHO / MU / fc.solver.dt));
  double *prof = profile(&fc);
  const double centre = 0.5 * (prof[ny / 2 - 1] + prof[ny / 2]);   /* y = H/2 is a cell face */
  const double centre_error = fabs(centre - u_centre) / u_centre;
  const double profile_error = fluid_case_u_error(&fc, steady_parabola) / u_centre;
  double discrete_error = 0.0;
  for (int j = 0; j < ny; j++) {
    const double y = (j + 0.5) * h;
    const double discrete = FORCE / (2.0 * MU) * (y * (H - y) + h * h / 4.0);
    discrete_error = fmax(discrete_error, fabs(prof[j] - discrete));
  }
  discrete_error /= u_centre;
  if (fc.decomp.rank == 0)
    printf("poiseuille steady: Ny = %d, t nu/H^2 = %.2g: centre-line error %.1e, "
           "profile error %.1e (predicted (h/H)^2 = %.1e), against the discrete steady "
           "state %.1e (relative to f H^2/(8 mu))\n",
           ny, fc.state.time * MU / (RHO * H * H), centre_error, profile_error, (h / H) * (h / H),
           discrete_error);
  ck_assert_double_le(centre_error, 1e-3);
  ck_assert_double_le(profile_error, 1e-3);
  /* the discrete state differs from the parabola by exactly c h^2/4 everywhere */
  ck_assert_double_le(fabs(profile_error - (h / H) * (h / H)), 1e-8);
  ck_assert_double_le(discrete_error, 1e-8);
  free(prof);
  fluid_case_close(&fc);
}
END_TEST

START_TEST(flowrate_drive_converges)
{
  const int ny = 32;
  const double h = H / ny;
  char drive[128];
  snprintf(drive, sizeof drive, "mode = flowrate\nbulk_velocity = %.17g", BULK);
  fluid_case fc;
  open_channel(&fc, ny, drive);
  const double cells = 16.0 * ny;
  /* the drive's zero-mean symmetric modes decay at least as e^{-80 nu t/H^2} */
  const long steps = (long)ceil(1.0 * H * H * RHO / MU / fc.solver.dt);
  double worst_mean = 0.0, previous_force = 0.0;
  for (long n = 0; n < steps; n++) {
    previous_force = fc.state.drive_force;
    fluid_case_steps(&fc, 1);
    const efsi_grid *g = &fc.grid;
    double sum = 0.0;
    for (int k = 0; k < g->n[2]; k++)
      for (int j = 0; j < g->n[1]; j++)
        for (int i = 0; i < g->n[0]; i++) sum += fc.state.u[grid_index(g, i, j, k)];
    global_sum(&fc.decomp, &sum, 1);
    worst_mean = fmax(worst_mean, fabs(sum / cells - BULK) / BULK);
  }
  const double force = fc.state.drive_force;
  const double continuous = 12.0 * MU * BULK / (H * H);
  /* discrete steady state u_j = c (y_j (H - y_j) + h^2/4) has mean c (H^2/6 + h^2/3) */
  const double discrete = 12.0 * MU * BULK / (H * H + 2.0 * h * h);
  const double deviation = (force - continuous) / continuous;
  if (fc.decomp.rank == 0)
    printf("poiseuille flow rate: Ny = %d, %ld steps: max |<u> - U_b|/U_b = %.1e; drive force "
           "relative to 12 mu U_b/H^2: %.1e (discrete steady value: %.1e), relative to the "
           "discrete value %.1e, last-step change %.1e\n",
           ny, steps, worst_mean, deviation, (discrete - continuous) / continuous,
           fabs(force - discrete) / discrete, fabs(force - previous_force) / continuous);
  ck_assert_double_le(worst_mean, 1e-13);
  /* 12 mu U_b/(H^2 + 2 h^2): the continuous value to -2 (h/H)^2 = -2.0e-3 at 32 cells */
  ck_assert_double_le(fabs(deviation), 2.5 * (h / H) * (h / H));
  ck_assert_double_le(fabs(force - discrete) / discrete, 1e-8);
  fluid_case_close(&fc);
}
END_TEST

static Suite *poiseuille_suite(void)
{
  Suite *s = suite_create("poiseuille");
  TCase *tc = tcase_create("channel");
  tcase_add_test(tc, startup_converges_at_second_order);
  tcase_add_test(tc, steady_profile_from_rest);
  tcase_add_test(tc, flowrate_drive_converges);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) { return mpi_check_main(argc, argv, poiseuille_suite); }
