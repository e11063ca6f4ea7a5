/* The momentum predictor (formulas in momentum.h), for both backends (stencils/loop.h):
 * one loop per velocity component, over that component's updated faces. */
#include "stencils/kernel_list.h"
#include "stencils/location.h"
#include "stencils/loop.h"

void KERNEL(momentum_predictor)(const efsi_grid *g, double dt, double inv_rho, double body,
                                double grad_scale, double *const s[6], const double *restrict p,
                                const double *restrict u, const double *restrict v,
                                const double *restrict w, double *restrict fu,
                                double *restrict fv, double *restrict fw)
{
  const double *const vel[3] = {u, v, w};
  double *const out[3] = {fu, fv, fw};
  for (int d = 0; d < 3; d++) {
    const int e1 = (d + 1) % 3, e2 = (d + 2) % 3;
    int lo[3], hi[3];
    location_range(g, LOC_FACE_X + d, lo, hi);
    const weno5_stencil_t st = weno5_stencil(g, LOC_FACE_X + d);
    const double *restrict f = vel[d];
    const double *restrict sdd = s[d], *restrict s1 = s[tensor_offdiagonal(d, e1)],
                 *restrict s2 = s[tensor_offdiagonal(d, e2)];
    const ptrdiff_t sd = g->stride[d], se1 = g->stride[e1], se2 = g->stride[e2];
    const double cd = inv_rho * g->inv_h[d], c1 = inv_rho * g->inv_h[e1],
                 c2 = inv_rho * g->inv_h[e2];
    const double c = grad_scale * g->inv_h[d], body_d = d == 0 ? body : 0.0;
    double *restrict o = out[d];
    FOR_BOX(g, lo, hi, q,
            o[q] = momentum_at(&st, f, u, v, w, sdd, s1, s2, sd, se1, se2, cd, c1, c2, p, c,
                               dt, body_d, q));
  }
}
