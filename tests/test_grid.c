/* The grid layout: one index function, aligned rows, halos addressable, no overlap. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/grid.h"
#include "tests/test_support.h"

static efsi_grid make(int nx, int ny, int nz)
{
  efsi_grid g;
  const int n[3] = {nx, ny, nz}, zero[3] = {0, 0, 0};
  const double len[3] = {2.0 * nx, 1.0 * ny, 0.5 * nz};
  grid_init(&g, n, len, n, zero, zero, zero);
  return g;
}

START_TEST(index_is_unique_and_in_bounds)
{
  efsi_grid g = make(7, 5, 4);
  char *seen = calloc(g.size, 1);
  for (int k = -EFSI_HALO; k < g.n[2] + EFSI_HALO; k++)
    for (int j = -EFSI_HALO; j < g.n[1] + EFSI_HALO; j++)
      for (int i = -EFSI_HALO; i < g.n[0] + EFSI_HALO; i++) {
        ptrdiff_t at = grid_index(&g, i, j, k);
        ck_assert(at >= 0 && (size_t)at < g.size);
        ck_assert_int_eq(seen[at], 0);
        seen[at] = 1;
      }
  free(seen);
}
END_TEST

START_TEST(x_is_fastest_and_rows_aligned)
{
  efsi_grid g = make(13, 3, 2);
  ck_assert_int_eq(grid_index(&g, 1, 0, 0) - grid_index(&g, 0, 0, 0), 1);
  ck_assert_int_eq(g.stride[1] % (EFSI_ALIGN / sizeof(double)), 0);
  ck_assert(g.stride[1] >= g.n[0] + 2 * EFSI_HALO);
  ck_assert_int_eq(g.stride[2], g.stride[1] * (g.n[1] + 2 * EFSI_HALO));
  double *f = field_alloc(&g);
  ck_assert_ptr_nonnull(f);
  ck_assert_int_eq((uintptr_t)f % EFSI_ALIGN, 0);
  for (size_t n = 0; n < g.size; n++) ck_assert(f[n] == 0.0);
  field_free(f);
}
END_TEST

START_TEST(spacings)
{
  efsi_grid g = make(8, 4, 2);
  for (int d = 0; d < 3; d++) ck_assert_double_eq_tol(g.h[d] * g.inv_h[d], 1.0, 1e-15);
  ck_assert_double_eq_tol(g.h[0], 2.0, 1e-15);
  ck_assert_double_eq_tol(g.h[2], 0.5, 1e-15);
}
END_TEST

static Suite *grid_suite(void)
{
  Suite *s = suite_create("grid");
  TCase *tc = tcase_create("layout");
  tcase_add_test(tc, index_is_unique_and_in_bounds);
  tcase_add_test(tc, x_is_fastest_and_rows_aligned);
  tcase_add_test(tc, spacings);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) { return mpi_check_main(argc, argv, grid_suite); }
