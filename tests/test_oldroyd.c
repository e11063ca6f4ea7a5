/* The Oldroyd rate L.B + B.L^T (stencils/oldroyd.c): exact for a linear velocity (constant L
 * with rotation, shear and stretching) and any constant B, and only on the owned cells;
 * exactly zero for a rigid rotation of B = I; second order for smooth fields; and forward
 * Euler in time on dB/dt = L.B + B.L^T reproduces simple shear from B = I,
 * B(t) = [[1 + (g t)^2, g t, 0], [g t, 1, 0], [0, 0, 1]], to first order in dt.  The step's
 * b_advance gives the bits of the WENO5 advection of B and oldroyd_update run one after the
 * other.  Halos are filled analytically, no exchange. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/grid.h"
#include "stencils/kernel_list.h"
#include "stencils/location.h"
#include "tests/test_support.h"
#include "stencils/oldroyd.h"
#include "stencils/reference.h"
#include "src/case/state.h"

static const double two_pi = 6.283185307179586, half_pi = 1.5707963267948966;

/* Symmetric index pairs of B in the order of state.h. */
static const int pair[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {0, 2}, {1, 2}};

typedef struct {
  efsi_grid g;
  double *vel[3], *b[6], *out[6];
} fields;

static void fields_alloc(fields *fs, const int n[3], const double length[3])
{
  const int zero[3] = {0, 0, 0};
  grid_init(&fs->g, n, length, n, zero, zero, zero);
  for (int d = 0; d < 3; d++) fs->vel[d] = field_alloc(&fs->g);
  for (int c = 0; c < 6; c++) {
    fs->b[c] = field_alloc(&fs->g);
    fs->out[c] = field_alloc(&fs->g);
  }
}

static void fields_free(fields *fs)
{
  for (int d = 0; d < 3; d++) field_free(fs->vel[d]);
  for (int c = 0; c < 6; c++) {
    field_free(fs->b[c]);
    field_free(fs->out[c]);
  }
}

static const double identity[3][3] = {{1.0, 0.0, 0.0}, {0.0, 1.0, 0.0}, {0.0, 0.0, 1.0}};

/* fs on n cells over length: v_a = c_a + A_ab x_b at every face point and the constant B at
 * every cell, halos included. */
static const efsi_grid *linear_fields(fields *fs, const int n[3], const double length[3],
                                      const double A[3][3], const double B[3][3])
{
  fields_alloc(fs, n, length);
  const efsi_grid *g = &fs->g;
  FOR_ALL(g, i, j, k) {
    for (int a = 0; a < 3; a++) {
      double x[3];
      test_position(g, LOC_FACE_X + a, i, j, k, x);
      fs->vel[a][grid_index(g, i, j, k)] = 0.25 * (a + 1) + A[a][0] * x[0] + A[a][1] * x[1]
                                           + A[a][2] * x[2];
    }
  }
  for (int c = 0; c < 6; c++)
    for (size_t m = 0; m < g->size; m++) fs->b[c][m] = B[pair[c][0]][pair[c][1]];
  return g;
}

/* (L.B + B.L^T)_c for full 3x3 L and B. */
static double rate_component(const double L[3][3], const double B[3][3], int c)
{
  const int a = pair[c][0], b = pair[c][1];
  double r = 0.0;
  for (int m = 0; m < 3; m++) r += L[a][m] * B[m][b] + B[a][m] * L[b][m];
  return r;
}

/* Constant L with rotation, shear and stretching (trace-free, as div v = 0 makes it), a
 * constant SPD B: out = offset + L.B + B.L^T on owned cells, untouched elsewhere. */
START_TEST(exact_for_linear_velocity)
{
  const int n[3] = {7, 6, 5};
  const double length[3] = {1.0, 0.9, 1.2};
  const double A[3][3] = {{0.5, -1.25, 2.0}, {1.5, 0.25, -0.5}, {-2.0, 1.0, -0.75}};
  const double B[3][3] = {{1.3, 0.2, -0.1}, {0.2, 0.9, 0.15}, {-0.1, 0.15, 1.1}};
  const double offset = 0.375, sentinel = -7.5;
  fields fs;
  const efsi_grid *g = linear_fields(&fs, n, length, A, B);
  for (int c = 0; c < 6; c++)
    for (size_t m = 0; m < g->size; m++) fs.out[c][m] = sentinel;
  FOR_OWNED(g, i, j, k)
    for (int c = 0; c < 6; c++) fs.out[c][grid_index(g, i, j, k)] = offset;
  oldroyd_rate_add(g, fs.vel[0], fs.vel[1], fs.vel[2], fs.b, fs.out);
  double err = 0.0;
  FOR_ALL(g, i, j, k) {
    const int owned = i >= 0 && i < n[0] && j >= 0 && j < n[1] && k >= 0 && k < n[2];
    for (int c = 0; c < 6; c++) {
      const double got = fs.out[c][grid_index(g, i, j, k)];
      if (owned)
        err = fmax(err, fabs(got - offset - rate_component(A, B, c)));
      else
        ck_assert(got == sentinel);
    }
  }
  printf("linear velocity: max |out - (L.B + B.L^T)| = %.2e\n", err);
  ck_assert_msg(err <= 2e-14, "error %.3e", err);
  fields_free(&fs);
}
END_TEST

