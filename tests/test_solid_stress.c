/* The solid stress sum_m G_m phi_m dev(B) (stencils/solid_stress.h, the reference kernel
 * solid_stress_add) and the fluid treatment of B (stencils/oldroyd.c).  Stress: exact at
 * centres and edges for constant phi and B, written exactly over -1..n and reading phi, B
 * only within halo 2 (low) / 1 (high); each edge the mean of its four cells for non-uniform
 * phi and B; trace-free centres; exactly zero for B = I; energy and det B; the step's
 * stress_total the bits of the viscous and the solid kernels run one after the other.
 * Treatment: B = I exactly in pure fluid, B untouched bitwise in pure
 * solid; in a mixture cell under simple shear up to g t = 1000, B and the stress stay below the
 * derived bounds (docs/solid.md), independently of the shear rate; the time-discrete B
 * converges at first order in dt to the solution of the relaxed ODE. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grid.h"
#include "stencils/kernel_list.h"
#include "stencils/location.h"
#include "tests/test_support.h"
#include "stencils/oldroyd.h"
#include "stencils/reference.h"
#include "stencils/solid_stress.h"
#include "src/case/state.h"
#include "stencils/stress.h"
#include "stencils/reductions.h"

#define NMAT 2
static const double modulus[NMAT] = {2.0, 0.5};

typedef struct {
  efsi_grid g;
  double *phi[NMAT], *b[6], *s[6], *gphi, *vel[3];
} fields;

static const efsi_grid *fields_alloc(fields *fs, const int n[3])
{
  const int zero[3] = {0, 0, 0};
  const double length[3] = {1.0, 0.75, 0.5};
  grid_init(&fs->g, n, length, n, zero, zero, zero);
  for (int m = 0; m < NMAT; m++) fs->phi[m] = field_alloc(&fs->g);
  for (int c = 0; c < 6; c++) {
    fs->b[c] = field_alloc(&fs->g);
    fs->s[c] = field_alloc(&fs->g);
  }
  for (int d = 0; d < 3; d++) fs->vel[d] = field_alloc(&fs->g);
  fs->gphi = field_alloc(&fs->g);
  return &fs->g;
}

static void fields_free(fields *fs)
{
  for (int m = 0; m < NMAT; m++) field_free(fs->phi[m]);
  for (int c = 0; c < 6; c++) {
    field_free(fs->b[c]);
    field_free(fs->s[c]);
  }
  for (int d = 0; d < 3; d++) field_free(fs->vel[d]);
  field_free(fs->gphi);
}

static int in_box(int i, int j, int k, int lo, const int hi[3])
{
  return i >= lo && i <= hi[0] && j >= lo && j <= hi[1] && k >= lo && k <= hi[2];
}

static double uniform(void) { return rand() / (double)RAND_MAX; }

/* fs on n cells, phi_m and B from fill() (after srand(seed)) inside -2..n (what
 * solid_stress_add may read), NaN outside; the stress 0 on -1..n and NaN outside; the scratch
 * NaN everywhere; then solid_stress_add. */
typedef void (*filler)(int i, int j, int k, double phi[NMAT], double B[6]);

static const efsi_grid *stressed(fields *fs, const int n[3], unsigned seed, filler fill)
{
  const efsi_grid *g = fields_alloc(fs, n);
  srand(seed);
  FOR_ALL(g, i, j, k) {
    const ptrdiff_t at = grid_index(g, i, j, k);
    double phi[NMAT], B[6];
    fill(i, j, k, phi, B);
    const int readable = in_box(i, j, k, -2, g->n), written = in_box(i, j, k, -1, g->n);
    for (int m = 0; m < NMAT; m++) fs->phi[m][at] = readable ? phi[m] : NAN;
    for (int c = 0; c < 6; c++) {
      fs->b[c][at] = readable ? B[c] : NAN;
      fs->s[c][at] = written ? 0.0 : NAN;
    }
    fs->gphi[at] = NAN;
  }
  solid_stress_add(g, NMAT, modulus, fs->phi, fs->b, fs->s, fs->gphi);
  return g;
}

static double gphi_of(const fields *fs, ptrdiff_t at)
{
  double sum = 0.0;
  for (int m = 0; m < NMAT; m++) sum += modulus[m] * fs->phi[m][at];
  return sum;
}

static const double constant_B[6] = {1.4, 0.8, 1.1, 0.3, -0.2, 0.15};

