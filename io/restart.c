/* Restart files.  Every array of the snapshot is written as stored, owned points only, on
 * dims (z, y, x) (for the staggered velocities: u(i,j,k) on the west faces x = i hx for
 * i = 0..Nx-1, and so on), with step, time, drive force, the grid, the boundary types and
 * the material list as attributes.  Reading checks the grid, boundaries, materials and every
 * array against the snapshot asked for, then fills each rank's owned cells: values are
 * bitwise. */
#include "io/restart.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "base/errors.h"
#include "io/nc_check.h"
#include "io/output.h"

/* Bumped whenever the layout below changes, so an old file is refused, not misread. */
#define RESTART_FORMAT 1
#define MESSAGE_LEN 512

static const char *boundary_name(int periodic) { return periodic ? "periodic" : "wall"; }

/* The tracer variables: id, kind and position, one value per tracer. */
enum { TRACER_VARIABLES = 5 };
static const char *const tracer_name[TRACER_VARIABLES] = {
  "tracer_id", "tracer_kind", "tracer_x", "tracer_y", "tracer_z"};

void restart_write(const char *dir, const efsi_snapshot *s, const efsi_decomp *d,
                   long n_tracers, const efsi_tracer *tracers)
{
  char path[EFSI_PATH_LEN];
  if (output_path(path, sizeof path, dir, "restart", s->step))
    efsi_abort(EFSI_EXIT_RUNTIME, "restart file name too long in %s", dir);
  const efsi_grid *g = s->grid;
  const efsi_named_field *field = s->field;
  const int nfields = s->nfields;
  int id[SNAPSHOT_MAX_FIELDS], dim[3];
  efsi_ncfile f;
  ncfile_create(&f, path, d, g, dim);
  for (int n = 0; n < nfields; n++)
    id[n] = ncfile_define(&f, field[n].name, 3, dim, field[n].units, field[n].long_name);
  if (f.holds_file) {
    const int format = RESTART_FORMAT;
    const long long step = s->step;
    const char *materials = s->materials;
    NC_CHECK(nc_put_att_int(f.ncid, NC_GLOBAL, "efsi_restart_format", NC_INT, 1, &format));
    NC_CHECK(nc_put_att_int(f.ncid, NC_GLOBAL, "grid_cells", NC_INT, 3, g->global_n));
    NC_CHECK(nc_put_att_double(f.ncid, NC_GLOBAL, "grid_length", NC_DOUBLE, 3, g->length));
    for (int dir = 1; dir < 3; dir++) {
      const char *type = boundary_name(d->periodic[dir]);
      NC_CHECK(nc_put_att_text(f.ncid, NC_GLOBAL, dir == 1 ? "boundary_y" : "boundary_z",
                               strlen(type), type));
    }
    NC_CHECK(nc_put_att_text(f.ncid, NC_GLOBAL, "materials", strlen(materials), materials));
    NC_CHECK(nc_put_att_longlong(f.ncid, NC_GLOBAL, "step", NC_INT64, 1, &step));
    NC_CHECK(nc_put_att_double(f.ncid, NC_GLOBAL, "time", NC_DOUBLE, 1, &s->time));
    NC_CHECK(nc_put_att_double(f.ncid, NC_GLOBAL, "drive_force", NC_DOUBLE, 1, &s->drive_force));
  }
  /* The tracers (gathered on rank 0) as 1-D variables over the dimension "tracer"; a
   * case without bodies has no such dimension (a zero length would make it unlimited). */
  long ntr = n_tracers;
  MPI_CHECK(MPI_Bcast(&ntr, 1, MPI_LONG, 0, d->comm));
  int tracer_id[TRACER_VARIABLES];
  if (ntr > 0) {
    int tdim = -1;
    if (f.holds_file) NC_CHECK(nc_def_dim(f.ncid, "tracer", (size_t)ntr, &tdim));
    for (int v = 0; v < TRACER_VARIABLES; v++)
      tracer_id[v] = ncfile_define(&f, tracer_name[v], 1, &tdim, v < 2 ? "1" : "um",
                                   "body tracer (docs/tracers.md)");
  }
  ncfile_enddef(&f);
  for (int n = 0; n < nfields; n++) ncfile_put(&f, id[n], field[n].data, -1);
  if (ntr > 0) {
    double *column = d->rank == 0 ? malloc((size_t)ntr * sizeof(double)) : NULL;
    if (d->rank == 0 && !column) efsi_abort(EFSI_EXIT_RUNTIME, "out of memory writing tracers");
    for (int v = 0; v < TRACER_VARIABLES; v++) {
      for (long t = 0; d->rank == 0 && t < ntr; t++)
        column[t] = v == 0 ? (double)tracers[t].id : v == 1 ? (double)tracers[t].kind
                                                            : tracers[t].x[v - 2];
      ncfile_put_axis(&f, tracer_id[v], (size_t)ntr, column);
    }
    free(column);
  }
  ncfile_commit(&f);
}

