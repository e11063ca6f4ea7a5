/* Physical boundary layers at walls (y and z may be walls; x is periodic), filled after the
 * halo exchange on ranks that touch a wall.  Cell-centred fields use even reflection
 * (zero normal gradient); velocity: the wall-normal component is zero on the wall face and
 * odd about it, the tangential components reflect oddly about the wall their deviation from
 * the wall velocity (no slip on a wall moving in x). */
#ifndef EFSI_BOUNDARY_H
#define EFSI_BOUNDARY_H

#include "base/grid.h"
#include "decomp/layers.h"

/* f(-1-m) = f(m) at a low wall, f(n+m) = f(n-1-m) at a high wall, m < width. */
void boundary_even(const efsi_layer_ops *ops, const efsi_grid *g, double *f, int width);

/* u_wall[d][0|1]: x velocity of the low/high wall normal to d (d = 1, 2; [0] unused).
 * Sets the normal component on the wall face to zero and fills width layers beyond. */
void boundary_velocity(const efsi_layer_ops *ops, const efsi_grid *g, double *u, double *v,
                       double *w, const double u_wall[3][2], int width);

/* Both at once, each direction's layers in one call of ops->reflect (one launch on the GPU):
 * the velocity (when velocity is not NULL) and neven fields of even reflection. */
void boundary_fill(const efsi_layer_ops *ops, const efsi_grid *g, double *const velocity[3],
                   const double u_wall[3][2], double *const *even, int neven, int width);

#endif
