/* Compact operators: divergence and gradient second order on smooth periodic data and exact
 * on linear data; the Laplacian exact on a quadratic; divergence(gradient p) == laplacian(p)
 * to round-off for a random p, periodic and between walls (even reflection of p); wall faces
 * and halos untouched by gradient_add.  The kernels of the pressure step that use them: the
 * ACM's sums with the Laplacians formed inside equal to the sums of the Laplacian kernel's
 * values, bit for bit; the pressure step against its closed form.  Halos are filled in the
 * test, no exchange. */
#include "base/dd_contract_off.h"   /* first: the reference sums in double-double */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grid.h"
#include "tests/test_support.h"
#include "base/dd.h"
#include "stencils/kernel_list.h"
#include "stencils/operators.h"
#include "stencils/reference.h"

static const double lengths[3] = {1.0, 0.8, 1.3};

static const test_mode pressure = {1.0, {1, 2, 1}, {0.3, 0.1, 1.1}};
static const test_mode velocity[3] = {{1.0, {1, 1, 2}, {0.2, 0.9, 0.4}},
                                 {0.7, {2, 1, 1}, {1.3, 0.5, 0.0}},
                                 {1.2, {1, 2, 1}, {0.6, 0.2, 0.8}}};

/* Max-norm errors of gradient and divergence of the smooth modes on a grid of n0 cells in x. */
static void smooth_errors(int n0, double *grad_err, double *div_err)
{
  const int n[3] = {n0, n0 * 3 / 4, n0 / 2};
  efsi_grid g = test_grid(n, lengths, 0, 0);
  double *p = field_alloc(&g), *vel[3], *div = field_alloc(&g), *grad[3];
  for (int d = 0; d < 3; d++) {
    vel[d] = field_alloc(&g);
    grad[d] = field_alloc(&g);
  }
  const int none[3] = {0, 0, 0};
  FOR_ALL(&g, i, j, k) {
    double x[3];
    const ptrdiff_t at = grid_index(&g, i, j, k);
    test_position(&g, LOC_CENTRE, i, j, k, x);
    p[at] = test_mode_eval(&pressure, lengths, x, none);
    for (int d = 0; d < 3; d++) {
      test_position(&g, LOC_FACE_X + d, i, j, k, x);
      vel[d][at] = test_mode_eval(&velocity[d], lengths, x, none);
    }
  }
  gradient_add(&g, 1.0, p, grad[0], grad[1], grad[2]);
  divergence(&g, 1.0, vel[0], vel[1], vel[2], div);
  *grad_err = *div_err = 0.0;
  for (int d = 0; d < 3; d++) {
    int lo[3], hi[3], deriv[3] = {0, 0, 0};
    deriv[d] = 1;
    location_range(&g, LOC_FACE_X + d, lo, hi);
    FOR_RANGE(lo, hi, i, j, k) {
      double x[3];
      test_position(&g, LOC_FACE_X + d, i, j, k, x);
      *grad_err = fmax(*grad_err,
                       fabs(grad[d][grid_index(&g, i, j, k)] - test_mode_eval(&pressure, lengths, x, deriv)));
    }
  }
  const int lo[3] = {0, 0, 0};
  FOR_RANGE(lo, g.n, i, j, k) {
    double x[3], exact = 0.0;
    test_position(&g, LOC_CENTRE, i, j, k, x);
    for (int d = 0; d < 3; d++) {
      int deriv[3] = {0, 0, 0};
      deriv[d] = 1;
      exact += test_mode_eval(&velocity[d], lengths, x, deriv);
    }
    *div_err = fmax(*div_err, fabs(div[grid_index(&g, i, j, k)] - exact));
  }
  field_free(p);
  field_free(div);
  for (int d = 0; d < 3; d++) {
    field_free(vel[d]);
    field_free(grad[d]);
  }
}

START_TEST(second_order_on_smooth_data)
{
  double g32, d32, g64, d64;
  smooth_errors(32, &g32, &d32);
  smooth_errors(64, &g64, &d64);
  const double grad_order = log2(g32 / g64), div_order = log2(d32 / d64);
  printf("operators: gradient error %.3e -> %.3e order %.3f; divergence %.3e -> %.3e order %.3f\n",
         g32, g64, grad_order, d32, d64, div_order);
  ck_assert_msg(grad_order >= 1.9, "gradient order %.3f", grad_order);
  ck_assert_msg(div_order >= 1.9, "divergence order %.3f", div_order);
}
END_TEST

