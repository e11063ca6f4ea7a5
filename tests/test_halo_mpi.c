/* Halo exchange: on every process grid of the run's size, periodic and walled in y and/or z,
 * widths 1, 2, 3, blocking and split: every halo cell within the width (edges and corners
 * included) holds the value of the periodically wrapped global cell, cells across a wall and
 * beyond the width keep their sentinel, owned cells are unchanged.  The same through each
 * transport of a GPU's faces but CUDA IPC, emulated in host memory (staged copies for
 * host_mpi, MPI messages matched in issue order for NCCL); and the choice of paths, planned
 * with the ranks and predicted without them (efsi --check --ranks N). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decomp/decomp.h"
#include "decomp/halo.h"
#include "decomp/halo_path.h"
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

/* A GPU's transports emulated with the CPU's moves in host memory: the staging copies of
 * host_mpi as plain copies, NCCL's group of sends and receives as MPI messages, which match
 * between two ranks in the order they are issued as NCCL's do, and every rank a GPU of its
 * own. */
static void emulated_stage(double *to, const double *from, size_t n, int to_host)
{
  (void)to_host;
  memcpy(to, from, n * sizeof *to);
}

static void *emulated_nccl_open(MPI_Comm comm)
{
  MPI_Comm *c = malloc(sizeof *c);
  MPI_Comm_dup(comm, c);
  return c;
}

static void emulated_nccl_close(void *nccl)
{
  MPI_Comm_free(nccl);
  free(nccl);
}

static void emulated_nccl_exchange(void *nccl, const efsi_message *m, int n)
{
  MPI_Request r[4];
  for (int i = 0; i < n; i++) {
    if (m[i].send)
      MPI_Isend(m[i].buf, (int)m[i].count, MPI_DOUBLE, m[i].peer, 0, *(MPI_Comm *)nccl, &r[i]);
    else
      MPI_Irecv(m[i].buf, (int)m[i].count, MPI_DOUBLE, m[i].peer, 0, *(MPI_Comm *)nccl, &r[i]);
  }
  MPI_Waitall(n, r, MPI_STATUSES_IGNORE);
}

static void emulated_gpu_identity(efsi_gpu_identity *id)
{
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  memset(id->bytes, 0, sizeof id->bytes);
  memcpy(id->bytes, &rank, sizeof rank);
}

static efsi_layer_ops emulated_layers(void)
{
  efsi_layer_ops ops = efsi_cpu_layers;
  ops.name = "emulated GPU transports";
  ops.alloc_host = efsi_cpu_layers.alloc;
  ops.release_host = efsi_cpu_layers.release;
  ops.stage = emulated_stage;
  ops.nccl_open = emulated_nccl_open;
  ops.nccl_close = emulated_nccl_close;
  ops.nccl_exchange = emulated_nccl_exchange;
  ops.gpu_identity = emulated_gpu_identity;
  return ops;
}

/* The transports a case is exchanged through: the CPU's, then host_mpi (staged),
 * cuda_aware_mpi and nccl forced on the emulated moves. */
enum { TRANSPORTS = 4 };
static const int transport_path[TRANSPORTS] = {HALO_NO_FACE, HALO_HOST_MPI, HALO_DEVICE_MPI,
                                               HALO_NCCL};

/* Exchange and check on one process grid with one periodicity through one transport;
 * returns points checked. */
