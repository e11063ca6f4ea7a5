/* The SMAC Poisson solver against a manufactured discrete solution: for each boundary
 * combination (y, z each wall or periodic) and every process grid of the world size,
 * rhs = lap(x_exact) from the 7-point formula written here (periodic wrap, even-reflection
 * ghosts at walls), x_exact rough and smooth with zero mean, a function of the global index
 * only.  Asserts max|x - x_exact| <= 1e-11 max|x_exact|, |<x>| <= 1e-13 max|x|, the same
 * solution to 1e-12 relative on every process grid, bitwise the same on a repeated and
 * an in-place solve. */
#include <check.h>
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decomp/decomp.h"
#include "base/grid.h"
#include "tests/test_support.h"
#include "verify/poisson_fft.h"

/* Divisible by 1, 2, 4, 8 with at least 3 cells per rank (decomp's halo rule). */
static const int cells[3] = {24, 40, 24};
static const double length[3] = {3.0, 2.0, 1.0};

/* Uniform in [0, 1) from a global cell index (splitmix64). */
static double hash_uniform(uint64_t n)
{
  uint64_t z = n + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return (double)(z >> 11) * 0x1.0p-53;
}

/* Without its mean: white noise plus a smooth part that is not an eigenvector. */
static double raw_exact(int i, int j, int k)
{
  const double pi = acos(-1.0);
  const uint64_t n = ((uint64_t)k * cells[1] + j) * cells[0] + i;
  return hash_uniform(n) - 0.5
       + 3.0 * cos(2.0 * pi * (i + 0.5) / cells[0]) * exp(sin(pi * (j + 0.3) / cells[1]))
       + 2.0 * (k + 0.5) / cells[2] * (j + 0.5) / cells[1];
}

/* The whole exact field, the same bits on every rank and process grid. */
static double *exact_field(void)
{
  const size_t total = (size_t)cells[0] * cells[1] * cells[2];
  double *e = malloc(sizeof(double) * total);
  double sum = 0.0;
  for (int k = 0; k < cells[2]; k++)
    for (int j = 0; j < cells[1]; j++)
      for (int i = 0; i < cells[0]; i++) sum += raw_exact(i, j, k);
  const double mean = sum / total;
  size_t n = 0;
  for (int k = 0; k < cells[2]; k++)
    for (int j = 0; j < cells[1]; j++)
      for (int i = 0; i < cells[0]; i++) e[n++] = raw_exact(i, j, k) - mean;
  return e;
}

/* Index of a neighbour along a direction: wrap when periodic, else the even-reflection
 * ghost, which is the cell itself. */
static int neighbour(int m, int n, int periodic)
{
  if (m >= 0 && m < n) return m;
  if (periodic) return (m + n) % n;
  return m < 0 ? 0 : n - 1;
}

static double at(const double *e, int i, int j, int k)
{
  return e[((size_t)k * cells[1] + j) * cells[0] + i];
}

/* The compact Laplacian of the global field e at global cell (i, j, k). */
static double laplacian(const double *e, const int periodic[3], const double h[3],
                        int i, int j, int k)
{
  const double c = at(e, i, j, k);
  const double xx = at(e, neighbour(i - 1, cells[0], 1), j, k) - 2.0 * c
                  + at(e, neighbour(i + 1, cells[0], 1), j, k);
  const double yy = at(e, i, neighbour(j - 1, cells[1], periodic[1]), k) - 2.0 * c
                  + at(e, i, neighbour(j + 1, cells[1], periodic[1]), k);
  const double zz = at(e, i, j, neighbour(k - 1, cells[2], periodic[2])) - 2.0 * c
                  + at(e, i, j, neighbour(k + 1, cells[2], periodic[2]));
  return xx / (h[0] * h[0]) + yy / (h[1] * h[1]) + zz / (h[2] * h[2]);
}

/* Solves on process grid p; fills the global solution (exact: every cell comes from one
 * rank, the others add zeros) and returns the measured errors. */
