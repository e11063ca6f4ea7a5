/* Decomposition invariance and reproducibility of the fluid step (docs/parallel.md,
 * "Reductions"): the same case on one rank and on every tested process grid of the world
 * is the same bits after 100 steps, for ACM (its sums in double-double) and SMAC; the same
 * run twice on the same process grid too; each step makes exactly one global reduction. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fluid_case.h"
#include "tests/test_support.h"
#include "decomp/reduce.h"

/* Taylor-Green in x-z between walls in y, a moving wall and a pressure drive: every term
 * of the step and every boundary routine is exercised. */
static const char *case_text =
  "[grid]\ncells = 24 16 16\nlength = 6 4 4\n"
  "[boundary]\ny = wall\nz = periodic\ny_hi_u = 0.05\nwall_omega = 0.3\n"
  "[drive]\npressure_gradient = 0.02\n"
  "[init]\nflow = taylor-green\nflow_amplitude = 0.2\n"
  "[time]\nsteps = 100\n";

#define STEPS 100

static const char *method_override[2] = {"pressure.method=acm", "pressure.method=smac"};

/* Run the case on comm with process grid ranks; rank 0 of comm gets u, v, w, p (global). */
static void run_case(MPI_Comm comm, const int *ranks, int method, double *out[4], long *reductions)
{
  fluid_case fc;
  const char *overrides[1] = {method_override[method]};
  fluid_case_open(&fc, comm, case_text, overrides, 1, ranks);
  const long before = global_reduction_calls();
  fluid_case_steps(&fc, STEPS);
  *reductions = global_reduction_calls() - before;
  const double *fields[4] = {fc.state.u, fc.state.v, fc.state.w, fc.state.p};
  for (int f = 0; f < 4; f++) fluid_case_gather(&fc, fields[f], out[f]);
  fluid_case_close(&fc);
}

static size_t global_cells(void) { return 24 * 16 * 16; }

static double relative_difference(double *const a[4], double *const b[4])
{
  double diff = 0, scale = 0;
  for (int f = 0; f < 4; f++)
    for (size_t n = 0; n < global_cells(); n++) {
      diff = fmax(diff, fabs(a[f][n] - b[f][n]));
      scale = fmax(scale, fabs(a[f][n]));
    }
  return diff / scale;
}

static void alloc4(double *f[4])
{
  for (int k = 0; k < 4; k++) f[k] = calloc(global_cells(), sizeof(double));
}

static void free4(double *f[4])
{
  for (int k = 0; k < 4; k++) free(f[k]);
}

static void check_method(int method)
{
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double *reference[4], *again[4], *parallel[4], *parallel_again[4];
  alloc4(reference);
  alloc4(again);
  alloc4(parallel);
  alloc4(parallel_again);
  long reductions = 0;
  if (rank == 0) {
    const int one[3] = {1, 1, 1};
    run_case(MPI_COMM_SELF, one, method, reference, &reductions);
    ck_assert_int_eq(reductions, STEPS);          /* one global reduction per step */
    run_case(MPI_COMM_SELF, one, method, again, &reductions);
    for (int f = 0; f < 4; f++)
      ck_assert(memcmp(reference[f], again[f], global_cells() * sizeof(double)) == 0);
  }
  int grids[16][3];
  const int n = mpi_check_invariance_grids(size, (const int[3]){24, 16, 16}, grids, 16);
  for (int g = 0; g < n; g++) {
    run_case(MPI_COMM_WORLD, grids[g], method, parallel, &reductions);
    ck_assert(mpi_all(reductions == STEPS));
    run_case(MPI_COMM_WORLD, grids[g], method, parallel_again, &reductions);
    int ok = 1;
    if (rank == 0) {
      const double rel = relative_difference(reference, parallel);
      printf("%s on %d x %d x %d: relative difference to one rank %.2g\n",
             method ? "smac" : "acm", grids[g][0], grids[g][1], grids[g][2], rel);
      ok = rel <= TEST_GRID_TOLERANCE;
      for (int f = 0; f < 4; f++)
        ok &= memcmp(parallel[f], parallel_again[f], global_cells() * sizeof(double)) == 0;
    }
    ck_assert(mpi_all(ok));
  }
  free4(reference);
  free4(again);
  free4(parallel);
  free4(parallel_again);
}

START_TEST(acm_is_invariant) { check_method(0); }
END_TEST

START_TEST(smac_is_invariant) { check_method(1); }
END_TEST

static Suite *invariance_suite(void)
{
  Suite *s = suite_create("invariance");
  TCase *tc = tcase_create("process grids");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, acm_is_invariant);
  tcase_add_test(tc, smac_is_invariant);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) { return mpi_check_main(argc, argv, invariance_suite); }
