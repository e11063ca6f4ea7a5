/* Divergence, Laplacian and gradient on the staggered grid (formulas in operators.h), for
 * both backends (stencils/loop.h).  The gradient loops once per component over that
 * component's own range. */
#include "stencils/kernel_list.h"
#include "stencils/loop.h"

void KERNEL(divergence)(const efsi_grid *g, double scale, const double *restrict u,
                        const double *restrict v, const double *restrict w,
                        double *restrict out)
{
  int lo[3], hi[3];
  box_owned(g, 0, lo, hi);
  const ptrdiff_t s[3] = {g->stride[0], g->stride[1], g->stride[2]};
  const double ih[3] = {g->inv_h[0], g->inv_h[1], g->inv_h[2]};
  FOR_BOX(g, lo, hi, p, out[p] = scale * divergence_at(u, v, w, p, s, ih));
}

void KERNEL(laplacian)(const efsi_grid *g, const double *restrict f, double *restrict out)
{
  int lo[3], hi[3];
  box_owned(g, 0, lo, hi);
  const ptrdiff_t s[3] = {g->stride[0], g->stride[1], g->stride[2]};
  const double ih2[3] = {g->inv_h[0] * g->inv_h[0], g->inv_h[1] * g->inv_h[1],
                         g->inv_h[2] * g->inv_h[2]};
  FOR_BOX(g, lo, hi, p, out[p] = laplacian_at(f, p, s, ih2));
}

void KERNEL(gradient_add)(const efsi_grid *g, double scale, const double *restrict p,
                          double *restrict u, double *restrict v, double *restrict w)
{
  double *const velocity[3] = {u, v, w};
  for (int d = 0; d < 3; d++) {
    int lo[3], hi[3];
    double c;
    const ptrdiff_t s = gradient_faces(g, d, scale, lo, hi, &c);
    double *restrict a = velocity[d];
    FOR_BOX(g, lo, hi, q, a[q] += gradient_at(p, q, s, c));
  }
}
