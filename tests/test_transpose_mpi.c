/* Pencil transposes on every process grid of the world size: the d-pencil holds exactly the
 * global values of its lines (from an analytic function of the global index), every line
 * of the grid is held by exactly one rank, the split along a line of ranks is balanced to
 * one line, and pencil -> block restores the block bitwise, halos untouched, for a field
 * with halos and for a packed block alike.  Block shapes give uneven splits and ranks that
 * hold no line at all. */
#include <check.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "decomp/decomp.h"
#include "base/grid.h"
#include "tests/test_support.h"
#include "decomp/transpose.h"

static const double sentinel = -7.25;

/* Distinct and exact for every global cell. */
static double value_at(const int cells[3], const int at[3])
{
  return ((double)at[2] * cells[1] + at[1]) * cells[0] + at[0] + 0.5;
}

/* All (px, py, pz) with px py pz = size; returns how many. */
/* Checks direction dd of grid g; returns 1 when all of it holds on this rank. */
static int check_direction(efsi_transpose *t, const efsi_decomp *d, const efsi_grid *g, int dd,
                           const double *f, double *back, double *packed)
{
  const int *cells = g->global_n, len = cells[dd], lines = transpose_lines(t, dd);
  const ptrdiff_t origin = grid_index(g, 0, 0, 0);
  const ptrdiff_t packed_stride[3] = {1, g->n[0], (ptrdiff_t)g->n[0] * g->n[1]};
  const int a = dd == 0 ? 1 : 0, b = dd == 2 ? 1 : 2;
  const int cross = cells[a] * cells[b];
  double *pencil = malloc(sizeof(double) * ((size_t)lines * len + 1));
  double *again = malloc(sizeof(double) * ((size_t)lines * len + 1));
  int *held = calloc((size_t)cross, sizeof(int));
  int ok = 1;

  transpose_to_pencil(t, dd, f + origin, g->stride, pencil);
  for (int l = 0; l < lines; l++) {
    int at[3];
    transpose_line_origin(t, dd, l, at);
    ok &= at[dd] == 0;
    held[at[a] + cells[a] * at[b]]++;
    for (int s = 0; s < len; s++) {
      at[dd] = s;
      ok &= pencil[(size_t)l * len + s] == value_at(cells, at);
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, held, cross, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (int c = 0; c < cross; c++) ok &= held[c] == 1;

  int fewest = lines, most = lines;
  MPI_Allreduce(MPI_IN_PLACE, &fewest, 1, MPI_INT, MPI_MIN, d->line[dd]);
  MPI_Allreduce(MPI_IN_PLACE, &most, 1, MPI_INT, MPI_MAX, d->line[dd]);
  ok &= most - fewest <= 1;

  for (size_t n = 0; n < g->size; n++) back[n] = sentinel;
  transpose_to_block(t, dd, pencil, back + origin, g->stride);
  ok &= memcmp(back, f, sizeof(double) * g->size) == 0;

  transpose_to_block(t, dd, pencil, packed, packed_stride);
  for (int k = 0; k < g->n[2]; k++)
    for (int j = 0; j < g->n[1]; j++)
      for (int i = 0; i < g->n[0]; i++)
        ok &= packed[i + packed_stride[1] * j + packed_stride[2] * k] == f[grid_index(g, i, j, k)];
  transpose_to_pencil(t, dd, packed, packed_stride, again);
  ok &= memcmp(again, pencil, sizeof(double) * (size_t)lines * len) == 0;

  free(held);
  free(again);
  free(pencil);
  return ok;
}

/* local: cells per rank along a split direction (at least the halo width, as decomp asks)
 * and along an unsplit one. */
static void check_grid(const int p[3], const int split_local[3], const int whole[3])
{
  int cells[3];
  for (int e = 0; e < 3; e++) cells[e] = p[e] > 1 ? p[e] * split_local[e] : whole[e];
  const int periodic[3] = {1, 1, 1};
  const double length[3] = {1.0, 1.0, 1.0};
  efsi_decomp d;
  efsi_grid g;
  test_decomp(&d, &g, cells, p, periodic, length);
  double *f = field_alloc(&g), *back = field_alloc(&g);
  double *packed = malloc(sizeof(double) * grid_cells(&g));
  for (size_t n = 0; n < g.size; n++) f[n] = sentinel;
  for (int k = 0; k < g.n[2]; k++)
    for (int j = 0; j < g.n[1]; j++)
      for (int i = 0; i < g.n[0]; i++) {
        const int at[3] = {g.offset[0] + i, g.offset[1] + j, g.offset[2] + k};
        f[grid_index(&g, i, j, k)] = value_at(cells, at);
      }
  efsi_transpose *t = transpose_create(&g, &d);
  for (int dd = 0; dd < 3; dd++)
    ck_assert_msg(mpi_all(check_direction(t, &d, &g, dd, f, back, packed)),
                  "transpose along %d wrong on grid %d x %d x %d of %d x %d x %d cells",
                  dd, p[0], p[1], p[2], cells[0], cells[1], cells[2]);
  transpose_free(t);
  free(packed);
  field_free(back);
  field_free(f);
  decomp_free(&d);
}

START_TEST(every_process_grid_uneven_splits)
{
  int size = 0, list[64][3];
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int count = mpi_check_process_grids(size, list, 64);
  const int split_local[3] = {3, 5, 7}, whole[3] = {6, 5, 7};
  for (int c = 0; c < count; c++) check_grid(list[c], split_local, whole);
}
END_TEST

/* Unsplit directions of one or two cells: a pencil has fewer lines than ranks, so some
 * ranks hold none. */
START_TEST(ranks_without_lines)
{
  int size = 0, list[64][3];
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int count = mpi_check_process_grids(size, list, 64);
  const int split_local[3] = {3, 3, 3}, whole[3] = {1, 1, 2};
  for (int c = 0; c < count; c++) check_grid(list[c], split_local, whole);
}
END_TEST

static Suite *transpose_suite(void)
{
  Suite *s = suite_create("transpose");
  TCase *tc = tcase_create("block_pencil");
  tcase_add_test(tc, every_process_grid_uneven_splits);
  tcase_add_test(tc, ranks_without_lines);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) { return mpi_check_main(argc, argv, transpose_suite); }
