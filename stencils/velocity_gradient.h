/* The velocity gradient L_ab = dv_a/dx_b at cell centres (DESIGN.md section 4):
 *   diagonal     L_aa = (v_a(i + e_a) - v_a(i)) / h_a                  (the two faces)
 *   off-diagonal L_ab = [(v_a(i + e_b) + v_a(i + e_a + e_b)) - (v_a(i - e_b) + v_a(i + e_a - e_b))]
 *                       / (4 h_b),  a != b  (central difference of the face values averaged
 *                       to the centre), both second order. */
#ifndef EFSI_VELOCITY_GRADIENT_H
#define EFSI_VELOCITY_GRADIENT_H

#include "base/grid.h"

/* L[3 a + b] = dv_a/dx_b on owned cells, (v_0, v_1, v_2) = (u, v, w).
 * Halo needed: u, v, w width 1. */
void velocity_gradient(const efsi_grid *g, const double *restrict u, const double *restrict v,
                       const double *restrict w, double *const L[9]);

#endif