static long run_case_through(const int cells[3], const int ranks[3], const int periodic[3],
                             int transport)
{
  efsi_decomp d;
  efsi_grid g;
  test_decomp(&d, &g, cells, ranks, periodic, (const double[3]){1, 1, 1});
  double *fields[NFIELDS];
  for (int f = 0; f < NFIELDS; f++) fields[f] = field_alloc(&g);
  static efsi_layer_ops emulated;
  emulated = emulated_layers();
  efsi_halo_plan plan;
  const int forced = transport_path[transport];
  if (forced != HALO_NO_FACE) {
    char err[512] = "";
    ck_assert_msg(halo_plan_create(&d, &emulated, 1u << forced, 1, &plan, err, sizeof err) == 0,
                  "%s", err);
    for (int e = 0; e < 3; e++)
      for (int side = 0; side < 2; side++)
        ck_assert(plan.path[e][side] == HALO_NO_FACE || plan.path[e][side] == forced);
  }
  efsi_halo *h = halo_create(&g, &d, NFIELDS + 1, forced == HALO_NO_FACE ? &efsi_cpu_layers
                                                                         : &emulated,
                             forced == HALO_NO_FACE ? NULL : &plan);
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
                    "cells %d %d %d ranks %d %d %d periodic %d %d %d width %d split %d path %s: "
                    "%ld wrong points on rank %d", cells[0], cells[1], cells[2], ranks[0],
                    ranks[1], ranks[2], periodic[0], periodic[1], periodic[2], width, split,
                    halo_path_name(forced), wrong, d.rank);
      checked += (long)NFIELDS * (g.n[0] + 2 * EFSI_HALO) * (g.n[1] + 2 * EFSI_HALO) *
                 (g.n[2] + 2 * EFSI_HALO);
    }
  halo_free(h);
  for (int f = 0; f < NFIELDS; f++) field_free(fields[f]);
  decomp_free(&d);
  return checked;
}

