/* The output directory (creation, refusal to overwrite a previous run) and the distributed
 * NetCDF variable shared by fields and restart files.  A 3-D variable is written from each
 * rank's owned block, packed k, j, i: as one hyperslab per rank with parallel NetCDF, or
 * gathered plane by plane on rank 0 with serial NetCDF, so rank 0 never holds the grid. */
#define _POSIX_C_SOURCE 200809L

#include "io/output.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/errors.h"
#include "io/debug.h"
#include "io/nc_check.h"
#include "io/run_record.h"
#ifdef HAVE_NETCDF_PAR
#include <netcdf_par.h>
#endif
#if defined(__has_include)
#if __has_include(<netcdf_meta.h>)
#include <netcdf_meta.h>   /* NC_HAS_QUANTIZE, NC_HAS_PAR_FILTERS */
#endif
#endif

/* ---- the output directory ---------------------------------------------------------- */

/* mkdir -p: each missing component in turn; an existing component is fine. */
static int make_directories(const char *dir, char *err, size_t errlen)
{
  char partial[EFSI_PATH_LEN];
  size_t len = strlen(dir);
  if (len == 0 || len >= sizeof partial) {
    snprintf(err, errlen, "output directory name '%s' is empty or too long", dir);
    return 1;
  }
  for (size_t at = 1; at <= len; at++) {
    if (dir[at] != '/' && dir[at] != '\0') continue;
    memcpy(partial, dir, at);
    partial[at] = '\0';
    if (mkdir(partial, 0777) != 0 && errno != EEXIST) {
      snprintf(err, errlen, "cannot create output directory %s: %s", partial, strerror(errno));
      return 1;
    }
  }
  return 0;
}

int output_is_efsi_file(const char *name)
{
  return strncmp(name, "diagnostics.csv", 15) == 0 || strncmp(name, "bodies.csv", 10) == 0
      || strncmp(name, "bodies.nc", 9) == 0 || strncmp(name, "average.nc", 10) == 0
      || strncmp(name, "run.json", 8) == 0
      || ((strncmp(name, "fields_", 7) == 0 || strncmp(name, "restart_", 8) == 0
           || strncmp(name, "box_", 4) == 0 || strncmp(name, "slices_", 7) == 0)
          && strstr(name, ".nc") != NULL);
}

/* Does dir hold a file output_is_efsi_file names?  -1 when it cannot be listed. */
static int holds_efsi_output(const char *dir)
{
  DIR *listing = opendir(dir);
  if (!listing) return -1;
  int found = 0;
  for (struct dirent *e = readdir(listing); e && !found; e = readdir(listing))
    found = output_is_efsi_file(e->d_name);
  closedir(listing);
  return found;
}

static int already_used(const char *dir, char *err, size_t errlen)
{
  snprintf(err, errlen, "output directory %s already holds efsi output; choose another -o "
           "or continue it with --restart", dir);
  return 1;
}

int output_prepare(const char *dir, int restarting, char *err, size_t errlen)
{
  struct stat st;
  if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
    snprintf(err, errlen, "output path %s exists and is not a directory", dir);
    return 1;
  }
  if (make_directories(dir, err, errlen)) return 1;
  if (access(dir, W_OK | X_OK) != 0) {
    snprintf(err, errlen, "output directory %s is not writable: %s", dir, strerror(errno));
    return 1;
  }
  if (restarting) return 0;
  history_record_drop_stale(dir);
  const int found = holds_efsi_output(dir);
  if (found < 0) {
    snprintf(err, errlen, "cannot read output directory %s: %s", dir, strerror(errno));
    return 1;
  }
  if (found) return already_used(dir, err, errlen);
  /* the claim: run.json created exclusively (io/run_record.h), so that of two runs that
   * found the folder empty at once one goes on and the other is refused before it writes
   * anything */
  const int claimed = history_record_claim(dir, err, errlen);
  if (claimed > 0) return already_used(dir, err, errlen);
  return claimed < 0;
}

void output_release(const char *dir) { history_record_unclaim(dir); }

int output_check(const char *dir, char *err, size_t errlen)
{
  struct stat st;
  char nearest[EFSI_PATH_LEN];
  snprintf(nearest, sizeof nearest, "%s", dir);
  /* the directory, or the nearest of its parents that exists: where mkdir -p starts */
  while (stat(nearest, &st) != 0) {
    char *slash = strrchr(nearest, '/');
    while (slash && slash > nearest && slash[1] == '\0') {
      *slash = '\0';
      slash = strrchr(nearest, '/');
    }
    if (!slash) snprintf(nearest, sizeof nearest, ".");
    else if (slash == nearest) nearest[1] = '\0';
    else *slash = '\0';
  }
  const int exists = strcmp(nearest, dir) == 0;
  if (!S_ISDIR(st.st_mode)) {
    snprintf(err, errlen, "output path %s: %s exists and is not a directory", dir, nearest);
    return 1;
  }
  if (access(nearest, W_OK | X_OK) != 0) {
    const int reason = errno;
    if (exists)
      snprintf(err, errlen, "output directory %s is not writable: %s", dir, strerror(reason));
    else
      snprintf(err, errlen, "output directory %s cannot be created: %s is not writable: %s",
               dir, nearest, strerror(reason));
    return 1;
  }
  return 0;
}