START_TEST(exact_on_linear_and_quadratic_data)
{
  const int n[3] = {7, 6, 5};
  efsi_grid g = test_grid(n, lengths, 0, 0);
  double *p = field_alloc(&g), *q = field_alloc(&g), *vel[3], *grad[3];
  double *div = field_alloc(&g), *lap = field_alloc(&g);
  const double c[3] = {1.5, -2.25, 0.75};
  const double a[3][3] = {{0.5, -1.0, 2.0}, {1.5, 0.25, -0.5}, {-2.0, 1.0, 3.0}};
  const double quad[3] = {1.5, -0.5, 2.0};
  for (int d = 0; d < 3; d++) {
    vel[d] = field_alloc(&g);
    grad[d] = field_alloc(&g);
  }
  FOR_ALL(&g, i, j, k) {
    double x[3];
    const ptrdiff_t at = grid_index(&g, i, j, k);
    test_position(&g, LOC_CENTRE, i, j, k, x);
    p[at] = 0.25 + c[0] * x[0] + c[1] * x[1] + c[2] * x[2];
    /* A quadratic with cross terms: its Laplacian is 2 (quad_x + quad_y + quad_z). */
    q[at] = quad[0] * x[0] * x[0] + quad[1] * x[1] * x[1] + quad[2] * x[2] * x[2]
            + 0.7 * x[0] * x[1] - 1.1 * x[1] * x[2] + x[0];
    for (int d = 0; d < 3; d++) {
      test_position(&g, LOC_FACE_X + d, i, j, k, x);
      vel[d][at] = 0.1 + a[d][0] * x[0] + a[d][1] * x[1] + a[d][2] * x[2];
    }
  }
  gradient_add(&g, 1.0, p, grad[0], grad[1], grad[2]);
  divergence(&g, 1.0, vel[0], vel[1], vel[2], div);
  laplacian(&g, q, lap);
  const double trace = a[0][0] + a[1][1] + a[2][2], lap_exact = 2.0 * (quad[0] + quad[1] + quad[2]);
  /* Round-off scale of the Laplacian: values of size |q| <= 10 divided by h^2. */
  const double ih = fmax(g.inv_h[0], fmax(g.inv_h[1], g.inv_h[2]));
  const double lap_tol = 1e-13 * 10.0 * ih * ih;
  const int lo[3] = {0, 0, 0};
  FOR_RANGE(lo, g.n, i, j, k) {
    const ptrdiff_t at = grid_index(&g, i, j, k);
    for (int d = 0; d < 3; d++) ck_assert_double_eq_tol(grad[d][at], c[d], 1e-13);
    ck_assert_double_eq_tol(div[at], trace, 1e-13);
    ck_assert_double_eq_tol(lap[at], lap_exact, lap_tol);
  }
  field_free(p);
  field_free(q);
  field_free(div);
  field_free(lap);
  for (int d = 0; d < 3; d++) {
    field_free(vel[d]);
    field_free(grad[d]);
  }
}
END_TEST

/* Index of the owned point that fills halo index idx of an n-cell direction: periodic copy,
 * or even reflection about a wall (f(-1-m) = f(m), f(n+m) = f(n-1-m)). */
static int source_index(int idx, int n, int wall)
{
  if (idx < 0) return wall ? -1 - idx : idx + n;
  if (idx >= n) return wall ? 2 * n - 1 - idx : idx - n;
  return idx;
}

static void fill_centre_halo(const efsi_grid *g, double *f)
{
  FOR_ALL(g, i, j, k) {
    const int si = source_index(i, g->n[0], g->wall_lo[0]);
    const int sj = source_index(j, g->n[1], g->wall_lo[1]);
    const int sk = source_index(k, g->n[2], g->wall_lo[2]);
    f[grid_index(g, i, j, k)] = f[grid_index(g, si, sj, sk)];
  }
}

/* The high faces i = n that divergence reads: periodic copies of face 0; at a wall the
 * normal face at n is the wall and holds zero (the array starts zeroed and is never updated). */
static void fill_high_faces(const efsi_grid *g, double *vel[3])
{
  for (int d = 0; d < 3; d++) {
    if (g->wall_hi[d]) continue;
    FOR_ALL(g, i, j, k) {
      const int idx[3] = {i, j, k};
      if (idx[d] != g->n[d]) continue;
      const ptrdiff_t at = grid_index(g, i, j, k);
      vel[d][at] = vel[d][at - (ptrdiff_t)g->n[d] * g->stride[d]];
    }
  }
}

