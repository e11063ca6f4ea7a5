/* Restart files: a state filled from an analytic function is written from one process
 * grid (x slabs) and read on others (z slabs, 2 x 2 x n blocks); every owned value and
 * step, time and drive force must come back bitwise, halos untouched.  A file that does
 * not match the case (grid, lengths, boundaries, materials), a missing file, a file
 * without one of the variables and a NetCDF file that is no restart give nonzero on every
 * rank with the same message naming the file. */
#include <check.h>
#include <math.h>
#include <netcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "decomp/decomp.h"
#include "tests/test_support.h"
#include "io/restart.h"
#include "src/case/state.h"

static const int cells[3] = {24, 6, 24};
static const double length[3] = {6.0, 1.5, 7.0};
static const int periodic[3] = {1, 0, 1};          /* walls in y */
static const char *const materials[2] = {"rbc", "wall"};
static const long step = 120;
static const double time_stored = 0.1 + 1.0 / 3.0, drive_stored = -1.0 / 7.0;

static double analytic(int var, int i, int j, int k)
{
  return var + sin(0.37 * i + 0.11 * var) + 0.5 * cos(0.23 * j + 0.05 * var) * (1.0 + 0.1 * k)
       + 1e-3 * k * k;
}

/* The fields of s in the order u, v, w, p, phi_m, B; returns how many. */
static int all_fields(efsi_state *s, double *f[])
{
  int n = 0;
  f[n++] = s->u;
  f[n++] = s->v;
  f[n++] = s->w;
  f[n++] = s->p;
  for (int m = 0; m < s->nmat; m++) f[n++] = s->phi[m];
  for (int c = 0; s->nmat > 0 && c < 6; c++) f[n++] = s->b[c];
  return n;
}

static int is_owned(const efsi_grid *g, int i, int j, int k)
{
  return i >= 0 && i < g->n[0] && j >= 0 && j < g->n[1] && k >= 0 && k < g->n[2];
}

/* Owned points from the analytic function, halos NaN. */
static void fill_state(efsi_state *s)
{
  const efsi_grid *g = &s->grid;
  double *f[4 + EFSI_MAX_MATERIALS + 6];
  const int nf = all_fields(s, f);
  for (int v = 0; v < nf; v++)
    for (int k = -EFSI_HALO; k < g->n[2] + EFSI_HALO; k++)
      for (int j = -EFSI_HALO; j < g->n[1] + EFSI_HALO; j++)
        for (int i = -EFSI_HALO; i < g->n[0] + EFSI_HALO; i++)
          f[v][grid_index(g, i, j, k)] = is_owned(g, i, j, k)
            ? analytic(v, g->offset[0] + i, g->offset[1] + j, g->offset[2] + k) : NAN;
}

/* Points that differ from fill_state's values (NaN halos must still be NaN). */
static long count_differences(efsi_state *s)
{
  const efsi_grid *g = &s->grid;
  double *f[4 + EFSI_MAX_MATERIALS + 6];
  const int nf = all_fields(s, f);
  long bad = 0;
  for (int v = 0; v < nf; v++)
    for (int k = -EFSI_HALO; k < g->n[2] + EFSI_HALO; k++)
      for (int j = -EFSI_HALO; j < g->n[1] + EFSI_HALO; j++)
        for (int i = -EFSI_HALO; i < g->n[0] + EFSI_HALO; i++) {
          const double got = f[v][grid_index(g, i, j, k)];
          if (!is_owned(g, i, j, k)) {
            bad += !isnan(got);
            continue;
          }
          const double expected =
            analytic(v, g->offset[0] + i, g->offset[1] + j, g->offset[2] + k);
          bad += memcmp(&got, &expected, sizeof got) != 0;
        }
  return bad;
}

typedef struct {
  efsi_decomp d;
  efsi_state s;
} distributed_state;

static void make_state(distributed_state *x, const int grid_cells[3], const double len[3],
                       const int per[3], const int ranks[3], int nmat)
{
  efsi_grid g;
  test_decomp(&x->d, &g, grid_cells, ranks, per, len);
  ck_assert_int_eq(state_alloc(&x->s, &g, nmat, materials), 0);
}

static void free_state(distributed_state *x)
{
  state_free(&x->s);
  decomp_free(&x->d);
}

/* The sample, written once for the test case (writing is the slow part with 8 ranks on
 * 2 cores): a fresh directory, the same name on every rank, holding restart_00000120.nc
 * written from x slabs. */
static char dir[64], path[128];

/* Body tracers stored with the state (given on rank 0, sorted by id). */
enum { NTRACERS = 3 };
static const efsi_tracer sample_tracers[NTRACERS] = {
  {.id = 0, .kind = 0, .x = {0.125, 1.0 / 3.0, 2.5}},
  {.id = 7, .kind = 1, .x = {1e-17, 0.75, 0.1}},
  {.id = 1000001, .kind = 3, .x = {3.0, 0.0, 5.0 / 7.0}},
};

