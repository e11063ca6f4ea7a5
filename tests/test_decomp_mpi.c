/* The Cartesian decomposition: every process grid of the run's size tiles the global grid
 * exactly; neighbours, lines and walls agree with MPI's Cartesian topology; ranks = 0 picks
 * the smallest halo surface; grids that do not divide, wrong products and too few cells per
 * rank are refused with a one-line message naming the key and the numbers. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decomp/decomp.h"
#include "tests/test_support.h"

/* Collective assertion: every rank evaluates it, so all fail (and leave the test) together. */
static int world_size(void)
{
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

static int world_rank(void)
{
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

/* All ordered (px, py, pz) with px py pz = size. */
/* The rule the decomposition promises, restated: cut planes times their area. */
static double surface(const int cells[3], const int p[3], const int periodic[3])
{
  double s = 0;
  for (int e = 0; e < 3; e++)
    if (p[e] > 1)
      s += (periodic[e] ? p[e] : p[e] - 1) * (double)cells[(e + 1) % 3] * cells[(e + 2) % 3];
  return s;
}

static int fits(const int cells[3], const int p[3], const int periodic[3])
{
  for (int e = 0; e < 3; e++)
    if (cells[e] % p[e] || ((p[e] > 1 || !periodic[e]) && cells[e] / p[e] < 3)) return 0;
  return 1;
}

/* Every check of one successful decomposition; collective. */
static void check_tiling(const efsi_decomp *d, const int cells[3], const int periodic[3])
{
  const int size = world_size();
  ALL(d->size == size);
  ALL(d->rank == world_rank());             /* reorder = 0 */
  ALL(d->dims[0] * d->dims[1] * d->dims[2] == size);
  int cart_rank = -1;
  MPI_Cart_rank(d->comm, d->coords, &cart_rank);
  ALL(cart_rank == d->rank);
  for (int e = 0; e < 3; e++) {
    ALL(d->periodic[e] == periodic[e]);
    int line_size = 0, line_rank = -1;
    MPI_Comm_size(d->line[e], &line_size);
    MPI_Comm_rank(d->line[e], &line_rank);
    ALL(line_size == d->dims[e]);
    ALL(line_rank == d->coords[e]);
    for (int side = 0; side < 2; side++) {
      int c[3] = {d->coords[0], d->coords[1], d->coords[2]};
      c[e] += side ? 1 : -1;
      const int outside = c[e] < 0 || c[e] >= d->dims[e];
      int expect = MPI_PROC_NULL;
      if (!outside || periodic[e]) {
        c[e] = (c[e] + d->dims[e]) % d->dims[e];
        MPI_Cart_rank(d->comm, c, &expect);
      }
      ALL(d->neighbor[e][side] == expect);
    }
  }

  const double length[3] = {1.0, 2.0, 3.0};
  efsi_grid g;
  decomp_grid(d, cells, length, &g);
  int ok = 1;
  for (int e = 0; e < 3; e++) {
    ok &= g.n[e] * d->dims[e] == cells[e];
    ok &= g.offset[e] == d->coords[e] * g.n[e];
    ok &= g.global_n[e] == cells[e] && g.length[e] == length[e];
    ok &= g.wall_lo[e] == (!periodic[e] && d->coords[e] == 0);
    ok &= g.wall_hi[e] == (!periodic[e] && d->coords[e] == d->dims[e] - 1);
  }
  ALL(ok);

  long owned = (long)grid_cells(&g), total = 0;
  MPI_Allreduce(&owned, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  ALL(total == (long)cells[0] * cells[1] * cells[2]);

  /* Each global cell owned exactly once: mark owned blocks, sum over ranks. */
  const size_t ncells = (size_t)cells[0] * cells[1] * cells[2];
  int *cover = calloc(ncells, sizeof *cover);
  ck_assert_ptr_nonnull(cover);
  for (int k = 0; k < g.n[2]; k++)
    for (int j = 0; j < g.n[1]; j++)
      for (int i = 0; i < g.n[0]; i++) {
        const int I = g.offset[0] + i, J = g.offset[1] + j, K = g.offset[2] + k;
        if (I < cells[0] && J < cells[1] && K < cells[2])
          cover[(size_t)I + cells[0] * ((size_t)J + (size_t)cells[1] * K)]++;
      }
  MPI_Allreduce(MPI_IN_PLACE, cover, (int)ncells, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  int each_once = 1;
  for (size_t c = 0; c < ncells; c++) each_once &= cover[c] == 1;
  free(cover);
  ALL(each_once);
}

/* 24 = 8 x 3: every split of 1..8 ranks leaves at least 3 cells per rank. */
START_TEST(every_factorization_tiles)
{
  const int cells[3] = {24, 24, 24};
  const int periodics[3][3] = {{1, 1, 1}, {1, 0, 1}, {1, 0, 0}};
  int p[64][3];
  const int n = mpi_check_process_grids(world_size(), p, 64);
  for (int b = 0; b < 3; b++)
    for (int f = 0; f < n; f++) {
      efsi_decomp d;
      char err[256];
      const int rc = decomp_create(&d, MPI_COMM_WORLD, cells, p[f], periodics[b], err,
                                   sizeof err);
      ck_assert_msg(mpi_all(rc == 0), "ranks %d %d %d: %s", p[f][0], p[f][1], p[f][2], err);
      for (int e = 0; e < 3; e++) ALL(d.dims[e] == p[f][e]);
      check_tiling(&d, cells, periodics[b]);
      decomp_free(&d);
    }
}
END_TEST

/* ranks = 0 0 0 (and partly given): valid, smallest surface, ties to more z then y. */
START_TEST(chosen_grid_is_valid_and_smallest)
{
  const int size = world_size();
  const int cells_list[3][3] = {{16, 16, 16}, {64, 16, 16}, {12, 24, 48}};
  const int periodics[2][3] = {{1, 1, 1}, {1, 0, 1}};
  const int given_list[3][3] = {{0, 0, 0}, {0, 1, 0}, {1, 0, 0}};
  int p[64][3];
  const int n = mpi_check_process_grids(size, p, 64);
  for (int c = 0; c < 3; c++)
    for (int b = 0; b < 2; b++)
      for (int r = 0; r < 3; r++) {
        const int *cells = cells_list[c], *periodic = periodics[b], *given = given_list[r];
        int best = -1;
        for (int f = 0; f < n; f++) {
          if ((given[0] && given[0] != p[f][0]) || (given[1] && given[1] != p[f][1]) ||
              !fits(cells, p[f], periodic))
            continue;
          if (best < 0) { best = f; continue; }
          const double sf = surface(cells, p[f], periodic), sb = surface(cells, p[best], periodic);
          if (sf < sb || (sf == sb && (p[f][2] > p[best][2] ||
                                       (p[f][2] == p[best][2] && p[f][1] > p[best][1]))))
            best = f;
        }
        efsi_decomp d;
        char err[256];
        const int rc = decomp_create(&d, MPI_COMM_WORLD, cells, given, periodic, err, sizeof err);
        ALL(best >= 0);
        ck_assert_msg(mpi_all(rc == 0), "%s", err);
        ck_assert_msg(mpi_all(d.dims[0] == p[best][0] && d.dims[1] == p[best][1] &&
                              d.dims[2] == p[best][2]),
                      "cells %d %d %d ranks %d %d %d: chose %d %d %d, expected %d %d %d",
                      cells[0], cells[1], cells[2], given[0], given[1], given[2], d.dims[0],
                      d.dims[1], d.dims[2], p[best][0], p[best][1], p[best][2]);
        check_tiling(&d, cells, periodic);
        decomp_free(&d);
      }
  /* A long x on 8 ranks is cut along x only: 8 x-cuts of 16^2 beat any cut of 64 x 16. */
  if (size == 8) {
    const int cells[3] = {64, 16, 16}, zero[3] = {0, 0, 0}, periodic[3] = {1, 1, 1};
    efsi_decomp d;
    char err[256];
    ALL(decomp_create(&d, MPI_COMM_WORLD, cells, zero, periodic, err, sizeof err) == 0);
    ALL(d.dims[0] == 8 && d.dims[1] == 1 && d.dims[2] == 1);
    decomp_free(&d);
  }
}
END_TEST

/* Refused: rc != 0 on every rank, the same message everywhere containing `words`. */
static void expect_refused(const int cells[3], const int ranks[3], const int periodic[3],
                           const char *words)
{
  efsi_decomp d;
  char err[256] = "";
  const int rc = decomp_create(&d, MPI_COMM_WORLD, cells, ranks, periodic, err, sizeof err);
  ck_assert_msg(mpi_all(rc != 0), "ranks %d %d %d cells %d %d %d accepted", ranks[0],
                ranks[1], ranks[2], cells[0], cells[1], cells[2]);
  ck_assert_msg(mpi_all(strstr(err, words) != NULL), "message \"%s\" lacks \"%s\"", err, words);
  ALL(strchr(err, '\n') == NULL);
  ALL(d.comm == MPI_COMM_NULL);
  decomp_free(&d);              /* harmless after a refusal */
}

START_TEST(refusals)
{
  const int size = world_size();
  const int periodic[3] = {1, 1, 1}, walls[3] = {1, 0, 0};
  char words[256];

  /* A factor that does not divide, on any run size. */
  expect_refused((int[3]){15, 16, 16}, (int[3]){2, 0, 0}, periodic,
                 "grid.ranks = 2 0 0 does not divide grid.cells = 15 16 16 (15 is not a "
                 "multiple of 2)");
  expect_refused((int[3]){64, 64, 64}, (int[3]){3, 1, 1}, periodic,
                 "grid.ranks = 3 1 1 does not divide grid.cells = 64 64 64 (64 is not a "
                 "multiple of 3)");

  /* Product not equal to the run size. */
  snprintf(words, sizeof words, "grid.ranks = 2 1 %d needs %d ranks, run has %d", size,
           2 * size, size);
  expect_refused((int[3]){16, 16, 48}, (int[3]){2, 1, size}, periodic, words);

  /* Too few cells per rank along a split direction, and along a walled one. */
  snprintf(words, sizeof words, "grid.ranks = 1 %d 1 leaves 2 cells per rank along y", size);
  expect_refused((int[3]){16, 2 * size, 16}, (int[3]){1, size, 1}, walls, words);
  expect_refused((int[3]){16, 16, 2}, (int[3]){0, 0, 1}, walls, "at least 3");

  if (size > 1) {
    /* All factors given, x does not divide. */
    snprintf(words, sizeof words, "grid.ranks = %d 1 1 does not divide grid.cells = 15 16 16 "
             "(15 is not a multiple of %d)", size, size);
    expect_refused((int[3]){15, 16, 16}, (int[3]){size, 1, 1}, periodic, words);
    /* Prime-sized grid: nothing to choose from. */
    snprintf(words, sizeof words, "grid.ranks = 0 0 0: no process grid of %d ranks fits "
             "grid.cells = 13 13 13", size);
    expect_refused((int[3]){13, 13, 13}, (int[3]){0, 0, 0}, periodic, words);
    /* Only splits with 2 cells per rank exist. */
    expect_refused((int[3]){2, 2, 2 * size}, (int[3]){0, 0, 0}, periodic, "no process grid");
  }
  /* A thin periodic direction held by one rank is allowed (halo copies wrap in place). */
  efsi_decomp d;
  char err[256];
  const int rc = decomp_create(&d, MPI_COMM_WORLD, (int[3]){3 * size, 2, 1},
                               (int[3]){size, 1, 1}, periodic, err, sizeof err);
  ck_assert_msg(mpi_all(rc == 0), "%s", err);
  decomp_free(&d);
}
END_TEST

static Suite *decomp_suite(void)
{
  Suite *s = suite_create("decomp");
  TCase *tc = tcase_create("cartesian");
  tcase_add_test(tc, every_factorization_tiles);
  tcase_add_test(tc, chosen_grid_is_valid_and_smallest);
  tcase_add_test(tc, refusals);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) { return mpi_check_main(argc, argv, decomp_suite); }
