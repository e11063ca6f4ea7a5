/* Fields files for analysis and visualisation: NetCDF-4, CF-1.8, every variable at cell
 * centres on dimensions (time, z, y, x), the velocity averaged from the faces to the
 * centres; and the selective outputs built the same way (docs/output.md, "Selective
 * outputs"): a chosen list of fields, on a box of the grid taken every few cells or on
 * families of planes, compressed (deflate) and quantized if asked, or the running
 * averages of fields with their window. */
#ifndef EFSI_FIELDS_H
#define EFSI_FIELDS_H

#include "decomp/decomp.h"
#include "io/output.h"
#include "io/snapshot.h"

/* One grid of cells a file holds: the cells along each direction, the names of its
 * dimensions ("x", "y", "z"; a family of planes z = const names its z dimension "z_xy"),
 * and the suffix of its variables' names ("" or "_xy"). */
typedef struct {
  efsi_cell_set cells;
  const char *dim[3];
  const char *suffix;
} efsi_fields_set;

/* How the values are stored and what the file says of itself. */
typedef struct {
  const char *title;
  int deflate;               /* 0..9: NetCDF-4 deflate (with shuffle) of every variable */
  int quantize;              /* significant decimal digits kept (granular BitRound), 0: exact */
  const double *time_bounds; /* NULL, or an average's window [start, end] (CF time bounds) */
  const char *cell_methods;  /* NULL, or the variables' cell_methods ("time: mean") */
  int nnumbers;              /* global numeric attributes (the fluid's density and
                                viscosity; an average's samples, steps) */
  struct { const char *name; double value; int integer; } number[8];
} efsi_fields_options;

/* Collective.  Writes path (through a temporary name, renamed when complete): the time
 * coordinate (one value: the snapshot's; with time_bounds its bounds), a coordinate
 * variable per dimension (cell centres, um), then for every set the fields of the snapshot
 * with use[n] set (use NULL: all) on (time, z, y, x) of that set, named with its suffix, a
 * face-centred one averaged to the centres (its halo at the high side must be valid), one
 * with divide_by > 0 divided by it; global attributes Conventions, title, source, case,
 * step, time, run_id, boundary_y and boundary_z, and options' numbers. */
void fields_write_sets(const char *path, const efsi_snapshot *s, const unsigned char *use,
                       const efsi_fields_set *set, int nsets, const efsi_fields_options *o,
                       const efsi_decomp *d, const char *case_name);

/* The whole grid, every field of the snapshot, uncompressed: fields_write_sets with one set
 * of every cell (dimensions x, y, z), title "efsi fields at cell centres". */
void fields_write(const char *path, const efsi_snapshot *s, const efsi_decomp *d,
                  const char *case_name);

#endif