static void fill_constant(int i, int j, int k, double phi[NMAT], double B[6])
{
  (void)i, (void)j, (void)k;
  phi[0] = 0.3;
  phi[1] = 0.4;
  memcpy(B, constant_B, sizeof constant_B);
}

START_TEST(exact_for_constant_phi_and_b)
{
  fields fs;
  const efsi_grid *g = stressed(&fs, (const int[3]){6, 5, 4}, 1, fill_constant);
  const double gp = modulus[0] * 0.3 + modulus[1] * 0.4;
  const double third = (constant_B[0] + constant_B[1] + constant_B[2]) / 3.0;
  FOR_ALL(g, i, j, k) {
    const ptrdiff_t at = grid_index(g, i, j, k);
    for (int c = 0; c < 6; c++) {
      if (!in_box(i, j, k, -1, g->n)) {
        ck_assert(isnan(fs.s[c][at]));
        continue;
      }
      const double expect = gp * (constant_B[c] - (c < 3 ? third : 0.0));
      ck_assert_double_eq_tol(fs.s[c][at], expect, 1e-15);
    }
  }
  fields_free(&fs);
}
END_TEST

static void fill_random(int i, int j, int k, double phi[NMAT], double B[6])
{
  (void)i, (void)j, (void)k;
  phi[0] = uniform();
  phi[1] = (1.0 - phi[0]) * uniform();
  for (int c = 0; c < 6; c++) B[c] = (c < 3 ? 1.0 : 0.0) + 0.5 * (uniform() - 0.5);
}

/* Random phi and B: each edge is the mean of G phi B_de over its four cells, computed here
 * from the definition; the centres are G phi dev(B) and trace-free. */
START_TEST(edges_are_four_cell_means)
{
  fields fs;
  const efsi_grid *g = stressed(&fs, (const int[3]){6, 5, 4}, 11, fill_random);
  const int *n = g->n;
  const ptrdiff_t *st = g->stride;
  double edge_err = 0.0, centre_err = 0.0, trace = 0.0;
  for (int k = -1; k <= n[2]; k++)
    for (int j = -1; j <= n[1]; j++)
      for (int i = -1; i <= n[0]; i++) {
        const ptrdiff_t at = grid_index(g, i, j, k);
        const double gp = gphi_of(&fs, at);
        const double third = (fs.b[TXX][at] + fs.b[TYY][at] + fs.b[TZZ][at]) / 3.0;
        for (int c = 0; c < 3; c++)
          centre_err = fmax(centre_err, fabs(fs.s[c][at] - gp * (fs.b[c][at] - third)));
        trace = fmax(trace, fabs(fs.s[TXX][at] + fs.s[TYY][at] + fs.s[TZZ][at]));
        for (int d = 0; d < 3; d++)
          for (int e = d + 1; e < 3; e++) {
            const int c = tensor_offdiagonal(d, e);
            const ptrdiff_t cells[4] = {at, at - st[d], at - st[e], at - st[d] - st[e]};
            double mean = 0.0;
            for (int q = 0; q < 4; q++) mean += 0.25 * gphi_of(&fs, cells[q]) * fs.b[c][cells[q]];
            edge_err = fmax(edge_err, fabs(fs.s[c][at] - mean));
          }
      }
  printf("random phi, B: centre error %.1e, edge error %.1e, max |trace| %.1e\n", centre_err,
         edge_err, trace);
  ck_assert(centre_err <= 1e-14 && edge_err <= 1e-14 && trace <= 1e-14);
  fields_free(&fs);
}
END_TEST

static void fill_identity(int i, int j, int k, double phi[NMAT], double B[6])
{
  (void)i, (void)j, (void)k;
  phi[0] = uniform();
  phi[1] = 1.0 - phi[0];
  for (int c = 0; c < 6; c++) B[c] = c < 3 ? 1.0 : 0.0;
}

START_TEST(zero_for_identity)
{
  fields fs;
  const efsi_grid *g = stressed(&fs, (const int[3]){5, 4, 3}, 5, fill_identity);
  for (int k = -1; k <= g->n[2]; k++)
    for (int j = -1; j <= g->n[1]; j++)
      for (int i = -1; i <= g->n[0]; i++)
        for (int c = 0; c < 6; c++) ck_assert(fs.s[c][grid_index(g, i, j, k)] == 0.0);
  ck_assert(elastic_energy(g, NMAT, modulus, fs.phi, fs.b, test_plane_scratch(g)) == 0.0);
  fields_free(&fs);
}
END_TEST