/* The line of a failed write on stderr and the failure in run.json of the folder of path. */
static void say_failed(const char *path, const char *why)
{
  char dir[EFSI_PATH_LEN];
  fprintf(stderr, "efsi: error: %s\n", why);
  snprintf(dir, sizeof dir, "%s", path);
  char *slash = strrchr(dir, '/');
  if (slash) *slash = '\0';
  else snprintf(dir, sizeof dir, ".");
  history_record_failure(dir, why);
  fflush(stdout);
  fflush(stderr);
}

void output_failed(const char *path, const char *fmt, ...)
{
  char why[2 * EFSI_PATH_LEN];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  say_failed(path, why);
  int size = 2, initialised = 0, finalised = 0;
  MPI_Initialized(&initialised);
  MPI_Finalized(&finalised);
  if (initialised && !finalised) MPI_Comm_size(MPI_COMM_WORLD, &size);
  /* one rank has no one to stop: it leaves at once, without the library's exit handlers
   * (HDF5 would flush the file that failed) and without MPI_Abort, whose report of a
   * singleton is a garbled Open MPI message ("Data unpack would read past end of buffer") */
  if (size == 1) _exit(EFSI_EXIT_RUNTIME);
  if (initialised && !finalised) MPI_Abort(MPI_COMM_WORLD, EFSI_EXIT_RUNTIME);
  _exit(EFSI_EXIT_RUNTIME);
}

int ncfile_can_deflate(char *why, size_t len)
{
#if defined(HAVE_NETCDF_PAR) && !(defined(NC_HAS_PAR_FILTERS) && NC_HAS_PAR_FILTERS)
  snprintf(why, len, "this efsi's parallel NetCDF library (%s) cannot compress in parallel "
           "writes (NetCDF >= 4.7.4 with HDF5 >= 1.10.3 can): set 0", nc_inq_libvers());
  return 0;
#else
  (void)why;
  (void)len;
  return 1;
#endif
}

int ncfile_can_quantize(char *why, size_t len)
{
#if defined(NC_HAS_QUANTIZE) && NC_HAS_QUANTIZE
  (void)why;
  (void)len;
  return 1;
#else
  snprintf(why, len, "this efsi's NetCDF library (%s) has no quantization "
           "(nc_def_var_quantize needs NetCDF >= 4.9.0): set 0", nc_inq_libvers());
  return 0;
#endif
}

int output_path(char *path, size_t len, const char *dir, const char *kind, long step)
{
  int n = snprintf(path, len, "%s/%s_%08ld.nc", dir, kind, step);
  return n < 0 || (size_t)n >= len;
}

/* ---- packing of the owned block ---------------------------------------------------- */

/* block(i,j,k) <- f(i,j,k) over the owned cells, or the average of f with its neighbour
 * in direction centre_dir (face to cell centre: u_c(i) = (u(i) + u(i+1))/2). */
static void pack_block(const efsi_grid *g, const double *restrict f, int centre_dir,
                       double *restrict block)
{
  const int nx = g->n[0], ny = g->n[1], nz = g->n[2];
  const ptrdiff_t next = centre_dir < 0 ? 0 : g->stride[centre_dir];
#pragma omp parallel for
  for (int k = 0; k < nz; k++)
    for (int j = 0; j < ny; j++) {
      const double *restrict row = f + grid_index(g, 0, j, k);
      double *restrict out = block + ((size_t)k * ny + j) * nx;
      if (centre_dir < 0)
        for (int i = 0; i < nx; i++) out[i] = row[i];
      else
        for (int i = 0; i < nx; i++) out[i] = 0.5 * (row[i] + row[i + next]);
    }
}

/* The owned cells of f <- block; halos untouched. */
static void unpack_block(const efsi_grid *g, const double *restrict block, double *restrict f)
{
  const int nx = g->n[0], ny = g->n[1], nz = g->n[2];
#pragma omp parallel for
  for (int k = 0; k < nz; k++)
    for (int j = 0; j < ny; j++) {
      double *restrict row = f + grid_index(g, 0, j, k);
      const double *restrict in = block + ((size_t)k * ny + j) * nx;
      for (int i = 0; i < nx; i++) row[i] = in[i];
    }
}

/* Buffers: every rank its block; rank 0 of a serial build a plane, a piece, and where
 * every rank's block lies. */
