/* bodies.nc (see bodies_nc.h; docs/output.md, "bodies.nc").  The file is created whole at
 * the first record, through a temporary name; later records are appended in place, the
 * file opened and closed around each, so that it is closed (and readable) between output
 * steps.  A restart cuts the records after its step by rewriting the file through a
 * temporary name, as the tables are cut. */
#define _POSIX_C_SOURCE 200809L

#include "io/bodies_nc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/limits.h"
#include "io/nc_check.h"
#include "io/output.h"
#ifdef HAVE_NETCDF_PAR
#include <netcdf_par.h>
#endif

#ifndef PACKAGE_VERSION
#error "PACKAGE_VERSION comes from configure (-DPACKAGE_VERSION in DEFS)"
#endif

/* The variables of one time record, in the order they are written. */
enum { V_POSITION, V_VELOCITY, V_CENTROID, V_VOLUME, V_MOMENT, RECORD_VARIABLES };
static const struct {
  const char *name, *units, *long_name, *components;
  int width;                 /* values per body: 3 (xyz), 1, or 6 (sym) */
} record_variable[RECORD_VARIABLES] = {
  {"position", "um", "position of the body's tracer", "x y z", 3},
  {"velocity", "um us-1", "fluid velocity at the body's tracer", "x y z", 3},
  {"centroid", "um", "phi-weighted centroid of the body's cells (periodic directions "
   "unwrapped around the tracer)", "x y z", 3},
  {"volume", "um3", "sum of phi dV over the body's cells", NULL, 1},
  {"second_moment", "um2", "phi-weighted second moments about the centroid, per volume",
   "xx yy zz xy xz yz", 6}};


typedef struct {
  int ncid;
  int parallel;              /* every rank holds the file (collective access) */
  int time_dim, body_dim, xyz_dim, sym_dim;
  int time, step, body, kind, record[RECORD_VARIABLES];
  const char *path, *temp;   /* for messages; temp is removed on a failure when set */
} bodies_ids;

