/* The output directory and what the fields and restart files share: directory checks,
 * file names, atomic creation (temporary name, then rename), and the write and read of a
 * distributed 3-D variable with dimensions (z, y, x) -- each rank its own hyperslab with
 * parallel NetCDF, or one z-plane at a time through rank 0 with serial NetCDF. */
#ifndef EFSI_OUTPUT_H
#define EFSI_OUTPUT_H

#include <errno.h>
#include <stddef.h>

#include "decomp/decomp.h"
#include "base/grid.h"
#include "base/errors.h"
#include "base/limits.h"

/* Rank 0 only (the driver broadcasts the result).  Creates dir and its parents when
 * missing.  An existing directory that holds efsi output (output_is_efsi_file) is refused
 * unless restarting; nothing is written into it.  Returns
 * nonzero with a one-line message in err on refusal or failure. */
int output_prepare(const char *dir, int restarting, char *err, size_t errlen);

/* Rank 0, for a fresh start only: output_prepare claims the folder by creating run.json
 * with O_EXCL before anything else is written (io/run_record.h: history_record_claim), so
 * that of two runs started into one new folder at once exactly one goes on ("already holds
 * efsi output" for the other, exit status 2).  A run refused after the claim and before it
 * began (its bodies, its voxel file) gives the folder back: the claim is removed. */
void output_release(const char *dir);

/* efsi --check: could output_prepare create and write dir?  The directory, or the nearest
 * of its parents that exists, must be a writable directory (whether dir already holds a
 * run's output is for the run to decide: a study checks its cases before it continues
 * them).  Nothing is created.  Nonzero with one line in err. */
int output_check(const char *dir, char *err, size_t errlen);

/* A write of the run failed (a full disk, a quota, a file-size limit): one line on stderr,
 * "efsi: error: " and the message (which names the file and the cause), run.json of the
 * folder of path recorded as failed (io/run_record.h), and the run ends with exit status 1
 * (docs/building.md, "Exit statuses"; docs/output.md, "Errors"): on one rank at once, on
 * several through MPI_Abort, which stops the ranks that wait in a collective. */
EFSI_NORETURN void output_failed(const char *path, const char *fmt, ...)
  __attribute__((format(printf, 2, 3)));

/* A name efsi writes into an output directory: diagnostics.csv, bodies.csv, bodies.nc,
 * average.nc, run.json, fields_*.nc, restart_*.nc, box_*.nc and slices_*.nc, and their
 * temporary names (a run that died mid-write is a previous run too). */
int output_is_efsi_file(const char *name);

/* What this NetCDF library can do for the selective outputs (docs/output.md, "Compression
 * and quantization"): deflate (with parallel NetCDF: filters on parallel writes, NetCDF
 * >= 4.7.4 with HDF5 >= 1.10.3) and quantization (nc_def_var_quantize, NetCDF >= 4.9.0).
 * 1 when it can; 0 with one line saying why not in why. */
int ncfile_can_deflate(char *why, size_t len);
int ncfile_can_quantize(char *why, size_t len);

/* path <- "dir/kind_NNNNNNNN.nc" (step with 8 digits).  Nonzero when it does not fit. */
int output_path(char *path, size_t len, const char *dir, const char *kind, long step);

/* A NetCDF-4 file shared by the ranks of a decomposition.  With parallel NetCDF every rank
 * holds it open; with serial NetCDF only rank 0 does and the others pass their data
 * through it.  Metadata calls (nc_def_*, nc_put_att_*) are made where holds_file. */
typedef struct {
  int ncid;                  /* valid where holds_file */
  int holds_file;
  const efsi_decomp *d;
  const efsi_grid *g;
  char path[EFSI_PATH_LEN];  /* the final name */
  char temp[EFSI_PATH_LEN];  /* the name while writing */
  double *block;             /* this rank's owned cells, packed k, j, i */
  double *plane;             /* serial build, rank 0: one global z-plane */
  double *piece;             /* serial build, rank 0: one rank's part of a plane */
  int (*blocks)[6];          /* serial build, rank 0: offset[3], n[3] of every rank */
  int stall;                 /* seconds to stop in the middle of writing (the debug setting
                                stall_write, io/debug.h); 0 in a run */
  int time_dim, time_var;    /* the time axis of a file of a series (-1: none) */
  double time;               /* its one value */
} efsi_ncfile;

/* A NetCDF call on a file being written failed: remove the temporary file (the previous
 * files are untouched) and stop every rank with status 1, naming the file, the NetCDF
 * message and the system's reason (a full disk, a quota, a file-size limit). */