static void solve_on(const int p[3], const int periodic[3], const double *exact,
                     double *global, double *error, double *mean, int *repeatable)
{
  efsi_decomp d;
  efsi_grid g;
  test_decomp(&d, &g, cells, p, periodic, length);
  double *rhs = field_alloc(&g), *x = field_alloc(&g), *again = field_alloc(&g);
  for (size_t n = 0; n < g.size; n++) x[n] = again[n] = -1.0;
  for (int k = 0; k < g.n[2]; k++)
    for (int j = 0; j < g.n[1]; j++)
      for (int i = 0; i < g.n[0]; i++)
        rhs[grid_index(&g, i, j, k)] =
          laplacian(exact, periodic, g.h, g.offset[0] + i, g.offset[1] + j, g.offset[2] + k);

  efsi_poisson *ps = poisson_create(&g, &d);
  poisson_solve(ps, rhs, x);
  /* Repeated, in place (rhs becomes x): bitwise equal, halos of x untouched. */
  memcpy(again, rhs, sizeof(double) * g.size);
  poisson_solve(ps, again, again);
  int same = 1;
  for (int k = 0; k < g.n[2]; k++)
    for (int j = 0; j < g.n[1]; j++)
      for (int i = 0; i < g.n[0]; i++)
        same &= memcmp(&again[grid_index(&g, i, j, k)], &x[grid_index(&g, i, j, k)],
                       sizeof(double)) == 0;
  same &= x[grid_index(&g, -1, 0, 0)] == -1.0 && x[grid_index(&g, 0, g.n[1], 0)] == -1.0
       && x[grid_index(&g, 0, 0, -EFSI_HALO)] == -1.0;
  *repeatable = mpi_all(same);
  poisson_free(ps);

  const size_t total = (size_t)cells[0] * cells[1] * cells[2];
  memset(global, 0, sizeof(double) * total);
  double sums[2] = {0.0, 0.0};   /* max |x - exact|, then sum of x */
  for (int k = 0; k < g.n[2]; k++)
    for (int j = 0; j < g.n[1]; j++)
      for (int i = 0; i < g.n[0]; i++) {
        const double v = x[grid_index(&g, i, j, k)];
        const size_t n = ((size_t)(g.offset[2] + k) * cells[1] + g.offset[1] + j) * cells[0]
                       + g.offset[0] + i;
        global[n] = v;
        sums[0] = fmax(sums[0], fabs(v - exact[n]));
        sums[1] += v;
      }
  MPI_Allreduce(MPI_IN_PLACE, global, (int)total, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &sums[0], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &sums[1], 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  *error = sums[0];
  *mean = sums[1] / total;
  field_free(again);
  field_free(x);
  field_free(rhs);
  decomp_free(&d);
}

static double max_abs(const double *v, size_t n)
{
  double m = 0.0;
  for (size_t i = 0; i < n; i++) m = fmax(m, fabs(v[i]));
  return m;
}

static void check_boundaries(int y_periodic, int z_periodic)
{
  const int periodic[3] = {1, y_periodic, z_periodic};
  int size = 0, rank = 0, list[64][3];
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int count = mpi_check_process_grids(size, list, 64);
  const size_t total = (size_t)cells[0] * cells[1] * cells[2];
  double *exact = exact_field();
  double *first = malloc(sizeof(double) * total), *other = malloc(sizeof(double) * total);
  const double scale = max_abs(exact, total);
  double worst_error = 0.0, worst_mean = 0.0, worst_spread = 0.0;
  for (int c = 0; c < count; c++) {
    double error = 0.0, mean = 0.0;
    int repeatable = 0;
    solve_on(list[c], periodic, exact, c == 0 ? first : other, &error, &mean, &repeatable);
    const double size_x = max_abs(c == 0 ? first : other, total);
    ck_assert_msg(error <= 1e-11 * scale, "grid %d x %d x %d: max error %.3g (max |x| %.3g)",
                  list[c][0], list[c][1], list[c][2], error, scale);
    ck_assert_msg(fabs(mean) <= 1e-13 * size_x, "grid %d x %d x %d: <x> = %.3g",
                  list[c][0], list[c][1], list[c][2], mean);
    ck_assert_msg(repeatable, "grid %d x %d x %d: repeated or in-place solve differs or "
                  "touched halos", list[c][0], list[c][1], list[c][2]);
    worst_error = fmax(worst_error, error / scale);
    worst_mean = fmax(worst_mean, fabs(mean) / size_x);
    if (c > 0) {
      double spread = 0.0;
      for (size_t n = 0; n < total; n++) spread = fmax(spread, fabs(other[n] - first[n]));
      spread /= max_abs(first, total);
      ck_assert_msg(spread <= 1e-12, "grid %d x %d x %d differs from %d x %d x %d by %.3g",
                    list[c][0], list[c][1], list[c][2], list[0][0], list[0][1], list[0][2],
                    spread);
      worst_spread = fmax(worst_spread, spread);
    }
  }
  if (rank == 0)
    printf("poisson y %s, z %s, %d grids of %d ranks: max error %.2g, |<x>| %.2g, "
           "grid spread %.2g (relative to max |x|)\n", y_periodic ? "periodic" : "wall",
           z_periodic ? "periodic" : "wall", count, size, worst_error, worst_mean, worst_spread);
  free(other);
  free(first);
  free(exact);
}

START_TEST(y_wall_z_wall) { check_boundaries(0, 0); }
END_TEST
START_TEST(y_wall_z_periodic) { check_boundaries(0, 1); }
END_TEST
START_TEST(y_periodic_z_wall) { check_boundaries(1, 0); }
END_TEST
START_TEST(y_periodic_z_periodic) { check_boundaries(1, 1); }
END_TEST

static Suite *poisson_suite(void)
{
  Suite *s = suite_create("poisson_fft");
  TCase *tc = tcase_create("manufactured");
  tcase_add_test(tc, y_wall_z_wall);
  tcase_add_test(tc, y_wall_z_periodic);
  tcase_add_test(tc, y_periodic_z_wall);
  tcase_add_test(tc, y_periodic_z_periodic);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) { return mpi_check_main(argc, argv, poisson_suite); }