/* Energy of a uniform simple shear B = [[1 + s^2, s, 0], [s, 1, 0], [0, 0, 1]] (det B = 1):
 * G phi s^2 / 2 per volume; det B = 1 in the solid cells, none selected above phi = 1. */
START_TEST(energy_and_determinant)
{
  const int n[3] = {4, 4, 4};
  fields fs;
  const efsi_grid *g = fields_alloc(&fs, n);
  const double s = 0.7;
  for (size_t m = 0; m < g->size; m++) {
    fs.phi[0][m] = 0.25;
    fs.phi[1][m] = 0.5;
    fs.b[TXX][m] = 1.0 + s * s;
    fs.b[TYY][m] = fs.b[TZZ][m] = 1.0;
    fs.b[TXY][m] = s;
  }
  const double volume = g->length[0] * g->length[1] * g->length[2];
  const double expect = (modulus[0] * 0.25 + modulus[1] * 0.5) * s * s / 2.0 * volume;
  ck_assert_double_eq_tol(elastic_energy(g, NMAT, modulus, fs.phi, fs.b, test_plane_scratch(g)), expect,
                          1e-14 * expect);
  double range[2];
  det_range(g, NMAT, fs.phi, fs.b, 0.5, test_plane_scratch(g), range);
  ck_assert_double_eq_tol(range[0], 1.0, 1e-14);
  ck_assert_double_eq_tol(range[1], 1.0, 1e-14);
  det_range(g, NMAT, fs.phi, fs.b, 0.9, test_plane_scratch(g), range);
  ck_assert(range[0] == INFINITY && range[1] == -INFINITY);
  fields_free(&fs);
}
END_TEST

/* The moments of phi (the shape diagnostics): against a direct sum over the cells of a
 * block that is not the first of its grid, and exactly for phi = 1 on the whole box, whose
 * second moments about the centre are h^2 (N^2 - 1)/12 per direction. */
START_TEST(phi_moments_of_a_block)
{
  const int global[3] = {20, 16, 12}, n[3] = {10, 8, 6}, offset[3] = {10, 4, 6};
  const int zero[3] = {0, 0, 0};
  const double length[3] = {2.0, 1.2, 0.9};
  efsi_grid g;
  grid_init(&g, global, length, n, offset, zero, zero);
  double *phi = field_alloc(&g);
  efsi_scratch *plane = test_plane_scratch(&g);
  srand(7);
  for (size_t p = 0; p < g.size; p++) phi[p] = (double)rand() / RAND_MAX;
  double got[MOMENT_COUNT];
  phi_moments(&g, phi, plane, got);
  long double want[MOMENT_COUNT] = {0};
  for (int k = 0; k < n[2]; k++)
    for (int j = 0; j < n[1]; j++)
      for (int i = 0; i < n[0]; i++) {
        const int idx[3] = {i, j, k};
        long double x[3];
        for (int d = 0; d < 3; d++)
          x[d] = (offset[d] + idx[d] + 0.5L) * g.h[d] - 0.5L * length[d];
        const long double f = phi[grid_index(&g, i, j, k)];
        const long double terms[MOMENT_COUNT] = {f, f * x[0], f * x[1], f * x[2],
                                                 f * x[0] * x[0], f * x[1] * x[1],
                                                 f * x[2] * x[2], f * x[0] * x[1],
                                                 f * x[0] * x[2], f * x[1] * x[2]};
        for (int c = 0; c < MOMENT_COUNT; c++) want[c] += terms[c];
      }
  double worst = 0.0;
  for (int c = 0; c < MOMENT_COUNT; c++)
    worst = fmax(worst, fabs(got[c] - (double)want[c]) / fabs((double)want[c]));
  printf("phi moments of a block: largest relative difference %.2g\n", worst);
  ck_assert_double_le(worst, 1e-13);

  efsi_grid whole;
  grid_init(&whole, global, length, global, zero, zero, zero);
  double *one = field_alloc(&whole);
  for (size_t p = 0; p < whole.size; p++) one[p] = 1.0;
  phi_moments(&whole, one, test_plane_scratch(&whole), got);
  const double cells = (double)global[0] * global[1] * global[2];
  ck_assert(got[MOMENT_1] == cells);
  for (int d = 0; d < 3; d++) {
    const double variance = whole.h[d] * whole.h[d] * (global[d] * global[d] - 1.0) / 12.0;
    ck_assert_double_le(fabs(got[MOMENT_X + d]), 1e-12 * cells);
    ck_assert_double_eq_tol(got[MOMENT_XX + d] / cells, variance, 1e-13 * variance);
  }
  for (int c = MOMENT_XY; c <= MOMENT_YZ; c++) ck_assert_double_le(fabs(got[c]), 1e-12 * cells);
  field_free(one);
  field_free(phi);
}
END_TEST

