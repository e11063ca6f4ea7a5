/* WENO5 advection: fifth order on smooth periodic data for every location, direction and
 * velocity sign; exact zero on constants; exact slope on linear data (which also checks the
 * interpolation of the advecting velocity); no overshoot of the derivative of a step; the
 * optimised kernels agree with the textbook formulas to round-off on random smooth fields.
 * Every point, halos included, is filled from the analytic function: no exchange needed. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grid.h"
#include "tests/test_support.h"
#include "stencils/kernel_list.h"
#include "stencils/reference.h"
#include "stencils/weno5.h"

static const double two_pi = 6.283185307179586;

static void fill_constant(const efsi_grid *g, double *f, double value)
{
  for (size_t n = 0; n < g->size; n++) f[n] = value;
}

static double uniform(double lo, double hi) { return lo + (hi - lo) * rand() / (double)RAND_MAX; }

/* Max-norm error of -(a . grad f) for f = sin(2 pi x_d / L + phase), a_d = sign * 1.5 and
 * the other velocity components constant (they multiply a zero derivative). */
static double sine_error(int loc, int d, int cells, double sign, double phase)
{
  int n[3] = {4, 5, 3};
  n[d] = cells;
  const double len[3] = {2.0, 1.5, 3.0};
  efsi_grid g = test_grid(n, len, 0, 0);
  double *f = field_alloc(&g), *out = field_alloc(&g), *vel[3];
  const double a[3] = {0.7, -0.3, 0.4};
  for (int e = 0; e < 3; e++) {
    vel[e] = field_alloc(&g);
    fill_constant(&g, vel[e], e == d ? sign * 1.5 : a[e]);
  }
  const double kw = two_pi / len[d];
  FOR_ALL(&g, i, j, k) {
    double x[3];
    test_position(&g, loc, i, j, k, x);
    f[grid_index(&g, i, j, k)] = sin(kw * x[d] + phase);
  }
  advection_weno5(&g, loc, f, vel[0], vel[1], vel[2], out);
  int lo[3], hi[3];
  location_range(&g, loc, lo, hi);
  double err = 0.0;
  for (int k = lo[2]; k < hi[2]; k++)
    for (int j = lo[1]; j < hi[1]; j++)
      for (int i = lo[0]; i < hi[0]; i++) {
        double x[3];
        test_position(&g, loc, i, j, k, x);
        const double exact = -sign * 1.5 * kw * cos(kw * x[d] + phase);
        err = fmax(err, fabs(out[grid_index(&g, i, j, k)] - exact));
      }
  field_free(f);
  field_free(out);
  for (int e = 0; e < 3; e++) field_free(vel[e]);
  return err;
}

START_TEST(fifth_order_on_sine)
{
  const double len[3] = {2.0, 1.5, 3.0}, phases[2] = {0.0, 0.7}, signs[2] = {1.0, -1.0};
  double worst_order = 1e30, worst_ratio = 0.0;
  for (int loc = LOC_CENTRE; loc <= LOC_FACE_Z; loc++)
    for (int d = 0; d < 3; d++)
      for (int s = 0; s < 2; s++)
        for (int ph = 0; ph < 2; ph++) {
          const double e32 = sine_error(loc, d, 32, signs[s], phases[ph]);
          const double e64 = sine_error(loc, d, 64, signs[s], phases[ph]);
          const double order = log2(e32 / e64);
          /* Truncation error of the optimal linear upwind scheme, |a| h^5 k^6/60: the
           * nonlinear weights of WENO5-JS deviate from the linear ones by O(h^2), which costs
           * a constant factor (about 7 on a sine) but keeps the order; 10 bounds it. */
          const double kw = two_pi / len[d], h = len[d] / 64;
          const double linear = 1.5 * pow(h, 5) * pow(kw, 6) / 60.0;
          worst_order = fmin(worst_order, order);
          worst_ratio = fmax(worst_ratio, e64 / linear);
          ck_assert_msg(order >= 4.5, "loc %d dir %d sign %g phase %g: order %.2f (%.2e, %.2e)",
                        loc, d, signs[s], phases[ph], order, e32, e64);
          ck_assert_msg(e64 <= 10.0 * linear, "loc %d dir %d: error %.3e at 64, linear %.3e",
                        loc, d, e64, linear);
        }
  printf("weno5 sine: lowest order 32->64 %.3f, largest error(64)/linear-scheme error %.3f\n",
         worst_order, worst_ratio);
}
END_TEST

/* The conservative form -div(a f): fifth order on a sine carried by a uniform velocity
 * (then -div(a f) = -a . grad f), both signs, every direction. */
static double conservative_sine_error(int d, int cells, double sign)
{
  int n[3] = {4, 5, 3};
  n[d] = cells;
  const double len[3] = {2.0, 1.5, 3.0};
  efsi_grid g = test_grid(n, len, 0, 0);
  double *f = field_alloc(&g), *out = field_alloc(&g), *vel[3];
  for (int e = 0; e < 3; e++) {
    vel[e] = field_alloc(&g);
    fill_constant(&g, vel[e], e == d ? sign * 1.5 : 0.3);
  }
  const double kw = two_pi / len[d];
  FOR_ALL(&g, i, j, k) {
    double x[3];
    test_position(&g, LOC_CENTRE, i, j, k, x);
    f[grid_index(&g, i, j, k)] = sin(kw * x[d] + 0.4);
  }
  advection_weno5_conservative(&g, f, vel[0], vel[1], vel[2], 0, 0, out);
  double err = 0.0;
  for (int k = 0; k < g.n[2]; k++)
    for (int j = 0; j < g.n[1]; j++)
      for (int i = 0; i < g.n[0]; i++) {
        double x[3];
        test_position(&g, LOC_CENTRE, i, j, k, x);
        err = fmax(err, fabs(out[grid_index(&g, i, j, k)] + sign * 1.5 * kw * cos(kw * x[d] + 0.4)));
      }
  field_free(f);
  field_free(out);
  for (int e = 0; e < 3; e++) field_free(vel[e]);
  return err;
}

