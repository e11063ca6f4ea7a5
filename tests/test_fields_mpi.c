/* Fields files: the state is filled from an analytic function of the global indices on
 * several process grids, written, and read back whole on rank 0 with plain NetCDF.  Every
 * value must be exactly what is expected: the analytic value at the cell centre for
 * p, phi and B, the average of the two analytic face values for u, v, w.  Dimension order
 * (time, z, y, x), the CF time coordinate, coordinates, units and global attributes (the
 * run identity among them) are checked too. */
#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <netcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "decomp/decomp.h"
#include "io/fields.h"
#include "tests/test_support.h"
#include "src/case/state.h"

/* Wide in x and y, so that the process grids decomp_create picks split x and y too. */
static const int cells[3] = {40, 32, 24};
static const double length[3] = {10.0, 8.0, 7.0};
static const char *const materials[2] = {"rbc", "wall"};
static const char *const b_name[6] = {"bxx", "byy", "bzz", "bxy", "bxz", "byz"};

/* Field number var (0..2 velocity, 3 p, 4.. phi, then B) at global point (i, j, k). */
static double analytic(int var, int i, int j, int k)
{
  return var + sin(0.37 * i + 0.11 * var) + 0.5 * cos(0.23 * j + 0.05 * var) * (1.0 + 0.1 * k)
       + 1e-3 * k * k;
}

/* Velocity component c on the face with global index p[] along c: zero on a wall face,
 * the periodic image otherwise. */
static double face_value(int c, const int p[3], const int periodic[3])
{
  int q[3] = {p[0], p[1], p[2]};
  if (!periodic[c] && (q[c] == 0 || q[c] == cells[c])) return 0.0;
  q[c] %= cells[c];
  return analytic(c, q[0], q[1], q[2]);
}

/* Every point NaN, so a value read from anywhere but the owned cells (and the face layer
 * the velocity average needs) spoils the comparison. */
static void fill_nan(const efsi_grid *g, double *f)
{
  for (size_t n = 0; n < g->size; n++) f[n] = NAN;
}

static void fill_state(efsi_state *s, const int periodic[3])
{
  const efsi_grid *g = &s->grid;
  double *velocity[3] = {s->u, s->v, s->w};
  for (int c = 0; c < 3; c++) {
    fill_nan(g, velocity[c]);
    int hi[3] = {g->n[0], g->n[1], g->n[2]};
    hi[c]++;                                   /* the face layer above the owned cells */
    for (int k = 0; k < hi[2]; k++)
      for (int j = 0; j < hi[1]; j++)
        for (int i = 0; i < hi[0]; i++) {
          const int p[3] = {g->offset[0] + i, g->offset[1] + j, g->offset[2] + k};
          velocity[c][grid_index(g, i, j, k)] = face_value(c, p, periodic);
        }
  }
  double *centred[4 + EFSI_MAX_MATERIALS + 6];
  int n = 0;
  centred[n++] = s->p;
  for (int m = 0; m < s->nmat; m++) centred[n++] = s->phi[m];
  for (int c = 0; s->nmat > 0 && c < 6; c++) centred[n++] = s->b[c];
  for (int f = 0; f < n; f++) {
    fill_nan(g, centred[f]);
    for (int k = 0; k < g->n[2]; k++)
      for (int j = 0; j < g->n[1]; j++)
        for (int i = 0; i < g->n[0]; i++)
          centred[f][grid_index(g, i, j, k)] =
            analytic(3 + f, g->offset[0] + i, g->offset[1] + j, g->offset[2] + k);
  }
}

/* Rank 0 alone reads the file, so its checks must not stop rank 0 alone (the others
 * would wait in the next collective): the first failed check is noted here and every rank
 * asserts together that there was none. */
static char failure[512];

static void note(const char *fmt, ...)
{
  if (failure[0]) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(failure, sizeof failure, fmt, ap);
  va_end(ap);
}

