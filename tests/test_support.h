/* What the test programs share: running a Check suite under MPI and building its test
 * cases, single-block grids, decompositions, point positions, smooth test modes, loops over
 * every point, scratch for the reduction kernels.  A suite runs on every rank (tests may be
 * collective), in-process (no fork after MPI_Init); only rank 0 prints; the program fails
 * when any rank failed.  Usage:
 * int main(int argc, char **argv) { return mpi_check_main(argc, argv, my_suite); } */
#ifndef EFSI_TEST_SUPPORT_H
#define EFSI_TEST_SUPPORT_H

#include <check.h>

#include "base/device.h"
#include "base/grid.h"
#include "decomp/decomp.h"
#include "src/bodies/seeding.h"
#include "stencils/draw.h"

/* Every point of g, halos included; the owned points; the box lo <= (i, j, k) < hi. */
#define FOR_ALL(g, i, j, k)                                                 \
  for (int k = -EFSI_HALO; k < (g)->n[2] + EFSI_HALO; k++)                  \
    for (int j = -EFSI_HALO; j < (g)->n[1] + EFSI_HALO; j++)                \
      for (int i = -EFSI_HALO; i < (g)->n[0] + EFSI_HALO; i++)
#define FOR_OWNED(g, i, j, k)                                               \
  for (int k = 0; k < (g)->n[2]; k++)                                       \
    for (int j = 0; j < (g)->n[1]; j++)                                     \
      for (int i = 0; i < (g)->n[0]; i++)
#define FOR_RANGE(lo, hi, i, j, k)                                          \
  for (int k = (lo)[2]; k < (hi)[2]; k++)                                   \
    for (int j = (lo)[1]; j < (hi)[1]; j++)                                 \
      for (int i = (lo)[0]; i < (hi)[0]; i++)

/* A single-block grid of n cells and the given lengths: one rank owns everything; walls at
 * both sides of y (wall_y) and of z (wall_z). */
efsi_grid test_grid(const int n[3], const double length[3], int wall_y, int wall_z);

/* Coordinates of point (i, j, k) of location loc (stencils/location.h). */
void test_position(const efsi_grid *g, int loc, int i, int j, int k, double x[3]);

/* A periodic mode A prod_d sin(2 pi m_d x_d / L_d + phase_d), and its value at x
 * differentiated deriv[d] times along d. */
typedef struct { double amplitude; int m[3]; double phase[3]; } test_mode;
double test_mode_eval(const test_mode *md, const double length[3], const double x[3],
                      const int deriv[3]);

/* Scratch for the per-plane partials of the reduction kernels of grid g (valid until the
 * next call). */
efsi_scratch *test_plane_scratch(const efsi_grid *g);

/* 1 on rank 0 of MPI_COMM_WORLD. */
int test_rank0(void);

/* 1 on rank 0 of the run with the fewest ranks of those tests/run-test makes of an _mpi
 * program (EFSI_TEST_SMALLEST_RANKS, which it sets; on rank 0 of any run where unset): for a
 * test without communication, whose result does not depend on the number of ranks, done once
 * rather than on 1, 2, 4 and 8 ranks. */
int test_rank0_once(void);

int mpi_check_main(int argc, char **argv, Suite *(*make_suite)(void));

/* Adds to s the test case name, with a timeout in seconds (0: Check's default) and the
 * tests of the NULL-ended list, in that order; returns the case, for fixtures and loop
 * tests. */
TCase *test_case_add(Suite *s, const char *name, int timeout, const TTest *const tests[]);

/* Every process grid px x py x pz = size (px outer, py inner), at most max of them, into
 * grids; returns how many. */
int mpi_check_process_grids(int size, int grids[][3], int max);

/* The process grids a decomposition-invariance test compares with one rank, for size ranks
 * and a grid of cells: 8 x 1 x 1, 2 x 2 x 2 and 1 x 2 x 4 for 8 ranks, otherwise each of
 * mpi_check_process_grids whose blocks are at least 3 cells deep in every direction.  At most
 * max into grids; returns how many. */
int mpi_check_invariance_grids(int size, const int cells[3], int grids[][3], int max);

/* The number of ranks of MPI_COMM_WORLD. */
int mpi_check_world_size(void);

/* For assertions that must hold on every rank: true on all ranks if true on each. */
int mpi_all(int condition);

/* ck_assert of a condition that must hold on every rank: all ranks fail together (none is left
 * waiting in a later collective).  Collective. */
#define ALL(cond) ck_assert_msg(mpi_all(cond), "%s", #cond)

/* d: cells over the process grid ranks of MPI_COMM_WORLD (0: efsi chooses), g: this rank's
 * block of a box of the given length.  Fails the test on every rank when decomp_create
 * refuses.  Collective. */
void test_decomp(efsi_decomp *d, efsi_grid *g, const int cells[3], const int ranks[3],
                 const int periodic[3], const double length[3]);

/* The whole domain's bodies of a lattice seeding (bodies_near over the box), base images
 * only (centre inside the box), in id order: *list (free it) and their number.  Fails the
 * test unless the ids are 0 .. n-1, each once. */
long test_whole_list(const efsi_seeding *s, const efsi_body_family *f, int nfam,
                     efsi_body **list);

/* bodies_near on this rank's block g (*mine, *nm; free *mine; packed: a random packing's
 * bodies on this rank, NULL for a lattice) against a brute force over every periodic image
 * of the n bodies of all whose bounding sphere meets the block (*expected of them).  Returns
 * how many of those bodies_near missed; owned[b] (n chars, or NULL) is set to 1 where the
 * base image of body b meets the block. */
long test_near_missing(const efsi_seeding *s, const efsi_body_family *f, int nfam,
                       const efsi_packed *packed, const efsi_grid *g, const efsi_body *all,
                       long n, char *owned, efsi_body **mine, long *nm, long *expected);

/* The largest relative difference between process grids a test of invariance accepts: 0
 * (bit for bit) in every build but the one that fuses multiply-adds (--enable-native=fma),
 * where the compiler fuses different products in a vectorised loop's body and in its
 * scalar remainder, so the last bits depend on the block's row length (docs/building.md,
 * "Which build"). */
#ifdef EFSI_FMA
#define TEST_GRID_TOLERANCE 1e-12
#else
#define TEST_GRID_TOLERANCE 0.0
#endif

#endif