START_TEST(conservative_form_is_fifth_order_and_conserves)
{
  double worst = 1e30;
  for (int d = 0; d < 3; d++)
    for (int s = 0; s < 2; s++) {
      const double e32 = conservative_sine_error(d, 32, s ? -1.0 : 1.0);
      const double e64 = conservative_sine_error(d, 64, s ? -1.0 : 1.0);
      worst = fmin(worst, log2(e32 / e64));
      ck_assert_msg(log2(e32 / e64) >= 4.5, "dir %d: order %.2f", d, log2(e32 / e64));
    }
  /* a step carried by a non-uniform, divergent periodic velocity: the fluxes telescope, so
   * the total rate is zero to round-off */
  const int n[3] = {16, 12, 10};
  const double len[3] = {2.0, 1.5, 3.0};
  efsi_grid g = test_grid(n, len, 0, 0);
  double *f = field_alloc(&g), *out = field_alloc(&g), *vel[3];
  for (int e = 0; e < 3; e++) vel[e] = field_alloc(&g);
  FOR_ALL(&g, i, j, k) {
    const ptrdiff_t at = grid_index(&g, i, j, k);
    const int ii = (i + n[0]) % n[0], jj = (j + n[1]) % n[1], kk = (k + n[2]) % n[2];
    f[at] = (ii > 4 && ii < 11 && jj > 3 && kk < 6) ? 1.0 : 0.0;
    vel[0][at] = sin(two_pi * ii / n[0]) + 0.5 * cos(two_pi * jj / n[1]);
    vel[1][at] = 0.3 - cos(two_pi * kk / n[2]);
    vel[2][at] = 0.2 * sin(two_pi * (ii + jj) / n[0]);
  }
  advection_weno5_conservative(&g, f, vel[0], vel[1], vel[2], 0, 0, out);
  double total = 0.0, scale = 0.0;
  for (int k = 0; k < n[2]; k++)
    for (int j = 0; j < n[1]; j++)
      for (int i = 0; i < n[0]; i++) {
        total += out[grid_index(&g, i, j, k)];
        scale += fabs(out[grid_index(&g, i, j, k)]);
      }
  printf("weno5 conservative form: lowest order 32->64 %.3f; total rate %.2g of sum |rate|\n",
         worst, fabs(total) / scale);
  ck_assert(fabs(total) <= 1e-13 * scale);
  field_free(f);
  field_free(out);
  for (int e = 0; e < 3; e++) field_free(vel[e]);
}
END_TEST

/* Random velocity in every array (halos included). */
static void random_velocity(const efsi_grid *g, double *vel[3])
{
  for (int e = 0; e < 3; e++)
    for (size_t n = 0; n < g->size; n++) vel[e][n] = uniform(-1.0, 1.0);
}

START_TEST(constant_gives_zero)
{
  const int n[3] = {8, 6, 5};
  const double len[3] = {1.0, 2.0, 0.5};
  efsi_grid g = test_grid(n, len, 1, 0);
  double *f = field_alloc(&g), *out = field_alloc(&g), *vel[3];
  for (int e = 0; e < 3; e++) vel[e] = field_alloc(&g);
  srand(3);
  random_velocity(&g, vel);
  fill_constant(&g, f, 3.25);
  for (int loc = LOC_CENTRE; loc <= LOC_FACE_Z; loc++) {
    fill_constant(&g, out, 1.0);
    advection_weno5(&g, loc, f, vel[0], vel[1], vel[2], out);
    int lo[3], hi[3];
    location_range(&g, loc, lo, hi);
    for (int k = lo[2]; k < hi[2]; k++)
      for (int j = lo[1]; j < hi[1]; j++)
        for (int i = lo[0]; i < hi[0]; i++) ck_assert(out[grid_index(&g, i, j, k)] == 0.0);
  }
  field_free(f);
  field_free(out);
  for (int e = 0; e < 3; e++) field_free(vel[e]);
}
END_TEST

/* The advecting component along d at point (i,j,k) of loc, as the design states it. */
static double advecting(const efsi_grid *g, int loc, int d, const double *a, int i, int j, int k)
{
  const int e = location_direction(loc);
  int up[3] = {i, j, k};
  up[d]++;
  const double here = a[grid_index(g, i, j, k)], next = a[grid_index(g, up[0], up[1], up[2])];
  if (e == d) return here;
  if (e < 0) return 0.5 * (here + next);
  int back[3] = {i, j, k}, back_up[3] = {up[0], up[1], up[2]};
  back[e]--;
  back_up[e]--;
  return 0.25 * (here + next + a[grid_index(g, back[0], back[1], back[2])]
                 + a[grid_index(g, back_up[0], back_up[1], back_up[2])]);
}