static void ncfile_buffers(efsi_ncfile *f, const char *path, const efsi_decomp *d,
                           const efsi_grid *g)
{
  f->d = d;
  f->g = g;
  f->ncid = -1;
  f->time_dim = f->time_var = -1;
  if (snprintf(f->path, sizeof f->path, "%s", path) >= (int)sizeof f->path
      || snprintf(f->temp, sizeof f->temp, "%s.tmp", path) >= (int)sizeof f->temp)
    efsi_abort(EFSI_EXIT_RUNTIME, "file name too long: %s", path);
  f->block = efsi_malloc(grid_cells(g) * sizeof(double), "a NetCDF block");
  f->plane = f->piece = NULL;
  f->blocks = NULL;
#ifdef HAVE_NETCDF_PAR
  f->holds_file = 1;
#else
  f->holds_file = d->rank == 0;
  int mine[6] = {g->offset[0], g->offset[1], g->offset[2], g->n[0], g->n[1], g->n[2]};
  if (d->rank == 0) {
    f->blocks = efsi_malloc((size_t)d->size * sizeof *f->blocks, "the NetCDF blocks");
    f->plane = efsi_malloc((size_t)g->global_n[0] * g->global_n[1] * sizeof(double), "a NetCDF plane");
    f->piece = efsi_malloc((size_t)g->global_n[0] * g->global_n[1] * sizeof(double), "a NetCDF plane");
  }
  MPI_CHECK(MPI_Gather(mine, 6, MPI_INT, f->blocks, 6, MPI_INT, 0, d->comm));
#endif
}

static void ncfile_release(efsi_ncfile *f)
{
  free(f->block);
  free(f->plane);
  free(f->piece);
  free(f->blocks);
  f->block = f->plane = f->piece = NULL;
  f->blocks = NULL;
}

/* ---- writing ----------------------------------------------------------------------- */

void ncfile_failed(const efsi_ncfile *f, int rc, const char *call)
{
  const int reason = errno;
  remove(f->temp);
  output_failed(f->path, "cannot write %s: %s%s%s (%s); the files written before are intact",
                f->path, nc_strerror(rc), reason ? ": " : "", reason ? strerror(reason) : "",
                call);
}

/* The debug setting stall_write=NAME[:SECONDS] (io/debug.h; docs/building.md, "Testing
 * faults") makes the writers of the files whose names start with NAME (restart_00000020.nc,
 * or restart for every restart file) pause for SECONDS (default 600) after the first
 * variable, so that a test can signal or kill the run in the middle of a write.  Returns
 * the seconds, 0 when the file is not named. */
static int stall_requested(const char *path)
{
  char asked[256];
  const char *base = strrchr(path, '/');
  if (debug_setting("stall_write", asked, sizeof asked) || !asked[0]) return 0;
  base = base ? base + 1 : path;
  const char *colon = strchr(asked, ':');
  const size_t len = colon ? (size_t)(colon - asked) : strlen(asked);
  if (strncmp(base, asked, len) != 0) return 0;
  const int seconds = colon ? atoi(colon + 1) : 600;
  return seconds > 0 ? seconds : 0;
}

/* What a NetCDF-4 file holds besides its values: the HDF5 superblock, the coordinate
 * variables, the attributes (about 1.1 KiB per variable measured on a 12-variable fields
 * file of 8 x 6 x 4 cells: 35 544 bytes for 18 624 of values), with room to spare. */
enum { NCFILE_HEADER_BYTES = 16384, NCFILE_VARIABLE_BYTES = 2048 };

/* Rank 0: is there room for bytes more in the folder of path (free space for this user,
 * the process's file-size limit)?  0, or an errno-like reason with the figures in why. */
static int room_for(const char *path, double bytes, char *why, size_t len)
{
  char dir[EFSI_PATH_LEN];
  snprintf(dir, sizeof dir, "%s", path);
  char *slash = strrchr(dir, '/');
  if (slash) *slash = '\0';
  else snprintf(dir, sizeof dir, ".");
  struct statvfs fs;
  if (statvfs(dir, &fs) == 0 && (double)fs.f_bavail * (double)fs.f_frsize < bytes) {
    snprintf(why, len, "%.0f KiB free in %s, the file needs about %.0f KiB",
             (double)fs.f_bavail * (double)fs.f_frsize / 1024.0, dir, ceil(bytes / 1024.0));
    return ENOSPC;
  }
  struct rlimit limit;
  if (getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY
      && (double)limit.rlim_cur < bytes) {
    snprintf(why, len, "the file-size limit (ulimit -f) is %.0f KiB, the file needs about "
             "%.0f KiB", (double)limit.rlim_cur / 1024.0, bytes / 1024.0);
    return EFBIG;
  }
  return 0;
}

