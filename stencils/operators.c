/* Divergence and gradient on the staggered grid (formulas in operators.h), for both
 * backends (stencils/loop.h).  The gradient updates the three components in one pass where
 * all three are updated, and each component alone on its few other faces (location.h). */
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

void KERNEL(gradient_add)(const efsi_grid *g, double scale, const double *restrict p,
                          double *restrict u, double *restrict v, double *restrict w)
{
  int lo[3], hi[3];
  double c[3];
  ptrdiff_t s[3];
  for (int d = 0; d < 3; d++) s[d] = gradient_faces(g, d, scale, lo, hi, &c[d]);
  const ptrdiff_t sx = s[0], sy = s[1], sz = s[2];
  const double cx = c[0], cy = c[1], cz = c[2];
  location_common(g, lo, hi);
  FOR_BOX(g, lo, hi, q,
          u[q] += gradient_at(p, q, sx, cx);
          v[q] += gradient_at(p, q, sy, cy);
          w[q] += gradient_at(p, q, sz, cz));
  double *const velocity[3] = {u, v, w};
  for (int d = 0; d < 3; d++)
    for (int which = 0; which < 2; which++) {
      if (!location_rest(g, d, which, lo, hi)) break;
      double *restrict a = velocity[d];
      const ptrdiff_t sd = s[d];
      const double cd = c[d];
      FOR_BOX(g, lo, hi, q, a[q] += gradient_at(p, q, sd, cd));
    }
}
