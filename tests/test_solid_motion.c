/* Bodies moved by the flow (docs/verification-solid.md):
 *  (a) a sphere carried once across a periodic box by the uniform flow v = U (1, 1, 1):
 *      L = 0 exactly, so B stays I and the velocity stays uniform; the tracer moves by U t;
 *      WENO5 moves phi only: its volume and shape after the full period are measured;
 *  (b) a stiff sphere spun by a simple shear between walls moving oppositely (it turns at
 *      Omega = S/2): after a quarter turn B is still near I (the rotation in L must not
 *      accumulate in B; the strain of a stiff body is of order mu S/G) and det B near 1. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/fluid_case.h"
#include "tests/test_support.h"
#include "decomp/reduce.h"
#include "stencils/kernel_list.h"
#include "stencils/solid_stress.h"
#include "stencils/reductions.h"

/* max over owned cells with phi_0 >= phi_min of max_c |B_c - I_c| */
static double b_deviation(const fluid_case *fc, double phi_min)
{
  const efsi_grid *g = &fc->grid;
  double dev = 0.0;
  for (int k = 0; k < g->n[2]; k++)
    for (int j = 0; j < g->n[1]; j++)
      for (int i = 0; i < g->n[0]; i++) {
        const ptrdiff_t at = grid_index(g, i, j, k);
        if (fc->state.phi[0][at] < phi_min) continue;
        for (int c = 0; c < 6; c++)
          dev = fmax(dev, fabs(fc->state.b[c][at] - (c < 3 ? 1.0 : 0.0)));
      }
  global_max(&fc->decomp, &dev, 1);
  return dev;
}

/* max |det B - 1| over cells with phi_0 >= phi_min */
static double det_deviation(const fluid_case *fc, double phi_min)
{
  double range[2];
  det_range(&fc->grid, fc->state.nmat, fc->state.phi, fc->state.b, phi_min, test_plane_scratch(&fc->grid), range);
  range[0] = -range[0];
  global_max(&fc->decomp, range, 2);
  return fmax(fabs(-range[0] - 1.0), fabs(range[1] - 1.0));
}

/* ---- (a) translation ---- */

#define NT 24                                   /* box of NT^3 cells, h = 1 */
static const double RADIUS = 6.0, UT = 1.0, DT_T = 0.1;   /* Courant number 0.1 per direction */

