/* Random packing of body families in a box or a lumen (docs/bodies.md, "Random packing"):
 * the bodies start at random places and orientations, shrunken, and grow to full size while
 * every overlap with a neighbour, a wall or the lumen's surface is pushed apart (translation,
 * and rotation of the randomly oriented ones).  Overlaps are found on the exact shapes: a
 * branch-and-bound search over one body's surface against a lower bound of the distance to
 * the other, so a packing that ends free of overlap is certified to keep the given gap.
 *
 * Distributed: each rank moves the bodies whose centres lie in its box of the process grid,
 * with copies of its neighbours' bodies near that box (src/bodies/packing_ranks.h), so its work and
 * memory follow the bodies per rank.  Every body's start is drawn from its own counter-based
 * stream in a block of the region (blocks fixed by the region alone), every move is a pure
 * function of the body's neighbourhood summed in a fixed order, and the sweep's decisions
 * come from exact reductions: the packing is the same, bit for bit, on any number of ranks
 * and threads. */
#ifndef EFSI_PACKING_H
#define EFSI_PACKING_H

#include "decomp/decomp.h"
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
  double seconds;           /* wall-clock time, the longest over the ranks */
  double cpu_seconds;       /* CPU time of the sweeps' computing, less the exchanges and
                               reductions: the busiest rank's (its time on a core of its own) */
  long most_bodies;         /* the most bodies one rank held (its own and the copies) */
} packing_result;

/* Collective over d->comm.  Pack the families (ids 0 .. N-1 family by family) on the
 * process grid of d.  Returns 0 when every body is placed at full size (result->scale = 1):
 * then *kept (malloc'ed, id order, centres in the box) holds every body whose bounding
 * sphere comes within keep_margin of this rank's box of the process grid (box a along axis
 * a: [c_a L_a / dims_a, (c_a + 1) L_a / dims_a)), *nkept of them.  Returns 1, the same on
 * every rank, when the packing jammed first (result->scale < 1: how far it grew; *kept
 * NULL).  Work per rank: sweeps x (its bodies and the copies near its box) x neighbours. */
int packing_run(const packing_region *r, const packing_family *f, int nfam,
                const efsi_decomp *d, double keep_margin, efsi_body **kept, long *nkept,
                packing_result *result);

#endif
