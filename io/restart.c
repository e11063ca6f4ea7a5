/* Restart files.  Every array of the snapshot is written as stored, owned points only, on
 * dims (z, y, x) (for the staggered velocities: u(i,j,k) on the west faces x = i hx for
 * i = 0..Nx-1, and so on), with step, time, drive force, the grid, the boundary types and
 * the material list as attributes.  Reading checks the grid, boundaries, materials and every
 * array against the snapshot asked for, then fills each rank's owned cells: values are
 * bitwise. */
#define _POSIX_C_SOURCE 200809L

#include "io/restart.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "base/errors.h"
#include "io/nc_check.h"
#include "io/output.h"

/* Bumped whenever the layout below changes, so an old file is refused, not misread. */
#define RESTART_FORMAT 1
#define MESSAGE_LEN 512
/* More body tracers than any case seeds: a file that claims more is damaged. */
#define RESTART_MAX_TRACERS 100000000

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
  ncfile_create(&f, path, d, g, dim, nfields, NULL);
  for (int n = 0; n < nfields; n++)
    id[n] = ncfile_define(&f, field[n].name, 3, dim, field[n].units, field[n].long_name);
  if (f.holds_file) {
    const int format = RESTART_FORMAT;
    const long long step = s->step;
    const char *materials = s->materials;
    NCFILE_CHECK(&f, nc_put_att_int(f.ncid, NC_GLOBAL, "efsi_restart_format", NC_INT, 1, &format));
    NCFILE_CHECK(&f, nc_put_att_int(f.ncid, NC_GLOBAL, "grid_cells", NC_INT, 3, g->global_n));
    NCFILE_CHECK(&f, nc_put_att_double(f.ncid, NC_GLOBAL, "grid_length", NC_DOUBLE, 3, g->length));
    for (int axis = 1; axis < 3; axis++) {
      const char *type = boundary_name(d->periodic[axis]);
      NCFILE_CHECK(&f, nc_put_att_text(f.ncid, NC_GLOBAL, axis == 1 ? "boundary_y" : "boundary_z",
                               strlen(type), type));
    }
    NCFILE_CHECK(&f, nc_put_att_text(f.ncid, NC_GLOBAL, "materials", strlen(materials), materials));
    NCFILE_CHECK(&f, nc_put_att_longlong(f.ncid, NC_GLOBAL, "step", NC_INT64, 1, &step));
    NCFILE_CHECK(&f, nc_put_att_double(f.ncid, NC_GLOBAL, "time", NC_DOUBLE, 1, &s->time));
    NCFILE_CHECK(&f, nc_put_att_double(f.ncid, NC_GLOBAL, "drive_force", NC_DOUBLE, 1, &s->drive_force));
    if (s->run_id[0])
      NCFILE_CHECK(&f, nc_put_att_text(f.ncid, NC_GLOBAL, "run_id", strlen(s->run_id), s->run_id));
    for (int k = 0; k < s->nnumbers; k++)
      NCFILE_CHECK(&f, nc_put_att_double(f.ncid, NC_GLOBAL, s->number[k].name, NC_DOUBLE, 1,
                                         &s->number[k].value));
  }
  /* The tracers (gathered on rank 0) as 1-D variables over the dimension "tracer"; a
   * case without bodies has no such dimension (a zero length would make it unlimited). */
  long ntr = n_tracers;
  MPI_CHECK(MPI_Bcast(&ntr, 1, MPI_LONG, 0, d->comm));
  int tracer_id[TRACER_VARIABLES];
  if (ntr > 0) {
    int tdim = -1;
    if (f.holds_file) NCFILE_CHECK(&f, nc_def_dim(f.ncid, "tracer", (size_t)ntr, &tdim));
    for (int v = 0; v < TRACER_VARIABLES; v++)
      tracer_id[v] = ncfile_define(&f, tracer_name[v], 1, &tdim, v < 2 ? "1" : "um",
                                   "body tracer (docs/tracers.md)");
  }
  ncfile_enddef(&f);
  for (int n = 0; n < nfields; n++) ncfile_put(&f, id[n], field[n].data, -1);
  if (ntr > 0) {
    double *column = d->rank == 0 ? efsi_malloc((size_t)ntr * sizeof(double), "the tracers")
                                  : NULL;
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

/* Is the tracer t as read a possible one: a whole id >= 0, a known kind, a position inside
 * the box?  (Values that do not fit a long or an int are refused before the conversion.) */
static int tracer_valid(const double column[TRACER_VARIABLES], int kinds,
                        const double length[3])
{
  const double id = column[0], kind = column[1];
  /* isfinite first: an ordered comparison with a NaN traps in the --enable-debug build */
  for (int v = 0; v < TRACER_VARIABLES; v++)
    if (!isfinite(column[v])) return 0;
  if (!(id >= 0 && id <= 9007199254740992.0 && id == floor(id))) return 0;
  if (!(kind >= 0 && kind < kinds && kind == floor(kind))) return 0;
  for (int d = 0; d < 3; d++)
    if (!(column[2 + d] >= 0 && column[2 + d] <= length[d])) return 0;
  return 1;
}

int restart_read_tracers(const char *path, int kinds, const double length[3], long *n,
                         efsi_tracer **tracers, char *err, size_t errlen)
{
  *n = 0;
  *tracers = NULL;
  int ncid, dim;
  /* the caller's restart_read or restart_peek has probed the file (restart.h) */
  int rc = nc_open(path, NC_NOWRITE, &ncid);
  if (rc != NC_NOERR) return ncfile_unreadable(path, rc, err, errlen);
  if (nc_inq_dimid(ncid, "tracer", &dim) != NC_NOERR) {
    nc_close(ncid);
    return 0;
  }
  size_t len = 0;
  int failed = nc_inq_dimlen(ncid, dim, &len) != NC_NOERR || len > RESTART_MAX_TRACERS;
  efsi_tracer *t = failed ? NULL : efsi_calloc(len > 0 ? len : 1, sizeof *t, "the tracers");
  double *column = failed ? NULL : efsi_malloc((len > 0 ? len : 1) * TRACER_VARIABLES
                                               * sizeof(double), "the tracers");
  for (int v = 0; !failed && v < TRACER_VARIABLES; v++) {
    int varid, ndims = 0, dims[NC_MAX_VAR_DIMS];
    failed = nc_inq_varid(ncid, tracer_name[v], &varid) != NC_NOERR
          || nc_inq_varndims(ncid, varid, &ndims) != NC_NOERR || ndims != 1
          || nc_inq_vardimid(ncid, varid, dims) != NC_NOERR || dims[0] != dim
          || nc_get_var_double(ncid, varid, column + v * len) != NC_NOERR;
  }
  nc_close(ncid);
  for (size_t k = 0; !failed && k < len; k++) {
    double one[TRACER_VARIABLES];
    for (int v = 0; v < TRACER_VARIABLES; v++) one[v] = column[v * len + k];
    if (!tracer_valid(one, kinds, length)) {
      free(t);
      free(column);
      return nc_message(err, errlen, "%s: body tracer %zu is not valid (id %g, kind %g, "
                        "position %g %g %g)", path, k, one[0], one[1], one[2], one[3], one[4]);
    }
    t[k].id = (long)one[0];
    t[k].kind = (int)one[1];
    for (int d = 0; d < 3; d++) t[k].x[d] = one[2 + d];
  }
  free(column);
  if (failed) {
    free(t);
    return nc_message(err, errlen, "%s: the body tracers (tracer_*) cannot be read", path);
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

/* The format marker, step and time (a step >= 0, a finite time >= 0: a run's history starts
 * at 0) and the run identity ("" when the file has none: written before run identities):
 * what every reader checks first. */
static int read_stamp(int ncid, const char *path, long long *step, double *time,
                      char run_id[SNAPSHOT_RUN_ID_LEN], char *err, size_t errlen)
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
  if (*step < 0 || !isfinite(*time) || *time < 0)
    return nc_message(err, errlen, "%s: step %lld, time %g: a restart file's step and time are "
                      "at least 0 (a damaged or edited file)", path, *step, *time);
  run_id[0] = '\0';
  size_t n = 0;
  if (nc_inq_attlen(ncid, NC_GLOBAL, "run_id", &n) == NC_NOERR
      && get_text(ncid, path, "run_id", run_id, SNAPSHOT_RUN_ID_LEN, err, errlen))
    return 1;
  return 0;
}

/* Is variable name there as a double array of dims (Nz, Ny, Nx)? */
static int check_variable(int ncid, const char *path, const char *name, const int cells[3],
                          char *err, size_t errlen)
{
  int id, ndims = 0, dims[NC_MAX_VAR_DIMS];
  nc_type type;
  if (nc_inq_varid(ncid, name, &id) != NC_NOERR)
    return nc_message(err, errlen, "%s: variable %s is missing", path, name);
  /* the number of dimensions first: a damaged file may claim more than dims holds */
  NC_TRY(nc_inq_varndims(ncid, id, &ndims), path, name, err, errlen);
  NC_TRY(nc_inq_vartype(ncid, id, &type), path, name, err, errlen);
  if (ndims == 3) NC_TRY(nc_inq_vardimid(ncid, id, dims), path, name, err, errlen);
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
  for (int n = 0; n < s->nfields; n++) {
    int id;
    if (s->field[n].optional && nc_inq_varid(ncid, s->field[n].name, &id) != NC_NOERR) continue;
    if (check_variable(ncid, path, s->field[n].name, cells, err, errlen)) return 1;
  }
  return 0;
}

/* The header as rank 0 reads it, for every rank: with which optional fields are missing and
 * the numbers asked for (NaN when absent). */
typedef struct {
  int failed;
  long long step;
  double time, drive_force;
  char run_id[SNAPSHOT_RUN_ID_LEN];
  char message[MESSAGE_LEN];
  char missing[SNAPSHOT_MAX_FIELDS];
  double number[SNAPSHOT_MAX_NUMBERS];
} restart_header;

static int read_header(const char *path, const efsi_snapshot *s, const efsi_decomp *d,
                       restart_header *h)
{
  int ncid;
  if (ncfile_probe(path, h->message, MESSAGE_LEN)) return 1;
  const int rc = nc_open(path, NC_NOWRITE, &ncid);
  if (rc != NC_NOERR) return ncfile_unreadable(path, rc, h->message, MESSAGE_LEN);
  int failed = read_stamp(ncid, path, &h->step, &h->time, h->run_id, h->message, MESSAGE_LEN)
            || check_header(ncid, path, s, d, h->message, MESSAGE_LEN);
  if (!failed && nc_get_att_double(ncid, NC_GLOBAL, "drive_force", &h->drive_force) != NC_NOERR)
    failed = nc_message(h->message, MESSAGE_LEN, "%s: attribute drive_force is missing", path);
  for (int n = 0; !failed && n < s->nfields; n++) {
    int id;
    h->missing[n] = s->field[n].optional && nc_inq_varid(ncid, s->field[n].name, &id) != NC_NOERR;
  }
  for (int k = 0; !failed && k < s->nnumbers; k++)
    if (nc_get_att_double(ncid, NC_GLOBAL, s->number[k].name, &h->number[k]) != NC_NOERR)
      h->number[k] = NAN;
  nc_close(ncid);
  return failed;
}

/* Collective: rank 0 reads and checks the header, every rank gets the verdict in h. */
static int share_header(const char *path, const efsi_snapshot *s, const efsi_decomp *d,
                        restart_header *h)
{
  memset(h, 0, sizeof *h);
  if (d->rank == 0) h->failed = read_header(path, s, d, h);
  MPI_CHECK(MPI_Bcast(h, (int)sizeof *h, MPI_BYTE, 0, d->comm));
  return h->failed;
}

int restart_check(const char *path, const efsi_snapshot *s, const efsi_decomp *d, char *err,
                  size_t errlen)
{
  restart_header h;
  if (share_header(path, s, d, &h)) return nc_message(err, errlen, "%s", h.message);
  return 0;
}

int restart_read(const char *path, efsi_snapshot *s, const efsi_decomp *d, char *err,
                 size_t errlen)
{
  restart_header h;
  if (share_header(path, s, d, &h)) return nc_message(err, errlen, "%s", h.message);
  efsi_ncfile f;
  if (ncfile_open(&f, path, d, s->grid, err, errlen)) return 1;
  int failed = 0;
  for (int n = 0; n < s->nfields && !failed; n++) {
    s->field[n].missing = h.missing[n];
    if (!h.missing[n]) failed = ncfile_get(&f, s->field[n].name, s->field[n].data, err, errlen);
  }
  ncfile_close(&f);
  if (failed) return 1;
  for (int k = 0; k < s->nnumbers; k++) s->number[k].value = h.number[k];
  s->step = (long)h.step;
  s->time = h.time;
  s->drive_force = h.drive_force;
  snprintf(s->run_id, sizeof s->run_id, "%s", h.run_id);
  return 0;
}

/* restart_peek and restart_stamp: the stamp of path, probed first or not. */
static int read_file_stamp(const char *path, int probe, long *step, double *time,
                           char *run_id, char *err, size_t errlen)
{
  int ncid;
  long long stored_step = 0;
  char id[SNAPSHOT_RUN_ID_LEN] = "";
  *step = -1;
  if (run_id) run_id[0] = '\0';
  if (probe && ncfile_probe(path, err, errlen)) return 1;
  int rc = nc_open(path, NC_NOWRITE, &ncid);
  if (rc != NC_NOERR) return ncfile_unreadable(path, rc, err, errlen);
  int failed = read_stamp(ncid, path, &stored_step, time, id, err, errlen);
  if (run_id) snprintf(run_id, SNAPSHOT_RUN_ID_LEN, "%s", id);
  nc_close(ncid);
  *step = (long)stored_step;
  return failed;
}

int restart_peek(const char *path, long *step, double *time, char *run_id, char *err,
                 size_t errlen)
{
  return read_file_stamp(path, 1, step, time, run_id, err, errlen);
}

int restart_stamp(const char *path, long *step, double *time, char *run_id, char *err,
                  size_t errlen)
{
  return read_file_stamp(path, 0, step, time, run_id, err, errlen);
}

/* The step of a name restart_<digits>.nc (exactly that form: no .tmp), or -1. */
static long long restart_name_step(const char *name)
{
  if (strncmp(name, "restart_", 8) != 0) return -1;
  const char *digits = name + 8;
  const size_t n = strspn(digits, "0123456789");
  if (n == 0 || n > 18 || strcmp(digits + n, ".nc") != 0) return -1;
  return strtoll(digits, NULL, 10);
}

typedef struct {
  long long step;
  char name[64];
} restart_entry;

static int newest_first(const void *a, const void *b)
{
  const long long x = ((const restart_entry *)a)->step, y = ((const restart_entry *)b)->step;
  return x < y ? 1 : x > y ? -1 : 0;
}

int restart_latest(const char *dir, char *path, size_t len, FILE *warnings, char *err,
                   size_t errlen)
{
  path[0] = '\0';
  DIR *listing = opendir(dir);
  if (!listing) {
    if (errno == ENOENT) return nc_message(err, errlen, "--restart latest: no restart file: "
                                           "the output directory %s does not exist", dir);
    return nc_message(err, errlen, "--restart latest: cannot read the output directory %s: "
                      "%s", dir, strerror(errno));
  }
  restart_entry *entry = NULL;
  size_t count = 0, capacity = 0;
  for (struct dirent *e = readdir(listing); e; e = readdir(listing)) {
    const long long step = restart_name_step(e->d_name);
    if (step < 0 || strlen(e->d_name) >= sizeof entry->name) continue;
    if (count == capacity) {
      capacity = capacity ? 2 * capacity : 64;
      entry = efsi_realloc(entry, capacity * sizeof *entry, "the restart files");
    }
    entry[count].step = step;
    memcpy(entry[count++].name, e->d_name, strlen(e->d_name) + 1);   /* its length checked */
  }
  closedir(listing);
  if (count > 1) qsort(entry, count, sizeof *entry, newest_first);
  int found = 0;
  for (size_t k = 0; k < count && !found; k++) {
    char candidate[EFSI_PATH_LEN + 64], why[MESSAGE_LEN];
    snprintf(candidate, sizeof candidate, "%s/%s", dir, entry[k].name);
    long stored = -1;
    double time = 0;
    int bad = restart_peek(candidate, &stored, &time, NULL, why, sizeof why);
    if (!bad && stored != entry[k].step) {
      snprintf(why, sizeof why, "%.400s: holds step %ld, its name says %lld", candidate, stored,
               entry[k].step);
      bad = 1;
    }
    if (!bad) found = snprintf(path, len, "%s", candidate) < (int)len;
    else if (warnings) fprintf(warnings, "efsi: warning: --restart latest: skipping %s\n", why);
  }
  free(entry);
  if (found) return 0;
  return nc_message(err, errlen, "--restart latest: %s holds no complete restart file%s "
                    "(--restart latest-or-new starts afresh when there is none)", dir,
                    count ? " (every restart_*.nc was skipped)" : "");
}