void ncfile_need_room(const char *path, const efsi_decomp *d, double bytes)
{
  char why[EFSI_PATH_LEN + 128] = "";
  int reason = d->rank == 0 ? room_for(path, bytes, why, sizeof why) : 0;
  MPI_CHECK(MPI_Bcast(&reason, 1, MPI_INT, 0, d->comm));
  if (!reason) return;
  int world = 0;
  MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &world));
  if (d->size != world) {   /* a part of the ranks: the others are stopped by MPI_Abort */
    if (d->rank == 0)
      output_failed(path, "cannot write %s: %s: %s; the files written before are intact",
                    path, strerror(reason), why);
    MPI_CHECK(MPI_Barrier(d->comm));
  }
  /* every rank knows, before any of them opened the file: the run ends on all of them
   * together, without MPI_Abort */
  if (d->rank == 0) {
    char line[2 * EFSI_PATH_LEN + 256];
    snprintf(line, sizeof line, "cannot write %s: %s: %s; the files written before are "
             "intact", path, strerror(reason), why);
    say_failed(path, line);
  }
  MPI_Finalize();
  _exit(EFSI_EXIT_RUNTIME);
}

void ncfile_begin(efsi_ncfile *f, const char *path, const efsi_decomp *d, const efsi_grid *g,
                  double values, int nvars, const double *time)
{
  ncfile_buffers(f, path, d, g);
  f->stall = stall_requested(path);
  f->time = time ? *time : 0.0;
  /* A full disk found by parallel HDF5 in the middle of a collective write can leave the
   * ranks waiting for each other; look for the room first, so that the common case stops
   * cleanly before anything is written. */
  const double bytes = 8.0 * values + NCFILE_HEADER_BYTES + NCFILE_VARIABLE_BYTES * nvars;
  ncfile_need_room(f->path, d, bytes);
  if (!f->holds_file) return;
#ifdef HAVE_NETCDF_PAR
  NCFILE_CHECK(f, nc_create_par(f->temp, NC_NETCDF4 | NC_CLOBBER, d->comm, MPI_INFO_NULL, &f->ncid));
#else
  NCFILE_CHECK(f, nc_create(f->temp, NC_NETCDF4 | NC_CLOBBER, &f->ncid));
#endif
  /* Every value is written, so HDF5 need not pre-fill. */
  NCFILE_CHECK(f, nc_set_fill(f->ncid, NC_NOFILL, NULL));
  /* CF order: the slowest index first. */
  if (time) NCFILE_CHECK(f, nc_def_dim(f->ncid, "time", 1, &f->time_dim));
}

/* The time coordinate of a file of a series, after its dimensions. */
static void define_time(efsi_ncfile *f)
{
  if (!f->holds_file || f->time_dim < 0) return;
  /* units "us", not "microseconds": xarray keeps it a number (the run's time in us) */
  f->time_var = ncfile_define(f, "time", 1, &f->time_dim, "us", "simulated time");
  NCFILE_CHECK(f, nc_put_att_text(f->ncid, f->time_var, "standard_name", 4, "time"));
  NCFILE_CHECK(f, nc_put_att_text(f->ncid, f->time_var, "axis", 1, "T"));
}

void ncfile_begin_done(efsi_ncfile *f) { define_time(f); }

void ncfile_create(efsi_ncfile *f, const char *path, const efsi_decomp *d,
                   const efsi_grid *g, int dim[3], int nvars, const double *time)
{
  const double values = (double)nvars * g->global_n[0] * (double)g->global_n[1] * g->global_n[2];
  ncfile_begin(f, path, d, g, values, nvars, time);
  dim[0] = dim[1] = dim[2] = -1;
  if (!f->holds_file) return;
  NCFILE_CHECK(f, nc_def_dim(f->ncid, "z", (size_t)g->global_n[2], &dim[0]));
  NCFILE_CHECK(f, nc_def_dim(f->ncid, "y", (size_t)g->global_n[1], &dim[1]));
  NCFILE_CHECK(f, nc_def_dim(f->ncid, "x", (size_t)g->global_n[0], &dim[2]));
  define_time(f);
}

int ncfile_define(efsi_ncfile *f, const char *name, int ndims, const int *dims,
                  const char *units, const char *long_name)
{
  int id = -1;
  if (!f->holds_file) return id;
  int series[4];   /* a 3-D variable of a file with a time axis: (time, z, y, x) */
  if (ndims == 3 && f->time_dim >= 0) {
    series[0] = f->time_dim;
    memcpy(series + 1, dims, 3 * sizeof *dims);
    dims = series;
    ndims = 4;
  }
  NCFILE_CHECK(f, nc_def_var(f->ncid, name, NC_DOUBLE, ndims, dims, &id));
  NCFILE_CHECK(f, nc_put_att_text(f->ncid, id, "units", strlen(units), units));
  NCFILE_CHECK(f, nc_put_att_text(f->ncid, id, "long_name", strlen(long_name), long_name));
#ifdef HAVE_NETCDF_PAR
  NCFILE_CHECK(f, nc_var_par_access(f->ncid, id, NC_COLLECTIVE));
#endif
  return id;
}

void ncfile_enddef(efsi_ncfile *f)
{
  if (f->holds_file) NCFILE_CHECK(f, nc_enddef(f->ncid));
  if (f->time_dim >= 0) ncfile_put_axis(f, f->time_var, 1, &f->time);
}