/* ---- the fluid treatment ---- */

/* phi_0 = phi0, phi_1 = phi1 everywhere, B and the velocity random */
static void random_state(fields *fs, double phi0, double phi1)
{
  const efsi_grid *g = &fs->g;
  for (size_t m = 0; m < g->size; m++) {
    fs->phi[0][m] = phi0;
    fs->phi[1][m] = phi1;
    for (int c = 0; c < 6; c++) fs->b[c][m] = (c < 3 ? 1.0 : 0.0) + 2.0 * (uniform() - 0.5);
    for (int d = 0; d < 3; d++) fs->vel[d][m] = uniform() - 0.5;
  }
}

/* fs on 5 x 4 x 3 cells, then srand(seed) and random_state. */
static const efsi_grid *random_fields(fields *fs, unsigned seed, double phi0, double phi1)
{
  const efsi_grid *g = fields_alloc(fs, (const int[3]){5, 4, 3});
  srand(seed);
  random_state(fs, phi0, phi1);
  return g;
}

/* At rest, then moving with a new random B and velocity. */
START_TEST(pure_fluid_gets_identity)
{
  fields fs;
  const efsi_grid *g = random_fields(&fs, 3, 0.0, 0.0);
  for (int d = 0; d < 3; d++) memset(fs.vel[d], 0, g->size * sizeof(double));
  for (int moving = 0; moving < 2; moving++) {
    if (moving) random_state(&fs, 0.0, 0.0);
    solid_fluid_treatment(g, NMAT, fs.phi, 0.01, SOLID_INTERFACE_KAPPA, fs.vel[0], fs.vel[1],
                          fs.vel[2], fs.b);
    FOR_OWNED(g, i, j, k)
      for (int c = 0; c < 6; c++)
        ck_assert(fs.b[c][grid_index(g, i, j, k)] == (c < 3 ? 1.0 : 0.0));
  }
  fields_free(&fs);
}
END_TEST

START_TEST(pure_solid_untouched)
{
  fields fs;
  const efsi_grid *g = random_fields(&fs, 4, 0.25, 0.75);
  double *before[6];
  for (int c = 0; c < 6; c++) {
    before[c] = field_alloc(g);
    memcpy(before[c], fs.b[c], g->size * sizeof(double));
  }
  solid_fluid_treatment(g, NMAT, fs.phi, 0.01, SOLID_INTERFACE_KAPPA, fs.vel[0], fs.vel[1],
                        fs.vel[2], fs.b);
  for (int c = 0; c < 6; c++) {
    ck_assert(memcmp(before[c], fs.b[c], g->size * sizeof(double)) == 0);
    field_free(before[c]);
  }
  fields_free(&fs);
}
END_TEST

/* fs on n cells in the simple shear u = g y at every point, B = I, phi = 0. */
static const efsi_grid *sheared(fields *fs, const int n[3], double shear)
{
  const efsi_grid *g = fields_alloc(fs, n);
  FOR_ALL(g, i, j, k) {
    const ptrdiff_t at = grid_index(g, i, j, k);
    fs->vel[0][at] = shear * (j + 0.5) * g->h[1];
    for (int c = 0; c < 3; c++) fs->b[c][at] = 1.0;
  }
  return g;
}

/* The time step of the solid (one material) at every owned cell: B += dt (L.B + B.L^T), then
 * the treatment.  The stress fields hold the rate meanwhile. */