START_TEST(divergence_of_gradient_is_laplacian)
{
  for (int walls = 0; walls < 2; walls++) {
    const int n[3] = {9, 8, 6};
    efsi_grid g = test_grid(n, lengths, walls, walls);
    double *p = field_alloc(&g), *vel[3], *div = field_alloc(&g), *lap = field_alloc(&g);
    for (int d = 0; d < 3; d++) vel[d] = field_alloc(&g);
    srand(11);
    const int lo[3] = {0, 0, 0};
    FOR_RANGE(lo, g.n, i, j, k) p[grid_index(&g, i, j, k)] = rand() / (double)RAND_MAX - 0.5;
    fill_centre_halo(&g, p);
    gradient_add(&g, 1.0, p, vel[0], vel[1], vel[2]);
    fill_high_faces(&g, vel);
    divergence(&g, 1.0, vel[0], vel[1], vel[2], div);
    laplacian(&g, p, lap);
    double scale = 0.0, diff = 0.0;
    FOR_RANGE(lo, g.n, i, j, k) {
      const ptrdiff_t at = grid_index(&g, i, j, k);
      scale = fmax(scale, fabs(lap[at]));
      diff = fmax(diff, fabs(div[at] - lap[at]));
    }
    printf("operators: |div grad p - lap p| / |lap p| = %.2e (%s)\n", diff / scale,
           walls ? "walls in y, z" : "periodic");
    ck_assert_msg(diff <= 1e-12 * scale, "walls %d: relative difference %.3e", walls,
                  diff / scale);
    field_free(p);
    field_free(div);
    field_free(lap);
    for (int d = 0; d < 3; d++) field_free(vel[d]);
  }
}
END_TEST

START_TEST(gradient_leaves_wall_faces_and_halos)
{
  const int n[3] = {6, 5, 4};
  efsi_grid g = test_grid(n, lengths, 1, 1);
  double *p = field_alloc(&g), *vel[3];
  const double sentinel = 42.0;
  for (size_t m = 0; m < g.size; m++) p[m] = rand() / (double)RAND_MAX;
  for (int d = 0; d < 3; d++) {
    vel[d] = field_alloc(&g);
    for (size_t m = 0; m < g.size; m++) vel[d][m] = sentinel;
  }
  gradient_add(&g, -0.5, p, vel[0], vel[1], vel[2]);
  for (int d = 0; d < 3; d++) {
    int lo[3], hi[3];
    location_range(&g, LOC_FACE_X + d, lo, hi);
    ck_assert_int_eq(lo[d], d == 0 ? 0 : 1);
    FOR_ALL(&g, i, j, k) {
      const int updated = i >= lo[0] && i < hi[0] && j >= lo[1] && j < hi[1] && k >= lo[2]
                          && k < hi[2];
      const ptrdiff_t at = grid_index(&g, i, j, k);
      if (updated) {
        const double expected = sentinel - 0.5 * (p[at] - p[at - g.stride[d]]) * g.inv_h[d];
        ck_assert_double_eq_tol(vel[d][at], expected, 1e-13);
      } else {
        ck_assert(vel[d][at] == sentinel);
      }
    }
  }
  field_free(p);
  for (int d = 0; d < 3; d++) field_free(vel[d]);
}
END_TEST

/* acm_sums forms the Laplacians of D* and p point by point: its sums are those of the
 * products of the Laplacian kernel's values, bit for bit (double-double sums round the same
 * whatever the order of the terms); without the Laplacians (SMAC) their sums are zero. */