#ifndef HAVE_NETCDF_PAR
/* Copy one rank's rows of a global z-plane to or from its contiguous piece. */
static void plane_piece(double *plane, int global_nx, const int block[6], double *piece,
                        int to_plane)
{
  const int ox = block[0], oy = block[1], nx = block[3], ny = block[4];
  for (int j = 0; j < ny; j++) {
    double *p = plane + (size_t)(oy + j) * global_nx + ox;
    double *q = piece + (size_t)j * nx;
    memcpy(to_plane ? p : q, to_plane ? q : p, (size_t)nx * sizeof(double));
  }
}

enum { TAG_PLANE = 4201 };

/* Does rank r's block (offset, n) hold global plane kg? */
static int holds_plane(const int block[6], int kg)
{
  return kg >= block[2] && kg < block[2] + block[5];
}
#endif

static void stall_if_asked(efsi_ncfile *f);

void ncfile_put(efsi_ncfile *f, int varid, const double *field, int centre_dir)
{
  const efsi_grid *g = f->g;
  pack_block(g, field, centre_dir, f->block);
  /* (time, z, y, x) with a time axis: the one time first */
  const int t = f->time_dim >= 0;
  size_t start[4] = {0, 0, 0, 0}, count[4] = {1, 1, 1, 1};
#ifdef HAVE_NETCDF_PAR
  for (int e = 0; e < 3; e++) {
    start[t + e] = (size_t)g->offset[2 - e];
    count[t + e] = (size_t)g->n[2 - e];
  }
  NCFILE_CHECK(f, nc_put_vara_double(f->ncid, varid, start, count, f->block));
#else
  const size_t row_plane = (size_t)g->n[0] * g->n[1];
  for (int kg = 0; kg < g->global_n[2]; kg++) {
    if (f->d->rank == 0) {
      for (int r = 0; r < f->d->size; r++) {
        const int *b = f->blocks[r];
        if (!holds_plane(b, kg)) continue;
        if (r == 0)
          plane_piece(f->plane, g->global_n[0], b, f->block + (kg - b[2]) * row_plane, 1);
        else {
          MPI_CHECK(MPI_Recv(f->piece, b[3] * b[4], MPI_DOUBLE, r, TAG_PLANE, f->d->comm,
                             MPI_STATUS_IGNORE));
          plane_piece(f->plane, g->global_n[0], b, f->piece, 1);
        }
      }
      start[t] = (size_t)kg;
      count[t + 1] = (size_t)g->global_n[1];
      count[t + 2] = (size_t)g->global_n[0];
      NCFILE_CHECK(f, nc_put_vara_double(f->ncid, varid, start, count, f->plane));
    } else if (kg >= g->offset[2] && kg < g->offset[2] + g->n[2]) {
      MPI_CHECK(MPI_Send(f->block + (kg - g->offset[2]) * row_plane, (int)row_plane,
                         MPI_DOUBLE, 0, TAG_PLANE, f->d->comm));
    }
  }
#endif
  stall_if_asked(f);
}

/* The positions [*first, *first + *n) of set's list along d that this block holds. */
static void cells_in_block(const efsi_grid *g, const efsi_cell_set *set, int d, int *first,
                           int *n)
{
  int lo = 0, hi = 0;
  while (lo < set->count[d] && set->index[d][lo] < g->offset[d]) lo++;
  hi = lo;
  while (hi < set->count[d] && set->index[d][hi] < g->offset[d] + g->n[d]) hi++;
  *first = lo;
  *n = hi - lo;
}

void ncfile_cells_per_block(const efsi_ncfile *f, const efsi_cell_set *set, size_t chunk[3])
{
  int most[3];
  for (int d = 0; d < 3; d++) {
    int first;
    cells_in_block(f->g, set, d, &first, &most[d]);
  }
  MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, most, 3, MPI_INT, MPI_MAX, f->d->comm));
  for (int d = 0; d < 3; d++) chunk[d] = (size_t)(most[d] > 0 ? most[d] : 1);
}

enum { TAG_PIECE = 4202 };

