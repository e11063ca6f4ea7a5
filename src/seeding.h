/* Deformable bodies at the start of a run: seeding of RBC / platelet families on a
 * lattice with random displacement and rotation (reproducible, identical on any number of
 * ranks, each rank generating only the bodies near its block), single bodies at given
 * centres, and the queries for the bodies near a block.  Their volume fractions are drawn
 * by stencils/draw.h.  MPI-free: callers reduce. */
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
} efsi_body_family;

typedef struct {
  double length[3];
  int cells[3];
  int periodic[3];         /* from the boundary types; a wall keeps bodies one cell off */
  unsigned long seed;      /* init.seed */
  int vessel;              /* tube along x, centred in y-z, lumen = the region */
  double vessel_diameter;
} efsi_seeding;

/* Validate the families and singles against the region and count the bodies (cheap: no
 * allocation that grows with the number of bodies).  *total = seeded + nsingle; the seeded
 * bodies have ids 0 .. *total - nsingle - 1, single j has id *total - nsingle + j.  On error
 * returns nonzero with a one-line message naming the key (rbc.hematocrit, platelet.count,
 * sphere.center, ...) and the limit. */
/* The frame of a body whose symmetry axis (body z) lies along lab axis orientation
 * (ORIENT_X, _Y, _Z of src/config.h): x_b = frame . (p - center). */
void body_aligned_frame(int orientation, double frame[3][3]);

int bodies_seed(const efsi_seeding *s, const efsi_body_family *f, int nfam,
                const efsi_body *singles, int nsingle, long *total, char *err, size_t errlen);

/* The bodies (seeded and single) whose bounding sphere intersects the box [lo, hi], with
 * centres shifted to every periodic image that does (a body may appear once per image).
 * Work is proportional to the lattice sites in and near the box.  *out is malloc'ed (free()
 * it); returns nonzero when the input is invalid (bodies_seed says why) or memory runs out. */
int bodies_near(const efsi_seeding *s, const efsi_body_family *f, int nfam,
                const efsi_body *singles, int nsingle, const double lo[3], const double hi[3],
                efsi_body **out, long *n);

#endif
