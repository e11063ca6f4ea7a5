/* Halo exchange: on every process grid of the run's size, periodic and walled in y and/or z,
 * widths 1, 2, 3, blocking and split: every halo cell within the width (edges and corners
 * included) holds the value of the periodically wrapped global cell, cells across a wall and
 * beyond the width keep their sentinel, owned cells are unchanged. */
#include <check.h>
#include <stdio.h>

#include "decomp/decomp.h"
#include "decomp/halo.h"
#include "tests/test_support.h"

enum { NFIELDS = 3 };
static const double sentinel = -7777.0;

static int world_size(void)
{
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

/* Distinct per field and per global cell, exact in double. */
static double value(int f, int I, int J, int K)
{
  return (f + 1) * 1e6 + I + 100.0 * J + 10000.0 * K;
}

static int wrap(int G, int N) { return ((G % N) + N) % N; }

static void fill(const efsi_grid *g, double *const *fields)
{
  for (int f = 0; f < NFIELDS; f++) {
    for (size_t at = 0; at < g->size; at++) fields[f][at] = sentinel;
    for (int k = 0; k < g->n[2]; k++)
      for (int j = 0; j < g->n[1]; j++)
        for (int i = 0; i < g->n[0]; i++)
          fields[f][grid_index(g, i, j, k)] =
              value(f, g->offset[0] + i, g->offset[1] + j, g->offset[2] + k);
  }
}

/* Number of points of [-reach, n + reach)^3 that differ from what an exchange of `width`
 * leaves there. */
static long count_wrong(const efsi_grid *g, double *const *fields, const int periodic[3],
                        int width, int reach)
{
  long wrong = 0;
  for (int k = -reach; k < g->n[2] + reach; k++)
    for (int j = -reach; j < g->n[1] + reach; j++)
      for (int i = -reach; i < g->n[0] + reach; i++) {
        const int l[3] = {i, j, k};
        int G[3], within = 1, across_wall = 0;
        for (int e = 0; e < 3; e++) {
          within &= l[e] >= -width && l[e] < g->n[e] + width;
          G[e] = g->offset[e] + l[e];
          if (G[e] < 0 || G[e] >= g->global_n[e]) across_wall |= !periodic[e];
          G[e] = wrap(G[e], g->global_n[e]);
        }
        for (int f = 0; f < NFIELDS; f++) {
          const double expect = within && !across_wall ? value(f, G[0], G[1], G[2]) : sentinel;
          wrong += fields[f][grid_index(g, i, j, k)] != expect;
        }
      }
  return wrong;
}

/* Exchange and check on one process grid with one periodicity; returns points checked. */
static long run_case(const int cells[3], const int ranks[3], const int periodic[3])
{
  efsi_decomp d;
  efsi_grid g;
  test_decomp(&d, &g, cells, ranks, periodic, (const double[3]){1, 1, 1});
  double *fields[NFIELDS];
  for (int f = 0; f < NFIELDS; f++) fields[f] = field_alloc(&g);
  efsi_halo *h = halo_create(&g, &d, NFIELDS + 1, &efsi_cpu_layers, 0);
  long checked = 0;
  for (int width = 1; width <= EFSI_HALO; width++)
    for (int split = 0; split < 3; split++) {
      fill(&g, fields);
      if (split == 1) {
        halo_start(h, fields, NFIELDS, width);
        /* Interior work runs while x is in flight: the owned cells are intact. */
        const long moved = count_wrong(&g, fields, periodic, width, 0);
        halo_finish(h);
        ALL(moved == 0);
      } else if (split == 2) {
        /* direction by direction: exactly two advances leave a direction in flight */
        halo_start(h, fields, NFIELDS, width);
        int advances = 0;
        while (halo_advance(h)) {
          advances++;
          ALL(count_wrong(&g, fields, periodic, width, 0) == 0);
        }
        ALL(advances == 2);
        ALL(halo_advance(h) == 0);
      } else {
        halo_exchange(h, fields, NFIELDS, width);
      }
      const long wrong = count_wrong(&g, fields, periodic, width, EFSI_HALO);
      ck_assert_msg(mpi_all(wrong == 0),
                    "cells %d %d %d ranks %d %d %d periodic %d %d %d width %d split %d: "
                    "%ld wrong points on rank %d", cells[0], cells[1], cells[2], ranks[0],
                    ranks[1], ranks[2], periodic[0], periodic[1], periodic[2], width, split,
                    wrong, d.rank);
      checked += (long)NFIELDS * (g.n[0] + 2 * EFSI_HALO) * (g.n[1] + 2 * EFSI_HALO) *
                 (g.n[2] + 2 * EFSI_HALO);
    }
  halo_free(h);
  for (int f = 0; f < NFIELDS; f++) field_free(fields[f]);
  decomp_free(&d);
  return checked;
}

/* Local blocks of 5 x 4 x 3 cells: unequal sizes catch swapped directions, and 3 = the full
 * width sends every owned layer along z. */
START_TEST(every_grid_and_boundary)
{
  const int local_n[3] = {5, 4, 3};
  const int periodics[4][3] = {{1, 1, 1}, {1, 0, 1}, {1, 1, 0}, {1, 0, 0}};
  int p[64][3];
  const int n = mpi_check_process_grids(world_size(), p, 64);
  long checked = 0;
  for (int b = 0; b < 4; b++)
    for (int f = 0; f < n; f++) {
      const int cells[3] = {p[f][0] * local_n[0], p[f][1] * local_n[1], p[f][2] * local_n[2]};
      checked += run_case(cells, p[f], periodics[b]);
    }
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    printf("halo: %d process grids x 4 boundary sets x 3 widths x 2 modes, %ld points "
           "checked on rank 0\n", n, checked);
}
END_TEST

/* Periodic directions held by one rank with fewer cells than the width: the in-place copy
 * wraps more than once (x split over all ranks, y 2 cells, z 1 cell; then the other way). */
START_TEST(thin_periodic_directions)
{
  const int size = world_size(), periodic[3] = {1, 1, 1};
  run_case((int[3]){3 * size, 2, 1}, (int[3]){size, 1, 1}, periodic);
  run_case((int[3]){1, 2, 3 * size}, (int[3]){1, 1, size}, periodic);
}
END_TEST

static Suite *halo_suite(void)
{
  Suite *s = suite_create("halo");
  TCase *tc = tcase_create("exchange");
  tcase_add_test(tc, every_grid_and_boundary);
  tcase_add_test(tc, thin_periodic_directions);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) { return mpi_check_main(argc, argv, halo_suite); }
