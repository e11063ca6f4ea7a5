/* Global reductions: exact sums and maxima of rank-dependent values, one counted call per
 * reduction, and bitwise the same result when the same reduction is repeated. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "decomp/decomp.h"
#include "tests/test_support.h"
#include "decomp/reduce.h"

enum { N = 7 };

static void make(efsi_decomp *d)
{
  const int cells[3] = {24, 24, 24}, ranks[3] = {0, 0, 0}, periodic[3] = {1, 1, 1};
  const double length[3] = {1, 1, 1};
  efsi_grid g;
  test_decomp(d, &g, cells, ranks, periodic, length);
}

START_TEST(exact_sum_and_max)
{
  efsi_decomp d;
  make(&d);
  const int r = d.rank, P = d.size;
  double sum[N], max[N];
  for (int i = 0; i < N; i++) {
    sum[i] = (r + 1) * (i + 1) + 0.25 * i;   /* exact in binary */
    max[i] = r * (i + 1) - i;
  }
  const long before = global_reduction_calls();
  global_sum(&d, sum, N);
  ALL(global_reduction_calls() == before + 1);
  global_max(&d, max, N);
  ALL(global_reduction_calls() == before + 2);
  int ok = 1;
  for (int i = 0; i < N; i++) {
    ok &= sum[i] == (i + 1) * (P * (P + 1) / 2.0) + 0.25 * i * P;
    ok &= max[i] == (P - 1) * (i + 1) - i;
  }
  ALL(ok);
  decomp_free(&d);
}
END_TEST

START_TEST(one_call_each_and_bitwise_repeatable)
{
  efsi_decomp d;
  make(&d);
  double a[N], b[N], serial[N] = {0};
  for (int i = 0; i < N; i++) {
    a[i] = b[i] = sin(1.0 + d.rank + 0.1 * i) / (3.0 + d.rank);
    for (int q = 0; q < d.size; q++) serial[i] += sin(1.0 + q + 0.1 * i) / (3.0 + q);
  }
  const long before = global_reduction_calls();
  for (int call = 0; call < 5; call++) {
    double scratch[1] = {1.0};
    global_sum(&d, scratch, 1);
    ALL(scratch[0] == d.size);
  }
  ALL(global_reduction_calls() == before + 5);
  global_sum(&d, a, N);
  global_sum(&d, b, N);
  ALL(global_reduction_calls() == before + 7);
  ALL(memcmp(a, b, sizeof a) == 0);
  double root[N];                           /* and the same bits on every rank */
  memcpy(root, a, sizeof a);
  MPI_Bcast(root, N, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  ALL(memcmp(a, root, sizeof a) == 0);
  int close = 1;
  for (int i = 0; i < N; i++) close &= fabs(a[i] - serial[i]) <= 1e-15 * d.size;
  ALL(close);
  decomp_free(&d);
}
END_TEST

static Suite *reduce_suite(void)
{
  Suite *s = suite_create("reduce");
  TCase *tc = tcase_create("allreduce");
  tcase_add_test(tc, exact_sum_and_max);
  tcase_add_test(tc, one_call_each_and_bitwise_repeatable);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) { return mpi_check_main(argc, argv, reduce_suite); }