START_TEST(translated_sphere)
{
  char text[1024];
  snprintf(text, sizeof text,
           "[grid]\ncells = %d %d %d\nlength = %d %d %d\n"
           "[boundary]\ny = periodic\nz = periodic\n"
           "[fluid]\ndensity = 1\nviscosity = 0.01\n"
           "[sphere]\ncenter = 10.3 12.6 11.2\nradius = %.17g\nmodulus = 1\n"
           "[time]\ndt = %.17g\nsteps = 1\n",
           NT, NT, NT, NT, NT, NT, RADIUS, DT_T);
  fluid_case fc;
  fluid_case_open(&fc, MPI_COMM_WORLD, text, NULL, 0, NULL);
  ck_assert_int_eq(fc.state.nmat, 1);
  const efsi_grid *g = &fc.grid;
  double *vel[3] = {fc.state.u, fc.state.v, fc.state.w};
  for (int c = 0; c < 3; c++)
    for (size_t n = 0; n < g->size; n++) vel[c][n] = UT;
  fluid_case_refresh(&fc);

  const size_t cells = (size_t)NT * NT * NT;
  double *phi0 = test_rank0() ? malloc(cells * sizeof(double)) : NULL;
  double *phi1 = test_rank0() ? malloc(cells * sizeof(double)) : NULL;
  fluid_case_gather(&fc, fc.state.phi[0], phi0);
  const double v0 = fluid_case_volume(&fc, 0);
  long nt = 0;
  efsi_tracer *start = NULL;
  tracers_gather(fc.tracers, &nt, &start);

  /* once across the box: t = L/U */
  const long steps = lround(NT / (UT * DT_T));
  fluid_case_steps(&fc, steps);

  const double drift = fabs(fluid_case_volume(&fc, 0) - v0) / v0;
  const double b_dev = b_deviation(&fc, -INFINITY);   /* every cell, fluid included */
  double u_dev = 0.0;
  for (int c = 0; c < 3; c++)
    for (int k = 0; k < g->n[2]; k++)
      for (int j = 0; j < g->n[1]; j++)
        for (int i = 0; i < g->n[0]; i++)
          u_dev = fmax(u_dev, fabs(vel[c][grid_index(g, i, j, k)] - UT));
  global_max(&fc.decomp, &u_dev, 1);
  fluid_case_gather(&fc, fc.state.phi[0], phi1);
  long n_end = 0;
  efsi_tracer *end = NULL;
  tracers_gather(fc.tracers, &n_end, &end);
  /* figures of the gathered fields on rank 0: L1(phi - phi0)/V0, min phi, max phi, tracer error */
  double fig[4] = {0.0, 0.0, 1.0, INFINITY};
  if (test_rank0()) {
    double l1 = 0.0, sum0 = 0.0;
    for (size_t n = 0; n < cells; n++) {
      l1 += fabs(phi1[n] - phi0[n]);
      sum0 += phi0[n];
      fig[1] = fmin(fig[1], phi1[n]);
      fig[2] = fmax(fig[2], phi1[n]);
    }
    fig[0] = l1 / sum0;
    /* the tracer moved by U t in every direction, wrapped into the box: back at its start */
    if (nt == 1 && n_end == 1) {
      fig[3] = 0.0;
      for (int d = 0; d < 3; d++) {
        const double moved = fmod(start[0].x[d] + UT * fc.state.time, (double)NT);
        fig[3] = fmax(fig[3], fabs(end[0].x[d] - moved));
      }
    }
    printf("translation: %ld steps to t = %.6g (one box length, Courant number 0.1 per "
           "direction): |V/V0 - 1| = %.2e, L1(phi - phi0)/V0 = %.3f, phi in [%.4f, %.4f], "
           "max|B - I| = %.1e, max|v - U| = %.1e, tracer error %.1e\n",
           steps, fc.state.time, drift, fig[0], fig[1], fig[2], b_dev, u_dev, fig[3]);
  }
  MPI_Bcast(fig, 4, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  /* L = 0 and the stress of B = I is zero: B and v stay exact */
  ck_assert_double_eq(b_dev, 0.0);
  ck_assert_double_eq(u_dev, 0.0);
  ck_assert_double_le(fig[3], 1e-12 * NT);
  /* measured 0.291 with THINC, 0.343 with WENO5 (forward Euler smears the sharp sub-cell
   * fractions over a few cells on each side in 240 steps; docs/verification-solid.md) */
  ck_assert_double_le(fig[0], 0.5);
  /* measured [-0.0002, 1.0034] with THINC, [-0.0021, 1.0052] with WENO5: the conservative
   * form keeps phi near [0, 1] */
  ck_assert(fig[1] >= -0.01 && fig[2] <= 1.01);
  /* the design asked 1e-3 (docs/verification-solid.md); the conservative transport keeps the volume to
   * round-off (measured 5.0e-15) */
  ck_assert_double_le(drift, 1e-12);
  free(start);
  free(end);
  free(phi0);
  free(phi1);
  fluid_case_close(&fc);
}
END_TEST

/* ---- (b) rotation in simple shear ---- */

static const double S = 0.04;                  /* shear rate: Re = S R^2/nu = 1 at R = 5 */
static const double G_STIFF = 10.0;            /* mu S/G = 0.004 */

START_TEST(spinning_sphere)
{
  const int nx = 24, ny = 24, nz = 16;
  const double radius = 5.0, uw = S * ny / 2.0;
  char text[1024];
  snprintf(text, sizeof text,
           "[grid]\ncells = %d %d %d\nlength = %d %d %d\n"
           "[boundary]\ny = wall\nz = periodic\ny_lo_u = %.17g\ny_hi_u = %.17g\n"
           "[fluid]\ndensity = 1\nviscosity = 1\n"
           "[sphere]\ncenter = %g %g %g\nradius = %.17g\nmodulus = %.17g\n"
           "[time]\ndt = auto\nsteps = 1\n",
           nx, ny, nz, nx, ny, nz, -uw, uw, nx / 2.0, ny / 2.0, nz / 2.0, radius, G_STIFF);
  fluid_case fc;
  fluid_case_open(&fc, MPI_COMM_WORLD, text, NULL, 0, NULL);
  const efsi_grid *g = &fc.grid;
  /* the Couette profile u = S (y - Ly/2) everywhere: the sphere starts at rest in B and spins
   * up within a few elastic and viscous times R/c, R^2/nu, both small against 1/S */
  for (int k = 0; k < g->n[2]; k++)
    for (int j = 0; j < g->n[1]; j++)
      for (int i = 0; i < g->n[0]; i++)
        fc.state.u[grid_index(g, i, j, k)] = S * ((g->offset[1] + j + 0.5) * g->h[1] - ny / 2.0);
  fluid_case_refresh(&fc);
  const double v0 = fluid_case_volume(&fc, 0);

  /* a quarter turn at Omega = S/2 */
  const double t_end = M_PI / S;
  double b_half = 0.0, b_core = 0.0, det_dev = 0.0;
  for (int quarter = 1; quarter <= 4; quarter++) {
    fluid_case_steps(&fc, (long)ceil(quarter * t_end / 4.0 / fc.solver.dt) - fc.state.step);
    b_half = fmax(b_half, b_deviation(&fc, 0.5));
    b_core = fmax(b_core, b_deviation(&fc, 0.99));
    det_dev = fmax(det_dev, det_deviation(&fc, 0.5));
  }
  /* rotation rate of the core: Omega_z = (dv/dx - du/dy)/2 at the cell centres (face values
   * averaged), mean over cells with phi >= 0.99; the shear's own rate is -S/2 */
  double sum[2] = {0.0, 0.0};
  const double *u = fc.state.u, *v = fc.state.v;
  const ptrdiff_t sx = g->stride[0], sy = g->stride[1];
  for (int k = 0; k < g->n[2]; k++)
    for (int j = 0; j < g->n[1]; j++)
      for (int i = 0; i < g->n[0]; i++) {
        const ptrdiff_t p = grid_index(g, i, j, k);
        if (fc.state.phi[0][p] < 0.99) continue;
        const double dudy = (u[p + sy] + u[p + sy + sx] - u[p - sy] - u[p - sy + sx]) / (4.0 * g->h[1]);
        const double dvdx = (v[p + sx] + v[p + sx + sy] - v[p - sx] - v[p - sx + sy]) / (4.0 * g->h[0]);
        sum[0] += 0.5 * (dvdx - dudy);
        sum[1] += 1.0;
      }
  global_sum(&fc.decomp, sum, 2);
  const double omega = sum[0] / sum[1];
  const double drift = fabs(fluid_case_volume(&fc, 0) - v0) / v0;
  if (test_rank0())
    printf("rotation: %ld steps (dt %.4g, %s limit) to t S = %.4g: core rotation rate / (-S/2) "
           "= %.3f; max|B - I| = %.2e (phi >= 0.5), %.2e (phi >= 0.99); max|det B - 1| = %.2e "
           "(phi >= 0.5); |V/V0 - 1| = %.1e\n",
           fc.state.step, fc.solver.dt, timestep_limit_name(fc.ts.binding), fc.state.time * S,
           omega / (-S / 2.0), b_half, b_core, det_dev, drift);
  /* measured 0.927: confinement (2R/Ly = 0.42) and Re = 1 slow it below S/2; a body sheared
   * rather than turned would show 0 here and max|B - I| of order S t = pi */
  ck_assert_msg(fabs(omega / (-S / 2.0) - 1.0) <= 0.15, "the sphere does not turn at S/2");
  /* measured 2.3e-2 (core), 4.5e-2 (phi >= 1/2), 9.2e-3 (det B): about twice as much room */
  ck_assert_double_le(b_core, 0.05);
  ck_assert_double_le(b_half, 0.1);
  ck_assert_double_le(det_dev, 0.02);
  fluid_case_close(&fc);
}
END_TEST

static Suite *solid_motion_suite(void)
{
  Suite *s = suite_create("solid motion");
  TCase *tc = tcase_create("bodies");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, translated_sphere);
  tcase_add_test(tc, spinning_sphere);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) { return mpi_check_main(argc, argv, solid_motion_suite); }
