/* Body tracers on every process grid of the run's ranks: transport by a uniform velocity
 * in a periodic box (positions x0 + N dt U wrapped, to round-off; count conserved; each
 * tracer on the rank that owns it), exact trilinear interpolation of a linear field and of
 * plane Couette flow between moving walls (through halo_exchange and boundary_velocity),
 * the same tracers bitwise on every process grid,
 * the gather/scatter round trip onto another process grid (bitwise), and bodies.csv with
 * its restart trim. */
#define _POSIX_C_SOURCE 200809L

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/bodies_csv.h"
#include "decomp/boundary.h"
#include "decomp/decomp.h"
#include "decomp/halo.h"
#include "tests/test_support.h"
#include "src/bodies/tracers.h"

static const int cells[3] = {24, 24, 24};
static const double length[3] = {3.0, 2.4, 4.8};    /* h = 0.125, 0.1, 0.2 */

static void setup(const int ranks[3], const int periodic[3], efsi_decomp *d, efsi_grid *g)
{
  test_decomp(d, g, cells, ranks, periodic, length);
}

/* A reproducible point in [0, L)^3, the same on every rank. */
static void random_point(unsigned long long *state, double x[3])
{
  for (int d = 0; d < 3; d++) {
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    x[d] = length[d] * (double)(*state >> 11) * 0x1p-53;
  }
}

/* Positions of the M tracers: special points (a block corner inside the domain, the
 * origin, just below L, exactly L) then random ones. */
enum { M = 96 };
static void start_points(double x[M][3])
{
  unsigned long long state = 12345;
  for (int m = 0; m < M; m++) random_point(&state, x[m]);
  for (int d = 0; d < 3; d++) {
    x[0][d] = 0.5 * length[d];
    x[1][d] = 0.0;
    x[2][d] = nextafter(length[d], 0.0);
    x[3][d] = length[d];
  }
}

