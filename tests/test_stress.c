/* Viscous stress and velocity gradient: for a smooth periodic velocity with nonzero
 * divergence, inv_rho div(2 mu dev D) converges at second order to
 * inv_rho (mu lap v + (mu/3) grad div v) and L = grad v at second order; both are exact for a
 * linear velocity; stress_viscous writes exactly -1..n and the divergence reads nothing
 * outside it; wall faces stay untouched.  Halos are filled analytically, no exchange. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/grid.h"
#include "tests/test_support.h"
#include "stencils/kernel_list.h"
#include "stencils/stress.h"
#include "stencils/velocity_gradient.h"

static const double lengths[3] = {1.0, 0.8, 1.3};
static const double mu = 0.9, inv_rho = 1.0 / 1.1;

/* Each component its own mode, so div v != 0 and the dev part is exercised. */
static const test_mode velocity[3] = {{1.0, {1, 1, 1}, {0.2, 0.9, 0.4}},
                                 {0.7, {1, 1, 1}, {1.3, 0.5, 0.0}},
                                 {1.2, {1, 1, 1}, {0.6, 0.2, 0.8}}};

/* d/dx_a then d/dx_b of component c (a or b = -1: no derivative). */
static double velocity_derivative(int c, int a, int b, const double x[3])
{
  int deriv[3] = {0, 0, 0};
  if (a >= 0) deriv[a]++;
  if (b >= 0) deriv[b]++;
  return test_mode_eval(&velocity[c], lengths, x, deriv);
}

typedef struct {
  efsi_grid g;
  double *vel[3], *s[6], *f[3], *L[9];
} fields;

static void fields_alloc(fields *fs, const int n[3], int walls)
{
  fs->g = test_grid(n, lengths, walls, walls);
  for (int d = 0; d < 3; d++) {
    fs->vel[d] = field_alloc(&fs->g);
    fs->f[d] = field_alloc(&fs->g);
  }
  for (int c = 0; c < 6; c++) {
    fs->s[c] = field_alloc(&fs->g);
    /* NaN outside what stress_viscous writes: any read beyond -1..n poisons the result. */
    for (size_t m = 0; m < fs->g.size; m++) fs->s[c][m] = NAN;
  }
  for (int c = 0; c < 9; c++) fs->L[c] = field_alloc(&fs->g);
}

static void fields_free(fields *fs)
{
  for (int d = 0; d < 3; d++) {
    field_free(fs->vel[d]);
    field_free(fs->f[d]);
  }
  for (int c = 0; c < 6; c++) field_free(fs->s[c]);
  for (int c = 0; c < 9; c++) field_free(fs->L[c]);
}

/* Velocity component a at the point x. */
typedef double (*velocity_fn)(int a, const double x[3]);

/* fields_alloc, then component a of the velocity v(a, x) at each of its face points, halos
 * included. */
static const efsi_grid *fields_with_velocity(fields *fs, const int n[3], velocity_fn v)
{
  fields_alloc(fs, n, 0);
  const efsi_grid *g = &fs->g;
  FOR_ALL(g, i, j, k) {
    for (int a = 0; a < 3; a++) {
      double x[3];
      test_position(g, LOC_FACE_X + a, i, j, k, x);
      fs->vel[a][grid_index(g, i, j, k)] = v(a, x);
    }
  }
  return g;
}

/* The stress of the velocity, its divergence and the velocity gradient L. */
static void apply_operators(fields *fs)
{
  const efsi_grid *g = &fs->g;
  stress_viscous(g, mu, fs->vel[0], fs->vel[1], fs->vel[2], fs->s);
  stress_divergence_add(g, inv_rho, fs->s, fs->f[0], fs->f[1], fs->f[2]);
  velocity_gradient(g, fs->vel[0], fs->vel[1], fs->vel[2], fs->L);
}

static double smooth_velocity(int a, const double x[3])
{
  return velocity_derivative(a, -1, -1, x);
}

