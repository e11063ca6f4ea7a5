/* A neo-Hookean sphere in simple shear against the theory of docs/sphere-shear-theory.md:
 * the cheap member of the study of docs/verification-solid.md ("A neo-Hookean sphere in
 * shear", verify/sphere-shear).  A sphere of 6 cells radius at the centre of a 24^3 box
 * (4 radii), walls moving at -/+ gdot L/2, Ca = mu gdot/G = 0.2, Re = rho gdot R^2/mu = 0.5,
 * started from the plane Couette flow (init.flow = couette) and sheared to gdot t = 2.  The
 * shape comes from the moments of phi (phi_moments, as diagnostics.csv has them): D of the
 * inertia ellipse in the shear plane after the isotropic smear b that gives the moments'
 * ellipsoid the body's volume, and theta.  Asserted: the volume to round-off; D and theta
 * within a band around the measured values (a regression test of the deformation); and
 * their distance from the theory's transient (verify/roscoe --transient 3 0.2: D = 0.2277,
 * theta = 32.78 deg at gdot t = 2) no larger than measured at this coarse resolution and
 * confining box (docs/verification-solid.md, "A neo-Hookean sphere in shear"), and the
 * interface as narrow as it started: efsi's default transport of phi, THINC face values
 * (solid.phi_transport = thinc).  Then the same with WENO5 face values, the default before
 * THINC, whose smear of the interface the first test's bounds exclude. */
#include <check.h>
#include <math.h>
#include <stdio.h>

#include "decomp/reduce.h"
#include "stencils/kernel_list.h"
#include "stencils/reductions.h"
#include "tests/fluid_case.h"
#include "tests/test_support.h"

/* R = 6 (h = 1), box 4R, gdot = Re nu / R^2 = 0.5/36, U = gdot L/2, G = mu gdot/Ca. */
static const char *sphere_case =
  "[grid]\ncells = 24 24 24\nlength = 24 24 24\n"
  "[boundary]\ny = wall\nz = periodic\n"
  "y_lo_u = -0.16666666666666666\ny_hi_u = 0.16666666666666666\n"
  "[sphere]\ncenter = 12 12 12\nradius = 6\nmodulus = 0.069444444444444448\n"
  "[init]\nflow = couette\n"
  "[time]\nsteps = 1\n";

static const double gdot = 0.5 / 36.0;

/* The eigenvalues of the symmetric 3 x 3 matrix m (row-major), ascending (the trigonometric
 * solution of the characteristic cubic). */
static void symmetric_eigenvalues(const double m[9], double ev[3])
{
  const double q = (m[0] + m[4] + m[8]) / 3.0;
  const double p1 = m[1] * m[1] + m[2] * m[2] + m[5] * m[5];
  const double p2 = (m[0] - q) * (m[0] - q) + (m[4] - q) * (m[4] - q) + (m[8] - q) * (m[8] - q)
                  + 2.0 * p1;
  const double p = sqrt(p2 / 6.0);
  if (p == 0.0) {
    ev[0] = ev[1] = ev[2] = q;
    return;
  }
  double b[9];
  for (int k = 0; k < 9; k++) b[k] = (m[k] - (k % 4 == 0 ? q : 0.0)) / p;
  const double r = 0.5 * (b[0] * (b[4] * b[8] - b[5] * b[7]) - b[1] * (b[3] * b[8] - b[5] * b[6])
                          + b[2] * (b[3] * b[7] - b[4] * b[6]));
  const double phase = acos(fmax(-1.0, fmin(1.0, r))) / 3.0;
  ev[2] = q + 2.0 * p * cos(phase);
  ev[0] = q + 2.0 * p * cos(phase + 2.0 * M_PI / 3.0);
  ev[1] = 3.0 * q - ev[0] - ev[2];
}

/* D (smear-corrected), theta in degrees, the volume of the sphere material and the smear b
 * (cells^2: h = 1). */