EFSI_NORETURN void ncfile_failed(const efsi_ncfile *f, int rc, const char *call);
#define NCFILE_CHECK(f, call) do { errno = 0; int nc_rc_ = (call); \
  if (nc_rc_ != NC_NOERR) ncfile_failed((f), nc_rc_, #call); } while (0)

/* Collective: stop every rank (status 1, naming path, run.json recorded as failed as by
 * output_failed) when the folder of path has less room than bytes (free space, the
 * file-size limit), before anything of the file is written; on a decomposition of all the
 * ranks they end together through MPI_Finalize, without MPI_Abort's report. */
void ncfile_need_room(const char *path, const efsi_decomp *d, double bytes);

/* Collective.  Creates path's temporary name and defines the dimensions z, y, x (global
 * sizes; ids in dim[0..2] in that order).  With time (a file of a series: fields, averages)
 * a dimension time of length 1 comes first, with its CF coordinate variable time(time)
 * (units us, standard_name time, axis T) holding *time, and every 3-D variable defined
 * later is on (time, z, y, x), so that ParaView and xarray.open_mfdataset see a series at
 * the run's times.  The file stays in define mode.  nvars: the 3-D variables it will hold;
 * when the folder has less room (free space, the file-size limit) the run stops as in
 * ncfile_failed before the file is created. */
void ncfile_create(efsi_ncfile *f, const char *path, const efsi_decomp *d,
                   const efsi_grid *g, int dim[3], int nvars, const double *time);

/* Collective, for a file whose dimensions the caller defines: as ncfile_create (the
 * temporary name, the room for about `values` doubles in nvars variables, the time
 * dimension of a series) without the dimensions z, y, x; the caller defines its
 * dimensions, then calls ncfile_begin_done (the time coordinate) before its variables. */
void ncfile_begin(efsi_ncfile *f, const char *path, const efsi_decomp *d, const efsi_grid *g,
                  double values, int nvars, const double *time);
void ncfile_begin_done(efsi_ncfile *f);

/* The cells of a variable along each direction: count[d] global indices, increasing (a
 * whole direction, the strided range of a box, the planes of a slice). */
typedef struct {
  int count[3];
  const int *index[3];
} efsi_cell_set;

/* Collective: the most cells of set along each direction that one rank's block holds (the
 * chunk of a compressed variable: one rank's piece). */
void ncfile_cells_per_block(const efsi_ncfile *f, const efsi_cell_set *set, size_t chunk[3]);

/* Collective: write the cells of set of field (layout g; centre_dir as in ncfile_put;
 * divide_by > 0 divides every value: a sum into a mean) into varid, a variable on
 * (time, count[2], count[1], count[0]) of a file with a time axis (else without time). */
void ncfile_put_cells(efsi_ncfile *f, int varid, const double *field, int centre_dir,
                      double divide_by, const efsi_cell_set *set);

/* Where holds_file: a double variable over dims (1 or 3 of them; 3 means (time, z, y, x) in
 * a file with a time axis) with units and long_name attributes, collective access with
 * parallel NetCDF.  Returns its id. */
int ncfile_define(efsi_ncfile *f, const char *name, int ndims, const int *dims,
                  const char *units, const char *long_name);

/* Collective: leave define mode (and write the time coordinate, if any). */
void ncfile_enddef(efsi_ncfile *f);

/* Collective: write the owned cells of field (layout g).  centre_dir < 0 writes the values
 * as stored; centre_dir = 0, 1, 2 writes (f(c) + f(c + e_dir))/2, a face-centred velocity
 * averaged to the cell centre, which reads the halo layer at the high side (width 1). */
void ncfile_put(efsi_ncfile *f, int varid, const double *field, int centre_dir);

/* Collective: a 1-D variable written whole by rank 0 (coordinates). */
void ncfile_put_axis(efsi_ncfile *f, int varid, size_t n, const double *values);

/* Collective: close, then rename the temporary file to its final name on rank 0; returns
 * when the final file is in place for every rank. */
void ncfile_commit(efsi_ncfile *f);

/* One process, before it opens a file a user hands us (restart, voxels): the NetCDF and
 * HDF5 libraries crash on some damaged files (docs/building.md, "Fuzzing"), so a child
 * process opens it first and reads its names, dimensions and attributes.  Nonzero with a
 * one-line message naming the file when the child does not come back cleanly. */
int ncfile_probe(const char *path, char *err, size_t errlen);

/* A file that nc_open refused with rc: why, in one line naming the file, into err (an empty
 * file; a truncated one, with its size and the size its HDF5 header names; else a damaged
 * one, with the library's message).  Returns 1, so that a reader can
 * return ncfile_unreadable(path, rc, err, errlen);  */
int ncfile_unreadable(const char *path, int rc, char *err, size_t errlen);

/* Collective: open an existing file for reading (header already checked by the caller).
 * Nonzero on every rank, with the same one-line message naming the file, when it cannot be
 * opened (then nothing is to be closed). */
int ncfile_open(efsi_ncfile *f, const char *path, const efsi_decomp *d, const efsi_grid *g,
                char *err, size_t errlen);

/* Collective: read variable name (dims z, y, x) into the owned cells of field; halos are
 * left alone.  Every value must be finite.  Nonzero on every rank, with the same one-line
 * message naming the file and the variable, when it cannot be read (a damaged file) or
 * holds a NaN, an infinity or the NetCDF fill value (what a truncated classic file reads
 * past its end). */
int ncfile_get(efsi_ncfile *f, const char *name, double *field, char *err, size_t errlen);

/* Collective: close a file opened for reading. */
void ncfile_close(efsi_ncfile *f);

/* Collective: did any rank fail?  The message of the lowest failing rank goes to every
 * rank's err; returns nonzero on every rank when one failed. */
int ncfile_agree(const efsi_decomp *d, int failed, char *err, size_t errlen);

#endif
