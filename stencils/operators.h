/* Compact second-order operators of the staggered grid (DESIGN.md section 2):
 *   divergence  D(i) = sum_d (v_d(i + e_d) - v_d(i)) / h_d            at cell centres
 *   gradient    G_d(i) = (p(i) - p(i - e_d)) / h_d                     at the d faces
 *   laplacian   L(i) = sum_d (f(i + e_d) - 2 f(i) + f(i - e_d)) / h_d^2 at cell centres
 * so that divergence(gradient p) == laplacian(p) to round-off: the projection relies on it. */
#ifndef EFSI_OPERATORS_H
#define EFSI_OPERATORS_H

#include "base/grid.h"
#include "stencils/location.h"

/* out = div (u, v, w) on owned cells (the caller multiplies by rho).
 * Halo needed: u, v, w at the high faces i = n (width 1 on the high side). */
void divergence(const efsi_grid *g, const double *restrict u, const double *restrict v,
                const double *restrict w, double *restrict out);

/* out = compact 7-point Laplacian of f on owned cells.  Halo needed: f width 1 (at walls the
 * caller fills it by even reflection, which makes the wall flux zero). */
void laplacian(const efsi_grid *g, const double *restrict f, double *restrict out);

/* (u, v, w) += scale * grad p at the updated face points of each component (location.h);
 * wall faces are left untouched.  Halo needed: p width 1 on the low side. */
void gradient_add(const efsi_grid *g, double scale, const double *restrict p,
                  double *restrict u, double *restrict v, double *restrict w);

#endif
