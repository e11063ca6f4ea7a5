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

/* The faces that all three velocity components update: index grid_face_start(g, d) <= i_d
 * < n_d in every direction d.  A kernel that updates the three components in one pass runs
 * its loop there, and on each component's other updated faces (location_rest) for that
 * component alone. */
static inline void location_common(const efsi_grid *g, int lo[3], int hi[3])
{
  for (int d = 0; d < 3; d++) {
    lo[d] = grid_face_start(g, d);
    hi[d] = g->n[d];
  }
}

/* The updated faces of component d outside location_common, slab `which` (0 or 1): the
 * faces at index 0 along a direction e != d whose faces start at 1 (a wall on the low side),
 * the first such slab's faces left out of the second, so that no face comes twice.  Returns
 * 0 when there is no such slab. */
static inline int location_rest(const efsi_grid *g, int d, int which, int lo[3], int hi[3])
{
  location_range(g, LOC_FACE_X + d, lo, hi);
  int found = 0;
  for (int e = 0; e < 3; e++) {
    if (e == d || grid_face_start(g, e) == 0) continue;
    if (found++ == which) {
      lo[e] = 0;
      hi[e] = 1;
      return 1;
    }
    lo[e] = 1;   /* that slab's faces are not this one's */
  }
  return 0;
}

#endif
