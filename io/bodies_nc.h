/* bodies.nc: every body's tracer and shape at every bodies output step, one NetCDF-4 file
 * of the output folder appended in parallel (docs/output.md, "bodies.nc"):
 *   dimensions  time (unlimited), body, xyz (3), sym (6: xx yy zz xy xz yz)
 *   time(time) [us, CF], step(time), body(body) = id, kind(body) (flag_values/meanings),
 *   position, velocity, centroid (time, body, xyz), volume (time, body),
 *   second_moment (time, body, sym).
 * Each rank writes its slab of bodies (ids first .. first + count - 1, rank order) as one
 * collective hyperslab per variable; for at most BODIES_NC_SERIAL_BODIES bodies, and with
 * serial NetCDF, rank 0 writes the slabs it gathers (the same file). */
#ifndef EFSI_BODIES_NC_H
#define EFSI_BODIES_NC_H

#include <stddef.h>

#include "decomp/decomp.h"

/* Up to this many bodies a run's rank 0 writes bodies.nc alone: a parallel open, append
 * and close costs more than the gather of a few MB (docs/output.md, "bodies.nc"). */
enum { BODIES_NC_SERIAL_BODIES = 50000 };

/* Bodies in a chunk of a record variable (about 1.5 MiB of xyz values); in parallel each
 * chunk is written by one rank. */
enum { BODIES_NC_CHUNK_BODIES = 65536 };

/* One body at one output step, as bodies.nc stores it. */
typedef struct {
  long id;
  int kind;                  /* 0 rbc, 1 platelet, 2 sphere, 3 ellipsoid */
  double x[3], v[3];         /* the tracer's position and velocity */
  double volume;             /* sum phi dV of its cells (0: none) */
  double centroid[3];        /* NaN when volume = 0 */
  double moment[6];          /* xx yy zz xy xz yz about the centroid, per volume; NaN when
                                volume = 0 */
} efsi_body_record;

/* The file's fixed facts. */
typedef struct {
  const char *dir;           /* the output folder */
  const char *case_name, *run_id;
  const char *const *kind_names;   /* the names of kinds 0 .. kinds-1 (flag_meanings) */
  int kinds;
  long total;                /* bodies (the length of dimension body) */
  long serial_up_to;         /* at most this many bodies: rank 0 gathers the records and
                                writes alone (a run: BODIES_NC_SERIAL_BODIES) */
} efsi_bodies_file;

/* Collective.  Appends one time record (step, time; this rank's count records of ids
 * first ..), creating dir/bodies.nc with body and kind at the first record (written
 * through a temporary name).  A file whose dimension body is not total stops the run, as
 * does any failed write (status 1, naming the file).  Returns the bytes of the record. */
double bodies_nc_append(const efsi_bodies_file *f, const efsi_decomp *d, long step,
                        double time, long first, long count, const efsi_body_record *record);

/* Rank 0, before a run continued from restart_step appends to the file f names: keep only
 * the records with step <= restart_step (the file is rewritten through bodies.nc.tmp when
 * some come after, laid out as the appends of f make it; removed when none is left).  A file
 * the NetCDF library cannot read (a run killed while appending) is moved aside to
 * bodies.nc.damaged-N with a warning on stderr, and a new one starts.  Nonzero with a
 * message naming the file when it cannot be done. */
int bodies_nc_cut(const efsi_bodies_file *f, long restart_step, char *err, size_t errlen);

/* The step of the last record of the bodies.nc at path (*time its time), -1 when there is
 * no such file, no record, or it cannot be read. */
long bodies_nc_last_step(const char *path, double *time);

#endif