static EFSI_NORETURN void write_failed(const bodies_ids *b, int rc, const char *call)
{
  const int reason = errno;
  if (b->temp) remove(b->temp);
  output_failed(b->path, "cannot write %s: %s%s%s (%s)", b->path, nc_strerror(rc),
                reason ? ": " : "", reason ? strerror(reason) : "", call);
}
#define BODIES_CHECK(b, call) do { errno = 0; int rc_ = (call); \
  if (rc_ != NC_NOERR) write_failed((b), rc_, #call); } while (0)

static void put_text(const bodies_ids *b, int var, const char *name, const char *value)
{
  BODIES_CHECK(b, nc_put_att_text(b->ncid, var, name, strlen(value), value));
}

static int define(bodies_ids *b, const char *name, nc_type type, int ndims, const int *dims,
                  const size_t *chunks, const char *units, const char *long_name)
{
  int id;
  BODIES_CHECK(b, nc_def_var(b->ncid, name, type, ndims, dims, &id));
  if (chunks) BODIES_CHECK(b, nc_def_var_chunking(b->ncid, id, NC_CHUNKED, chunks));
  if (units) put_text(b, id, "units", units);
  put_text(b, id, "long_name", long_name);
#ifdef HAVE_NETCDF_PAR
  if (b->parallel) BODIES_CHECK(b, nc_var_par_access(b->ncid, id, NC_COLLECTIVE));
#endif
  return id;
}

/* Define the whole file (in define mode on entry, data mode on return). */
static void define_file(bodies_ids *b, const efsi_bodies_file *f)
{
  BODIES_CHECK(b, nc_set_fill(b->ncid, NC_NOFILL, NULL));
  BODIES_CHECK(b, nc_def_dim(b->ncid, "time", NC_UNLIMITED, &b->time_dim));
  BODIES_CHECK(b, nc_def_dim(b->ncid, "body", (size_t)f->total, &b->body_dim));
  BODIES_CHECK(b, nc_def_dim(b->ncid, "xyz", 3, &b->xyz_dim));
  BODIES_CHECK(b, nc_def_dim(b->ncid, "sym", 6, &b->sym_dim));
  const size_t chunk_time = 1024;
  /* units "us", as the fields files' time axis: xarray keeps it a number */
  b->time = define(b, "time", NC_DOUBLE, 1, &b->time_dim, &chunk_time, "us", "simulated time");
  put_text(b, b->time, "standard_name", "time");
  put_text(b, b->time, "axis", "T");
  b->step = define(b, "step", NC_INT64, 1, &b->time_dim, &chunk_time, NULL,
                   "steps since the start of the run's history");
  b->body = define(b, "body", NC_INT64, 1, &b->body_dim, NULL, NULL,
                   "body id (the tracer id of restart files and bodies.csv)");
  b->kind = define(b, "kind", NC_SHORT, 1, &b->body_dim, NULL, NULL, "kind of body");
  short flags[16];
  char meanings[256] = "";
  for (int k = 0; k < f->kinds && k < 16; k++) {
    flags[k] = (short)k;
    const size_t used = strlen(meanings);
    snprintf(meanings + used, sizeof meanings - used, "%s%s", k ? " " : "", f->kind_names[k]);
  }
  BODIES_CHECK(b, nc_put_att_short(b->ncid, b->kind, "flag_values", NC_SHORT,
                                   (size_t)(f->kinds < 16 ? f->kinds : 16), flags));
  put_text(b, b->kind, "flag_meanings", meanings);
  const size_t bodies = (size_t)(f->total < BODIES_NC_CHUNK_BODIES ? f->total : BODIES_NC_CHUNK_BODIES);
  for (int v = 0; v < RECORD_VARIABLES; v++) {
    const int width = record_variable[v].width;
    const int dims[3] = {b->time_dim, b->body_dim, width == 6 ? b->sym_dim : b->xyz_dim};
    const size_t chunks[3] = {1, bodies, (size_t)width};
    b->record[v] = define(b, record_variable[v].name, NC_DOUBLE, width == 1 ? 2 : 3, dims,
                          chunks, record_variable[v].units, record_variable[v].long_name);
    if (record_variable[v].components)
      put_text(b, b->record[v], "components", record_variable[v].components);
  }
  put_text(b, NC_GLOBAL, "Conventions", "CF-1.8");
  put_text(b, NC_GLOBAL, "title", "efsi bodies: each body's tracer and the shape of its cells");
  put_text(b, NC_GLOBAL, "source", "efsi " PACKAGE_VERSION);
  put_text(b, NC_GLOBAL, "case", f->case_name);
  if (f->run_id && f->run_id[0]) put_text(b, NC_GLOBAL, "run_id", f->run_id);
  put_text(b, NC_GLOBAL, "body_cells", "the cells of a body's material with phi > 0 whose "
           "nearest tracer of that material (periodic distances, within twice the kind's "
           "bounding radius plus two cells) is the body's (docs/tracers.md)");
  BODIES_CHECK(b, nc_enddef(b->ncid));
}

/* The ids of an existing file's variables; its time length in *records. */
static void inquire_file(bodies_ids *b, long total, size_t *records)
{
  size_t bodies = 0;
  BODIES_CHECK(b, nc_inq_dimid(b->ncid, "time", &b->time_dim));
  BODIES_CHECK(b, nc_inq_dimid(b->ncid, "body", &b->body_dim));
  BODIES_CHECK(b, nc_inq_dimlen(b->ncid, b->time_dim, records));
  BODIES_CHECK(b, nc_inq_dimlen(b->ncid, b->body_dim, &bodies));
  if (bodies != (size_t)total)
    efsi_abort(EFSI_EXIT_RUNTIME, "%s holds %zu bodies, this run has %ld: move it away", b->path,
               bodies, total);
  BODIES_CHECK(b, nc_inq_varid(b->ncid, "time", &b->time));
  BODIES_CHECK(b, nc_inq_varid(b->ncid, "step", &b->step));
  for (int v = 0; v < RECORD_VARIABLES; v++)
    BODIES_CHECK(b, nc_inq_varid(b->ncid, record_variable[v].name, &b->record[v]));
#ifdef HAVE_NETCDF_PAR
  int all[2 + RECORD_VARIABLES] = {b->time, b->step};
  memcpy(all + 2, b->record, sizeof b->record);
  for (int v = 0; b->parallel && v < 2 + RECORD_VARIABLES; v++)
    BODIES_CHECK(b, nc_var_par_access(b->ncid, all[v], NC_COLLECTIVE));
#endif
}

/* The values of variable v of records[0 .. count) packed body by body. */
static void pack(int v, long count, const efsi_body_record *record, double *out)
{
  const int width = record_variable[v].width;
  for (long n = 0; n < count; n++) {
    const efsi_body_record *r = &record[n];
    const double *from = v == V_POSITION ? r->x : v == V_VELOCITY ? r->v
                       : v == V_CENTROID ? r->centroid : v == V_VOLUME ? &r->volume : r->moment;
    memcpy(out + n * width, from, (size_t)width * sizeof *out);
  }
}

/* Collective: the time record at index rec (this rank's slab first .. first + count). */
static void write_record(const bodies_ids *b, int root, size_t rec, long step, double time,
                         long first, long count, const efsi_body_record *record)
{
  size_t start = rec, one = root ? 1 : 0;
  long long step_value = step;
  BODIES_CHECK(b, nc_put_vara_double(b->ncid, b->time, &start, &one, &time));
  BODIES_CHECK(b, nc_put_vara_longlong(b->ncid, b->step, &start, &one, &step_value));
  double *values = efsi_malloc((size_t)(count > 0 ? count : 1) * 6 * sizeof *values,
                               "a record of bodies.nc");
  for (int v = 0; v < RECORD_VARIABLES; v++) {
    pack(v, count, record, values);
    const size_t at[3] = {rec, (size_t)first, 0};
    const size_t n[3] = {1, (size_t)count, (size_t)record_variable[v].width};
    BODIES_CHECK(b, nc_put_vara_double(b->ncid, b->record[v], at, n, values));
  }
  free(values);
}

/* Collective: body(body) and kind(body) of this rank's slab. */
static void write_bodies(const bodies_ids *b, long first, long count,
                         const efsi_body_record *record)
{
  long long *id = efsi_malloc((size_t)(count > 0 ? count : 1) * sizeof *id, "bodies.nc");
  short *kind = efsi_malloc((size_t)(count > 0 ? count : 1) * sizeof *kind, "bodies.nc");
  for (long n = 0; n < count; n++) {
    id[n] = record[n].id;
    kind[n] = (short)record[n].kind;
  }
  const size_t at = (size_t)first, n = (size_t)count;
  BODIES_CHECK(b, nc_put_vara_longlong(b->ncid, b->body, &at, &n, id));
  BODIES_CHECK(b, nc_put_vara_short(b->ncid, b->kind, &at, &n, kind));
  free(id);
  free(kind);
}

/* The first body of writer r's chunks: [r nch / size, (r + 1) nch / size) of nch chunks of
 * `chunk` bodies, cut at the total. */
static long writer_first(long chunks, long chunk, long total, int size, int r)
{
  const long first = chunks * r / size * chunk;
  return first < total ? first : total;
}

/* Collective, the parallel path: the records regrouped so that each chunk of the record
 * variables (BODIES_NC_CHUNK_BODIES bodies) is written by one rank alone.  HDF5 writes a chunk that
 * several ranks share by reading, changing and writing it back, and those writes can undo
 * each other: seen on 4 ranks as another rank's values, or none, in a record
 * (tests/test_body_shapes_mpi).  Rank r takes the whole chunks [r nch / size, (r + 1) nch /
 * size); each received piece lands at its ids, in whatever rank order the slabs come.
 * Returns the regrouped records (freed by the caller) and sets *first, *count to them. */
static efsi_body_record *align_to_chunks(const efsi_bodies_file *f, const efsi_decomp *d,
                                         long *first, long *count,
                                         const efsi_body_record *record)
{
  const long chunk = f->total < BODIES_NC_CHUNK_BODIES ? (f->total > 0 ? f->total : 1)
                                                   : BODIES_NC_CHUNK_BODIES;
  const long chunks = (f->total + chunk - 1) / chunk;
  const int size = d->size;
  long mine[2] = {*first, *count}, *slab = efsi_malloc((size_t)size * 2 * sizeof *slab,
                                                      "bodies.nc");
  MPI_CHECK(MPI_Allgather(mine, 2, MPI_LONG, slab, 2, MPI_LONG, d->comm));
  int *sends = efsi_malloc((size_t)size * 4 * sizeof *sends, "bodies.nc");
  int *send_at = sends + size, *recvs = sends + 2 * size, *recv_at = sends + 3 * size;
  const long lo = writer_first(chunks, chunk, f->total, size, d->rank),
             hi = writer_first(chunks, chunk, f->total, size, d->rank + 1);
  for (int r = 0; r < size; r++) {
    /* what this rank sends to writer r, and what it receives from slab r */
    const long r_lo = writer_first(chunks, chunk, f->total, size, r),
               r_hi = writer_first(chunks, chunk, f->total, size, r + 1);
    const long a = *first > r_lo ? *first : r_lo;
    const long b = *first + *count < r_hi ? *first + *count : r_hi;
    sends[r] = b > a ? (int)(b - a) : 0;
    send_at[r] = b > a ? (int)(a - *first) : 0;
    const long c = slab[2 * r] > lo ? slab[2 * r] : lo;
    const long e = slab[2 * r] + slab[2 * r + 1] < hi ? slab[2 * r] + slab[2 * r + 1] : hi;
    recvs[r] = e > c ? (int)(e - c) : 0;
    recv_at[r] = e > c ? (int)(c - lo) : 0;
  }
  MPI_Datatype one;
  MPI_CHECK(MPI_Type_contiguous((int)sizeof *record, MPI_BYTE, &one));
  MPI_CHECK(MPI_Type_commit(&one));
  efsi_body_record *mine_now = efsi_malloc((size_t)(hi > lo ? hi - lo : 1) * sizeof *mine_now,
                                           "bodies.nc");
  MPI_CHECK(MPI_Alltoallv(record, sends, send_at, one, mine_now, recvs, recv_at, one, d->comm));
  MPI_CHECK(MPI_Type_free(&one));
  free(sends);
  free(slab);
  *first = lo;
  *count = hi - lo;
  return mine_now;
}

double bodies_nc_append(const efsi_bodies_file *f, const efsi_decomp *d, long step,
                        double time, long first, long count, const efsi_body_record *record)
{
  char path[EFSI_PATH_LEN + 32], temp[EFSI_PATH_LEN + 40];
  snprintf(path, sizeof path, "%s/bodies.nc", f->dir);
  snprintf(temp, sizeof temp, "%s.tmp", path);
  const double bytes = (double)f->total * 16 * sizeof(double) + 16;
  int exists = d->rank == 0 && access(path, F_OK) == 0;
  MPI_CHECK(MPI_Bcast(&exists, 1, MPI_INT, 0, d->comm));
  ncfile_need_room(path, d, bytes + (exists ? 0 : f->total * 10.0 + 32768));
  efsi_body_record *all = NULL;
  /* In parallel for many bodies; through rank 0 for few (a parallel open, append and close
   * costs far more than gathering a few MB: docs/output.md, "bodies.nc") and with a serial
   * NetCDF library: rank 0 writes everything, the others send it their slabs. */
#ifdef HAVE_NETCDF_PAR
  const int parallel = f->total > f->serial_up_to;
#else
  const int parallel = 0;
#endif
  const int holds = parallel || d->rank == 0;
  if (!parallel) {
    int mine = (int)(count * (long)sizeof *record), *counts = NULL, *displs = NULL;
    if (holds) {
      counts = efsi_malloc((size_t)d->size * sizeof *counts, "bodies.nc");
      displs = efsi_malloc((size_t)d->size * sizeof *displs, "bodies.nc");
      all = efsi_malloc((size_t)(f->total > 0 ? f->total : 1) * sizeof *all, "bodies.nc");
    }
    MPI_CHECK(MPI_Gather(&mine, 1, MPI_INT, counts, 1, MPI_INT, 0, d->comm));
    for (int r = 0; holds && r < d->size; r++) displs[r] = r ? displs[r - 1] + counts[r - 1] : 0;
    MPI_CHECK(MPI_Gatherv(record, mine, MPI_BYTE, all, counts, displs, MPI_BYTE, 0, d->comm));
    free(counts);
    free(displs);
    first = 0;
    count = holds ? f->total : 0;
    record = all;
  } else {
    all = align_to_chunks(f, d, &first, &count, record);
    record = all;
  }
  bodies_ids b = {.path = path, .temp = exists ? NULL : temp, .parallel = parallel};
  if (holds) {
    const char *name = exists ? path : temp;
#ifdef HAVE_NETCDF_PAR
    if (parallel && exists)
      BODIES_CHECK(&b, nc_open_par(name, NC_WRITE, d->comm, MPI_INFO_NULL, &b.ncid));
    else if (parallel)
      BODIES_CHECK(&b, nc_create_par(name, NC_NETCDF4 | NC_CLOBBER, d->comm, MPI_INFO_NULL,
                                     &b.ncid));
    else
#endif
    if (exists) BODIES_CHECK(&b, nc_open(name, NC_WRITE, &b.ncid));
    else BODIES_CHECK(&b, nc_create(name, NC_NETCDF4 | NC_CLOBBER, &b.ncid));
    size_t records = 0;
    if (exists) inquire_file(&b, f->total, &records);
    else define_file(&b, f);
    if (!exists) write_bodies(&b, first, count, record);
    write_record(&b, d->rank == 0, records, step, time, first, count, record);
    BODIES_CHECK(&b, nc_close(b.ncid));
  }
  free(all);
  MPI_CHECK(MPI_Barrier(d->comm));
  if (!exists) {
    int failed = 0;
    if (d->rank == 0) {
      const int fd = open(temp, O_RDONLY);
      if (fd < 0 || fsync(fd) != 0) failed = errno;
      if (fd >= 0) close(fd);
      if (!failed && rename(temp, path) != 0) failed = errno;
    }
    MPI_CHECK(MPI_Bcast(&failed, 1, MPI_INT, 0, d->comm));
    if (failed && d->rank == 0) {
      remove(temp);
      output_failed(path, "cannot write %s: %s", path, strerror(failed));
    }
    if (failed) MPI_CHECK(MPI_Barrier(d->comm));
  }
  return bytes;
}

/* ---- the cut at a restart, and the last step ------------------------------------------ */

/* Copy variable v of in (with its attributes and chunking) into out, define mode. */
static int copy_definition(int in, int v, int out, int parallel, char *err, size_t errlen,
                           const char *path)
{
  char name[NC_MAX_NAME + 1];
  nc_type type;
  int ndims, dims[NC_MAX_VAR_DIMS], natts, id, storage;
  size_t chunks[NC_MAX_VAR_DIMS];
  NC_TRY(nc_inq_var(in, v, name, &type, &ndims, dims, &natts), path, "a variable", err, errlen);
  NC_TRY(nc_def_var(out, name, type, ndims, dims, &id), path, name, err, errlen);
  if (nc_inq_var_chunking(in, v, &storage, chunks) == NC_NOERR && storage == NC_CHUNKED)
    NC_TRY(nc_def_var_chunking(out, id, NC_CHUNKED, chunks), path, name, err, errlen);
  for (int a = 0; a < natts; a++) {
    char att[NC_MAX_NAME + 1];
    NC_TRY(nc_inq_attname(in, v, a, att), path, name, err, errlen);
    NC_TRY(nc_copy_att(in, v, att, out, id), path, att, err, errlen);
  }
#ifdef HAVE_NETCDF_PAR
  /* a write that extends the unlimited dimension is collective (of one process here) */
  if (parallel) NC_TRY(nc_var_par_access(out, id, NC_COLLECTIVE), path, name, err, errlen);
#else
  (void)parallel;
#endif
  return 0;
}

/* Copy the values of variable v: whole, or its first `keep` records along time. */
static int copy_values(int in, int v, int out, int time_dim, size_t keep, char *err,
                       size_t errlen, const char *path)
{
  char name[NC_MAX_NAME + 1];
  nc_type type;
  int ndims, dims[NC_MAX_VAR_DIMS];
  size_t size, len[NC_MAX_VAR_DIMS];
  NC_TRY(nc_inq_var(in, v, name, &type, &ndims, dims, NULL), path, "a variable", err, errlen);
  NC_TRY(nc_inq_type(in, type, NULL, &size), path, name, err, errlen);
  size_t per_record = size;
  for (int k = 0; k < ndims; k++) {
    NC_TRY(nc_inq_dimlen(in, dims[k], &len[k]), path, name, err, errlen);
    if (k > 0 || dims[0] != time_dim) per_record *= len[k];
  }
  const int by_record = ndims > 0 && dims[0] == time_dim;
  const size_t records = by_record ? keep : 1;
  void *buf = efsi_malloc(per_record > 0 ? per_record : 1, "the copy of bodies.nc");
  int failed = 0;
  for (size_t r = 0; r < records && !failed; r++) {
    size_t start[NC_MAX_VAR_DIMS] = {0}, count[NC_MAX_VAR_DIMS];
    for (int k = 0; k < ndims; k++) count[k] = len[k];
    if (by_record) {
      start[0] = r;
      count[0] = 1;
    }
    failed = nc_get_vara(in, v, start, count, buf) != NC_NOERR
          || nc_put_vara(out, v, start, count, buf) != NC_NOERR;
  }
  free(buf);
  if (failed) return nc_message(err, errlen, "%s: cannot copy variable %s", path, name);
  return 0;
}

int bodies_nc_cut(const efsi_bodies_file *f, long restart_step, char *err, size_t errlen)
{
  const char *dir = f->dir;
  char path[EFSI_PATH_LEN + 32], temp[EFSI_PATH_LEN + 40];
  snprintf(path, sizeof path, "%s/bodies.nc", dir);
  snprintf(temp, sizeof temp, "%s.tmp", path);
  remove(temp);   /* of a creation that did not finish */
  if (access(path, F_OK) != 0) return 0;
  char why[1024];
  int in;
  if (ncfile_probe(path, why, sizeof why) || nc_open(path, NC_NOWRITE, &in) != NC_NOERR) {
    char aside[EFSI_PATH_LEN + 64];
    for (int n = 1; n < 1000; n++) {
      snprintf(aside, sizeof aside, "%s.damaged-%d", path, n);
      if (access(aside, F_OK) != 0) break;
    }
    if (rename(path, aside) != 0)
      return nc_message(err, errlen, "%s cannot be read and cannot be moved aside: %s", path,
                        strerror(errno));
    fprintf(stderr, "efsi: warning: %s cannot be read (a run killed while appending to it?): "
            "moved to %s; a new bodies.nc starts at the next bodies output\n", path, aside);
    return 0;
  }
  int time_dim, step_var, nvars, ndims, natts;
  size_t records = 0;
  NC_TRY(nc_inq_dimid(in, "time", &time_dim), path, "dimension time", err, errlen);
  NC_TRY(nc_inq_dimlen(in, time_dim, &records), path, "dimension time", err, errlen);
  NC_TRY(nc_inq_varid(in, "step", &step_var), path, "variable step", err, errlen);
  long long *steps = efsi_malloc((records > 0 ? records : 1) * sizeof *steps, "bodies.nc");
  size_t start = 0, keep = 0;
  int bad = records > 0 && nc_get_vara_longlong(in, step_var, &start, &records, steps) != NC_NOERR;
  while (!bad && keep < records && steps[keep] <= restart_step) keep++;
  free(steps);
  if (bad) {
    nc_close(in);
    return nc_message(err, errlen, "%s: variable step cannot be read", path);
  }
  if (keep == records) {
    nc_close(in);
    return 0;
  }
  if (keep == 0) {
    nc_close(in);
    if (remove(path) != 0)
      return nc_message(err, errlen, "cannot remove %s: %s", path, strerror(errno));
    return 0;
  }
  int out, body_dim;
  size_t bodies = 0;
  NC_TRY(nc_inq_dimid(in, "body", &body_dim), path, "dimension body", err, errlen);
  NC_TRY(nc_inq_dimlen(in, body_dim, &bodies), path, "dimension body", err, errlen);
  /* made as the appends' file is made (parallel HDF5 allocates its chunks otherwise) */
#ifdef HAVE_NETCDF_PAR
  const int parallel = (long)bodies > f->serial_up_to;
  if (parallel)
    NC_TRY(nc_create_par(temp, NC_NETCDF4 | NC_CLOBBER, MPI_COMM_SELF, MPI_INFO_NULL, &out), temp,
           "cannot create", err, errlen);
  else
#else
  const int parallel = 0;
#endif
  NC_TRY(nc_create(temp, NC_NETCDF4 | NC_CLOBBER, &out), temp, "cannot create", err, errlen);
  int failed = nc_set_fill(out, NC_NOFILL, NULL) != NC_NOERR
            || nc_inq(in, &ndims, &nvars, &natts, NULL) != NC_NOERR;
  for (int k = 0; !failed && k < ndims; k++) {
    char name[NC_MAX_NAME + 1];
    size_t len;
    int id;
    failed = nc_inq_dim(in, k, name, &len) != NC_NOERR
          || nc_def_dim(out, name, k == time_dim ? NC_UNLIMITED : len, &id) != NC_NOERR || id != k;
  }
  for (int a = 0; !failed && a < natts; a++) {
    char att[NC_MAX_NAME + 1];
    failed = nc_inq_attname(in, NC_GLOBAL, a, att) != NC_NOERR
          || nc_copy_att(in, NC_GLOBAL, att, out, NC_GLOBAL) != NC_NOERR;
  }
  for (int v = 0; !failed && v < nvars; v++)
    failed = copy_definition(in, v, out, parallel, err, errlen, path);
  failed = failed || nc_enddef(out) != NC_NOERR;
  for (int v = 0; !failed && v < nvars; v++)
    failed = copy_values(in, v, out, time_dim, keep, err, errlen, path);
  nc_close(in);
  if (nc_close(out) != NC_NOERR) failed = 1;
  if (!failed && rename(temp, path) != 0) failed = 1;
  if (failed) {
    remove(temp);
    if (!err[0]) snprintf(err, errlen, "cannot cut %s after step %ld: %s", path, restart_step,
                          strerror(errno));
    return 1;
  }
  return 0;
}

long bodies_nc_last_step(const char *path, double *time)
{
  char why[1024];
  int ncid, dim, step_var, time_var;
  size_t records = 0;
  long long step = -1;
  *time = 0.0;
  if (access(path, F_OK) != 0 || ncfile_probe(path, why, sizeof why)
      || nc_open(path, NC_NOWRITE, &ncid) != NC_NOERR)
    return -1;
  if (nc_inq_dimid(ncid, "time", &dim) == NC_NOERR && nc_inq_dimlen(ncid, dim, &records) == NC_NOERR
      && records > 0 && nc_inq_varid(ncid, "step", &step_var) == NC_NOERR
      && nc_inq_varid(ncid, "time", &time_var) == NC_NOERR) {
    const size_t last = records - 1;
    if (nc_get_var1_longlong(ncid, step_var, &last, &step) != NC_NOERR
        || nc_get_var1_double(ncid, time_var, &last, time) != NC_NOERR)
      step = -1;
  }
  nc_close(ncid);
  return (long)step;
}