/* A rigid rotation (antisymmetric L) of B = I: L.I + I.L^T = L + L^T = 0.  Dyadic spacing and
 * rotation rates make every velocity and difference exact, so the rate is exactly zero. */
START_TEST(rigid_rotation_of_identity_is_zero)
{
  const int n[3] = {8, 4, 4};
  const double length[3] = {2.0, 1.0, 0.5};
  const double A[3][3] = {{0.0, -1.5, 0.25}, {1.5, 0.0, -2.0}, {-0.25, 2.0, 0.0}};
  fields fs;
  const efsi_grid *g = linear_fields(&fs, n, length, A, identity);
  oldroyd_rate_add(g, fs.vel[0], fs.vel[1], fs.vel[2], fs.b, fs.out);
  FOR_OWNED(g, i, j, k)
    for (int c = 0; c < 6; c++) ck_assert(fs.out[c][grid_index(g, i, j, k)] == 0.0);
  fields_free(&fs);
}
END_TEST

/* Smooth periodic fields: each velocity component and each B component its own mode. */
static double mode(double amplitude, const int m[3], const double phase[3], const double L[3],
                   const double x[3], int deriv)
{
  double value = amplitude;
  for (int d = 0; d < 3; d++) {
    const double kw = two_pi * m[d] / L[d];
    value *= (d == deriv ? kw : 1.0) * sin(kw * x[d] + phase[d] + (d == deriv ? half_pi : 0.0));
  }
  return value;
}

static const double smooth_length[3] = {1.0, 0.8, 1.3};
static const int unit[3] = {1, 1, 1};
static const double vel_phase[3][3] = {{0.2, 0.9, 0.4}, {1.3, 0.5, 0.0}, {0.6, 0.2, 0.8}};
static const double vel_amp[3] = {1.0, 0.7, 1.2};

static double velocity_at(int a, const double x[3], int deriv)
{
  return mode(vel_amp[a], unit, vel_phase[a], smooth_length, x, deriv);
}

static double b_at(int c, const double x[3])
{
  const double phase[3] = {0.3 * c, 0.1 + 0.2 * c, 0.7 - 0.1 * c};
  return (c < 3 ? 1.0 : 0.0) + mode(0.3, unit, phase, smooth_length, x, -1);
}

static double smooth_error(int n0)
{
  const int n[3] = {n0, n0 * 3 / 4, n0 * 3 / 4};
  fields fs;
  fields_alloc(&fs, n, smooth_length);
  const efsi_grid *g = &fs.g;
  FOR_ALL(g, i, j, k) {
    const ptrdiff_t at = grid_index(g, i, j, k);
    for (int a = 0; a < 3; a++) {
      double x[3];
      test_position(g, LOC_FACE_X + a, i, j, k, x);
      fs.vel[a][at] = velocity_at(a, x, -1);
    }
    double x[3];
    test_position(g, LOC_CENTRE, i, j, k, x);
    for (int c = 0; c < 6; c++) fs.b[c][at] = b_at(c, x);
  }
  oldroyd_rate_add(g, fs.vel[0], fs.vel[1], fs.vel[2], fs.b, fs.out);
  double err = 0.0;
  FOR_OWNED(g, i, j, k) {
    double x[3], L[3][3], B[3][3];
    test_position(g, LOC_CENTRE, i, j, k, x);
    for (int a = 0; a < 3; a++)
      for (int b = 0; b < 3; b++) L[a][b] = velocity_at(a, x, b);
    for (int c = 0; c < 6; c++) B[pair[c][0]][pair[c][1]] = B[pair[c][1]][pair[c][0]] = b_at(c, x);
    for (int c = 0; c < 6; c++)
      err = fmax(err, fabs(fs.out[c][grid_index(g, i, j, k)] - rate_component(L, B, c)));
  }
  fields_free(&fs);
  return err;
}