static long run_case(const int cells[3], const int ranks[3], const int periodic[3])
{
  long checked = 0;
  for (int t = 0; t < TRANSPORTS; t++) checked += run_case_through(cells, ranks, periodic, t);
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
    printf("halo: %d process grids x 4 boundary sets x 3 widths x 3 modes x %d transports, "
           "%ld points checked on rank 0\n", n, TRANSPORTS, checked);
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

/* The path of a face: the fastest allowed one that works. */
START_TEST(paths_take_the_fastest_that_works)
{
  const unsigned all = HALO_ANY_PATH, host = 1u << HALO_HOST_MPI;
  ck_assert_int_eq(halo_path_choose(all, all), HALO_PEER);
  ck_assert_int_eq(halo_path_choose(all, host | 1u << HALO_DEVICE_MPI | 1u << HALO_NCCL), HALO_NCCL);
  ck_assert_int_eq(halo_path_choose(all, host | 1u << HALO_DEVICE_MPI), HALO_DEVICE_MPI);
  ck_assert_int_eq(halo_path_choose(all, host), HALO_HOST_MPI);
  ck_assert_int_eq(halo_path_choose(1u << HALO_NCCL, host), HALO_NO_FACE);
  ck_assert_str_eq(halo_path_name(HALO_DEVICE_MPI), "cuda_aware_mpi");
  /* the CPU's moves: every face through MPI from host memory; a GPU's path forced on them
   * is refused with one line, the same on every rank */
  efsi_decomp d;
  efsi_grid g;
  const int size = world_size();
  test_decomp(&d, &g, (int[3]){4, 4, 4 * size}, (int[3]){1, 1, size}, (int[3]){1, 1, 1},
              (const double[3]){1, 1, 1});
  efsi_halo_plan plan;
  char err[512] = "";
  ck_assert(halo_plan_create(&d, &efsi_cpu_layers, all, 0, &plan, err, sizeof err) == 0);
  int counts[HALO_PATHS] = {0};
  halo_plan_count(&plan, counts);
  ck_assert_int_eq(counts[HALO_HOST_MPI], size > 1 ? 2 : 0);
  ck_assert(halo_plan_create(&d, &efsi_cpu_layers, 1u << HALO_NCCL, 0, &plan, err, sizeof err));
  ck_assert_msg(strstr(err, "CPU ranks") != NULL, "%s", err);
  /* NCCL with every rank a GPU of its own; a CUDA-aware MPI only where the library says so,
   * or, forced, where it cannot be asked */
  efsi_layer_ops emulated = emulated_layers();
  ck_assert(halo_plan_create(&d, &emulated, all, 0, &plan, err, sizeof err) == 0);
  ck_assert(size == 1 || plan.path[2][0] == HALO_NCCL);
  emulated.nccl_open = NULL;
  ck_assert(halo_plan_create(&d, &emulated, all, 1, &plan, err, sizeof err) == 0);
  ck_assert(size == 1 || plan.path[2][1] == HALO_DEVICE_MPI);
  ck_assert(halo_plan_create(&d, &emulated, all, -1, &plan, err, sizeof err) == 0);
  ck_assert(size == 1 || plan.path[2][1] == HALO_HOST_MPI);
  ck_assert(halo_plan_create(&d, &emulated, 1u << HALO_DEVICE_MPI, -1, &plan, err, sizeof err) == 0);
  ck_assert(halo_plan_create(&d, &emulated, 1u << HALO_DEVICE_MPI, 0, &plan, err, sizeof err));
  ck_assert_msg(strstr(err, "not CUDA-aware") != NULL, "%s", err);
  ck_assert(halo_plan_create(&d, &emulated, 1u << HALO_NCCL, 0, &plan, err, sizeof err));
  ck_assert_msg(strstr(err, "without NCCL") != NULL, "%s", err);
  decomp_free(&d);
}
END_TEST

/* A GPU moves' table for the predictions: the GPU's transports exist (nothing is called). */
static double *no_share(size_t n, efsi_peer_handle *handle) { (void)n, (void)handle; return NULL; }

/* The plan of a cluster without its ranks: 2 x 2 x 4 ranks, all periodic, 4 GPUs a node in
 * rank order, so each z line of 4 ranks is a node: the z faces stay on the node (peer), the
 * x and y faces leave it (NCCL, or an MPI where the build has no NCCL). */
START_TEST(planned_paths_of_a_cluster)
{
  efsi_layer_ops gpu = emulated_layers();
  gpu.share = no_share;
  const int dims[3] = {2, 2, 4}, periodic[3] = {1, 1, 1};
  int counts[HALO_PATHS] = {0};
  efsi_halo_plan plan;
  char err[512] = "";
  for (int r = 0; r < 16; r++) {
    ck_assert(halo_plan_predict(dims, periodic, r, 4, &gpu, HALO_ANY_PATH, 0, &plan, err,
                                sizeof err) == 0);
    halo_plan_count(&plan, counts);
  }
  ck_assert(counts[HALO_PEER] == 32 && counts[HALO_NCCL] == 64 && counts[HALO_DEVICE_MPI] == 0
            && counts[HALO_HOST_MPI] == 0);
  gpu.nccl_open = NULL;
  memset(counts, 0, sizeof counts);
  for (int r = 0; r < 16; r++) {
    ck_assert(halo_plan_predict(dims, periodic, r, 4, &gpu, HALO_ANY_PATH, 1, &plan, err,
                                sizeof err) == 0);
    halo_plan_count(&plan, counts);
  }
  ck_assert(counts[HALO_PEER] == 32 && counts[HALO_DEVICE_MPI] == 64);
  /* walls in z: the end ranks of each line have one z face */
  memset(counts, 0, sizeof counts);
  for (int r = 0; r < 16; r++) {
    ck_assert(halo_plan_predict(dims, (int[3]){1, 1, 0}, r, 4, &gpu, 1u << HALO_HOST_MPI, 1,
                                &plan, err, sizeof err) == 0);
    halo_plan_count(&plan, counts);
  }
  ck_assert(counts[HALO_HOST_MPI] == 64 + 24 && counts[HALO_PEER] == 0);
  /* peer forced where faces leave the node: refused, naming the face */
  ck_assert(halo_plan_predict(dims, periodic, 5, 4, &gpu, 1u << HALO_PEER, 0, &plan, err,
                              sizeof err));
  ck_assert_msg(strstr(err, "rank 5") && strstr(err, "another node"), "%s", err);
  /* one node of 16 GPUs: all GPU to GPU */
  memset(counts, 0, sizeof counts);
  for (int r = 0; r < 16; r++) {
    ck_assert(halo_plan_predict(dims, periodic, r, 16, &gpu, 1u << HALO_PEER, 0, &plan, err,
                                sizeof err) == 0);
    halo_plan_count(&plan, counts);
  }
  ck_assert_int_eq(counts[HALO_PEER], 96);
}
END_TEST

static Suite *halo_suite(void)
{
  Suite *s = suite_create("halo");
  TCase *tc = tcase_create("exchange");
  tcase_add_test(tc, every_grid_and_boundary);
  tcase_add_test(tc, thin_periodic_directions);
  tcase_add_test(tc, paths_take_the_fastest_that_works);
  tcase_add_test(tc, planned_paths_of_a_cluster);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) { return mpi_check_main(argc, argv, halo_suite); }
