/* The reduction form (stencils/reduce.h) on the CPU: sums in double-double and maxima over a
 * box, with the point's indices.  A field whose terms cancel (+-2^60 with ones between) sums
 * to the exact count of its ones, which a plain double sum loses; the result is the same
 * bits (hi and lo) on 1 and 3 threads; maxima and minima (as maxima of the negatives) are
 * the field's; the indices i, j, k of a box that is not the owned one give the closed-form
 * sums of i, j and k; the combine of planes is that of their pairs in k order. */
#include "base/dd_contract_off.h"   /* first: the double-double sums (base/dd.h) */
#include <check.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "base/grid.h"
#include "stencils/loop.h"
#include "stencils/reduce.h"
#include "tests/test_support.h"

/* An odd row length: the SIMD lanes' tail is exercised. */
static const int cells[3] = {13, 10, 9};
static const double length[3] = {1.3, 1.0, 0.9};

/* The values of point p: the field, |f| and -f (maxima), and the field's square. */
EFSI_POINT reduce_values sample_values(const double *restrict f, ptrdiff_t p)
{
  reduce_values r = {{0.0}};
  r.v[0] = f[p];
  r.v[1] = fabs(f[p]);
  r.v[2] = -f[p];
  r.v[3] = f[p] * f[p];
  return r;
}

static void reduce_sample(const efsi_grid *g, const double *f, efsi_scratch *scratch,
                          dd_sum out[4])
{
  int lo[3], hi[3];
  box_owned(g, 0, lo, hi);
  REDUCE_BOX(g, lo, hi, scratch, 4, (1u << 1) | (1u << 2), out, p, i, j, k,
             sample_values(f, p));
}

/* Ones everywhere but +2^60 and -2^60 at two points and a 0.5 at a third: the sum is the
 * number of ones plus 0.5, which 2^60 + 1 in doubles cannot hold. */
START_TEST(sums_are_exact_and_thread_free)
{
  efsi_grid g = test_grid(cells, length, 1, 1);
  double *f = field_alloc(&g);
  const int owned = cells[0] * cells[1] * cells[2];
  FOR_ALL(&g, i, j, k) f[grid_index(&g, i, j, k)] = 1.0;
  const double big = ldexp(1.0, 60);
  f[grid_index(&g, 3, 2, 1)] = big;
  f[grid_index(&g, 12, 9, 8)] = -big;
  f[grid_index(&g, 0, 5, 4)] = 0.5;
  efsi_scratch scratch = scratch_of(0);
  dd_sum one[4], three[4];
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  reduce_sample(&g, f, &scratch, one);
  omp_set_num_threads(3);
  reduce_sample(&g, f, &scratch, three);
  omp_set_num_threads(threads);
  const double expected = (owned - 3) + 0.5;
  if (test_rank0())
    printf("sum of %d ones, +-2^60 and 0.5: %.17g (exact %.17g); max |f| %.3g, min f %.3g\n",
           owned - 3, one[0].hi, expected, one[1].hi, -one[2].hi);
  ck_assert(one[0].hi == expected && one[0].lo == 0.0);
  ck_assert(memcmp(one, three, sizeof one) == 0);
  ck_assert(one[1].hi == big && one[1].lo == 0.0);
  ck_assert(-one[2].hi == -big);
  /* the squares: 2 2^120 + (owned - 3) + 0.25, as a pair, exactly */
  const dd_sum squares = dd_add(dd_add((dd_sum){2 * ldexp(1.0, 120), 0.0}, owned - 3), 0.25);
  ck_assert(one[3].hi == squares.hi && one[3].lo == squares.lo);
  scratch_free(&scratch);
  field_free(f);
}
END_TEST

/* A box of a wall's first layer and part of the halo (lo, hi not the owned box): the sums of
 * i, j and k over it and its point count, in closed form. */
EFSI_POINT reduce_values index_values(int i, int j, int k)
{
  reduce_values r = {{0.0}};
  r.v[0] = i;
  r.v[1] = j;
  r.v[2] = k;
  r.v[3] = 1.0;
  return r;
}

static double range_sum(int lo, int hi) { return 0.5 * (hi - lo) * (lo + hi - 1); }

START_TEST(indices_of_a_box)
{
  efsi_grid g = test_grid(cells, length, 1, 1);
  efsi_scratch scratch = scratch_of(0);
  const int lo[3] = {-2, 0, 3}, hi[3] = {cells[0] + 1, 1, 7};
  dd_sum r[4];
  REDUCE_BOX(&g, lo, hi, &scratch, 4, 0u, r, p, i, j, k, index_values(i, j, k));
  const double ni = hi[0] - lo[0], nj = hi[1] - lo[1], nk = hi[2] - lo[2];
  ck_assert(r[0].hi == range_sum(lo[0], hi[0]) * nj * nk);
  ck_assert(r[1].hi == range_sum(lo[1], hi[1]) * ni * nk);
  ck_assert(r[2].hi == range_sum(lo[2], hi[2]) * ni * nj);
  ck_assert(r[3].hi == ni * nj * nk);
  scratch_free(&scratch);
}
END_TEST

/* reduce_combine: the planes' pairs added in k order (a sum) or their largest (a maximum);
 * no plane: 0 and -inf. */
START_TEST(planes_combined)
{
  const dd_sum plane[3 * 2] = {{1.0, 1e-20}, {-3.0, 0.0}, {2.0, -1e-20}, {5.0, 0.0},
                               {ldexp(1.0, 53), 0.0}, {-1.0, 0.0}};
  dd_sum out[2];
  reduce_combine(plane, 3, 2, 1u << 1, out);
  const dd_sum sum = dd_add_dd(dd_add_dd((dd_sum){1.0, 1e-20}, (dd_sum){2.0, -1e-20}),
                               (dd_sum){ldexp(1.0, 53), 0.0});
  ck_assert(out[0].hi == sum.hi && out[0].lo == sum.lo);
  ck_assert(out[1].hi == 5.0);
  reduce_combine(plane, 0, 2, 1u << 1, out);
  ck_assert(out[0].hi == 0.0 && out[1].hi == -INFINITY);
}
END_TEST

static Suite *reduce_suite(void)
{
  Suite *s = suite_create("reduce");
  TCase *tc = tcase_create("form");
  tcase_add_test(tc, sums_are_exact_and_thread_free);
  tcase_add_test(tc, indices_of_a_box);
  tcase_add_test(tc, planes_combined);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) { return mpi_check_main(argc, argv, reduce_suite); }
