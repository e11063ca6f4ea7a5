/* Compact second-order operators of the staggered grid (docs/discretisation.md, "Compact
 * operators"):
 *   divergence  D(i) = sum_d (v_d(i + e_d) - v_d(i)) / h_d            at cell centres
 *   gradient    G_d(i) = (p(i) - p(i - e_d)) / h_d                     at the d faces
 *   laplacian   L(i) = sum_d (f(i + e_d) - 2 f(i) + f(i - e_d)) / h_d^2 at cell centres
 * so that divergence(gradient p) == laplacian(p) to round-off: the projection relies on it. */
#ifndef EFSI_OPERATORS_H
#define EFSI_OPERATORS_H

#include "base/grid.h"
#include "base/portable.h"
#include "stencils/location.h"

/* (a(p + s) - a(p)) / h: the forward difference across a cell, face to face (or centre to
 * centre). */
EFSI_POINT double forward_difference(const double *restrict a, ptrdiff_t p, ptrdiff_t s,
                                     double inv_h)
{
  return (a[p + s] - a[p]) * inv_h;
}

/* (f(p + s) - 2 f(p) + f(p - s)) / h^2. */
EFSI_POINT double second_difference_of(double below, double at, double above, double inv_h2)
{
  return (above - 2.0 * at + below) * inv_h2;
}

EFSI_POINT double second_difference(const double *restrict f, ptrdiff_t p, ptrdiff_t s,
                                    double inv_h2)
{
  return second_difference_of(f[p - s], f[p], f[p + s], inv_h2);
}

/* The divergence of (u, v, w) at the centre p. */
EFSI_POINT double divergence_at(const double *restrict u, const double *restrict v,
                                const double *restrict w, ptrdiff_t p, const ptrdiff_t s[3],
                                const double inv_h[3])
{
  return forward_difference(u, p, s[0], inv_h[0]) + forward_difference(v, p, s[1], inv_h[1])
       + forward_difference(w, p, s[2], inv_h[2]);
}

/* c (p(q) - p(q - s)): the gradient at face q from the two cells either side of it, times
 * c = scale / h. */
EFSI_POINT double gradient_at(const double *restrict p, ptrdiff_t q, ptrdiff_t s, double c)
{
  return c * (p[q] - p[q - s]);
}

/* The 7-point Laplacian of f at p; inv_h2 the squared inverse spacings. */
EFSI_POINT double laplacian_at(const double *restrict f, ptrdiff_t p, const ptrdiff_t s[3],
                               const double inv_h2[3])
{
  return second_difference(f, p, s[0], inv_h2[0]) + second_difference(f, p, s[1], inv_h2[1])
       + second_difference(f, p, s[2], inv_h2[2]);
}

/* Operations per point: divergence 8 (and 1 for the scale), Laplacian 14, gradient 3 per
 * component (9 for the three). */
#define DIVERGENCE_FLOPS 8.0
#define LAPLACIAN_FLOPS 14.0
#define GRADIENT_FLOPS 9.0

/* divergence (stencils/kernel_list.h): out = scale div (u, v, w) on the cells of g (owned cells; a view of g widened by one layer
 * gives the first halo layer too).  Halo needed: u, v, w one layer beyond the high side. */

/* The Laplacian is formed where it is used, inside the ACM's sums (reductions.h:
 * acm_terms); at walls the caller fills the halo of f by even reflection, which makes the
 * wall flux zero. */

/* gradient_add (stencils/kernel_list.h): (u, v, w) += scale * grad p at the updated face
 * points of each component (location.h), the three in one pass where all are updated
 * (location_common); wall faces are left untouched.  Halo needed: p width 1 on the low
 * side.  Values streamed per owned cell: p read, u, v, w updated: 7. */

/* The faces of direction d that gradient_add updates, into lo, hi; *c = scale / h_d; returns
 * the stride from a face to the cell below it. */
static inline ptrdiff_t gradient_faces(const efsi_grid *g, int d, double scale, int lo[3],
                                       int hi[3], double *c)
{
  location_range(g, LOC_FACE_X + d, lo, hi);
  *c = scale * g->inv_h[d];
  return g->stride[d];
}

#endif