/* Each rank adds the tracers it owns; checks every point has exactly one owner. */
static void seed(efsi_tracers *t, const efsi_grid *g, double x[M][3])
{
  for (int m = 0; m < M; m++) {
    const int mine = tracers_owns(g, x[m]);
    int owners = 0;
    MPI_Allreduce(&mine, &owners, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    ck_assert_int_eq(owners, 1);
    if (mine) tracers_add(t, m, m % 2, x[m]);
  }
  ck_assert_int_eq(tracers_total(t), M);
}

static double *alloc_fill(const efsi_grid *g, double value)
{
  double *f = field_alloc(g);
  ck_assert_ptr_nonnull(f);
  for (size_t n = 0; n < g->size; n++) f[n] = value;
  return f;
}

/* Distance between a and b on a circle of circumference L. */
static double periodic_distance(double a, double b, double L)
{
  const double r = fmod(a - b, L);
  return fmin(fabs(r), L - fabs(r));
}

/* Rank 0: the first process grid's gathered tracers become the reference; every later
 * grid's must equal them bitwise (the interpolation weights come from global indices). */
static int same_as_reference(efsi_tracer **reference, efsi_tracer *all, long n)
{
  if (!*reference) {
    *reference = all;
    return 1;
  }
  int same = 1;
  for (long m = 0; same && m < n; m++)
    same = all[m].id == (*reference)[m].id
        && memcmp(all[m].x, (*reference)[m].x, sizeof all[m].x) == 0
        && memcmp(all[m].v, (*reference)[m].v, sizeof all[m].v) == 0;
  free(all);
  return same;
}

/* Does this rank's block, widened by 1e-12 L and taken periodically, hold x?  (The exact
 * owner of a point that lies on a block face to round-off may be either block.) */
static int near_block(const efsi_grid *g, const double x[3])
{
  for (int d = 0; d < 3; d++) {
    const double tol = 1e-12 * length[d], lo = g->offset[d] * g->h[d] - tol,
                 hi = (g->offset[d] + g->n[d]) * g->h[d] + tol;
    int in = 0;
    for (int wrap = -1; wrap <= 1; wrap++) {
      const double y = x[d] + wrap * length[d];
      in |= y >= lo && y <= hi;
    }
    if (!in) return 0;
  }
  return 1;
}

/* Uniform (U0, V0, W0) everywhere, halos included; 100 steps of dt = 0.01 carry each
 * tracer 2.4, 2.1 and 2.9 times around the box in x, y, z: across every rank boundary and
 * through edges and corners of the blocks. */
static void uniform_flow(const int ranks[3], efsi_tracer **reference)
{
  const int periodic[3] = {1, 1, 1};
  const double U[3] = {7.3, -5.1, 13.7}, dt = 0.01;
  const int steps = 100;
  efsi_decomp d;
  efsi_grid g;
  setup(ranks, periodic, &d, &g);
  double *velocity[3];
  for (int c = 0; c < 3; c++) velocity[c] = alloc_fill(&g, U[c]);
  double x0[M][3];
  start_points(x0);
  efsi_tracers *t = tracers_create(&d, &g, 0);
  seed(t, &g, x0);

  long moved = 0;                    /* arrivals: a tracer held now and not a step ago */
  char held[M] = {0};
  for (int s = 0; s < steps; s++) {
    tracers_advance(t, &efsi_cpu_kernels, &g, velocity[0], velocity[1], velocity[2], dt);
    ck_assert_int_eq(tracers_total(t), M);
    const efsi_tracer *p = tracers_local(t);
    char now[M] = {0};
    int owned = 1;
    for (long n = 0; n < tracers_local_count(t); n++) {
      owned &= tracers_owns(&g, p[n].x);
      now[p[n].id] = 1;
      moved += s > 0 && !held[p[n].id];
    }
    ck_assert_msg(mpi_all(owned), "a tracer is held by a rank that does not own it");
    memcpy(held, now, sizeof held);
  }

  double worst = 0.0, worst_v = 0.0;
  int consistent = 1;
  const efsi_tracer *p = tracers_local(t);
  for (long n = 0; n < tracers_local_count(t); n++) {
    double expected[3];
    for (int c = 0; c < 3; c++) {
      expected[c] = x0[p[n].id][c] + steps * dt * U[c];
      expected[c] -= length[c] * floor(expected[c] / length[c]);
      worst = fmax(worst, periodic_distance(p[n].x[c], expected[c], length[c]) / length[c]);
      worst_v = fmax(worst_v, fabs(p[n].v[c] - U[c]) / fabs(U[c]));
      consistent &= p[n].x[c] >= 0.0 && p[n].x[c] <= length[c];
    }
    consistent &= near_block(&g, expected) && p[n].kind == p[n].id % 2;
  }
  ck_assert_msg(mpi_all(consistent), "a tracer outside the box, off its expected owner or "
                "with the wrong kind");

  long n_all;
  efsi_tracer *all;
  tracers_gather(t, &n_all, &all);
  int sorted = n_all == M;             /* ids 0..M-1, each once, in order */
  for (long m = 0; sorted && m < n_all; m++) sorted = all[m].id == m;
  ck_assert_msg(mpi_all(d.rank != 0 || sorted), "gathered ids are not 0..%d", M - 1);
  ck_assert_msg(mpi_all(d.rank != 0 || same_as_reference(reference, all, n_all)),
                "tracers on %d x %d x %d differ from the first process grid's", d.dims[0],
                d.dims[1], d.dims[2]);
  /* Every tracer goes round the box at least twice in each direction, so along any split
   * direction it changes rank at least twice. */
  long moved_all = 0;
  MPI_Allreduce(&moved, &moved_all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  ck_assert(d.size == 1 || moved_all >= 2 * M);
  double worst_all[2], worst_local[2] = {worst, worst_v};
  MPI_Allreduce(worst_local, worst_all, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  ck_assert_msg(worst_all[0] < 1e-13, "position error %.2g (relative to L)", worst_all[0]);
  ck_assert_msg(worst_all[1] < 1e-15, "velocity error %.2g", worst_all[1]);
  if (d.rank == 0)
    printf("uniform flow on %d x %d x %d: position error %.2g L, velocity error %.2g, "
           "%ld rank changes\n", d.dims[0], d.dims[1], d.dims[2], worst_all[0], worst_all[1],
           moved_all);
  tracers_free(t);
  for (int c = 0; c < 3; c++) field_free(velocity[c]);
  decomp_free(&d);
}

START_TEST(uniform_flow_every_process_grid)
{
  int grids[16][3];
  const int n = mpi_check_process_grids(mpi_check_world_size(), grids, 16);
  efsi_tracer *reference = NULL;
  for (int k = 0; k < n; k++) uniform_flow(grids[k], &reference);
  free(reference);
}
END_TEST

/* Component c = a_c + sum_d b_cd X_d, X the point's global position. */
static const double a_lin[3] = {0.3, -1.2, 2.5};
static const double b_lin[3][3] = {{1.1, -0.7, 0.4}, {0.25, 0.9, -1.3}, {-0.6, 0.35, 0.8}};

static double linear(int c, const double X[3])
{
  return a_lin[c] + b_lin[c][0] * X[0] + b_lin[c][1] * X[1] + b_lin[c][2] * X[2];
}

/* Every point of the arrays, halos included, from the linear function at its own
 * staggered position. */
static void fill_linear(const efsi_grid *g, double *const velocity[3])
{
  for (int c = 0; c < 3; c++)
    for (int k = -EFSI_HALO; k < g->n[2] + EFSI_HALO; k++)
      for (int j = -EFSI_HALO; j < g->n[1] + EFSI_HALO; j++)
        for (int i = -EFSI_HALO; i < g->n[0] + EFSI_HALO; i++) {
          const int idx[3] = {i, j, k};
          double X[3];
          for (int d = 0; d < 3; d++)
            X[d] = (g->offset[d] + idx[d] + (d == c ? 0.0 : 0.5)) * g->h[d];
          velocity[c][grid_index(g, i, j, k)] = linear(c, X);
        }
}

static void linear_field(const int ranks[3])
{
  const int periodic[3] = {1, 0, 0};
  efsi_decomp d;
  efsi_grid g;
  setup(ranks, periodic, &d, &g);
  double *velocity[3];
  for (int c = 0; c < 3; c++) velocity[c] = alloc_fill(&g, 0.0);
  fill_linear(&g, velocity);
  double x[M][3];
  start_points(x);
  efsi_tracers *t = tracers_create(&d, &g, 0);
  seed(t, &g, x);
  tracers_interpolate(t, &efsi_cpu_kernels, &g, velocity[0], velocity[1], velocity[2]);
  double worst = 0.0;
  const efsi_tracer *p = tracers_local(t);
  for (long n = 0; n < tracers_local_count(t); n++)
    for (int c = 0; c < 3; c++)
      worst = fmax(worst, fabs(p[n].v[c] - linear(c, p[n].x)));
  double worst_all = 0.0;
  MPI_Allreduce(&worst, &worst_all, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  ck_assert_msg(worst_all < 1e-13, "interpolation error %.2g", worst_all);
  if (d.rank == 0)
    printf("linear field on %d x %d x %d: interpolation error %.2g\n", d.dims[0], d.dims[1],
           d.dims[2], worst_all);
  tracers_free(t);
  for (int c = 0; c < 3; c++) field_free(velocity[c]);
  decomp_free(&d);
}

START_TEST(linear_field_exact)
{
  int grids[16][3];
  const int n = mpi_check_process_grids(mpi_check_world_size(), grids, 16);
  for (int k = 0; k < n; k++) linear_field(grids[k]);
}
END_TEST

/* Plane Couette flow between walls y = 0 (moving at U_lo) and y = Ly (U_hi), z periodic:
 * only the owned faces are set, NaN elsewhere; halo_exchange and boundary_velocity (width
 * 1) supply the rest.  Interpolation gives u = U_lo + (U_hi - U_lo) y / Ly, v = w = 0 up to
 * the walls, and 50 steps move x only. */
static void couette(const int ranks[3], efsi_tracer **reference)
{
  const int periodic[3] = {1, 0, 1};
  const double U_lo = -0.8, U_hi = 2.1, dt = 0.02;
  const double u_wall[3][2] = {{0, 0}, {U_lo, U_hi}, {0, 0}};
  const int steps = 50;
  efsi_decomp d;
  efsi_grid g;
  setup(ranks, periodic, &d, &g);
  double *velocity[3];
  for (int c = 0; c < 3; c++) velocity[c] = alloc_fill(&g, NAN);
  for (int k = 0; k < g.n[2]; k++)
    for (int j = 0; j < g.n[1]; j++)
      for (int i = 0; i < g.n[0]; i++) {
        const double y = (g.offset[1] + j + 0.5) * g.h[1];
        velocity[0][grid_index(&g, i, j, k)] = U_lo + (U_hi - U_lo) * y / length[1];
        velocity[1][grid_index(&g, i, j, k)] = 0.0;
        velocity[2][grid_index(&g, i, j, k)] = 0.0;
      }
  efsi_halo *halo = halo_create(&g, &d, 3, &efsi_cpu_layers, 0);
  halo_exchange(halo, velocity, 3, 1);
  boundary_velocity(&efsi_cpu_layers, &g, velocity[0], velocity[1], velocity[2], u_wall, 1);

  double x0[M][3];
  start_points(x0);
  for (int m = 4; m < 12; m++)          /* on and near both walls */
    x0[m][1] = m < 8 ? (m - 4) * 0.1 * g.h[1] : length[1] - (m - 8) * 0.1 * g.h[1];
  efsi_tracers *t = tracers_create(&d, &g, 0);
  seed(t, &g, x0);
  for (int s = 0; s < steps; s++)
    tracers_advance(t, &efsi_cpu_kernels, &g, velocity[0], velocity[1], velocity[2], dt);
  tracers_interpolate(t, &efsi_cpu_kernels, &g, velocity[0], velocity[1], velocity[2]);

  double worst_x = 0.0, worst_u = 0.0;
  int still = 1;                       /* y, z unchanged (z = Lz wraps to 0), v = w = 0 */
  const efsi_tracer *p = tracers_local(t);
  for (long n = 0; n < tracers_local_count(t); n++) {
    const double *start = x0[p[n].id];
    const double u = U_lo + (U_hi - U_lo) * start[1] / length[1];
    const double z = start[2] == length[2] ? 0.0 : start[2];
    still &= p[n].x[1] == start[1] && p[n].x[2] == z && p[n].v[1] == 0.0 && p[n].v[2] == 0.0;
    worst_u = fmax(worst_u, fabs(p[n].v[0] - u));
    worst_x = fmax(worst_x, periodic_distance(p[n].x[0], start[0] + steps * dt * u, length[0]));
  }
  double worst[2] = {worst_x, worst_u}, worst_all[2];
  MPI_Allreduce(worst, worst_all, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  ck_assert_int_eq(tracers_total(t), M);
  ck_assert_msg(mpi_all(still), "a tracer moved across the flow or has v, w != 0");
  ck_assert_msg(worst_all[1] < 1e-14, "wall-bounded interpolation error %.2g", worst_all[1]);
  ck_assert_msg(worst_all[0] < 1e-13, "Couette position error %.2g", worst_all[0]);
  long n_all;
  efsi_tracer *all;
  tracers_gather(t, &n_all, &all);
  ck_assert_msg(mpi_all(d.rank != 0 || same_as_reference(reference, all, n_all)),
                "tracers on %d x %d x %d differ from the first process grid's", d.dims[0],
                d.dims[1], d.dims[2]);
  if (d.rank == 0)
    printf("Couette on %d x %d x %d: velocity error %.2g, position error %.2g\n", d.dims[0],
           d.dims[1], d.dims[2], worst_all[1], worst_all[0]);
  tracers_free(t);
  halo_free(halo);
  for (int c = 0; c < 3; c++) field_free(velocity[c]);
  decomp_free(&d);
}

START_TEST(couette_between_walls)
{
  int grids[16][3];
  const int n = mpi_check_process_grids(mpi_check_world_size(), grids, 16);
  efsi_tracer *reference = NULL;
  for (int k = 0; k < n; k++) couette(grids[k], &reference);
  free(reference);
}
END_TEST

/* Tracers moved by the linear field on one process grid, gathered, scattered onto every
 * other process grid, gathered again: the same tracers bitwise. */
START_TEST(gather_scatter_round_trip)
{
  int grids[16][3];
  const int ngrids = mpi_check_process_grids(mpi_check_world_size(), grids, 16);
  const int periodic[3] = {1, 1, 0};
  efsi_decomp d;
  efsi_grid g;
  setup(grids[0], periodic, &d, &g);
  double *velocity[3];
  for (int c = 0; c < 3; c++) velocity[c] = alloc_fill(&g, 0.0);
  fill_linear(&g, velocity);
  double x0[M][3];
  start_points(x0);
  efsi_tracers *t = tracers_create(&d, &g, 0);
  seed(t, &g, x0);
  for (int s = 0; s < 5; s++) tracers_advance(t, &efsi_cpu_kernels, &g, velocity[0], velocity[1], velocity[2], 0.01);
  long n_first;
  efsi_tracer *first;
  tracers_gather(t, &n_first, &first);
  tracers_free(t);
  for (int c = 0; c < 3; c++) field_free(velocity[c]);
  decomp_free(&d);

  for (int k = ngrids > 1 ? 1 : 0; k < ngrids; k++) {
    setup(grids[k], periodic, &d, &g);
    t = tracers_create(&d, &g, 0);
    tracers_scatter(t, n_first, first);
    ck_assert_int_eq(tracers_total(t), M);
    const efsi_tracer *p = tracers_local(t);
    int owned = 1;
    for (long n = 0; n < tracers_local_count(t); n++) owned &= tracers_owns(&g, p[n].x);
    ck_assert(mpi_all(owned));
    long n_again;
    efsi_tracer *again;
    tracers_gather(t, &n_again, &again);
    int same = n_again == n_first;
    for (long m = 0; same && m < n_first; m++)
      same = again[m].id == first[m].id && again[m].kind == first[m].kind
          && memcmp(again[m].x, first[m].x, sizeof first[m].x) == 0
          && memcmp(again[m].v, first[m].v, sizeof first[m].v) == 0;
    ck_assert_msg(mpi_all(d.rank != 0 || same), "round trip onto %d x %d x %d changed the "
                  "tracers", d.dims[0], d.dims[1], d.dims[2]);
    free(again);
    tracers_free(t);
    decomp_free(&d);
  }
  int rank, sorted = n_first == M;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (long m = 1; sorted && m < n_first; m++) sorted = first[m - 1].id < first[m].id;
  ck_assert(mpi_all(rank != 0 || sorted));
  free(first);
}
END_TEST

/* The rows of path (header excluded) into a NULL-terminated array of strings. */
static int read_lines(const char *path, char lines[][256], int max)
{
  FILE *f = fopen(path, "r");
  ck_assert_ptr_nonnull(f);
  int n = 0;
  while (n < max && fgets(lines[n], 256, f)) n++;
  fclose(f);
  return n;
}

/* A row must hold exactly the tracer's numbers (%.17g reads back bitwise). */
static void check_row(const char *row, const efsi_tracer *p, long step, double time,
                      const char *kind)
{
  char text[256];
  snprintf(text, sizeof text, "%s", row);
  char *save, *field = strtok_r(text, ",\n", &save);
  ck_assert_int_eq(strtol(field, NULL, 10), p->id);
  ck_assert_str_eq(strtok_r(NULL, ",\n", &save), kind);
  ck_assert_int_eq(strtol(strtok_r(NULL, ",\n", &save), NULL, 10), step);
  const double expected[7] = {time, p->x[0], p->x[1], p->x[2], p->v[0], p->v[1], p->v[2]};
  for (int c = 0; c < 7; c++) ck_assert(strtod(strtok_r(NULL, ",\n", &save), NULL) == expected[c]);
  ck_assert_ptr_null(strtok_r(NULL, ",\n", &save));
}

START_TEST(bodies_csv_rows_and_restart)
{
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    static const char *const kinds[2] = {"rbc", "platelet"};
    efsi_tracer rows[3];
    memset(rows, 0, sizeof rows);
    for (int m = 0; m < 3; m++) {
      rows[m].id = 10 * m + 1;
      rows[m].kind = m % 2;
      for (int c = 0; c < 3; c++) {
        rows[m].x[c] = 1.0 / (3.0 + m + c);
        rows[m].v[c] = -M_PI * (m + 1) / (c + 7.0);
      }
    }
    char dir[64] = "/tmp/efsi-test-bodies-XXXXXX", path[128], err[512] = "", lines[16][256];
    efsi_csv table;
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/bodies.csv", dir);

    /* Restart with no file yet: a new file. */
    ck_assert_int_eq(bodies_csv_open(&table, dir, 3, err, sizeof err), 0);
    bodies_csv_write(&table, 0, 0.0, 3, rows, kinds);
    bodies_csv_write(&table, 5, 0.1 / 3.0, 3, rows, kinds);
    csv_close(&table);
    ck_assert_int_eq(read_lines(path, lines, 16), 7);
    ck_assert_str_eq(lines[0], "id,kind,step,time,x,y,z,u,v,w\n");
    for (int m = 0; m < 3; m++) {
      check_row(lines[1 + m], &rows[m], 0, 0.0, kinds[m % 2]);
      check_row(lines[4 + m], &rows[m], 5, 0.1 / 3.0, kinds[m % 2]);
    }

    /* A crash left a partial row; restart at step 0 keeps step 0 only, then appends. */
    FILE *f = fopen(path, "a");
    fputs("41,rbc,6,0.2,0.5", f);
    fclose(f);
    ck_assert_int_eq(bodies_csv_open(&table, dir, 0, err, sizeof err), 0);
    rows[1].x[0] = 0.625;
    bodies_csv_write(&table, 5, 0.5, 3, rows, kinds);
    csv_close(&table);
    ck_assert_int_eq(read_lines(path, lines, 16), 7);
    for (int m = 0; m < 3; m++) check_row(lines[4 + m], &rows[m], 5, 0.5, kinds[m % 2]);

    /* Restart past every row: the file stays whole, the partial row gone. */
    f = fopen(path, "a");
    fputs("41,rbc,6,0.2,0.5", f);
    fclose(f);
    ck_assert_int_eq(bodies_csv_open(&table, dir, 100, err, sizeof err), 0);
    csv_close(&table);
    ck_assert_int_eq(read_lines(path, lines, 16), 7);
    check_row(lines[6], &rows[2], 5, 0.5, kinds[0]);

    /* Not a bodies file: refused, naming it; a new run overwrites it. */
    f = fopen(path, "w");
    fputs("step,time\n1,2\n", f);
    fclose(f);
    ck_assert_int_ne(bodies_csv_open(&table, dir, 1, err, sizeof err), 0);
    ck_assert_ptr_nonnull(strstr(err, path));
    ck_assert_int_eq(bodies_csv_open(&table, dir, -1, err, sizeof err), 0);
    csv_close(&table);
    ck_assert_int_eq(read_lines(path, lines, 16), 1);

    char temp[160];
    snprintf(temp, sizeof temp, "%s.tmp", path);
    ck_assert_int_ne(access(temp, F_OK), 0);
    ck_assert_int_eq(remove(path), 0);
    ck_assert_int_eq(rmdir(dir), 0);
  }
  ck_assert(mpi_all(1));
}
END_TEST

static Suite *tracers_suite(void)
{
  Suite *s = suite_create("tracers");
  TCase *tc = tcase_create("tracers");
  tcase_add_test(tc, uniform_flow_every_process_grid);
  tcase_add_test(tc, linear_field_exact);
  tcase_add_test(tc, couette_between_walls);
  tcase_add_test(tc, gather_scatter_round_trip);
  tcase_add_test(tc, bodies_csv_rows_and_restart);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) { return mpi_check_main(argc, argv, tracers_suite); }