int restart_read_tracers(const char *path, long *n, efsi_tracer **tracers, char *err,
                         size_t errlen)
{
  *n = 0;
  *tracers = NULL;
  int ncid, dim;
  NC_TRY(nc_open(path, NC_NOWRITE, &ncid), path, "cannot open", err, errlen);
  if (nc_inq_dimid(ncid, "tracer", &dim) != NC_NOERR) {
    nc_close(ncid);
    return 0;
  }
  size_t len = 0;
  int failed = nc_inq_dimlen(ncid, dim, &len) != NC_NOERR;
  efsi_tracer *t = calloc(len > 0 ? len : 1, sizeof *t);
  double *column = malloc((len > 0 ? len : 1) * sizeof(double));
  for (int v = 0; !failed && v < TRACER_VARIABLES; v++) {
    int varid;
    failed = nc_inq_varid(ncid, tracer_name[v], &varid) != NC_NOERR
          || nc_get_var_double(ncid, varid, column) != NC_NOERR;
    for (size_t k = 0; !failed && k < len; k++) {
      if (v == 0) t[k].id = (long)column[k];
      else if (v == 1) t[k].kind = (int)column[k];
      else t[k].x[v - 2] = column[k];
    }
  }
  nc_close(ncid);
  free(column);
  if (failed) {
    free(t);
    snprintf(err, errlen, "%s: the body tracers (tracer_*) cannot be read", path);
    return 1;
  }
  *n = (long)len;
  *tracers = t;
  return 0;
}

/* A global text attribute into text (NUL-terminated); returns 1 with err set on failure. */
static int get_text(int ncid, const char *path, const char *name, char *text, size_t len,
                    char *err, size_t errlen)
{
  size_t n = 0;
  NC_TRY(nc_inq_attlen(ncid, NC_GLOBAL, name, &n), path, name, err, errlen);
  if (n >= len) return nc_message(err, errlen, "%s: attribute %s is too long", path, name);
  NC_TRY(nc_get_att_text(ncid, NC_GLOBAL, name, text), path, name, err, errlen);
  text[n] = '\0';
  return 0;
}

/* The format marker, step and time: what every reader checks first. */
static int read_stamp(int ncid, const char *path, long long *step, double *time,
                      char *err, size_t errlen)
{
  int format = 0;
  if (nc_get_att_int(ncid, NC_GLOBAL, "efsi_restart_format", &format) != NC_NOERR)
    return nc_message(err, errlen, "%s: not an efsi restart file (no attribute "
                      "efsi_restart_format)", path);
  if (format != RESTART_FORMAT)
    return nc_message(err, errlen, "%s: restart format %d, this efsi reads format %d", path,
                      format, RESTART_FORMAT);
  NC_TRY(nc_get_att_longlong(ncid, NC_GLOBAL, "step", step), path, "attribute step", err, errlen);
  NC_TRY(nc_get_att_double(ncid, NC_GLOBAL, "time", time), path, "attribute time", err, errlen);
  return 0;
}

/* Is variable name there as a double array of dims (Nz, Ny, Nx)? */
static int check_variable(int ncid, const char *path, const char *name, const int cells[3],
                          char *err, size_t errlen)
{
  int id, ndims, dims[NC_MAX_VAR_DIMS];
  nc_type type;
  if (nc_inq_varid(ncid, name, &id) != NC_NOERR)
    return nc_message(err, errlen, "%s: variable %s is missing", path, name);
  NC_TRY(nc_inq_var(ncid, id, NULL, &type, &ndims, dims, NULL), path, name, err, errlen);
  size_t len[3] = {0, 0, 0};
  for (int k = 0; k < ndims && k < 3; k++)
    NC_TRY(nc_inq_dimlen(ncid, dims[k], &len[k]), path, name, err, errlen);
  if (type != NC_DOUBLE || ndims != 3 || len[0] != (size_t)cells[2]
      || len[1] != (size_t)cells[1] || len[2] != (size_t)cells[0])
    return nc_message(err, errlen, "%s: variable %s is not a double array of (z, y, x) = "
                      "(%d, %d, %d)", path, name, cells[2], cells[1], cells[0]);
  return 0;
}