START_TEST(linear_gives_exact_slope_and_touches_only_updated_points)
{
  const int n[3] = {8, 6, 5};
  const double len[3] = {1.0, 2.0, 0.5}, c[3] = {1.3, -0.6, 2.1};
  efsi_grid g = test_grid(n, len, 1, 0);
  double *f = field_alloc(&g), *out = field_alloc(&g), *vel[3];
  for (int e = 0; e < 3; e++) vel[e] = field_alloc(&g);
  srand(5);
  random_velocity(&g, vel);
  FOR_ALL(&g, i, j, k) {
    double x[3];
    test_position(&g, LOC_CENTRE, i, j, k, x);
    f[grid_index(&g, i, j, k)] = 0.4 + c[0] * x[0] + c[1] * x[1] + c[2] * x[2];
  }
  const double sentinel = -12345.0;
  for (int loc = LOC_CENTRE; loc <= LOC_FACE_Z; loc++) {
    fill_constant(&g, out, sentinel);
    advection_weno5(&g, loc, f, vel[0], vel[1], vel[2], out);
    int lo[3], hi[3];
    location_range(&g, loc, lo, hi);
    ck_assert_int_eq(lo[1], loc == LOC_FACE_Y ? 1 : 0);
    double worst = 0.0;
    FOR_ALL(&g, i, j, k) {
      const double got = out[grid_index(&g, i, j, k)];
      const int updated = i >= lo[0] && i < hi[0] && j >= lo[1] && j < hi[1] && k >= lo[2]
                          && k < hi[2];
      if (!updated) {
        ck_assert(got == sentinel);
        continue;
      }
      double exact = 0.0;
      for (int d = 0; d < 3; d++) exact -= advecting(&g, loc, d, vel[d], i, j, k) * c[d];
      worst = fmax(worst, fabs(got - exact));
    }
    ck_assert_msg(worst <= 1e-13 * (fabs(c[0]) + fabs(c[1]) + fabs(c[2])),
                  "loc %d: linear data off by %.3e", loc, worst);
  }
  field_free(f);
  field_free(out);
  for (int e = 0; e < 3; e++) field_free(vel[e]);
}
END_TEST

/* A unit step along d advected with a_d = +-1: the derivative keeps the sign of the step
 * (no new extrema beyond a tiny bound), stays below jump/h, and is exactly 0 away from it. */
START_TEST(step_is_essentially_non_oscillatory)
{
  for (int d = 0; d < 3; d++)
    for (int s = 0; s < 2; s++) {
      int n[3] = {4, 4, 4};
      n[d] = 32;
      const double len[3] = {1.0, 1.0, 1.0}, sign = s ? -1.0 : 1.0, jump = 2.5;
      efsi_grid g = test_grid(n, len, 0, 0);
      double *f = field_alloc(&g), *out = field_alloc(&g), *vel[3];
      for (int e = 0; e < 3; e++) {
        vel[e] = field_alloc(&g);
        fill_constant(&g, vel[e], e == d ? sign : 0.5);
      }
      FOR_ALL(&g, i, j, k) {
        const int idx[3] = {i, j, k};
        f[grid_index(&g, i, j, k)] = idx[d] >= 16 ? jump : 0.0;
      }
      advection_weno5(&g, LOC_CENTRE, f, vel[0], vel[1], vel[2], out);
      double lowest = 0.0, highest = 0.0;
      for (int k = 0; k < n[2]; k++)
        for (int j = 0; j < n[1]; j++)
          for (int i = 0; i < n[0]; i++) {
            const int idx[3] = {i, j, k};
            const double slope = -out[grid_index(&g, i, j, k)] / sign;
            if (idx[d] < 16 - 3 || idx[d] > 16 + 2) ck_assert(slope == 0.0);
            lowest = fmin(lowest, slope);
            highest = fmax(highest, slope);
          }
      const double bound = jump * g.inv_h[d];
      ck_assert_msg(highest <= bound, "dir %d: derivative %.4g above jump/h %.4g", d, highest,
                    bound);
      ck_assert_msg(lowest >= -1e-9 * bound, "dir %d: wrong-signed derivative %.3e", d, lowest);
      if (d == 0 && s == 0)
        printf("weno5 step: max derivative %.3f jump/h, most negative %.2e jump/h\n",
               highest / bound, lowest / bound);
      field_free(f);
      field_free(out);
      for (int e = 0; e < 3; e++) field_free(vel[e]);
    }
}
END_TEST

/* The textbook Jiang-Shu WENO5 (three quotients alpha_k = c_k / (eps + S_k)^2, weights
 * alpha_k / sum alpha) on five undivided values q1..q5 ordered from the upwind side, with
 * efsi's scale-aware eps = 1e-6 max q^2 + 1e-99: the reference the optimised
 * weno5_derivative (one reciprocal, the weights' common factor cancelled) must meet. */