static void solid_step(fields *fs, double dt)
{
  const efsi_grid *g = &fs->g;
  for (int c = 0; c < 6; c++) memset(fs->s[c], 0, g->size * sizeof(double));
  oldroyd_rate_add(g, fs->vel[0], fs->vel[1], fs->vel[2], fs->b, fs->s);
  FOR_OWNED(g, i, j, k) {
    const ptrdiff_t p = grid_index(g, i, j, k);
    for (int c = 0; c < 6; c++) fs->b[c][p] += dt * fs->s[c][p];
  }
  solid_fluid_treatment(g, 1, fs->phi, dt, SOLID_INTERFACE_KAPPA, fs->vel[0], fs->vel[1],
                        fs->vel[2], fs->b);
}

/* The time step of the solid at one mixture cell (every cell of a 2^3 block is the same)
 * in simple shear u = g y at solid fraction phi.  Returns B at the end and the largest Bxx
 * and Bxy on the way. */
typedef struct { double final[6], max_xx, max_xy; } shear_result;

static shear_result shear_run(double phi, double shear, double dt, long steps)
{
  fields fs;
  const efsi_grid *g = sheared(&fs, (const int[3]){2, 2, 2}, shear);
  for (size_t m = 0; m < g->size; m++) fs.phi[0][m] = phi;
  shear_result r = {{0}, 0.0, 0.0};
  const ptrdiff_t at = grid_index(g, 1, 1, 1);
  for (long s = 0; s < steps; s++) {
    solid_step(&fs, dt);
    r.max_xx = fmax(r.max_xx, fs.b[TXX][at]);
    r.max_xy = fmax(r.max_xy, fs.b[TXY][at]);
  }
  for (int c = 0; c < 6; c++) r.final[c] = fs.b[c][at];
  fields_free(&fs);
  return r;
}

/* The stress of the cell, G phi dev(B), from solid_stress_add on a uniform block. */
static void cell_stress(double phi, const double B[6], double out[6])
{
  fields fs;
  const efsi_grid *g = fields_alloc(&fs, (const int[3]){2, 2, 2});
  for (size_t m = 0; m < g->size; m++) {
    fs.phi[0][m] = phi;
    for (int c = 0; c < 6; c++) fs.b[c][m] = B[c];
  }
  solid_stress_add(g, 1, modulus, fs.phi, fs.b, fs.s, fs.gphi);
  for (int c = 0; c < 6; c++) out[c] = fs.s[c][grid_index(g, 0, 0, 0)];
  fields_free(&fs);
}

/* Bounds (docs/solid.md): with W = phi / (kappa (1 - phi)), 0 <= Bxy <= W and
 * 1 <= Bxx <= 1 + 2 W^2 for all time and every dt; stress sxx <= G phi (4/3) W^2,
 * sxy <= G phi W.  Without the treatment Bxx would reach 1 + (g t)^2 = 1 + 1e6. */
START_TEST(bounded_under_long_shear)
{
  const double cases[3][3] = {{0.5, 1.0, 0.02}, {0.5, 40.0, 0.0005}, {0.8, 5.0, 0.004}};
  for (int q = 0; q < 3; q++) {
    const double phi = cases[q][0], shear = cases[q][1], dt = cases[q][2];
    const long steps = lround(1000.0 / (shear * dt));
    const shear_result r = shear_run(phi, shear, dt, steps);
    const double W = phi / (SOLID_INTERFACE_KAPPA * (1.0 - phi));
    const double bound_xx = 1.0 + 2.0 * W * W, tol = 1e-12;
    double s[6];
    cell_stress(phi, r.final, s);
    const double G = modulus[0];
    printf("phi %.2f, g %.0f, g t = %.0f: max Bxx %.6f (bound %.6f), max Bxy %.6f (bound "
           "%.6f); sxx %.4e (bound %.4e), sxy %.4e (bound %.4e); untreated Bxx %.0f\n",
           phi, shear, shear * dt * steps, r.max_xx, bound_xx, r.max_xy, W, s[TXX],
           G * phi * 4.0 / 3.0 * W * W, s[TXY], G * phi * W, 1.0 + 1e6);
    ck_assert(r.max_xx <= bound_xx * (1.0 + tol) && r.max_xy <= W * (1.0 + tol));
    /* ... and the bound is the state the cell settles in (it is sharp). */
    ck_assert_double_eq_tol(r.final[TXX], bound_xx, 1e-9 * bound_xx);
    ck_assert_double_eq_tol(r.final[TXY], W, 1e-9 * W);
    ck_assert_double_eq_tol(r.final[TYY], 1.0, 1e-12);
    ck_assert_double_eq_tol(r.final[TZZ], 1.0, 1e-12);
    ck_assert(fabs(r.final[TXZ]) <= 1e-12 && fabs(r.final[TYZ]) <= 1e-12);
    ck_assert(s[TXX] <= G * phi * 4.0 / 3.0 * W * W * (1.0 + tol));
    ck_assert(s[TXY] <= G * phi * W * (1.0 + tol));
  }
}
END_TEST