/* Max-norm errors of the stress divergence and of L for the smooth modes, n0 cells in x. */
static void smooth_errors(int n0, double *stress_err, double *gradient_err)
{
  const int n[3] = {n0, n0 * 3 / 4, n0 / 2 * 3 / 2};
  fields fs;
  const efsi_grid *g = fields_with_velocity(&fs, n, smooth_velocity);
  apply_operators(&fs);
  *stress_err = *gradient_err = 0.0;
  for (int d = 0; d < 3; d++) {
    int lo[3], hi[3];
    location_range(g, LOC_FACE_X + d, lo, hi);
    FOR_RANGE(lo, hi, i, j, k) {
      double x[3];
      test_position(g, LOC_FACE_X + d, i, j, k, x);
      double lap = 0.0, grad_div = 0.0;
      for (int e = 0; e < 3; e++) {
        lap += velocity_derivative(d, e, e, x);
        grad_div += velocity_derivative(e, e, d, x);
      }
      const double exact = inv_rho * (mu * lap + mu / 3.0 * grad_div);
      *stress_err = fmax(*stress_err, fabs(fs.f[d][grid_index(g, i, j, k)] - exact));
    }
  }
  const int lo[3] = {0, 0, 0};
  FOR_RANGE(lo, g->n, i, j, k) {
    double x[3];
    test_position(g, LOC_CENTRE, i, j, k, x);
    for (int a = 0; a < 3; a++)
      for (int b = 0; b < 3; b++)
        *gradient_err = fmax(*gradient_err, fabs(fs.L[3 * a + b][grid_index(g, i, j, k)]
                                                  - velocity_derivative(a, b, -1, x)));
  }
  fields_free(&fs);
}

START_TEST(second_order_on_smooth_velocity)
{
  double s32, l32, s64, l64;
  smooth_errors(32, &s32, &l32);
  smooth_errors(64, &s64, &l64);
  const double stress_order = log2(s32 / s64), gradient_order = log2(l32 / l64);
  printf("stress divergence error %.3e -> %.3e order %.3f; velocity gradient %.3e -> %.3e "
         "order %.3f\n", s32, s64, stress_order, l32, l64, gradient_order);
  ck_assert_msg(stress_order >= 1.9, "stress divergence order %.3f", stress_order);
  ck_assert_msg(gradient_order >= 1.9, "velocity gradient order %.3f", gradient_order);
}
END_TEST

/* The linear velocity v_a = c_a + A_ab x_b. */
static const double A[3][3] = {{0.5, -1.0, 2.0}, {1.5, 0.25, -0.5}, {-2.0, 1.0, 3.0}};

static double linear_velocity(int a, const double x[3])
{
  return 0.3 * a + A[a][0] * x[0] + A[a][1] * x[1] + A[a][2] * x[2];
}

/* v_a = c_a + A_ab x_b: constant stress (zero divergence), exact L, zero trace. */
START_TEST(exact_on_linear_velocity)
{
  const int n[3] = {7, 6, 5};
  fields fs;
  const efsi_grid *g = fields_with_velocity(&fs, n, linear_velocity);
  apply_operators(&fs);
  const double trace = A[0][0] + A[1][1] + A[2][2];
  const int lo[3] = {0, 0, 0};
  FOR_RANGE(lo, g->n, i, j, k) {
    const ptrdiff_t at = grid_index(g, i, j, k);
    for (int a = 0; a < 3; a++) {
      ck_assert_double_eq_tol(fs.f[a][at], 0.0, 1e-12);
      ck_assert_double_eq_tol(fs.s[a][at], 2.0 * mu * (A[a][a] - trace / 3.0), 1e-13);
      for (int b = 0; b < 3; b++) ck_assert_double_eq_tol(fs.L[3 * a + b][at], A[a][b], 1e-13);
    }
    ck_assert_double_eq_tol(fs.s[TXX][at] + fs.s[TYY][at] + fs.s[TZZ][at], 0.0, 1e-13);
    for (int a = 0; a < 3; a++)
      for (int b = a + 1; b < 3; b++)
        ck_assert_double_eq_tol(fs.s[tensor_offdiagonal(a, b)][at], mu * (A[a][b] + A[b][a]),
                                1e-13);
  }
  fields_free(&fs);
}
END_TEST

