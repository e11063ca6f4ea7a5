/* Random packing of body families in a box or a lumen (docs/bodies.md, "Random packing"):
 * the bodies start at random places and orientations, shrunken, and grow to full size while
 * every overlap with a neighbour, a wall or the lumen's surface is pushed apart (translation,
 * and rotation of the randomly oriented ones).  Overlaps are found on the exact shapes: a
 * branch-and-bound search over one body's surface against a lower bound of the distance to
 * the other, so a packing that ends free of overlap is certified to keep the given gap.
 * A pure function of its input, computed the same on every rank; MPI-free. */
#ifndef EFSI_PACKING_H
#define EFSI_PACKING_H

#include "stencils/draw.h"

typedef struct {
  int kind, material;
  double size[3];
  long count;
  int rotates;              /* 1: random orientation (rotates while packing) */
  double frame[3][3];       /* the frame of a family that does not rotate */
  int banded;               /* 1: centres kept in the region's radial band */
} packing_family;

typedef struct {
  double length[3];
  int periodic[3];
  double wall_margin;       /* bodies keep this far from walls and from the lumen's surface */
  double gap;               /* the least distance between two bodies */
  int lumen;                /* a tube along x through the centre of the y-z cross-section */
  double lumen_radius;      /* bodies stay within lumen_radius - wall_margin of its axis */
  double band[2];           /* radii from the axis between which banded centres stay */
  unsigned long seed;       /* init.seed: the random stream of body l of family f */
} packing_region;

typedef struct {
  double scale;             /* the largest scale the growth reached (1: placed) */
  long iterations;          /* relaxation sweeps */
  double order;             /* nematic order <P2> of the rotating RBCs' axes (0 isotropic) */
} packing_result;

/* Pack the families (ids 0 .. N-1 family by family, in body[] in id order, centres inside
 * the box).  Returns 0 when every body is placed at full size (result->scale = 1), 1 when
 * the packing jammed first (result->scale < 1: how far it grew), -1 when memory
 * runs out.  Work: sweeps x bodies x neighbours; memory: a few hundred bytes per body. */
int packing_run(const packing_region *r, const packing_family *f, int nfam, efsi_body *body,
                packing_result *result);

#endif