/* A diffuse interface in a long shear: phi(y) rises from 0 (fluid, the lower half) to 0.9 over
 * eight cells, u = g y; phi and B depend on y only, so advection vanishes and the step is the
 * one below at every cell.  At g t = 1000 every cell respects its bound 1 + 2 W(phi)^2, the
 * fluid cells hold B = I exactly, and every edge stress sxy stays below the largest
 * G phi W(phi) of its cells. */
START_TEST(interface_under_long_shear)
{
  const int n[3] = {2, 16, 2};
  const double shear = 2.0, dt = 0.01, kappa = SOLID_INTERFACE_KAPPA;
  fields fs;
  const efsi_grid *g = sheared(&fs, n, shear);
  FOR_ALL(g, i, j, k) {
    const double ramp = (j - 7.0) / 8.0;
    fs.phi[0][grid_index(g, i, j, k)] =
      j < 8 ? 0.0 : 0.9 * (ramp > 1.0 ? 1.0 : sin(0.5 * M_PI * ramp));
  }
  const long steps = lround(1000.0 / (shear * dt));
  for (long s = 0; s < steps; s++) {
    solid_step(&fs, dt);
    FOR_OWNED(g, i, j, k) {
      const ptrdiff_t p = grid_index(g, i, j, k);
      const double phi = fs.phi[0][p], W = phi / (kappa * (1.0 - phi));
      if (phi == 0.0)
        for (int c = 0; c < 6; c++) ck_assert(fs.b[c][p] == (c < 3 ? 1.0 : 0.0));
      ck_assert(fs.b[TXX][p] <= (1.0 + 2.0 * W * W) * (1.0 + 1e-12));
    }
  }
  /* The stress from the final B: copy the owned rows into the halo along y by the profile's
   * own values (B depends on y only; x, z periodic), then check every edge in -1..n. */
  FOR_ALL(g, i, j, k) {
    const int jj = j < 0 ? 0 : j >= n[1] ? n[1] - 1 : j;
    const ptrdiff_t at = grid_index(g, i, j, k), src = grid_index(g, 0, jj, 0);
    for (int c = 0; c < 6; c++) fs.b[c][at] = fs.b[c][src];
    fs.phi[0][at] = fs.phi[0][src];
    fs.phi[1][at] = 0.0;
  }
  for (int c = 0; c < 6; c++) memset(fs.s[c], 0, g->size * sizeof(double));
  solid_stress_add(g, 1, modulus, fs.phi, fs.b, fs.s, fs.gphi);
  double worst = 0.0;
  for (int j = -1; j <= n[1]; j++) {
    const double phi_lo = fs.phi[0][grid_index(g, 0, j - 1, 0)];
    const double phi_hi = fs.phi[0][grid_index(g, 0, j, 0)];
    const double phi = fmax(phi_lo, phi_hi), bound = modulus[0] * phi * phi / (1.0 - phi);
    const double sxy = fs.s[TXY][grid_index(g, 0, j, 0)];
    ck_assert(sxy <= bound * (1.0 + 1e-12));
    worst = fmax(worst, sxy);
  }
  printf("interface 0 <= phi <= 0.9 at g t = %.0f: largest edge sxy %.4f (bound at phi 0.9: "
         "%.4f)\n", shear * dt * steps, worst, modulus[0] * 0.81 / 0.1);
  fields_free(&fs);
}
END_TEST

/* dt -> 0: the time-discrete B converges at first order to the solution of
 * dB/dt = L.B + B.L^T - r (B - I), r = kappa g (1 - phi)/phi, at phi = 0.5, g t = 3:
 *   Bxy = W (1 - e^{-r t}),  Bxx = 1 + 2 W^2 (1 - e^{-r t} (1 + r t)),  W = g / r. */