void ncfile_put_cells(efsi_ncfile *f, int varid, const double *field, int centre_dir,
                      double divide_by, const efsi_cell_set *set)
{
  const efsi_grid *g = f->g;
  int first[3], n[3];
  for (int d = 0; d < 3; d++) cells_in_block(g, set, d, &first[d], &n[d]);
  /* this rank's piece, packed k, j, i (at most its block: f->block) */
  const ptrdiff_t next = centre_dir < 0 ? 0 : g->stride[centre_dir];
  double *restrict out = f->block;
#pragma omp parallel for
  for (int kk = 0; kk < n[2]; kk++)
    for (int jj = 0; jj < n[1]; jj++) {
      const int k = set->index[2][first[2] + kk] - g->offset[2];
      const int j = set->index[1][first[1] + jj] - g->offset[1];
      double *restrict row = out + ((size_t)kk * n[1] + jj) * n[0];
      for (int ii = 0; ii < n[0]; ii++) {
        const ptrdiff_t p = grid_index(g, set->index[0][first[0] + ii] - g->offset[0], j, k);
        double value = centre_dir < 0 ? field[p] : 0.5 * (field[p] + field[p + next]);
        if (divide_by > 0) value /= divide_by;
        row[ii] = value;
      }
    }
  const int t = f->time_dim >= 0;
  size_t start[4] = {0, 0, 0, 0}, count[4] = {1, 1, 1, 1};
  for (int e = 0; e < 3; e++) {
    start[t + e] = (size_t)first[2 - e];
    count[t + e] = (size_t)n[2 - e];
  }
#ifdef HAVE_NETCDF_PAR
  NCFILE_CHECK(f, nc_put_vara_double(f->ncid, varid, start, count, out));
#else
  /* rank 0 writes every rank's piece in turn */
  int meta[6] = {first[0], first[1], first[2], n[0], n[1], n[2]};
  if (f->d->rank == 0) {
    double *piece = efsi_malloc(grid_cells(g) * sizeof(double) + 1, "a NetCDF piece");
    for (int r = 0; r < f->d->size; r++) {
      const double *values = out;
      if (r > 0) {
        MPI_CHECK(MPI_Recv(meta, 6, MPI_INT, r, TAG_PIECE, f->d->comm, MPI_STATUS_IGNORE));
        const int cells = meta[3] * meta[4] * meta[5];
        MPI_CHECK(MPI_Recv(piece, cells, MPI_DOUBLE, r, TAG_PIECE, f->d->comm,
                           MPI_STATUS_IGNORE));
        values = piece;
      }
      for (int e = 0; e < 3; e++) {
        start[t + e] = (size_t)meta[2 - e];
        count[t + e] = (size_t)meta[5 - e];
      }
      if (meta[3] * meta[4] * meta[5] > 0)
        NCFILE_CHECK(f, nc_put_vara_double(f->ncid, varid, start, count, values));
    }
    free(piece);
  } else {
    MPI_CHECK(MPI_Send(meta, 6, MPI_INT, 0, TAG_PIECE, f->d->comm));
    MPI_CHECK(MPI_Send(out, n[0] * n[1] * n[2], MPI_DOUBLE, 0, TAG_PIECE, f->d->comm));
  }
#endif
  stall_if_asked(f);
}

static void stall_if_asked(efsi_ncfile *f)
{
  if (!f->stall) return;
  fprintf(stderr, "efsi: test: stalling in the write of %s\n", f->path);
  fflush(stderr);
  for (unsigned left = (unsigned)f->stall; left > 0;) left = sleep(left);   /* through signals */
  f->stall = 0;
}

void ncfile_put_axis(efsi_ncfile *f, int varid, size_t n, const double *values)
{
  if (!f->holds_file) return;
  /* Collective with parallel NetCDF: every rank calls, only rank 0 has data. */
  size_t start = 0, count = f->d->rank == 0 ? n : 0;
  NCFILE_CHECK(f, nc_put_vara_double(f->ncid, varid, &start, &count, values));
}

void ncfile_commit(efsi_ncfile *f)
{
  if (f->holds_file) NCFILE_CHECK(f, nc_close(f->ncid));
  /* Every rank's data is in the closed temporary file before it takes the final name. */
  MPI_CHECK(MPI_Barrier(f->d->comm));
  int failed = 0;
  if (f->d->rank == 0) {
    /* on the disk, not only in the page cache, before the name says "complete" */
    const int fd = open(f->temp, O_RDONLY);
    if (fd < 0 || fsync(fd) != 0) failed = errno;
    if (fd >= 0) close(fd);
    if (!failed && rename(f->temp, f->path) != 0) failed = errno;
  }
  if (failed) {
    remove(f->temp);
    output_failed(f->path, "cannot write %s: %s (the files written before are intact)",
                  f->path, strerror(failed));
  }
  /* No rank goes on (and perhaps reads the file) before the rename. */
  MPI_CHECK(MPI_Bcast(&failed, 1, MPI_INT, 0, f->d->comm));
  ncfile_release(f);
}

/* ---- reading ----------------------------------------------------------------------- */

/* The child process of ncfile_probe: every name, dimension and attribute the readers will
 * ask for; what the library (or a sanitizer) says on its way down is the parent's one line. */
static void probe_child(const char *path)
{
  const int quiet = open("/dev/null", O_WRONLY);
  if (quiet >= 0) dup2(quiet, 2);
  int ncid, ndims = 0, nvars = 0, natts = 0;
  if (nc_open(path, NC_NOWRITE, &ncid) == NC_NOERR) {
    nc_inq(ncid, &ndims, &nvars, &natts, NULL);
    char name[NC_MAX_NAME + 1];
    for (int a = 0; a < natts; a++) nc_inq_attname(ncid, NC_GLOBAL, a, name);
    for (int v = 0; v < nvars; v++) {
      int n = 0, vatts = 0;
      nc_type type;
      if (nc_inq_varndims(ncid, v, &n) != NC_NOERR || n < 0 || n > NC_MAX_VAR_DIMS) continue;
      int dims[NC_MAX_VAR_DIMS];
      nc_inq_var(ncid, v, name, &type, NULL, dims, &vatts);
      for (int d = 0; d < n; d++) {
        size_t len;
        nc_inq_dimlen(ncid, dims[d], &len);
      }
    }
    nc_close(ncid);
  }
  _exit(0);
}