START_TEST(second_order_on_smooth_fields)
{
  const double e32 = smooth_error(32), e64 = smooth_error(64);
  const double order = log2(e32 / e64);
  printf("smooth fields: error %.3e (32) -> %.3e (64), order %.3f\n", e32, e64, order);
  ck_assert_msg(order >= 1.9, "order %.3f", order);
}
END_TEST

/* Forward Euler on dB/dt = L.B + B.L^T at every cell of a block in simple shear u = g y, from
 * B = I to time t; returns the largest error in Bxx and checks that the other components are
 * exact: Bxy = g t is linear in t (Euler is exact), Byy = Bzz = 1, Bxz = Byz = 0. */
static double simple_shear_error(double shear, double t, int steps)
{
  const int n[3] = {2, 2, 2};
  const double length[3] = {1.0, 1.0, 1.0};
  const double A[3][3] = {{0.0, shear, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}};
  const double dt = t / steps;
  fields fs;
  const efsi_grid *g = linear_fields(&fs, n, length, A, identity);
  for (int s = 0; s < steps; s++) {
    for (int c = 0; c < 6; c++)
      for (size_t m = 0; m < g->size; m++) fs.out[c][m] = 0.0;
    oldroyd_rate_add(g, fs.vel[0], fs.vel[1], fs.vel[2], fs.b, fs.out);
    FOR_OWNED(g, i, j, k) {
      const ptrdiff_t at = grid_index(g, i, j, k);
      for (int c = 0; c < 6; c++) fs.b[c][at] += dt * fs.out[c][at];
    }
  }
  const double gt = shear * t;
  double err = 0.0;
  FOR_OWNED(g, i, j, k) {
    const ptrdiff_t at = grid_index(g, i, j, k);
    err = fmax(err, fabs(fs.b[TXX][at] - (1.0 + gt * gt)));
    ck_assert_double_eq_tol(fs.b[TXY][at], gt, 1e-12 * gt);
    ck_assert(fs.b[TYY][at] == 1.0 && fs.b[TZZ][at] == 1.0);
    ck_assert(fs.b[TXZ][at] == 0.0 && fs.b[TYZ][at] == 0.0);
  }
  fields_free(&fs);
  return err;
}

START_TEST(simple_shear_in_time)
{
  const double shear = 1.5, t = 2.0;
  const double e1 = simple_shear_error(shear, t, 200), e2 = simple_shear_error(shear, t, 400);
  const double order = log2(e1 / e2);
  /* Forward Euler: Bxy_n = g t_n exactly, so Bxx_n = 1 + g^2 t_n (t_n - dt): error g^2 t dt. */
  const double predicted = shear * shear * t * (t / 200);
  printf("simple shear, g t = %.1f: Bxx error %.3e (dt = %.3g) -> %.3e, order %.3f, "
         "g^2 t dt = %.3e\n", shear * t, e1, t / 200, e2, order, predicted);
  ck_assert_double_eq_tol(e1, predicted, 1e-10 * predicted);
  ck_assert_msg(fabs(order - 1.0) < 0.01, "order %.3f", order);
}
END_TEST

/* Two copies ref and fused of smooth fields on 12 x 10 x 8 cells with a mixture of solid
 * and fluid (phi[0] from 0 to 1: all regimes of the treatment), rates in out; phi[] is
 * allocated here. */
static const efsi_grid *mixture_fields(fields *ref, fields *fused, double *phi[2])
{
  const int n[3] = {12, 10, 8};
  const double length[3] = {1.2, 1.0, 0.8};
  fields_alloc(ref, n, length);
  fields_alloc(fused, n, length);
  const efsi_grid *g = &ref->g;
  phi[0] = field_alloc(g);
  phi[1] = field_alloc(g);
  FOR_ALL(g, i, j, k) {
    const ptrdiff_t at = grid_index(g, i, j, k);
    const double x = (i + 0.5) / n[0], y = (j + 0.5) / n[1], z = (k + 0.5) / n[2];
    for (int a = 0; a < 3; a++)
      ref->vel[a][at] = fused->vel[a][at] = sin(two_pi * (x + 0.3 * a)) * cos(two_pi * (y - z))
                                            + 0.2 * a;
    phi[0][at] = 0.5 + 0.5 * sin(two_pi * x) * cos(two_pi * z);
    phi[1][at] = 0.1 * (1.0 + cos(two_pi * y)) * (phi[0][at] < 0.8);
    for (int c = 0; c < 6; c++) {
      const double base = c < 3 ? 1.0 : 0.0;
      ref->b[c][at] = fused->b[c][at] = base + 0.3 * sin(two_pi * (x + y + 0.1 * c)) * cos(two_pi * z);
      ref->out[c][at] = fused->out[c][at] = 0.7 * cos(two_pi * (x - 0.2 * c)) * sin(two_pi * y);
    }
  }
  return g;
}