static double reference_weno(const double q[5])
{
  double m = 0.0;
  for (int k = 0; k < 5; k++) m = fmax(m, q[k] * q[k]);
  const double eps = 1e-6 * m + 1e-99;
  const double s[3] = {
    13.0 / 12.0 * pow(q[0] - 2 * q[1] + q[2], 2) + 0.25 * pow(q[0] - 4 * q[1] + 3 * q[2], 2),
    13.0 / 12.0 * pow(q[1] - 2 * q[2] + q[3], 2) + 0.25 * pow(q[1] - q[3], 2),
    13.0 / 12.0 * pow(q[2] - 2 * q[3] + q[4], 2) + 0.25 * pow(3 * q[2] - 4 * q[3] + q[4], 2)};
  const double p[3] = {q[0] / 3 - 7 * q[1] / 6 + 11 * q[2] / 6,
                       -q[1] / 6 + 5 * q[2] / 6 + q[3] / 3,
                       q[2] / 3 + 5 * q[3] / 6 - q[4] / 6};
  const double c[3] = {0.1, 0.6, 0.3};
  double alpha[3], sum = 0.0, value = 0.0;
  for (int k = 0; k < 3; k++) {
    alpha[k] = c[k] / ((eps + s[k]) * (eps + s[k]));
    sum += alpha[k];
  }
  for (int k = 0; k < 3; k++) value += alpha[k] / sum * p[k];
  return value;
}

/* Upwind derivative of f along d at (i,j,k) for velocity a, with a branch on its sign. */
static double reference_derivative(const efsi_grid *g, const double *f, int i, int j, int k,
                                   int d, double a)
{
  double diff[6];   /* f(m) - f(m-1) for m = -2 .. 3 along d */
  for (int m = -2; m <= 3; m++) {
    int at[3] = {i, j, k}, before[3] = {i, j, k};
    at[d] += m;
    before[d] += m - 1;
    diff[m + 2] = f[grid_index(g, at[0], at[1], at[2])]
                - f[grid_index(g, before[0], before[1], before[2])];
  }
  double q[5];
  for (int m = 0; m < 5; m++) q[m] = a >= 0.0 ? diff[m] : diff[5 - m];
  return reference_weno(q) * g->inv_h[d];
}

/* The same for the face value between (i,j,k) - e_d and (i,j,k) (the conservative form). */
static double reference_face(const efsi_grid *g, const double *f, int i, int j, int k, int d,
                             double a)
{
  double value[6];   /* f(m) for m = -3 .. 2 along d */
  for (int m = -3; m <= 2; m++) {
    int at[3] = {i, j, k};
    at[d] += m;
    value[m + 3] = f[grid_index(g, at[0], at[1], at[2])];
  }
  double q[5];
  for (int m = 0; m < 5; m++) q[m] = a >= 0.0 ? value[m] : value[5 - m];
  return reference_weno(q);
}

/* A smooth random periodic field: four Fourier modes of random wave numbers, amplitudes
 * and phases, evaluated at every point, halos included. */
static void random_smooth(const efsi_grid *g, int loc, double *f, double offset)
{
  double kx[4][3], amp[4], phase[4];
  for (int m = 0; m < 4; m++) {
    for (int d = 0; d < 3; d++) kx[m][d] = two_pi * (rand() % 3) / g->length[d];
    amp[m] = uniform(0.2, 1.0);
    phase[m] = uniform(0.0, two_pi);
  }
  FOR_ALL(g, i, j, k) {
    double x[3], value = offset;
    test_position(g, loc, i, j, k, x);
    for (int m = 0; m < 4; m++)
      value += amp[m] * sin(kx[m][0] * x[0] + kx[m][1] * x[1] + kx[m][2] * x[2] + phase[m]);
    f[grid_index(g, i, j, k)] = value;
  }
}

/* The optimised kernels (one reciprocal per WENO5 evaluation, branch-free upwind blend,
 * vectorised loops) against the textbook formulas with a branch on the velocity's sign,
 * on random smooth fields and velocities that change sign: the same values to round-off,
 * for the advective form at centres and at x faces (with the interpolation of the
 * advecting velocity written out) and for the conservative form. */
START_TEST(optimised_agrees_with_reference)
{
  srand(12345);
  const int n[3] = {16, 12, 14};
  const double len[3] = {2.0, 1.5, 1.75};
  efsi_grid g = test_grid(n, len, 0, 0);
  double *f = field_alloc(&g), *out = field_alloc(&g), *vel[3];
  for (int e = 0; e < 3; e++) vel[e] = field_alloc(&g);
  double worst = 0.0;
  for (int trial = 0; trial < 3; trial++) {
    random_smooth(&g, LOC_CENTRE, f, 0.0);
    for (int e = 0; e < 3; e++) random_smooth(&g, LOC_FACE_X + e, vel[e], 0.3 * e - 0.3);
    for (int form = 0; form < 3; form++) {   /* centre, x face, conservative */
      const int loc = form == 1 ? LOC_FACE_X : LOC_CENTRE;
      if (form == 2) advection_weno5_conservative(&g, f, vel[0], vel[1], vel[2], 0, 0, out);
      else advection_weno5(&g, loc, f, vel[0], vel[1], vel[2], out);
      double diff = 0.0, scale = 0.0;
      for (int k = 0; k < n[2]; k++)
        for (int j = 0; j < n[1]; j++)
          for (int i = 0; i < n[0]; i++) {
            const ptrdiff_t p = grid_index(&g, i, j, k);
            const ptrdiff_t sx = g.stride[0], sy = g.stride[1], sz = g.stride[2];
            double expected = 0.0;
            if (form == 2) {
              const ptrdiff_t s3[3] = {sx, sy, sz};
              const int up[3][3] = {{i + 1, j, k}, {i, j + 1, k}, {i, j, k + 1}};
              for (int d = 0; d < 3; d++) {
                const double a_lo = vel[d][p], a_hi = vel[d][p + s3[d]];
                const double flux = a_hi * reference_face(&g, f, up[d][0], up[d][1], up[d][2], d, a_hi)
                                  - a_lo * reference_face(&g, f, i, j, k, d, a_lo);
                expected -= flux * g.inv_h[d];
              }
            } else {
              double a[3];
              if (loc == LOC_CENTRE) {   /* the mean of the two faces of each component */
                a[0] = 0.5 * (vel[0][p] + vel[0][p + sx]);
                a[1] = 0.5 * (vel[1][p] + vel[1][p + sy]);
                a[2] = 0.5 * (vel[2][p] + vel[2][p + sz]);
              } else {                   /* at an x face: u itself, v and w from four faces */
                a[0] = vel[0][p];
                a[1] = 0.25 * (vel[1][p] + vel[1][p + sy] + vel[1][p - sx] + vel[1][p + sy - sx]);
                a[2] = 0.25 * (vel[2][p] + vel[2][p + sz] + vel[2][p - sx] + vel[2][p + sz - sx]);
              }
              for (int d = 0; d < 3; d++)
                expected -= a[d] * reference_derivative(&g, f, i, j, k, d, a[d]);
            }
            diff = fmax(diff, fabs(out[p] - expected));
            scale = fmax(scale, fabs(expected));
          }
      worst = fmax(worst, diff / scale);
      ck_assert_msg(diff <= 1e-12 * scale, "trial %d form %d: difference %.3g of %.3g", trial,
                    form, diff, scale);
    }
  }
  printf("weno5 against the textbook reference: largest relative difference %.2g\n", worst);
  field_free(f);
  field_free(out);
  for (int e = 0; e < 3; e++) field_free(vel[e]);
}
END_TEST