/* u = y^2, v = z^2, w = x^2 */
static double squares(int a, const double x[3])
{
  const int b = (a + 1) % 3;
  return x[b] * x[b];
}

/* stress_viscous fills exactly -1..n; the edge sxy(i,j,k) sits at (i hx, j hy, (k+1/2) hz):
 * for u = y^2, sxy = mu du/dy = 2 mu y is exact there (the one-sided difference is centred on
 * the edge), so the value pins the position. */
START_TEST(stress_range_and_edge_positions)
{
  const int n[3] = {6, 5, 4};
  fields fs;
  const efsi_grid *g = fields_with_velocity(&fs, n, squares);
  stress_viscous(g, mu, fs.vel[0], fs.vel[1], fs.vel[2], fs.s);
  FOR_ALL(g, i, j, k) {
    const int inside = i >= -1 && i <= n[0] && j >= -1 && j <= n[1] && k >= -1 && k <= n[2];
    const ptrdiff_t at = grid_index(g, i, j, k);
    for (int c = 0; c < 6; c++) ck_assert(inside ? !isnan(fs.s[c][at]) : isnan(fs.s[c][at]));
    if (!inside) continue;
    /* u = y^2, v = z^2, w = x^2: sxy = mu du/dy, syz = mu dv/dz, sxz = mu dw/dx, each at
     * its edge, whose coordinate along the derivative is a face position (index * h). */
    ck_assert_double_eq_tol(fs.s[TXY][at], mu * 2.0 * j * g->h[1], 1e-12);
    ck_assert_double_eq_tol(fs.s[TYZ][at], mu * 2.0 * k * g->h[2], 1e-12);
    ck_assert_double_eq_tol(fs.s[TXZ][at], mu * 2.0 * i * g->h[0], 1e-12);
  }
  fields_free(&fs);
}
END_TEST

START_TEST(divergence_leaves_wall_faces)
{
  const int n[3] = {6, 5, 4};
  fields fs;
  fields_alloc(&fs, n, 1);
  const efsi_grid *g = &fs.g;
  srand(7);
  for (int d = 0; d < 3; d++)
    for (size_t m = 0; m < g->size; m++) fs.vel[d][m] = rand() / (double)RAND_MAX;
  const double sentinel = 8.5;
  for (int d = 0; d < 3; d++)
    for (size_t m = 0; m < g->size; m++) fs.f[d][m] = sentinel;
  stress_viscous(g, mu, fs.vel[0], fs.vel[1], fs.vel[2], fs.s);
  stress_divergence_add(g, inv_rho, fs.s, fs.f[0], fs.f[1], fs.f[2]);
  for (int d = 0; d < 3; d++) {
    int lo[3], hi[3];
    location_range(g, LOC_FACE_X + d, lo, hi);
    FOR_ALL(g, i, j, k) {
      const int updated = i >= lo[0] && i < hi[0] && j >= lo[1] && j < hi[1] && k >= lo[2]
                          && k < hi[2];
      const double got = fs.f[d][grid_index(g, i, j, k)];
      ck_assert(updated ? isfinite(got) && got != sentinel : got == sentinel);
    }
  }
  fields_free(&fs);
}
END_TEST

static Suite *stress_suite(void)
{
  Suite *s = suite_create("stress");
  TCase *tc = tcase_create("viscous");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, second_order_on_smooth_velocity);
  tcase_add_test(tc, exact_on_linear_velocity);
  tcase_add_test(tc, stress_range_and_edge_positions);
  tcase_add_test(tc, divergence_leaves_wall_faces);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) { return mpi_check_main(argc, argv, stress_suite); }