#define EXPECT(condition) do { \
  if (!(condition)) { note("line %d: %s", __LINE__, #condition); return; } } while (0)

static void check_text(int ncid, int varid, const char *name, const char *expected)
{
  char text[256] = "";
  size_t len = 0;
  EXPECT(nc_inq_attlen(ncid, varid, name, &len) == NC_NOERR);
  EXPECT(len < sizeof text);
  EXPECT(nc_get_att_text(ncid, varid, name, text) == NC_NOERR);
  text[len] = '\0';
  EXPECT(strcmp(text, expected) == 0);
}

/* Variable name: dims (time, z, y, x), units, and every value against expected(i, j, k). */
static void check_variable(int ncid, const char *name, const char *units, int var, int c,
                           const int periodic[3])
{
  int id, ndims, dims[NC_MAX_VAR_DIMS], tzyx[4];
  nc_type type;
  EXPECT(nc_inq_varid(ncid, name, &id) == NC_NOERR);
  EXPECT(nc_inq_var(ncid, id, NULL, &type, &ndims, dims, NULL) == NC_NOERR);
  EXPECT(type == NC_DOUBLE);
  EXPECT(ndims == 4);
  EXPECT(nc_inq_dimid(ncid, "time", &tzyx[0]) == NC_NOERR);
  EXPECT(nc_inq_dimid(ncid, "z", &tzyx[1]) == NC_NOERR);
  EXPECT(nc_inq_dimid(ncid, "y", &tzyx[2]) == NC_NOERR);
  EXPECT(nc_inq_dimid(ncid, "x", &tzyx[3]) == NC_NOERR);
  for (int d = 0; d < 4; d++) EXPECT(dims[d] == tzyx[d]);
  check_text(ncid, id, "units", units);
  size_t total = (size_t)cells[0] * cells[1] * cells[2];
  double *values = malloc(total * sizeof *values);
  if (nc_get_var_double(ncid, id, values) != NC_NOERR) {
    free(values);
    note("cannot read %s", name);
    return;
  }
  long bad = 0;
  for (int k = 0; k < cells[2]; k++)
    for (int j = 0; j < cells[1]; j++)
      for (int i = 0; i < cells[0]; i++) {
        double expected;
        if (c >= 0) {
          int lo[3] = {i, j, k}, hi[3] = {i, j, k};
          hi[c]++;
          expected = 0.5 * (face_value(c, lo, periodic) + face_value(c, hi, periodic));
        } else {
          expected = analytic(var, i, j, k);
        }
        double got = values[((size_t)k * cells[1] + j) * cells[0] + i];
        bad += memcmp(&got, &expected, sizeof got) != 0;
      }
  free(values);
  if (bad) note("%s: %ld of %zu values differ", name, bad, total);
}

static void check_file(const char *path, const efsi_state *s, const int periodic[3])
{
  int ncid;
  EXPECT(nc_open(path, NC_NOWRITE, &ncid) == NC_NOERR);
  int format;
  EXPECT(nc_inq_format(ncid, &format) == NC_NOERR);
  EXPECT(format == NC_FORMAT_NETCDF4);

  static const char *const axis_name[3] = {"x", "y", "z"}, *const axis[3] = {"X", "Y", "Z"};
  for (int d = 0; d < 3; d++) {
    int dim, id, ndims, dims[NC_MAX_VAR_DIMS];
    size_t len;
    EXPECT(nc_inq_dimid(ncid, axis_name[d], &dim) == NC_NOERR);
    EXPECT(nc_inq_dimlen(ncid, dim, &len) == NC_NOERR);
    EXPECT(len == (size_t)cells[d]);
    EXPECT(nc_inq_varid(ncid, axis_name[d], &id) == NC_NOERR);
    EXPECT(nc_inq_var(ncid, id, NULL, NULL, &ndims, dims, NULL) == NC_NOERR);
    EXPECT(ndims == 1);
    EXPECT(dims[0] == dim);
    check_text(ncid, id, "units", "um");
    check_text(ncid, id, "axis", axis[d]);
    double centre[64];
    EXPECT(nc_get_var_double(ncid, id, centre) == NC_NOERR);
    const double h = length[d] / cells[d];
    for (int i = 0; i < cells[d]; i++) EXPECT(centre[i] == (i + 0.5) * h);
  }
  /* The dimensions are defined slowest first: time (one value), z, y, x. */
  static const char *const dim_name[4] = {"time", "z", "y", "x"};
  int dimids[4], ndims_file;
  EXPECT(nc_inq_dimids(ncid, &ndims_file, dimids, 0) == NC_NOERR);
  EXPECT(ndims_file == 4);
  for (int d = 0; d < 4 && d < ndims_file; d++) {
    char name[NC_MAX_NAME + 1];
    EXPECT(nc_inq_dimname(ncid, dimids[d], name) == NC_NOERR);
    EXPECT(strcmp(name, dim_name[d]) == 0);
  }
  /* the CF time coordinate: the snapshot's time, in us */
  int time_id, time_dims[NC_MAX_VAR_DIMS], time_ndims = 0;
  size_t time_len = 0;
  double time_value = -1;
  EXPECT(nc_inq_dimlen(ncid, dimids[0], &time_len) == NC_NOERR && time_len == 1);
  EXPECT(nc_inq_varid(ncid, "time", &time_id) == NC_NOERR);
  EXPECT(nc_inq_var(ncid, time_id, NULL, NULL, &time_ndims, time_dims, NULL) == NC_NOERR);
  EXPECT(time_ndims == 1 && time_dims[0] == dimids[0]);
  check_text(ncid, time_id, "units", "us");
  check_text(ncid, time_id, "standard_name", "time");
  check_text(ncid, time_id, "axis", "T");
  EXPECT(nc_get_var_double(ncid, time_id, &time_value) == NC_NOERR);
  EXPECT(memcmp(&time_value, &s->time, sizeof time_value) == 0);
  check_text(ncid, NC_GLOBAL, "run_id", s->run_id);

  check_text(ncid, NC_GLOBAL, "Conventions", "CF-1.8");
  check_text(ncid, NC_GLOBAL, "source", "efsi " PACKAGE_VERSION);
  check_text(ncid, NC_GLOBAL, "case", "analytic");
  nc_type type;
  size_t len;
  long long step;
  double time;
  EXPECT(nc_inq_att(ncid, NC_GLOBAL, "step", &type, &len) == NC_NOERR);
  EXPECT(type == NC_INT64);
  EXPECT(nc_get_att_longlong(ncid, NC_GLOBAL, "step", &step) == NC_NOERR);
  EXPECT(step == s->step);
  EXPECT(nc_inq_att(ncid, NC_GLOBAL, "time", &type, &len) == NC_NOERR);
  EXPECT(type == NC_DOUBLE);
  EXPECT(nc_get_att_double(ncid, NC_GLOBAL, "time", &time) == NC_NOERR);
  EXPECT(memcmp(&time, &s->time, sizeof time) == 0);

  static const char *const velocity[3] = {"u", "v", "w"};
  for (int c = 0; c < 3; c++) check_variable(ncid, velocity[c], "um us-1", c, c, periodic);
  check_variable(ncid, "p", "pg um-1 us-2", 3, -1, periodic);
  int var = 4, nvars, id;
  for (int m = 0; m < s->nmat; m++) {
    char name[64];
    snprintf(name, sizeof name, "phi_%s", s->material[m]);
    check_variable(ncid, name, "1", var++, -1, periodic);
  }
  for (int c = 0; c < 6; c++) {
    if (s->nmat > 0) check_variable(ncid, b_name[c], "1", var++, -1, periodic);
    else EXPECT(nc_inq_varid(ncid, b_name[c], &id) == NC_ENOTVAR);
  }
  /* Nothing else: 4 coordinates, u, v, w, p, the phi and B. */
  EXPECT(nc_inq_nvars(ncid, &nvars) == NC_NOERR);
  EXPECT(nvars == 8 + s->nmat + (s->nmat > 0 ? 6 : 0));
  EXPECT(nc_close(ncid) == NC_NOERR);
}

/* The round trips: the process grid (z slabs 1 x 1 x size, or chosen by efsi), whether y and
 * z are periodic (else walls), how many materials. */
static const struct {
  const char *name;
  int z_slabs, y_periodic, z_periodic, nmat;
} trips[] = {
  {"chosen grid, wall y", 0, 0, 1, 2},
  {"chosen grid, wall z", 0, 1, 0, 1},
  {"z slabs, walls, no materials", 1, 0, 0, 0},
  {"z slabs, periodic", 1, 1, 1, 2},
};

/* Write and check one file of round trip _i. */
START_TEST(round_trip)
{
  const int z_slabs[3] = {1, 1, mpi_check_world_size()}, chosen[3] = {0, 0, 0};
  const int *ranks = trips[_i].z_slabs ? z_slabs : chosen;
  const int periodic[3] = {1, trips[_i].y_periodic, trips[_i].z_periodic}, nmat = trips[_i].nmat;
  efsi_decomp d;
  efsi_grid g;
  efsi_state s;
  test_decomp(&d, &g, cells, ranks, periodic, length);
  ck_assert_int_eq(state_alloc(&s, &g, nmat, materials), 0);
  fill_state(&s, periodic);
  s.step = 1234567890123L;
  s.time = 0.1 + 1.0 / 3.0;
  snprintf(s.run_id, sizeof s.run_id, "20261125-120000-0123456789abcdef");

  char dir[64] = "/tmp/efsi-test-fields-XXXXXX", path[128];
  if (d.rank == 0 && !mkdtemp(dir)) dir[0] = '\0';
  MPI_Bcast(dir, sizeof dir, MPI_CHAR, 0, d.comm);
  ck_assert_msg(dir[0], "cannot create a temporary directory");
  snprintf(path, sizeof path, "%s/fields_00000001.nc", dir);
  state_write_fields(path, &s, &d, "analytic");
  failure[0] = '\0';
  if (d.rank == 0) {
    check_file(path, &s, periodic);
    char temp[160];
    snprintf(temp, sizeof temp, "%s.tmp", path);
    if (access(temp, F_OK) == 0) note("%s remains", temp);
    if (remove(path) != 0 || rmdir(dir) != 0) note("cannot remove %s", path);
  }
  ck_assert_msg(mpi_all(failure[0] == '\0'), "%s: %s", trips[_i].name, failure);
  state_free(&s);
  decomp_free(&d);
}
END_TEST

static Suite *fields_suite(void)
{
  Suite *s = suite_create("fields");
  TCase *tc = tcase_create("round trip");
  tcase_add_loop_test(tc, round_trip, 0, (int)(sizeof trips / sizeof trips[0]));
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) { return mpi_check_main(argc, argv, fields_suite); }