/* THINC transport (solid.phi_transport = thinc): a sphere of radius 0.25 (8 cells) carried
 * diagonally, velocity (1, 1, 0.5), two periods of a 32^3 periodic box by SSP-RK3 at a
 * Courant number of 0.05 along x (efsi's solid runs are at 0.01 or less: the viscous limit
 * binds).  Against WENO5 face values: the volume is kept
 * to round-off, the interface stays about as narrow as at the start (its width measure
 * W = sum phi (1 - phi) h^3 grows by more than half with WENO5), the body stays a sphere
 * (no pull towards the grid axes: equal second moments, none across), and its phi stays
 * within [0, 1] to a small tolerance. */
#define COURANT 0.05
typedef struct {
  double volume, width, lo, hi, m[3][3], error;
} carried;

static void fill_periodic(const efsi_grid *g, double *f)
{
  FOR_ALL(g, i, j, k) {
    const int ii = (i + g->n[0]) % g->n[0], jj = (j + g->n[1]) % g->n[1];
    const int kk = (k + g->n[2]) % g->n[2];
    if (ii != i || jj != j || kk != k) f[grid_index(g, i, j, k)] = f[grid_index(g, ii, jj, kk)];
  }
}

static carried carry_sphere(double beta)
{
  const int n[3] = {32, 32, 32};
  const double len[3] = {1.0, 1.0, 1.0};
  efsi_grid g = test_grid(n, len, 0, 0);
  double *f = field_alloc(&g), *f0 = field_alloc(&g), *rate = field_alloc(&g), *vel[3];
  const double speed[3] = {1.0, 1.0, 0.5}, h = g.h[0];
  for (int e = 0; e < 3; e++) {
    vel[e] = field_alloc(&g);
    fill_constant(&g, vel[e], speed[e]);
  }
  FOR_ALL(&g, i, j, k) {
    double x[3];
    test_position(&g, LOC_CENTRE, i, j, k, x);
    const double r = sqrt((x[0] - 0.5) * (x[0] - 0.5) + (x[1] - 0.5) * (x[1] - 0.5) +
                          (x[2] - 0.5) * (x[2] - 0.5));
    f[grid_index(&g, i, j, k)] = 0.5 * (1.0 - tanh((r - 0.25) / (0.5 * h)));
  }
  fill_periodic(&g, f);
  const double dt = COURANT * h, end = 2.0;   /* two periods: back where it started */
  const int steps = (int)ceil(end / dt - 1e-9);
  double *f1 = field_alloc(&g);
  memcpy(f0, f, g.size * sizeof *f);
  for (int s = 0; s < steps; s++) {
    const double tau = end / steps;
    /* SSP-RK3 (Shu-Osher) */
    advection_weno5_conservative(&g, f, vel[0], vel[1], vel[2], beta, tau, rate);
    FOR_OWNED(&g, i, j, k) {
      const ptrdiff_t p = grid_index(&g, i, j, k);
      f1[p] = f[p] + tau * rate[p];
    }
    fill_periodic(&g, f1);
    advection_weno5_conservative(&g, f1, vel[0], vel[1], vel[2], beta, tau, rate);
    FOR_OWNED(&g, i, j, k) {
      const ptrdiff_t p = grid_index(&g, i, j, k);
      f1[p] = 0.75 * f[p] + 0.25 * (f1[p] + tau * rate[p]);
    }
    fill_periodic(&g, f1);
    advection_weno5_conservative(&g, f1, vel[0], vel[1], vel[2], beta, tau, rate);
    FOR_OWNED(&g, i, j, k) {
      const ptrdiff_t p = grid_index(&g, i, j, k);
      f[p] = f[p] / 3.0 + 2.0 / 3.0 * (f1[p] + tau * rate[p]);
    }
    fill_periodic(&g, f);
  }
  carried c = {0, 0, 1e30, -1e30, {{0}}, 0};
  double v0 = 0, w0 = 0, mom[3] = {0, 0, 0};
  FOR_OWNED(&g, i, j, k) {
    const ptrdiff_t p = grid_index(&g, i, j, k);
    double x[3];
    test_position(&g, LOC_CENTRE, i, j, k, x);
    c.volume += f[p];
    v0 += f0[p];
    c.width += f[p] * (1 - f[p]);
    w0 += f0[p] * (1 - f0[p]);
    c.lo = fmin(c.lo, f[p]);
    c.hi = fmax(c.hi, f[p]);
    c.error += fabs(f[p] - f0[p]);
    for (int a = 0; a < 3; a++) mom[a] += f[p] * x[a];
  }
  FOR_OWNED(&g, i, j, k) {
    const ptrdiff_t p = grid_index(&g, i, j, k);
    double x[3];
    test_position(&g, LOC_CENTRE, i, j, k, x);
    for (int a = 0; a < 3; a++)
      for (int b = 0; b < 3; b++)
        c.m[a][b] += f[p] * (x[a] - mom[a] / c.volume) * (x[b] - mom[b] / c.volume);
  }
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++) c.m[a][b] /= c.volume;
  c.error /= v0;
  c.volume = c.volume / v0 - 1;
  c.width /= w0;
  field_free(f);
  field_free(f0);
  field_free(f1);
  field_free(rate);
  for (int e = 0; e < 3; e++) field_free(vel[e]);
  return c;
}