int ncfile_probe(const char *path, char *err, size_t errlen)
{
  fflush(stdout);
  fflush(stderr);
  const pid_t child = fork();
  if (child < 0) return 0;   /* no probe: the caller reads the file itself */
  if (child == 0) probe_child(path);
  /* a damaged file can also send the library into an endless loop: 30 s for what takes
   * milliseconds on a sound file */
  char limit[32];   /* the debug setting probe_seconds: a shorter wait (the fuzzing) */
  const double asked = debug_setting("probe_seconds", limit, sizeof limit) ? 0 : atof(limit);
  const int deadline = asked > 0 ? (int)(1000 * asked) : 30000;
  int status = 0, waited = 0;
  pid_t done = 0;
  while ((done = waitpid(child, &status, WNOHANG)) == 0 && waited < deadline) {
    usleep(1000 * (waited < 100 ? 1 : 20));
    waited += waited < 100 ? 1 : 20;
  }
  char message[1024] = "";
  if (done == 0) {
    kill(child, SIGKILL);
    waitpid(child, &status, 0);
    snprintf(message, sizeof message, "%.900s: a damaged file: the NetCDF library does not "
             "finish reading its header", path);
  } else if (done < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    snprintf(message, sizeof message, "%.900s: a damaged file: the NetCDF library fails on it "
             "(%s %d)", path, WIFSIGNALED(status) ? "signal" : "exit status",
             WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
  }
  if (!message[0]) return 0;
  snprintf(err, errlen, "%s", message);
  return 1;
}

/* The end-of-file address an HDF5 superblock at the start of a file names (versions 0-3;
 * a NetCDF-4 file is an HDF5 file), from its first n bytes b; -1 when it has none. */
static double hdf5_stored_eof(const unsigned char *b, size_t n)
{
  static const unsigned char signature[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
  if (n < 16 || memcmp(b, signature, 8) != 0) return -1;
  const int version = b[8];
  /* the size of an address, and where the base address lies; the end-of-file address
   * follows the base address and one other (free space, or the superblock extension) */
  const int offsets = version <= 1 ? b[13] : b[9];
  const size_t base = version == 0 ? 24 : version == 1 ? 28 : 12;
  if (version > 3 || offsets < 2 || offsets > 8) return -1;
  const size_t at = base + 2 * (size_t)offsets;
  if (at + (size_t)offsets > n) return -1;
  double eof = 0;
  for (int k = offsets - 1; k >= 0; k--) eof = eof * 256 + b[at + (size_t)k];
  return eof;
}

int ncfile_unreadable(const char *path, int rc, char *err, size_t errlen)
{
  struct stat st;
  unsigned char start[96];
  FILE *f = fopen(path, "rb");
  if (!f || stat(path, &st) != 0) {
    const int reason = errno;
    if (f) fclose(f);
    snprintf(err, errlen, "%s: cannot open: %s", path, strerror(reason));
    return 1;
  }
  const size_t n = fread(start, 1, sizeof start, f);
  fclose(f);
  const double eof = hdf5_stored_eof(start, n), size = (double)st.st_size;
  if (size == 0)
    snprintf(err, errlen, "%s: an empty file, not a NetCDF file", path);
  else if (eof > size)
    snprintf(err, errlen, "%s: a truncated file: %.0f bytes of the %.0f its header says it "
             "holds (a copy or a write that did not finish, or a full disk); %s", path, size,
             eof, nc_strerror(rc));
  else if (eof < 0 && (n < 3 || memcmp(start, "CDF", 3) != 0))
    snprintf(err, errlen, "%s: not a NetCDF file (%s)", path, nc_strerror(rc));
  else
    snprintf(err, errlen, "%s: a damaged file: the NetCDF library cannot open it (%s)", path,
             nc_strerror(rc));
  return 1;
}

int ncfile_agree(const efsi_decomp *d, int failed, char *err, size_t errlen)
{
  struct { int failed, rank; } mine = {failed != 0, -d->rank}, any;
  /* the largest (failed, -rank): a failed rank, the lowest of them */
  MPI_CHECK(MPI_Allreduce(&mine, &any, 1, MPI_2INT, MPI_MAXLOC, d->comm));
  if (!any.failed) return 0;
  MPI_CHECK(MPI_Bcast(err, (int)errlen, MPI_CHAR, -any.rank, d->comm));
  return 1;
}

int ncfile_open(efsi_ncfile *f, const char *path, const efsi_decomp *d, const efsi_grid *g,
                char *err, size_t errlen)
{
  ncfile_buffers(f, path, d, g);
  int rc = NC_NOERR;
  if (f->holds_file) {
#ifdef HAVE_NETCDF_PAR
    rc = nc_open_par(path, NC_NOWRITE, d->comm, MPI_INFO_NULL, &f->ncid);
#else
    rc = nc_open(path, NC_NOWRITE, &f->ncid);
#endif
    if (rc != NC_NOERR) {
      f->ncid = -1;
      ncfile_unreadable(path, rc, err, errlen);
    }
  }
  if (ncfile_agree(d, rc != NC_NOERR, err, errlen)) {
    if (f->ncid >= 0) nc_close(f->ncid);
    ncfile_release(f);
    return 1;
  }
  return 0;
}

/* The first failure of a read, kept in err; later ones are dropped. */
static void read_failed(int *failed, int rc, const char *path, const char *name, char *err,
                        size_t errlen)
{
  if (*failed || rc == NC_NOERR) return;
  *failed = 1;
  snprintf(err, errlen, "%s: reading variable %s: %s (a damaged file?)", path, name,
           nc_strerror(rc));
}

int ncfile_get(efsi_ncfile *f, const char *name, double *field, char *err, size_t errlen)
{
  const efsi_grid *g = f->g;
  int varid = -1, failed = 0;
  /* every rank goes through every collective call and message, failed or not, so that
   * none waits for another; the verdict is shared at the end */
  if (f->holds_file) read_failed(&failed, nc_inq_varid(f->ncid, name, &varid), f->path, name,
                                 err, errlen);
  const size_t cells = grid_cells(g);
#ifdef HAVE_NETCDF_PAR
  size_t start[3] = {(size_t)g->offset[2], (size_t)g->offset[1], (size_t)g->offset[0]};
  size_t count[3] = {(size_t)g->n[2], (size_t)g->n[1], (size_t)g->n[0]};
  if (!failed) read_failed(&failed, nc_var_par_access(f->ncid, varid, NC_COLLECTIVE), f->path,
                           name, err, errlen);
  if (!failed) read_failed(&failed, nc_get_vara_double(f->ncid, varid, start, count, f->block),
                           f->path, name, err, errlen);
#else
  const size_t row_plane = (size_t)g->n[0] * g->n[1];
  for (int kg = 0; kg < g->global_n[2]; kg++) {
    if (f->d->rank == 0) {
      size_t start[3] = {(size_t)kg, 0, 0};
      size_t count[3] = {1, (size_t)g->global_n[1], (size_t)g->global_n[0]};
      const size_t plane = (size_t)g->global_n[0] * g->global_n[1];
      if (!failed) read_failed(&failed, nc_get_vara_double(f->ncid, varid, start, count,
                                                           f->plane), f->path, name, err, errlen);
      if (failed) memset(f->plane, 0, plane * sizeof(double));
      for (int r = 0; r < f->d->size; r++) {
        const int *b = f->blocks[r];
        if (!holds_plane(b, kg)) continue;
        if (r == 0)
          plane_piece(f->plane, g->global_n[0], b, f->block + (kg - b[2]) * row_plane, 0);
        else {
          plane_piece(f->plane, g->global_n[0], b, f->piece, 0);
          MPI_CHECK(MPI_Send(f->piece, b[3] * b[4], MPI_DOUBLE, r, TAG_PLANE, f->d->comm));
        }
      }
    } else if (kg >= g->offset[2] && kg < g->offset[2] + g->n[2]) {
      MPI_CHECK(MPI_Recv(f->block + (kg - g->offset[2]) * row_plane, (int)row_plane,
                         MPI_DOUBLE, 0, TAG_PLANE, f->d->comm, MPI_STATUS_IGNORE));
    }
  }
#endif
  /* a NaN or an infinity would blow the run up at its first step: refuse it here, with the
   * first such cell (global indices) */
  for (size_t c = 0; !failed && c < cells; c++) {
    if (isfinite(f->block[c]) && f->block[c] != NC_FILL_DOUBLE) continue;
    const size_t i = c % (size_t)g->n[0], j = c / (size_t)g->n[0] % (size_t)g->n[1];
    const size_t k = c / ((size_t)g->n[0] * g->n[1]);
    snprintf(err, errlen, "%s: variable %s holds %s at cell (%zu, %zu, %zu)", f->path, name,
             isnan(f->block[c]) ? "NaN" : isinf(f->block[c]) ? "an infinite value"
             : "the NetCDF fill value (never written: a truncated file?)", i + (size_t)g->offset[0],
             j + (size_t)g->offset[1], k + (size_t)g->offset[2]);
    failed = 1;
  }
  if (ncfile_agree(f->d, failed, err, errlen)) return 1;
  unpack_block(g, f->block, field);
  return 0;
}

void ncfile_close(efsi_ncfile *f)
{
  if (f->holds_file && f->ncid >= 0) nc_close(f->ncid);
  ncfile_release(f);
}