START_TEST(acm_sums_form_the_laplacians)
{
  const int n[3] = {11, 7, 6};
  for (int walls = 0; walls < 2; walls++) {
    efsi_grid g = test_grid(n, lengths, walls, walls);
    double *div = field_alloc(&g), *p = field_alloc(&g), *u = field_alloc(&g);
    double *lap_div = field_alloc(&g), *lap_p = field_alloc(&g);
    srand(5 + walls);
    for (size_t m = 0; m < g.size; m++) {
      div[m] = rand() / (double)RAND_MAX - 0.5;
      p[m] = 3.0 * (rand() / (double)RAND_MAX) - 1.0;
      u[m] = rand() / (double)RAND_MAX;
    }
    laplacian(&g, div, lap_div);
    laplacian(&g, p, lap_p);
    for (int laplacians = 0; laplacians < 2; laplacians++) {
      dd_sum ref[SUM_COUNT];
      for (int c = 0; c < SUM_COUNT; c++) ref[c] = (dd_sum){0.0, 0.0};
      FOR_OWNED(&g, i, j, k) {
        const ptrdiff_t q = grid_index(&g, i, j, k);
        const double d = div[q], ld = laplacians ? lap_div[q] : 0.0;
        const double lp = laplacians ? lap_p[q] : 0.0;
        const double t[SUM_COUNT] = {[SUM_D_LAPD] = d * ld, [SUM_LAPD2] = ld * ld,
                                     [SUM_LAPP2] = lp * lp, [SUM_D_LAPP] = d * lp,
                                     [SUM_LAPD_LAPP] = ld * lp, [SUM_P] = p[q], [SUM_D] = d,
                                     [SUM_D2] = d * d, [SUM_U] = u[q],
                                     [SUM_ABS_P] = fabs(p[q]), [SUM_ABS_D] = fabs(d)};
        for (int c = 0; c < SUM_COUNT; c++) ref[c] = dd_add(ref[c], t[c]);
      }
      double sums[2 * SUM_COUNT];
      acm_sums(&g, laplacians, div, p, u, test_plane_scratch(&g), sums);
      for (int c = 0; c < SUM_COUNT; c++)
        ck_assert_msg(sums[2 * c] == ref[c].hi, "walls %d, laplacians %d: sum %d is %.17g, "
                      "not %.17g", walls, laplacians, c, sums[2 * c], ref[c].hi);
      if (!laplacians) ck_assert(sums[2 * SUM_LAPD2] == 0.0 && sums[2 * SUM_LAPP2] == 0.0);
    }
    field_free(div);
    field_free(p);
    field_free(u);
    field_free(lap_div);
    field_free(lap_p);
  }
}
END_TEST

/* pressure_correct: p_next = p + dp - shift with dp = -(b p + a D)/dt (the closed form) on
 * the owned cells and one halo layer, and the velocity corrected as gradient_add(scale, dp)
 * corrects it, bit for bit, between walls (faces starting at 1) and periodic; nothing else
 * written, p left as it was. */
START_TEST(pressure_correct_is_the_separate_passes)
{
  const int n[3] = {6, 5, 4};
  for (int walls = 0; walls < 2; walls++) {
    efsi_grid g = test_grid(n, lengths, walls, walls);
    enum { P, DIV, NEXT, P0, DP, U, V, W, RU, RV, RW, ARRAYS };
    double *f[ARRAYS];
    for (int a = 0; a < ARRAYS; a++) f[a] = field_alloc(&g);
    srand(17 + walls);
    for (size_t m = 0; m < g.size; m++) {
      f[P0][m] = f[P][m] = rand() / (double)RAND_MAX - 0.3;
      f[DIV][m] = rand() / (double)RAND_MAX - 0.6;
      f[NEXT][m] = f[DP][m] = 42.0;
      for (int c = 0; c < 3; c++) f[RU + c][m] = f[U + c][m] = rand() / (double)RAND_MAX - 0.5;
    }
    const double a_over_dt = 0.37, b_over_dt = 0.011, shift = 1e-3, scale = -0.07;
    pressure_correct(&g, a_over_dt, b_over_dt, shift, scale, f[P], f[DIV], f[NEXT], f[U], f[V],
                     f[W]);
    FOR_ALL(&g, i, j, k) {
      const ptrdiff_t q = grid_index(&g, i, j, k);
      const int ring = i >= -1 && i <= g.n[0] && j >= -1 && j <= g.n[1] && k >= -1 && k <= g.n[2];
      ck_assert(f[P][q] == f[P0][q]);
      if (!ring) {
        ck_assert(f[NEXT][q] == 42.0);
        continue;
      }
      f[DP][q] = -(b_over_dt * f[P0][q] + a_over_dt * f[DIV][q]);
      ck_assert(f[NEXT][q] == f[P0][q] + f[DP][q] - shift);
    }
    gradient_add(&g, scale, f[DP], f[RU], f[RV], f[RW]);
    for (int c = 0; c < 3; c++)
      ck_assert(memcmp(f[U + c], f[RU + c], g.size * sizeof(double)) == 0);
    for (int a = 0; a < ARRAYS; a++) field_free(f[a]);
  }
}
END_TEST

static Suite *operators_suite(void)
{
  Suite *s = suite_create("operators");
  TCase *tc = tcase_create("compact");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, second_order_on_smooth_data);
  tcase_add_test(tc, exact_on_linear_and_quadratic_data);
  tcase_add_test(tc, divergence_of_gradient_is_laplacian);
  tcase_add_test(tc, gradient_leaves_wall_faces_and_halos);
  tcase_add_test(tc, acm_sums_form_the_laplacians);
  tcase_add_test(tc, pressure_correct_is_the_separate_passes);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) { return mpi_check_main(argc, argv, operators_suite); }