START_TEST(thinc_keeps_the_interface_sharp)
{
  const carried w = carry_sphere(0), t = carry_sphere(3.5);
  const carried *both[2] = {&w, &t};
  for (int s = 0; s < 2; s++) {
    const carried *c = both[s];
    const double mean = (c->m[0][0] + c->m[1][1] + c->m[2][2]) / 3;
    printf("%s: volume change %.2g, interface width W/W0 %.3f, phi in [%.2g, 1 %+.2g], "
           "L1 error %.4f of the volume, moments xx yy zz %.5f %.5f %.5f (sphere %.5f), "
           "xy xz yz %.1e %.1e %.1e\n", s ? "thinc" : "weno5", c->volume, c->width, c->lo,
           c->hi - 1, c->error, c->m[0][0], c->m[1][1], c->m[2][2], 0.25 * 0.25 / 5,
           c->m[0][1] / mean, c->m[0][2] / mean, c->m[1][2] / mean);
    ck_assert(fabs(c->volume) <= 1e-13);
  }
  /* measured: W/W0 3.36 (WENO5) and 0.81 (THINC, sharper than the tanh start); phi in
   * [-1.1e-5, 1 + 1.2e-4]; second moments equal to 1.4 %, cross moments 1.3 % of them */
  ck_assert(w.width > 2.0);   /* WENO5 widens the interface: what THINC is for */
  ck_assert(t.width < 1.0);
  ck_assert(t.error < w.error);
  ck_assert(t.lo > -1e-4 && t.hi < 1 + 1e-3);
  const double mean = (t.m[0][0] + t.m[1][1] + t.m[2][2]) / 3;
  for (int a = 0; a < 3; a++) {
    ck_assert(fabs(t.m[a][a] / mean - 1) < 0.03);
    for (int b = a + 1; b < 3; b++) ck_assert(fabs(t.m[a][b] / mean) < 0.03);
  }
}
END_TEST

/* phi_advance, the step's update of a volume fraction, against the transport and the
 * update run one after the other (advection_weno5_conservative, then f + dt rate), with
 * WENO5 and with THINC face values, on random fields: the same bits on the owned cells,
 * nothing written elsewhere. */
START_TEST(phi_advance_is_transport_then_update)
{
  const int n[3] = {10, 9, 8};
  const double len[3] = {1.0, 0.9, 0.8}, dt = 0.004;
  efsi_grid g = test_grid(n, len, 1, 0);
  double *f = field_alloc(&g), *rate = field_alloc(&g), *next = field_alloc(&g), *vel[3];
  srand(41);
  for (int e = 0; e < 3; e++) {
    vel[e] = field_alloc(&g);
    for (size_t m = 0; m < g.size; m++) vel[e][m] = uniform(-1.0, 1.0);
  }
  for (size_t m = 0; m < g.size; m++) f[m] = uniform(-0.05, 1.05);
  for (int thinc = 0; thinc < 2; thinc++) {
    const double beta = thinc ? 3.5 : 0.0;
    for (size_t m = 0; m < g.size; m++) next[m] = NAN;
    advection_weno5_conservative(&g, f, vel[0], vel[1], vel[2], beta, dt, rate);
    phi_advance(&g, f, vel[0], vel[1], vel[2], beta, dt, next, NULL);
    long differing = 0, touched = 0;
    FOR_ALL(&g, i, j, k) {
      const ptrdiff_t p = grid_index(&g, i, j, k);
      const int owned = i >= 0 && i < n[0] && j >= 0 && j < n[1] && k >= 0 && k < n[2];
      const double expected = f[p] + dt * rate[p];
      if (owned) differing += memcmp(&next[p], &expected, sizeof(double)) != 0;
      else touched += !isnan(next[p]);
    }
    printf("phi_advance (%s): %ld cells differ from the transport and the update, %ld "
           "outside the owned cells written\n", thinc ? "thinc" : "weno5", differing, touched);
    ck_assert_int_eq(differing, 0);
    ck_assert_int_eq(touched, 0);
  }
  field_free(f);
  field_free(rate);
  field_free(next);
  for (int e = 0; e < 3; e++) field_free(vel[e]);
}
END_TEST

