/* Where a field lives on the staggered grid, and which of its points a kernel updates.
 * Cell-centred fields: 0 <= i < n in every direction.  A face field along its own direction d
 * starts at grid_face_start(g, d) (a wall face at index 0 holds the wall condition) and stops
 * before n (the face at n is the high wall, or the next rank's first face); 0..n-1 elsewhere. */
#ifndef EFSI_LOCATION_H
#define EFSI_LOCATION_H

#include "base/grid.h"

enum efsi_location { LOC_CENTRE, LOC_FACE_X, LOC_FACE_Y, LOC_FACE_Z };

/* Direction normal to the faces of a face location (0, 1, 2); -1 for LOC_CENTRE. */
static inline int location_direction(int loc) { return loc - LOC_FACE_X; }

/* Updated points of location loc: lo[d] <= index < hi[d] in each direction d. */
static inline void location_range(const efsi_grid *g, int loc, int lo[3], int hi[3])
{
  for (int d = 0; d < 3; d++) {
    lo[d] = d == location_direction(loc) ? grid_face_start(g, d) : 0;
    hi[d] = g->n[d];
  }
}

#endif