/* Does the file describe the case of s and d, with every array of the snapshot? */
static int check_header(int ncid, const char *path, const efsi_snapshot *s,
                        const efsi_decomp *d, char *err, size_t errlen)
{
  const efsi_grid *g = s->grid;
  int cells[3];
  double length[3];
  NC_TRY(nc_get_att_int(ncid, NC_GLOBAL, "grid_cells", cells), path, "attribute grid_cells",
         err, errlen);
  if (cells[0] != g->global_n[0] || cells[1] != g->global_n[1] || cells[2] != g->global_n[2])
    return nc_message(err, errlen, "%s: grid is %dx%dx%d, case has %dx%dx%d", path, cells[0],
                      cells[1], cells[2], g->global_n[0], g->global_n[1], g->global_n[2]);
  NC_TRY(nc_get_att_double(ncid, NC_GLOBAL, "grid_length", length), path,
         "attribute grid_length", err, errlen);
  if (length[0] != g->length[0] || length[1] != g->length[1] || length[2] != g->length[2])
    return nc_message(err, errlen, "%s: grid.length is %.17g %.17g %.17g, case has %.17g %.17g "
                      "%.17g", path, length[0], length[1], length[2], g->length[0], g->length[1],
                      g->length[2]);
  for (int dir = 1; dir < 3; dir++) {
    const char *key = dir == 1 ? "boundary_y" : "boundary_z";
    char type[16];
    if (get_text(ncid, path, key, type, sizeof type, err, errlen)) return 1;
    if (strcmp(type, boundary_name(d->periodic[dir])) != 0)
      return nc_message(err, errlen, "%s: boundary.%c is %s, case has %s", path, "xyz"[dir],
                        type, boundary_name(d->periodic[dir]));
  }
  char stored[sizeof s->materials];
  if (get_text(ncid, path, "materials", stored, sizeof stored, err, errlen)) return 1;
  if (strcmp(stored, s->materials) != 0)
    return nc_message(err, errlen, "%s: materials are '%s', case has '%s'", path, stored,
                      s->materials);
  for (int n = 0; n < s->nfields; n++)
    if (check_variable(ncid, path, s->field[n].name, cells, err, errlen)) return 1;
  return 0;
}

/* The header as rank 0 reads it, for every rank. */
typedef struct {
  int failed;
  long long step;
  double time, drive_force;
  char message[MESSAGE_LEN];
} restart_header;

static int read_header(const char *path, const efsi_snapshot *s, const efsi_decomp *d,
                       restart_header *h)
{
  int ncid;
  NC_TRY(nc_open(path, NC_NOWRITE, &ncid), path, "cannot open", h->message, MESSAGE_LEN);
  int failed = read_stamp(ncid, path, &h->step, &h->time, h->message, MESSAGE_LEN)
            || check_header(ncid, path, s, d, h->message, MESSAGE_LEN);
  if (!failed && nc_get_att_double(ncid, NC_GLOBAL, "drive_force", &h->drive_force) != NC_NOERR)
    failed = nc_message(h->message, MESSAGE_LEN, "%s: attribute drive_force is missing", path);
  nc_close(ncid);
  return failed;
}

int restart_read(const char *path, efsi_snapshot *s, const efsi_decomp *d, char *err,
                 size_t errlen)
{
  restart_header h;
  memset(&h, 0, sizeof h);
  if (d->rank == 0) h.failed = read_header(path, s, d, &h);
  MPI_CHECK(MPI_Bcast(&h, (int)sizeof h, MPI_BYTE, 0, d->comm));
  if (h.failed) return nc_message(err, errlen, "%s", h.message);
  efsi_ncfile f;
  ncfile_open(&f, path, d, s->grid);
  for (int n = 0; n < s->nfields; n++) ncfile_get(&f, s->field[n].name, s->field[n].data);
  ncfile_close(&f);
  s->step = (long)h.step;
  s->time = h.time;
  s->drive_force = h.drive_force;
  return 0;
}

int restart_peek(const char *path, long *step, double *time, char *err, size_t errlen)
{
  int ncid;
  long long stored_step = 0;
  NC_TRY(nc_open(path, NC_NOWRITE, &ncid), path, "cannot open", err, errlen);
  int failed = read_stamp(ncid, path, &stored_step, time, err, errlen);
  nc_close(ncid);
  *step = (long)stored_step;
  return failed;
}