/* THINC's face value (thinc_face) is the mean of the upwind cell's profile
 * 1/2 (1 + g tanh(beta_d (x - x0))) over the part of the cell that crosses the face in dt:
 * against x0 found by bisection on the profile's mean and the mean over the swept interval
 * by Simpson's rule, for both signs of the face velocity and of the interface's slope,
 * nearly empty, half and nearly full cells, a tilted interface, Courant numbers from 1e-7
 * to 1. */
static double profile_mean(double g, double bd, double x0, double xa, double xb, int parts)
{
  const double w = (xb - xa) / parts;
  double sum = 0;
  for (int i = 0; i <= parts; i++) {
    const double x = xa + i * w, v = 0.5 * (1 + g * tanh(bd * (x - x0)));
    sum += v * (i == 0 || i == parts ? 1 : i % 2 ? 4 : 2);
  }
  return sum * w / 3 / (xb - xa);
}

START_TEST(thinc_face_is_the_swept_mean)
{
  const int n[3] = {8, 8, 8};
  const double len[3] = {1.0, 1.0, 1.0}, beta = 3.5;
  efsi_grid g = test_grid(n, len, 0, 0);
  double *f = field_alloc(&g);
  const weno5_stencil_t st = weno5_stencil(&g, LOC_CENTRE);
  const ptrdiff_t c = grid_index(&g, 4, 4, 4), sx = g.stride[0], sy = g.stride[1];
  const double fcs[3] = {0.02, 0.5, 0.93}, nus[5] = {1e-7, 1e-3, 0.1, 0.6, 1.0};
  double worst = 0;
  for (int ic = 0; ic < 3; ic++)
    for (int sg = -1; sg <= 1; sg += 2) {
      const double fc = fcs[ic];
      fill_constant(&g, f, 0.0);
      f[c] = fc;
      f[c - sx] = sg > 0 ? 0.5 * fc : 1 - 0.5 * (1 - fc);   /* monotone along x */
      f[c + sx] = sg > 0 ? 1 - 0.5 * (1 - fc) : 0.5 * fc;
      f[c - sy] = fc - 0.01;                                  /* tilted: n_y != 0 */
      f[c + sy] = fc + 0.01;
      f[c - g.stride[2]] = f[c + g.stride[2]] = fc;
      const double nx = f[c + sx] - f[c - sx], ny = f[c + sy] - f[c - sy];
      const double bd = beta * fabs(nx) / sqrt(nx * nx + ny * ny) + 0.01;
      /* x0: the profile's mean over [0, 1] is fc (it falls as x0 grows when g > 0) */
      double lo = -60, hi = 60;
      for (int it = 0; it < 200; it++) {
        const double mid = 0.5 * (lo + hi), m = profile_mean(sg, bd, mid, 0, 1, 2000);
        if ((m > fc) == (sg > 0)) lo = mid; else hi = mid;
      }
      const double x0 = 0.5 * (lo + hi);
      for (int in = 0; in < 5; in++)
        for (int sa = -1; sa <= 1; sa += 2) {
          const double a = 0.7 * sa, nu = nus[in], dt = nu * g.h[0] / fabs(a);
          const ptrdiff_t face = a >= 0 ? c + sx : c;   /* c is the face's upwind cell */
          const double xa = a >= 0 ? 1 - nu : 0;
          const double want = profile_mean(sg, bd, x0, xa, xa + nu, 2000);
          const double got = thinc_face(&st, f, face, 0, a, beta, dt);
          worst = fmax(worst, fabs(got - want));
          ck_assert_msg(fabs(got - want) <= 1e-11, "fc %g g %d nu %g a %g: %.17g, want %.17g",
                        fc, sg, nu, a, got, want);
        }
    }
  printf("thinc face value against the swept mean by quadrature: largest difference %.2g\n",
         worst);
  field_free(f);
}
END_TEST

START_TEST(derivative_function)
{
  /* Equal differences are a linear function: the derivative is that difference. */
  ck_assert_double_eq_tol(weno5_derivative(0.3, 0.3, 0.3, 0.3, 0.3), 0.3, 1e-16);
  ck_assert(weno5_derivative(0.0, 0.0, 0.0, 0.0, 0.0) == 0.0);
  /* Scale invariance: weights do not depend on units. */
  const double q[5] = {0.1, 0.4, -0.2, 0.7, 0.05};
  const double base = weno5_derivative(q[0], q[1], q[2], q[3], q[4]);
  const double scales[2] = {1e-40, 1e60};
  for (int s = 0; s < 2; s++) {
    const double c = scales[s];
    const double scaled = weno5_derivative(c * q[0], c * q[1], c * q[2], c * q[3], c * q[4]);
    ck_assert_double_eq_tol(scaled / c, base, 1e-14);
  }
}
END_TEST

/* eps_scale is the exact power of two 2^-e that brings x = f 2^e into [1, 2), over the whole
 * range of normal doubles it is defined on, DBL_MIN <= x < 2^1023; weno5_derivative, which scales its factors by it instead
 * of dividing by eps, meets the textbook formula at every magnitude from 1e-30 to 1e60. */
