/* The velocity gradient L_ab = dv_a/dx_b at cell centres (docs/discretisation.md,
 * "Velocity gradient"):
 *   diagonal     L_aa = (v_a(i + e_a) - v_a(i)) / h_a                  (the two faces)
 *   off-diagonal L_ab = [(v_a(i + e_b) + v_a(i + e_a + e_b)) - (v_a(i - e_b) + v_a(i + e_a - e_b))]
 *                       / (4 h_b),  a != b  (central difference of the face values averaged
 *                       to the centre), both second order.
 * The Oldroyd rate and the fluid treatment of B form L point by point with the same
 * functions, so that no gradient arrays are stored. */
#ifndef EFSI_VELOCITY_GRADIENT_H
#define EFSI_VELOCITY_GRADIENT_H

#include "base/grid.h"
#include "base/portable.h"
#include "stencils/operators.h"

/* dv_a/dx_b at the centre p for b != a: s = stride along a, t = stride along b. */
EFSI_POINT double cross_difference(const double *restrict va, ptrdiff_t p, ptrdiff_t s,
                                   ptrdiff_t t, double quarter_inv_h)
{
  return ((va[p + t] + va[p + s + t]) - (va[p - t] + va[p + s - t])) * quarter_inv_h;
}

typedef struct { double xx, xy, xz, yx, yy, yz, zx, zy, zz; } velocity_gradient_t;

/* The nine entries of L at the centre p; s the strides, inv_h the inverse spacings. */
EFSI_POINT velocity_gradient_t velocity_gradient_at(const double *restrict u,
                                                    const double *restrict v,
                                                    const double *restrict w, ptrdiff_t p,
                                                    const ptrdiff_t s[3],
                                                    const double inv_h[3])
{
  const ptrdiff_t sx = s[0], sy = s[1], sz = s[2];
  const double ihx = inv_h[0], ihy = inv_h[1], ihz = inv_h[2];
  const double qx = 0.25 * ihx, qy = 0.25 * ihy, qz = 0.25 * ihz;
  velocity_gradient_t L;
  L.xx = forward_difference(u, p, sx, ihx);
  L.xy = cross_difference(u, p, sx, sy, qy);
  L.xz = cross_difference(u, p, sx, sz, qz);
  L.yx = cross_difference(v, p, sy, sx, qx);
  L.yy = forward_difference(v, p, sy, ihy);
  L.yz = cross_difference(v, p, sy, sz, qz);
  L.zx = cross_difference(w, p, sz, sx, qx);
  L.zy = cross_difference(w, p, sz, sy, qy);
  L.zz = forward_difference(w, p, sz, ihz);
  return L;
}

/* L[3 a + b] = dv_a/dx_b on owned cells, (v_0, v_1, v_2) = (u, v, w).
 * Halo needed: u, v, w width 1. */
void velocity_gradient(const efsi_grid *g, const double *restrict u, const double *restrict v,
                       const double *restrict w, double *const L[9]);

#endif