/* The fused update (oldroyd_update) against the reference kernels applied in turn
 * (oldroyd_rate_add, B += dt rate, solid_fluid_treatment) on random smooth fields with a
 * mixture of solid and fluid: the same B to round-off (bitwise unless the compiler fuses
 * multiply-adds differently in the two loops). */
START_TEST(fused_update_matches_reference)
{
  fields ref, fused;
  double *phi[2];
  const efsi_grid *g = mixture_fields(&ref, &fused, phi);
  const double dt = 0.01, kappa = 1.0;
  oldroyd_rate_add(g, ref.vel[0], ref.vel[1], ref.vel[2], ref.b, ref.out);
  FOR_OWNED(g, i, j, k)
    for (int c = 0; c < 6; c++) {
      const ptrdiff_t at = grid_index(g, i, j, k);
      ref.b[c][at] += dt * ref.out[c][at];
    }
  solid_fluid_treatment(g, 2, phi, dt, kappa, ref.vel[0], ref.vel[1], ref.vel[2], ref.b);
  oldroyd_update(g, 2, phi, dt, kappa, fused.vel[0], fused.vel[1], fused.vel[2], fused.out,
                 fused.b);
  double worst = 0.0;
  long differ = 0;
  FOR_ALL(g, i, j, k)
    for (int c = 0; c < 6; c++) {
      const ptrdiff_t at = grid_index(g, i, j, k);
      worst = fmax(worst, fabs(fused.b[c][at] - ref.b[c][at]));
      differ += fused.b[c][at] != ref.b[c][at];
    }
  printf("oldroyd_update against the three reference kernels: max difference %.2g "
         "(%ld of %d values not bitwise equal)\n", worst, differ, 6 * (int)g->size);
  ck_assert(worst <= 1e-14);
  field_free(phi[0]);
  field_free(phi[1]);
  fields_free(&ref);
  fields_free(&fused);
}
END_TEST

/* b_advance against the kernels it fuses: the WENO5 advection of each component of B
 * (advection_weno5 at the centres), then oldroyd_update with those rates; the same bits on
 * the owned cells, next untouched elsewhere and B^N not written. */
START_TEST(b_advance_is_advection_then_update)
{
  fields ref, fused;
  double *phi[2];
  const efsi_grid *g = mixture_fields(&ref, &fused, phi);
  const int *n = g->n;
  const double dt = 0.01, kappa = 1.0;
  FOR_ALL(g, i, j, k)
    for (int c = 0; c < 6; c++) fused.out[c][grid_index(g, i, j, k)] = NAN;
  for (int c = 0; c < 6; c++)
    advection_weno5(g, LOC_CENTRE, ref.b[c], ref.vel[0], ref.vel[1], ref.vel[2], ref.out[c]);
  oldroyd_update(g, 2, phi, dt, kappa, ref.vel[0], ref.vel[1], ref.vel[2], ref.out, ref.b);
  b_advance(g, 2, phi, 0, NULL, dt, kappa, fused.vel[0], fused.vel[1], fused.vel[2], fused.b, fused.out);
  long differing = 0, touched = 0;
  FOR_ALL(g, i, j, k)
    for (int c = 0; c < 6; c++) {
      const ptrdiff_t at = grid_index(g, i, j, k);
      const int owned = i >= 0 && i < n[0] && j >= 0 && j < n[1] && k >= 0 && k < n[2];
      if (owned) differing += memcmp(&fused.out[c][at], &ref.b[c][at], sizeof(double)) != 0;
      else touched += !isnan(fused.out[c][at]);
    }
  printf("b_advance: %ld values differ from the separate kernels, %ld outside the owned "
         "cells written\n", differing, touched);
  ck_assert_int_eq(differing, 0);
  ck_assert_int_eq(touched, 0);
  field_free(phi[0]);
  field_free(phi[1]);
  fields_free(&ref);
  fields_free(&fused);
}
END_TEST

static Suite *oldroyd_suite(void)
{
  Suite *s = suite_create("oldroyd");
  TCase *tc = tcase_create("rate");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, exact_for_linear_velocity);
  tcase_add_test(tc, rigid_rotation_of_identity_is_zero);
  tcase_add_test(tc, second_order_on_smooth_fields);
  tcase_add_test(tc, simple_shear_in_time);
  tcase_add_test(tc, fused_update_matches_reference);
  tcase_add_test(tc, b_advance_is_advection_then_update);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) { return mpi_check_main(argc, argv, oldroyd_suite); }