START_TEST(eps_scale_and_derivative_over_magnitudes)
{
  const double xs[] = {DBL_MIN, 1e-99, 1.0000000000000002e-99, 3e-7, 0.5, 1.0, 1.5,
                       nextafter(2.0, 0.0), 2.0, 12345.678, 1e300, 0x1.fffffffffffffp1022};
  for (size_t n = 0; n < sizeof xs / sizeof xs[0]; n++) {
    int e;
    const double f = frexp(xs[n], &e);   /* xs[n] = f 2^e, f in [0.5, 1) */
    const double scaled = eps_scale(xs[n]) * xs[n];
    ck_assert_msg(scaled == 2.0 * f, "eps_scale(%g) x = %.17g, expected %.17g", xs[n], scaled,
                  2.0 * f);
    ck_assert(eps_scale(xs[n]) == ldexp(1.0, 1 - e));
  }
  srand(2024);
  const double magnitudes[] = {1e-30, 1e-8, 1.0, 1e8, 1e60};
  double worst = 0.0;
  for (size_t m = 0; m < sizeof magnitudes / sizeof magnitudes[0]; m++)
    for (int trial = 0; trial < 2000; trial++) {
      double q[5], largest = 0.0;
      for (int k = 0; k < 5; k++) {
        /* smooth lines, kinks and jumps: random values, one in four equal to its neighbour */
        q[k] = (trial % 4 == 0 && k > 0) ? q[k - 1] : magnitudes[m] * (2.0 * rand() / RAND_MAX - 1.0);
        largest = fmax(largest, fabs(q[k]));
      }
      const double got = weno5_derivative(q[0], q[1], q[2], q[3], q[4]);
      worst = fmax(worst, fabs(got - reference_weno(q)) / largest);
    }
  printf("weno5_derivative over magnitudes 1e-30..1e60: largest difference %.2g of max |q|\n",
         worst);
  ck_assert_double_le(worst, 1e-14);
}
END_TEST

/* weno5_upwind_sparse is weno5_upwind bit for bit (signed zeros included) on every kind of
 * line: constant ones (which it skips: 1, +0, -0, huge and tiny values), +0 and -0 mixed,
 * constant but for one point, random; for every sign of the advecting velocity, -0 and NaN
 * included.  It must also skip: a constant line returns +0 without the formula, which the
 * count of skipped lines checks against the lines built constant. */
START_TEST(sparse_upwind_is_the_same_bits)
{
  const double constants[] = {1.0, 0.0, -0.0, 3.5e300, -2.0e-310, 0.7};
  const double speeds[] = {1.5, -1.5, 0.0, -0.0, NAN, -NAN, 1e-300};
  const int nc = (int)(sizeof constants / sizeof *constants);
  const int ns = (int)(sizeof speeds / sizeof *speeds);
  srand(77);
  long lines = 0, skipped = 0, constant = 0;
  for (int kind = 0; kind < 4; kind++)
    for (int trial = 0; trial < 400; trial++) {
      double f[7];
      const double c = constants[trial % nc];
      for (int n = 0; n < 7; n++)
        f[n] = kind == 0 ? c                                            /* constant */
             : kind == 1 ? (rand() & 1 ? 0.0 : -0.0)                    /* signed zeros */
             : kind == 2 ? (n == trial % 7 ? c + uniform(-1, 1) : c)    /* one point off */
             : uniform(-1, 1);                                          /* random */
      const int flat = kind == 0;
      constant += flat * ns;
      for (int v = 0; v < ns; v++) {
        const double plain = weno5_upwind(f, 3, 1, speeds[v]);
        const double sparse = weno5_upwind_sparse(f, 3, 1, speeds[v]);
        ck_assert_msg(memcmp(&plain, &sparse, sizeof plain) == 0,
                      "kind %d trial %d speed %g: %a against %a", kind, trial, speeds[v], sparse,
                      plain);
        lines++;
        /* the skip returns +0; on a constant line so does the formula */
        if (flat) ck_assert(double_bits(plain) == 0);
        skipped += flat;
      }
    }
  ck_assert_int_eq(skipped, constant);
  printf("weno5_upwind_sparse: %ld lines, the same bits as weno5_upwind; %ld constant\n", lines,
         skipped);
}
END_TEST

static Suite *weno5_suite(void)
{
  Suite *s = suite_create("weno5");
  TCase *tc = tcase_create("advection");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, derivative_function);
  tcase_add_test(tc, eps_scale_and_derivative_over_magnitudes);
  tcase_add_test(tc, sparse_upwind_is_the_same_bits);
  tcase_add_test(tc, optimised_agrees_with_reference);
  tcase_add_test(tc, fifth_order_on_sine);
  tcase_add_test(tc, conservative_form_is_fifth_order_and_conserves);
  tcase_add_test(tc, constant_gives_zero);
  tcase_add_test(tc, linear_gives_exact_slope_and_touches_only_updated_points);
  tcase_add_test(tc, step_is_essentially_non_oscillatory);
  tcase_add_test(tc, thinc_keeps_the_interface_sharp);
  tcase_add_test(tc, thinc_face_is_the_swept_mean);
  tcase_add_test(tc, phi_advance_is_transport_then_update);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) { return mpi_check_main(argc, argv, weno5_suite); }
