/* Deformable bodies at the start of a run: seeding of RBC / platelet families on a
 * lattice with random displacement and rotation (each rank generating only the bodies near
 * its block), or, where the lattice cannot place them or a family keeps to a radial band, a
 * random packing (src/packing.h) computed the same on every rank; single bodies at given
 * centres; the queries for the bodies near a block.  Reproducible and identical on any
 * number of ranks.  Their volume fractions are drawn by stencils/draw.h.  MPI-free: callers
 * reduce. */
#ifndef EFSI_BODIES_H
#define EFSI_BODIES_H

#include <stddef.h>

#include "base/grid.h"
#include "stencils/draw.h"
#include "stencils/shapes.h"

#define EFSI_MAX_FAMILIES 8

typedef struct {
  int kind;
  int material;
  long count;              /* count or fraction given, the other 0 */
  double fraction;         /* of the region (the box, or the lumen when there is a vessel) */
  double size[3];
  int orientation;         /* 0 random, 1/2/3: symmetry axis along x/y/z */
  double band[2];          /* with a vessel: the centres' distance from the axis, fractions of
                              the lumen radius, kept in [band[0], band[1]]; {0, 0} or {0, 1}:
                              anywhere */
} efsi_body_family;

typedef struct {
  double length[3];
  int cells[3];
  int periodic[3];         /* from the boundary types; a wall keeps bodies one cell off */
  unsigned long seed;      /* init.seed */
  int vessel;              /* tube along x, centred in y-z, lumen = the region */
  double vessel_diameter;
} efsi_seeding;

/* The frame of a body whose symmetry axis (body z) lies along lab axis orientation
 * (ORIENT_X, _Y, _Z of src/config.h): x_b = frame . (p - center). */
void body_aligned_frame(int orientation, double frame[3][3]);

/* How the families were seeded: their bodies and the fraction of the region they fill (the
 * tube hematocrit in a lumen), and, for a random packing, its cost and the order of the
 * RBCs' axes. */
typedef struct {
  int packed;                          /* 0: lattice, 1: random packing */
  long count[EFSI_MAX_FAMILIES];
  double fraction[EFSI_MAX_FAMILIES];  /* count x body volume / region volume */
  long sweeps;                         /* of the packing */
  double seconds;                      /* wall-clock time of the packing on this rank */
  double order;                        /* nematic order of the randomly oriented RBCs' axes */
} efsi_seeding_report;

/* Validate the families and singles against the region and count the bodies.  The lattice
 * is only planned (no allocation that grows with the number of bodies); a random packing is
 * computed here and kept for bodies_near of the same input.  *total = seeded + nsingle; the
 * seeded bodies have ids 0 .. *total - nsingle - 1, single j has id *total - nsingle + j.
 * report (may be NULL) says how.  On error returns nonzero with a one-line message naming
 * the key (rbc.hematocrit, platelet.count, platelet.radial_band, sphere.center, ...) and the
 * limit. */
int bodies_seed(const efsi_seeding *s, const efsi_body_family *f, int nfam,
                const efsi_body *singles, int nsingle, long *total, efsi_seeding_report *report,
                char *err, size_t errlen);

/* The bodies (seeded and single) whose bounding sphere intersects the box [lo, hi], with
 * centres shifted to every periodic image that does (a body may appear once per image).
 * Lattice: work proportional to the lattice sites in and near the box; packing: the packed
 * bodies of the last bodies_seed or bodies_near of the same input, else packed here.  *out
 * is malloc'ed (free() it); returns nonzero when the input is invalid (bodies_seed says why)
 * or memory runs out. */
int bodies_near(const efsi_seeding *s, const efsi_body_family *f, int nfam,
                const efsi_body *singles, int nsingle, const double lo[3], const double hi[3],
                efsi_body **out, long *n);

#endif
