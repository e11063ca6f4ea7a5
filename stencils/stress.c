/* Viscous stress 2 mu dev(D) at centres and edges, and the compact divergence of a stress
 * tensor at the faces (formulas in stress.h), for both backends (stencils/loop.h).  The
 * stress is one pass that reads the velocity once and writes the six components; the
 * divergence of one momentum component is one loop, given the direction by strides. */
#include "stencils/kernel_list.h"
#include "stencils/location.h"
#include "stencils/loop.h"

void KERNEL(stress_viscous)(const efsi_grid *g, double mu, const double *restrict u,
                            const double *restrict v, const double *restrict w,
                            double *const s[6])
{
  int lo[3], hi[3];
  box_owned(g, 1, lo, hi);
  const ptrdiff_t sx = g->stride[0], sy = g->stride[1], sz = g->stride[2];
  const double ihx = g->inv_h[0], ihy = g->inv_h[1], ihz = g->inv_h[2];
  const ptrdiff_t st[3] = {sx, sy, sz};
  const double ih[3] = {ihx, ihy, ihz};
  const double mu2 = 2.0 * mu;
  double *restrict sxx = s[TXX], *restrict syy = s[TYY], *restrict szz = s[TZZ];
  double *restrict sxy = s[TXY], *restrict sxz = s[TXZ], *restrict syz = s[TYZ];
  FOR_BOX(g, lo, hi, p,
          stress_diagonal_at(mu2, u, v, w, p, st, ih, &sxx[p], &syy[p], &szz[p]);
          sxy[p] = stress_edge_at(mu, u, v, p, sx, sy, ihx, ihy);
          sxz[p] = stress_edge_at(mu, u, w, p, sx, sz, ihx, ihz);
          syz[p] = stress_edge_at(mu, v, w, p, sy, sz, ihy, ihz));
}

void KERNEL(stress_divergence_add)(const efsi_grid *g, double inv_rho, double *const s[6],
                                   double *restrict fu, double *restrict fv,
                                   double *restrict fw)
{
  double *const f[3] = {fu, fv, fw};
  for (int d = 0; d < 3; d++) {
    const int e1 = (d + 1) % 3, e2 = (d + 2) % 3;
    int lo[3], hi[3];
    location_range(g, LOC_FACE_X + d, lo, hi);
    const double *restrict sdd = s[d], *restrict s1 = s[tensor_offdiagonal(d, e1)],
                 *restrict s2 = s[tensor_offdiagonal(d, e2)];
    const ptrdiff_t sd = g->stride[d], se1 = g->stride[e1], se2 = g->stride[e2];
    const double cd = inv_rho * g->inv_h[d], c1 = inv_rho * g->inv_h[e1],
                 c2 = inv_rho * g->inv_h[e2];
    double *restrict fd = f[d];
    FOR_BOX(g, lo, hi, p,
            fd[p] += stress_divergence_at(sdd, s1, s2, p, sd, se1, se2, cd, c1, c2));
  }
}
