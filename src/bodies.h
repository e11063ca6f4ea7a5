/* Deformable bodies at the start of a run: seeding of RBC / platelet families on a
 * lattice with random displacement and rotation (reproducible, identical on any number of
 * ranks, each rank generating only the bodies near its block), single bodies at given
 * centres, and the initial volume fractions phi_m = cell volume fraction of the bodies of
 * material m (sub-cell sampling, optional tanh smoothing).  MPI-free: callers reduce. */
#ifndef EFSI_BODIES_H
#define EFSI_BODIES_H

#include <stddef.h>

#include "base/grid.h"
#include "src/shapes.h"

#define EFSI_MAX_FAMILIES 8

typedef struct {
  long id;                 /* seeded bodies 0 .. N-1 (family by family), singles N + j */
  int kind;                /* BODY_RBC, BODY_PLATELET, BODY_SPHERE, BODY_ELLIPSOID */
  int material;            /* index into the state's phi[] */
  double center[3];
  double frame[3][3];      /* rows: the body's x, y, z axes in lab coordinates, orthonormal */
  double size[3];          /* semi-axes, or D for an RBC in size[0], radius for a sphere */
} efsi_body;

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
int bodies_seed(const efsi_seeding *s, const efsi_body_family *f, int nfam,
                const efsi_body *singles, int nsingle, long *total, char *err, size_t errlen);

/* The bodies (seeded and single) whose bounding sphere intersects the box [lo, hi], with
 * centres shifted to every periodic image that does (a body may appear once per image).
 * Work is proportional to the lattice sites in and near the box.  *out is malloc'ed (free()
 * it); returns nonzero when the input is invalid (bodies_seed says why) or memory runs out. */
int bodies_near(const efsi_seeding *s, const efsi_body_family *f, int nfam,
                const efsi_body *singles, int nsingle, const double lo[3], const double hi[3],
                efsi_body **out, long *n);

/* How far beyond its bounding sphere a body still changes phi: 0 for sharp fractions,
 * 5 interface_width cells with smoothing.  Query bodies_near with the owned box widened by
 * this for bodies_volume_fraction to see every contribution. */
double bodies_reach(const efsi_grid *g, double interface_width);

/* Add to phi[material] of every owned cell the cell's volume fraction of each body (clipped
 * to 1).  interface_width = 0: sub-cell sampling; > 0: tanh of the signed distance estimate,
 * 12 %..88 % over interface_width cells (docs/bodies.md).  Bodies are added in id order, so
 * the result does not depend on the order of b[].  Halos are not touched.  Returns nonzero
 * when memory runs out. */
int bodies_volume_fraction(const efsi_grid *g, const efsi_body *b, long n,
                           double interface_width, double *const phi[]);

/* Wall material of a tube along x (axis at the centre of the y-z cross-section): phi = the
 * fraction of each owned cell outside the lumen of the given diameter (or its tanh-smoothed
 * value when interface_width > 0). */
void vessel_volume_fraction(const efsi_grid *g, double diameter, double interface_width,
                            double *phi);

/* Number of sub-cell samples per direction in a cut cell (bodies), and in a cut column's
 * y-z square (vessel). */
#define BODIES_SUBCELL 8
#define VESSEL_SUBCELL 64

#endif
