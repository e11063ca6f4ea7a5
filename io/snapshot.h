/* What a fields or restart file holds: named arrays of one grid (each rank passes its own
 * block) and the scalars of the moment.  io/ writes and reads whatever the list names; which
 * arrays a state has, their names, units and meaning, is the caller's (src/case/state.c). */
#ifndef EFSI_SNAPSHOT_H
#define EFSI_SNAPSHOT_H

#include "base/grid.h"
#include "base/limits.h"

/* Velocity, pressure, one volume fraction per material, the six components of B and the
 * fields of the materials' models; a restart file also the running sums of as many
 * averaged fields (docs/output.md, "Averages"). */
#define SNAPSHOT_MAX_FIELDS (2 * (4 + EFSI_MAX_MATERIALS + 6 + EFSI_MAX_OWN_FIELDS))
/* Numbers a restart file carries besides step, time and drive force (the averages'
 * window). */
#define SNAPSHOT_MAX_NUMBERS 8

/* Bytes of a run identity with its NUL (docs/output.md, "One history per folder"):
 * "YYYYMMDD-HHMMSS-xxxxxxxxxxxxxxxx", the UTC time of the fresh start and 64 random bits. */
#define SNAPSHOT_RUN_ID_LEN 40

typedef struct {
  char name[EFSI_MATERIAL_NAME + 8];   /* the NetCDF variable: "u", "phi_rbc", "bxy" */
  char long_name[128];
  const char *units;
  double *data;              /* a field of the snapshot's grid (halos included) */
  int centre_dir;            /* -1: written as stored; 0, 1, 2: a face-centred value along
                                that direction, written as the mean of the cell's two faces
                                (reads the halo layer at the high side) */
  double divide_by;          /* > 0: fields files write data / divide_by (a running sum as
                                its mean); 0: data as it is */
  int optional;              /* restart files: may be absent (then missing is set on reading
                                and data is left alone) */
  int missing;
} efsi_named_field;

typedef struct {
  const efsi_grid *grid;
  long step;
  double time;
  double drive_force;        /* restart files: the body force of the drive in +x */
  char materials[EFSI_MAX_MATERIALS * EFSI_MATERIAL_NAME];   /* "rbc wall": names, in order */
  char run_id[SNAPSHOT_RUN_ID_LEN];   /* the history the state belongs to ("": not known) */
  int nfields;
  efsi_named_field field[SNAPSHOT_MAX_FIELDS];
  int nnumbers;              /* restart files: global attributes, NaN on reading when absent */
  struct { char name[40]; double value; } number[SNAPSHOT_MAX_NUMBERS];
} efsi_snapshot;

#endif