static void write_sample(void)
{
  int size, rank;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  strcpy(dir, "/tmp/efsi-test-restart-XXXXXX");
  if (rank == 0 && !mkdtemp(dir)) dir[0] = '\0';
  MPI_Bcast(dir, sizeof dir, MPI_CHAR, 0, MPI_COMM_WORLD);
  ck_assert_msg(dir[0], "cannot create a temporary directory");
  const int x_slabs[3] = {size, 1, 1};
  distributed_state w;
  make_state(&w, cells, length, periodic, x_slabs, 2);
  fill_state(&w.s);
  w.s.step = step;
  w.s.time = time_stored;
  w.s.drive_force = drive_stored;
  state_write_restart(dir, &w.s, &w.d, rank == 0 ? NTRACERS : 0, sample_tracers);
  free_state(&w);
  snprintf(path, sizeof path, "%s/restart_%08ld.nc", dir, step);
}

static void remove_sample(void)
{
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    char command[128];
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    if (system(command) != 0) fprintf(stderr, "cannot remove %s\n", dir);
  }
}

/* Read path into a state on process grid ranks; owned values and scalars bitwise. */
static void read_back(const char *path, const int ranks[3])
{
  distributed_state r;
  make_state(&r, cells, length, periodic, ranks, 2);
  fill_state(&r.s);                      /* NaN halos stay NaN if the reader leaves them */
  double *f[4 + EFSI_MAX_MATERIALS + 6];
  const int nf = all_fields(&r.s, f);
  for (int v = 0; v < nf; v++)           /* owned values must all come from the file */
    for (int k = 0; k < r.s.grid.n[2]; k++)
      for (int j = 0; j < r.s.grid.n[1]; j++)
        for (int i = 0; i < r.s.grid.n[0]; i++) f[v][grid_index(&r.s.grid, i, j, k)] = -1.0;
  char err[256] = "";
  ck_assert_msg(mpi_all(state_read_restart(path, &r.s, &r.d, err, sizeof err) == 0), "%s", err);
  long bad = count_differences(&r.s);
  ck_assert_msg(mpi_all(bad == 0), "%ld values differ on process grid %d x %d x %d", bad,
                r.d.dims[0], r.d.dims[1], r.d.dims[2]);
  ck_assert_int_eq(r.s.step, step);
  ck_assert(memcmp(&r.s.time, &time_stored, sizeof(double)) == 0);
  ck_assert(memcmp(&r.s.drive_force, &drive_stored, sizeof(double)) == 0);
  if (r.d.rank == 0) {   /* the tracers come back bitwise */
    long n = -1;
    efsi_tracer *t = NULL;
    ck_assert_msg(restart_read_tracers(path, 4, length, &n, &t, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(n, NTRACERS);
    for (int k = 0; k < NTRACERS; k++) {
      ck_assert_int_eq(t[k].id, sample_tracers[k].id);
      ck_assert_int_eq(t[k].kind, sample_tracers[k].kind);
      ck_assert(memcmp(t[k].x, sample_tracers[k].x, sizeof t[k].x) == 0);
    }
    free(t);
  }
  free_state(&r);
}

START_TEST(read_on_other_process_grids_bitwise)
{
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  /* z slabs, and blocks split in x and y as well (2 x 2 x size/4 from 4 ranks on). */
  const int z_slabs[3] = {1, 1, size};
  const int px = size >= 2 ? 2 : 1, py = size >= 4 ? 2 : 1, blocks[3] = {px, py, size / px / py};
  read_back(path, z_slabs);
  read_back(path, blocks);
  long peek_step = -1;
  double peek_time = 0.0;
  char err[256] = "";
  ck_assert_msg(restart_peek(path, &peek_step, &peek_time, NULL, err, sizeof err) == 0, "%s", err);
  ck_assert_int_eq(peek_step, step);
  ck_assert(memcmp(&peek_time, &time_stored, sizeof(double)) == 0);
}
END_TEST

START_TEST(only_the_final_file_remains)
{
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char names[512] = "";
  if (rank == 0) {
    char listing[256], line[256];
    snprintf(listing, sizeof listing, "ls -A '%s'", dir);
    FILE *ls = popen(listing, "r");
    while (ls && fgets(line, sizeof line, ls))
      strncat(names, line, sizeof names - strlen(names) - 1);
    if (ls) pclose(ls);
  }
  /* Rank 0 looks; every rank asserts, so that no rank is left alone in a collective. */
  MPI_Bcast(names, sizeof names, MPI_CHAR, 0, MPI_COMM_WORLD);
  ck_assert_str_eq(names, "restart_00000120.nc\n");
}
END_TEST

/* restart_read of path into a state built from the given case must fail on every rank
 * with the same message, "<path>: <expected>". */
static void expect_refusal(const char *path, const int grid_cells[3], const double len[3],
                           const int per[3], int nmat, const char *expected)
{
  const int chosen[3] = {0, 0, 0};
  distributed_state r;
  make_state(&r, grid_cells, len, per, chosen, nmat);
  char err[256] = "", first[256], wanted[512];
  ck_assert(mpi_all(state_read_restart(path, &r.s, &r.d, err, sizeof err) != 0));
  memcpy(first, err, sizeof first);
  MPI_Bcast(first, sizeof first, MPI_CHAR, 0, MPI_COMM_WORLD);
  ck_assert(mpi_all(strcmp(first, err) == 0));
  snprintf(wanted, sizeof wanted, "%s: %s", path, expected);
  ck_assert_msg(strncmp(err, wanted, strlen(wanted)) == 0, "message '%s', wanted '%s'", err,
                wanted);
  free_state(&r);
}

START_TEST(mismatched_case_is_refused)
{
  char missing[160];
  const int other_cells[3] = {24, 6, 48}, periodic_y[3] = {1, 1, 1};
  const double other_length[3] = {6.0, 1.5, 7.5};
  expect_refusal(path, other_cells, length, periodic, 2, "grid is 24x6x24, case has 24x6x48");
  expect_refusal(path, cells, other_length, periodic, 2, "grid.length is 6 1.5 7, case has "
                 "6 1.5 7.5");
  expect_refusal(path, cells, length, periodic_y, 2, "boundary.y is wall, case has periodic");
  expect_refusal(path, cells, length, periodic, 1, "materials are 'rbc wall', case has 'rbc'");
  snprintf(missing, sizeof missing, "%s/restart_99999999.nc", dir);
  expect_refusal(missing, cells, length, periodic, 2, "cannot open: ");
}
END_TEST

/* Rank 0: a restart without p (the sample's attributes and u, v, w only, as if the writer
 * had stopped early), and a NetCDF file that is no restart.  Returns 1 when both are made.
 * (Built anew rather than by renaming p away: renaming a variable breaks some NetCDF-4
 * library versions' files outright.) */
static int make_bad_files(const char *damaged, const char *foreign)
{
  static const char *const velocity[3] = {"u", "v", "w"};
  int in, out, id, natts, dim[3];
  char name[NC_MAX_NAME + 1];
  int ok = nc_open(path, NC_NOWRITE, &in) == NC_NOERR
        && nc_create(damaged, NC_NETCDF4 | NC_CLOBBER, &out) == NC_NOERR
        && nc_inq_natts(in, &natts) == NC_NOERR;
  for (int a = 0; ok && a < natts; a++)
    ok = nc_inq_attname(in, NC_GLOBAL, a, name) == NC_NOERR
      && nc_copy_att(in, NC_GLOBAL, name, out, NC_GLOBAL) == NC_NOERR;
  ok = ok && nc_def_dim(out, "z", (size_t)cells[2], &dim[0]) == NC_NOERR
          && nc_def_dim(out, "y", (size_t)cells[1], &dim[1]) == NC_NOERR
          && nc_def_dim(out, "x", (size_t)cells[0], &dim[2]) == NC_NOERR;
  for (int c = 0; ok && c < 3; c++)
    ok = nc_def_var(out, velocity[c], NC_DOUBLE, 3, dim, &id) == NC_NOERR;
  ok = ok && nc_close(out) == NC_NOERR && nc_close(in) == NC_NOERR;
  return ok && nc_create(foreign, NC_NETCDF4 | NC_CLOBBER, &out) == NC_NOERR
      && nc_def_dim(out, "x", 4, &dim[0]) == NC_NOERR
      && nc_def_var(out, "p", NC_DOUBLE, 1, dim, &id) == NC_NOERR && nc_close(out) == NC_NOERR;
}

START_TEST(damaged_or_foreign_file_is_refused)
{
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char damaged[160], foreign[160];
  snprintf(damaged, sizeof damaged, "%s/damaged.nc", dir);
  snprintf(foreign, sizeof foreign, "%s/foreign.nc", dir);
  int made = 1;
  if (rank == 0) made = make_bad_files(damaged, foreign);
  ck_assert_msg(mpi_all(made), "cannot make the damaged and foreign files");
  expect_refusal(damaged, cells, length, periodic, 2, "variable p is missing");
  expect_refusal(foreign, cells, length, periodic, 2, "not an efsi restart file");
  if (rank == 0) {
    remove(damaged);
    remove(foreign);
  }
}
END_TEST

static Suite *restart_suite(void)
{
  Suite *s = suite_create("restart");
  const TTest *tests[] = {read_on_other_process_grids_bitwise, only_the_final_file_remains,
                          mismatched_case_is_refused, damaged_or_foreign_file_is_refused, NULL};
  tcase_add_unchecked_fixture(test_case_add(s, "round trip", 0, tests), write_sample,
                              remove_sample);
  return s;
}

int main(int argc, char **argv) { return mpi_check_main(argc, argv, restart_suite); }