START_TEST(independent_of_dt)
{
  const double phi = 0.5, shear = 1.0, t = 3.0;
  const double r = SOLID_INTERFACE_KAPPA * shear * (1.0 - phi) / phi, W = shear / r;
  const double xy = W * (1.0 - exp(-r * t));
  const double xx = 1.0 + 2.0 * W * W * (1.0 - exp(-r * t) * (1.0 + r * t));
  double err[3];
  for (int q = 0; q < 3; q++) {
    const long steps = 100L << q;
    const shear_result res = shear_run(phi, shear, t / steps, steps);
    err[q] = fmax(fabs(res.final[TXX] - xx), fabs(res.final[TXY] - xy));
  }
  const double order1 = log2(err[0] / err[1]), order2 = log2(err[1] / err[2]);
  printf("relaxed shear at g t = 3: error %.3e, %.3e, %.3e for dt = 0.03, 0.015, 0.0075; "
         "orders %.3f %.3f\n", err[0], err[1], err[2], order1, order2);
  ck_assert(order1 > 0.95 && order1 < 1.05 && order2 > 0.95 && order2 < 1.05);
  ck_assert(err[2] < 1e-2);
}
END_TEST

/* stress_total against the viscous stress (stress_total without a solid) then
 * solid_stress_add on random fields, with one and two materials: the same bits everywhere
 * (NaN outside -1..n in both). */
START_TEST(stress_total_is_viscous_plus_solid)
{
  const int n[3] = {7, 6, 5};
  for (int nmat = 1; nmat <= NMAT; nmat++) {
    fields ref, fused;
    const efsi_grid *g = fields_alloc(&ref, n);
    fields_alloc(&fused, n);
    srand(31 + nmat);
    FOR_ALL(g, i, j, k) {
      const ptrdiff_t at = grid_index(g, i, j, k);
      for (int m = 0; m < NMAT; m++) ref.phi[m][at] = fused.phi[m][at] = 1.1 * uniform() - 0.05;
      for (int c = 0; c < 6; c++) {
        ref.b[c][at] = fused.b[c][at] = (c < 3 ? 1.0 : 0.0) + 0.2 * (uniform() - 0.5);
        ref.s[c][at] = fused.s[c][at] = NAN;
      }
      for (int d = 0; d < 3; d++) ref.vel[d][at] = fused.vel[d][at] = uniform() - 0.5;
      ref.gphi[at] = fused.gphi[at] = NAN;
    }
    stress_total(g, 0.9, 0, NULL, ref.vel[0], ref.vel[1], ref.vel[2], NULL, ref.s);
    solid_stress_add(g, nmat, modulus, ref.phi, ref.b, ref.s, ref.gphi);
    modulus_sum(g, nmat, modulus, fused.phi, fused.gphi);
    stress_total(g, 0.9, nmat, fused.b, fused.vel[0], fused.vel[1], fused.vel[2], fused.gphi,
                 fused.s);
    long differing = 0;
    for (size_t m = 0; m < g->size; m++) {
      for (int c = 0; c < 6; c++) differing += memcmp(&ref.s[c][m], &fused.s[c][m], sizeof(double)) != 0;
      differing += memcmp(&ref.gphi[m], &fused.gphi[m], sizeof(double)) != 0;
    }
    printf("stress_total (%d materials): %ld points differ from the separate kernels\n", nmat,
           differing);
    ck_assert_int_eq(differing, 0);
    fields_free(&ref);
    fields_free(&fused);
  }
}
END_TEST

static Suite *solid_stress_suite(void)
{
  Suite *s = suite_create("solid_stress");
  TCase *tc = tcase_create("stress");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, exact_for_constant_phi_and_b);
  tcase_add_test(tc, edges_are_four_cell_means);
  tcase_add_test(tc, zero_for_identity);
  tcase_add_test(tc, energy_and_determinant);
  tcase_add_test(tc, phi_moments_of_a_block);
  tcase_add_test(tc, stress_total_is_viscous_plus_solid);
  suite_add_tcase(s, tc);
  TCase *tr = tcase_create("fluid treatment");
  tcase_set_timeout(tr, 120);
  tcase_add_test(tr, pure_fluid_gets_identity);
  tcase_add_test(tr, pure_solid_untouched);
  tcase_add_test(tr, bounded_under_long_shear);
  tcase_add_test(tr, interface_under_long_shear);
  tcase_add_test(tr, independent_of_dt);
  suite_add_tcase(s, tr);
  return s;
}

int main(int argc, char **argv) { return mpi_check_main(argc, argv, solid_stress_suite); }