static void sphere_shape(fluid_case *fc, double *D, double *theta, double *volume, double *smear)
{
  const efsi_grid *g = &fc->grid;
  double sum[MOMENT_COUNT];
  phi_moments(g, fc->state.phi[0], test_plane_scratch(g), sum);
  global_sum(&fc->decomp, sum, MOMENT_COUNT);
  const double n = sum[MOMENT_1], c[3] = {sum[MOMENT_X] / n, sum[MOMENT_Y] / n,
                                          sum[MOMENT_Z] / n};
  const double mxy = sum[MOMENT_XY] / n - c[0] * c[1], mxz = sum[MOMENT_XZ] / n - c[0] * c[2];
  const double myz = sum[MOMENT_YZ] / n - c[1] * c[2];
  const double m[9] = {sum[MOMENT_XX] / n - c[0] * c[0], mxy, mxz,
                       mxy, sum[MOMENT_YY] / n - c[1] * c[1], myz,
                       mxz, myz, sum[MOMENT_ZZ] / n - c[2] * c[2]};
  *volume = n * g->h[0] * g->h[1] * g->h[2];
  /* the shear-plane ellipse: eigenvalues l1 >= l2 of the x-y block and the long axis */
  const double mean = 0.5 * (m[0] + m[4]), half = 0.5 * (m[0] - m[4]);
  const double radius = sqrt(half * half + mxy * mxy);
  *theta = 0.5 * atan2(2.0 * mxy, m[0] - m[4]) * 180.0 / M_PI;
  /* the isotropic shift b: prod_i sqrt(5 (ev_i - b)) = 3 V / (4 pi), by bisection */
  double ev[3];
  symmetric_eigenvalues(m, ev);
  const double r3 = 3.0 * *volume / (4.0 * M_PI);
  double lo = -10.0 * ev[2], hi = ev[0] * (1.0 - 1e-12);
  for (int it = 0; it < 200; it++) {
    const double b = 0.5 * (lo + hi);
    if (sqrt(125.0 * (ev[0] - b) * (ev[1] - b) * (ev[2] - b)) > r3) lo = b;
    else hi = b;
  }
  const double b = 0.5 * (lo + hi);
  const double a1 = sqrt(mean + radius - b), a2 = sqrt(mean - radius - b);
  *D = (a1 - a2) / (a1 + a2);
  *smear = b;
}

/* The case sheared to gdot t = 2 with the given override (or none): D, theta, the volume
 * drift and the smear b at the end, printed. */
static void shear_sphere(const char *override, double *D, double *theta, double *drift,
                         double *smear)
{
  fluid_case fc;
  const char *overrides[1] = {override};
  fluid_case_open(&fc, MPI_COMM_WORLD, sphere_case, overrides, override ? 1 : 0, NULL);
  double v0, v, b0;
  sphere_shape(&fc, D, theta, &v0, &b0);
  const long steps = lround(2.0 / (gdot * fc.solver.dt));
  fluid_case_steps(&fc, steps);
  sphere_shape(&fc, D, theta, &v, smear);
  *drift = fabs(v / v0 - 1.0);
  if (test_rank0())
    printf("sphere in shear (%s), R = 6 cells, box 4R, Ca 0.2, Re 0.5, gdot t = %.3f (%ld "
           "steps): D = %.4f (theory 0.2277, %+.1f %%), theta = %.2f deg (theory 32.78), "
           "volume drift %.1e, smear b %.3f -> %.3f cells^2\n",
           override ? override : "default", steps * gdot * fc.solver.dt, steps, *D,
           100.0 * (*D / 0.2277 - 1.0), *theta, *drift, b0, *smear);
  fluid_case_close(&fc);
}

START_TEST(sphere_deforms_as_measured)
{
  double D, theta, drift, smear;
  shear_sphere(NULL, &D, &theta, &drift, &smear);
  const double D_theory = 0.2277, theta_theory = 32.78;
  ck_assert_double_le(drift, 1e-12);
  /* measured D = 0.2782, theta = 29.61 (gcc 12 -O2, any rank count): a band of 3 % and
   * 1 degree, wide against platform round-off, narrow against a change of the method */
  ck_assert_double_le(fabs(D / 0.2782 - 1.0), 0.03);
  ck_assert_double_le(fabs(theta - 29.61), 1.0);
  /* the accuracy measured here: D 22 % above the theory (WENO5: 26.8 %, which fails),
   * theta 3.2 deg below */
  ck_assert_double_le(D / D_theory - 1.0, 0.25);
  ck_assert_double_le(fabs(theta - theta_theory), 4.0);
  /* THINC keeps the interface: b 0.081 -> 0.125 cells^2 (measured; WENO5 0.409 fails) */
  ck_assert_double_le(smear, 0.2);
}
END_TEST

/* The same with WENO5 face values for phi (solid.phi_transport = weno5): the interface
 * widens and the sphere deforms more (docs/verification-solid.md). */
START_TEST(weno5_smears_the_sphere)
{
  double D, theta, drift, smear;
  shear_sphere("solid.phi_transport=weno5", &D, &theta, &drift, &smear);
  ck_assert_double_le(drift, 1e-12);
  /* measured: b 0.081 -> 0.409 cells^2, D = 0.2888 (+26.8 % over the theory), theta = 29.31
   * deg; the same bands as above */
  ck_assert_double_ge(smear, 0.3);
  ck_assert_double_le(fabs(D / 0.2888 - 1.0), 0.03);
  ck_assert_double_le(fabs(theta - 29.31), 1.0);
  ck_assert_double_le(D / 0.2277 - 1.0, 0.30);
}
END_TEST

static Suite *sphere_suite(void)
{
  Suite *s = suite_create("sphere shear");
  TCase *tc = tcase_create("against the theory");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, sphere_deforms_as_measured);
  tcase_add_test(tc, weno5_smears_the_sphere);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) { return mpi_check_main(argc, argv, sphere_suite); }
