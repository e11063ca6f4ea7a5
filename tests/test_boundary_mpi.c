/* Wall layers after the halo exchange, on every process grid of the run's size: even
 * reflection of a scalar, odd reflection of the velocity's deviation from moving walls
 * (different U on each of the four walls), zero normal velocity on the low and high wall
 * faces, corners consistent, and a linear Couette profile continued exactly past both walls. */
#include <check.h>
#include <math.h>
#include <stdio.h>

#include "decomp/boundary.h"
#include "decomp/decomp.h"
#include "decomp/halo.h"
#include "tests/test_support.h"

enum { SCALAR, U, V, W, NFIELDS };   /* component c of the velocity is field c + 1 */
static const double sentinel = -7777.0;
static const double u_wall[3][2] = {{0, 0}, {0.3, -1.1}, {0.7, 2.5}};

static int world_size(void)
{
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

static int wrap(int G, int N) { return ((G % N) + N) % N; }

static double value(int f, int I, int J, int K)
{
  return f + 1.0 + sin(0.3 * I + 0.7 * J * J + 1.1 * K + f);
}

/* The field a wall-normal face component holds: zero on a wall face (solver convention). */
static int is_wall_face(int f, const int cells[3], const int periodic[3], const int G[3])
{
  const int d = f - 1;
  return d >= 1 && !periodic[d] && (G[d] == 0 || G[d] == cells[d]);
}

/* What exchange + boundary leave at global point G: the z wall is filled last, so it is
 * unfolded first; then the y wall; then x wraps periodically. */
static double expected(int f, const int cells[3], const int periodic[3], const int G[3])
{
  if (is_wall_face(f, cells, periodic, G)) return 0.0;
  for (int d = 2; d >= 1; d--) {
    const int N = cells[d], at = G[d];
    const int staggered = f - 1 == d;
    if (periodic[d] || (at >= 0 && at < N)) continue;
    int H[3] = {G[0], G[1], G[2]};
    if (staggered) H[d] = at < 0 ? -at : 2 * N - at;
    else H[d] = at < 0 ? -1 - at : 2 * N - 1 - at;
    const double sign = f == SCALAR ? 1.0 : -1.0;
    const double offset = f == U ? 2.0 * u_wall[d][at < 0 ? 0 : 1] : 0.0;
    return offset + sign * expected(f, cells, periodic, H);
  }
  return value(f, wrap(G[0], cells[0]), wrap(G[1], cells[1]), wrap(G[2], cells[2]));
}

/* Sentinel everywhere, the analytic value on owned points, zero on owned wall faces. */
static void fill(const efsi_grid *g, double *const *fields, const int periodic[3])
{
  for (int f = 0; f < NFIELDS; f++) {
    for (size_t at = 0; at < g->size; at++) fields[f][at] = sentinel;
    for (int k = 0; k < g->n[2]; k++)
      for (int j = 0; j < g->n[1]; j++)
        for (int i = 0; i < g->n[0]; i++) {
          const int G[3] = {g->offset[0] + i, g->offset[1] + j, g->offset[2] + k};
          fields[f][grid_index(g, i, j, k)] =
              is_wall_face(f, g->global_n, periodic, G) ? 0.0 : value(f, G[0], G[1], G[2]);
        }
  }
}

/* A spoiled low wall face (over its whole width-extended layer): the boundary must zero it. */
static void spoil_low_faces(const efsi_grid *g, double *const *fields, int width)
{
  for (int d = 1; d < 3; d++) {
    if (!g->wall_lo[d]) continue;
    for (int k = -width; k < g->n[2] + width; k++)
      for (int j = -width; j < g->n[1] + width; j++)
        for (int i = -width; i < g->n[0] + width; i++) {
          const int l[3] = {i, j, k};
          if (l[d] == 0) fields[d + 1][grid_index(g, i, j, k)] = 5.0;
        }
  }
}

static void setup(efsi_decomp *d, efsi_grid *g, const int cells[3], const int ranks[3],
                  const int periodic[3])
{
  test_decomp(d, g, cells, ranks, periodic, (const double[3]){2.0, 1.5, 1.0});
}

START_TEST(reflections_on_every_grid)
{
  const int local_n[3] = {5, 4, 3};
  const int periodics[4][3] = {{1, 0, 0}, {1, 0, 1}, {1, 1, 0}, {1, 1, 1}};
  int p[64][3];
  const int np = mpi_check_process_grids(world_size(), p, 64);
  for (int b = 0; b < 4; b++)
    for (int q = 0; q < np; q++) {
      const int *periodic = periodics[b];
      const int cells[3] = {p[q][0] * local_n[0], p[q][1] * local_n[1], p[q][2] * local_n[2]};
      efsi_decomp d;
      efsi_grid g;
      setup(&d, &g, cells, p[q], periodic);
      double *fields[NFIELDS];
      for (int f = 0; f < NFIELDS; f++) fields[f] = field_alloc(&g);
      efsi_halo *h = halo_create(&g, &d, NFIELDS, &efsi_cpu_layers, 0);
      for (int width = 1; width <= EFSI_HALO; width++) {
        fill(&g, fields, periodic);
        halo_exchange(h, fields, NFIELDS, width);
        spoil_low_faces(&g, fields, width);
        boundary_even(&efsi_cpu_layers, &g, fields[SCALAR], width);
        boundary_velocity(&efsi_cpu_layers, &g, fields[U], fields[V], fields[W], u_wall, width);
        long wrong[NFIELDS] = {0}, faces = 0;
        for (int k = -width; k < g.n[2] + width; k++)
          for (int j = -width; j < g.n[1] + width; j++)
            for (int i = -width; i < g.n[0] + width; i++) {
              const int G[3] = {g.offset[0] + i, g.offset[1] + j, g.offset[2] + k};
              for (int f = 0; f < NFIELDS; f++) {
                const double got = fields[f][grid_index(&g, i, j, k)];
                wrong[f] += got != expected(f, cells, periodic, G);
                if (is_wall_face(f, cells, periodic, G)) faces += got != 0.0;
              }
            }
        ck_assert_msg(mpi_all(wrong[SCALAR] + wrong[U] + wrong[V] + wrong[W] == 0),
                      "ranks %d %d %d periodic %d %d %d width %d: wrong p %ld u %ld v %ld "
                      "w %ld on rank %d", p[q][0], p[q][1], p[q][2], periodic[0], periodic[1],
                      periodic[2], width, wrong[SCALAR], wrong[U], wrong[V], wrong[W], d.rank);
        ALL(faces == 0);
      }
      halo_free(h);
      for (int f = 0; f < NFIELDS; f++) field_free(fields[f]);
      decomp_free(&d);
    }
}
END_TEST

/* u = U_lo + (U_hi - U_lo) y / Ly at the cell centres between y walls: the odd reflection of
 * the deviation continues the line through every halo layer, to round-off. */
START_TEST(couette_profile_continues)
{
  const int local_n[3] = {4, 6, 3}, periodic[3] = {1, 0, 1};
  int p[64][3];
  const int np = mpi_check_process_grids(world_size(), p, 64);
  const double u_lo = u_wall[1][0], u_hi = u_wall[1][1];
  double worst = 0.0;
  for (int q = 0; q < np; q++) {
    const int cells[3] = {p[q][0] * local_n[0], p[q][1] * local_n[1], p[q][2] * local_n[2]};
    efsi_decomp d;
    efsi_grid g;
    setup(&d, &g, cells, p[q], periodic);
    double *fields[3];
    for (int c = 0; c < 3; c++) fields[c] = field_alloc(&g);
    for (int k = 0; k < g.n[2]; k++)
      for (int j = 0; j < g.n[1]; j++)
        for (int i = 0; i < g.n[0]; i++) {
          const double y = (g.offset[1] + j + 0.5) * g.h[1];
          fields[0][grid_index(&g, i, j, k)] = u_lo + (u_hi - u_lo) * y / g.length[1];
        }
    efsi_halo *h = halo_create(&g, &d, 3, &efsi_cpu_layers, 0);
    halo_exchange(h, fields, 3, EFSI_HALO);
    boundary_velocity(&efsi_cpu_layers, &g, fields[0], fields[1], fields[2], u_wall, EFSI_HALO);
    double err = 0.0, rest = 0.0;
    for (int k = -EFSI_HALO; k < g.n[2] + EFSI_HALO; k++)
      for (int j = -EFSI_HALO; j < g.n[1] + EFSI_HALO; j++)
        for (int i = -EFSI_HALO; i < g.n[0] + EFSI_HALO; i++) {
          const ptrdiff_t at = grid_index(&g, i, j, k);
          const double y = (g.offset[1] + j + 0.5) * g.h[1];
          err = fmax(err, fabs(fields[0][at] - (u_lo + (u_hi - u_lo) * y / g.length[1])));
          rest = fmax(rest, fmax(fabs(fields[1][at]), fabs(fields[2][at])));
        }
    worst = fmax(worst, err);
    ck_assert_msg(mpi_all(err < 1e-14 * (fabs(u_lo) + fabs(u_hi))),
                  "ranks %d %d %d: Couette profile off by %.3g", p[q][0], p[q][1], p[q][2], err);
    ALL(rest == 0.0);
    halo_free(h);
    for (int c = 0; c < 3; c++) field_free(fields[c]);
    decomp_free(&d);
  }
  double all_worst = 0.0;
  MPI_Allreduce(&worst, &all_worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) printf("boundary: Couette profile through the wall layers, max error %.2g\n",
                        all_worst);
}
END_TEST

static Suite *boundary_suite(void)
{
  Suite *s = suite_create("boundary");
  TCase *tc = tcase_create("walls");
  tcase_add_test(tc, reflections_on_every_grid);
  tcase_add_test(tc, couette_profile_continues);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) { return mpi_check_main(argc, argv, boundary_suite); }
