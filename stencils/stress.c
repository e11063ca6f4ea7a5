/* Viscous stress 2 mu dev(D) at centres and edges, and the compact divergence of a stress
 * tensor at the faces, on the CPU (formulas in stress.h).  The edge component and the
 * divergence of one momentum component are each one loop, given the pair or the direction
 * by strides. */
#include "stencils/stress.h"

#include "stencils/loop.h"

void stress_viscous(const efsi_grid *g, double mu, const double *restrict u,
                    const double *restrict v, const double *restrict w, double *const s[6])
{
  int lo[3], hi[3];
  box_owned(g, 1, lo, hi);
  const ptrdiff_t *st = g->stride;
  const double *ih = g->inv_h;
  const double mu2 = 2.0 * mu;
  double *restrict sxx = s[TXX], *restrict syy = s[TYY], *restrict szz = s[TZZ];
  FOR_BOX(g, lo, hi, p) stress_diagonal_at(mu2, u, v, w, p, st, ih, &sxx[p], &syy[p], &szz[p]);
  const double *const velocity[3] = {u, v, w};
  for (int d = 0; d < 2; d++)
    for (int e = d + 1; e < 3; e++) {
      const double *restrict ad = velocity[d], *restrict ae = velocity[e];
      double *restrict sde = s[tensor_offdiagonal(d, e)];
      const ptrdiff_t sd = st[d], se = st[e];
      const double ihd = ih[d], ihe = ih[e];
      FOR_BOX(g, lo, hi, p) sde[p] = stress_edge_at(mu, ad, ae, p, sd, se, ihd, ihe);
    }
}

void stress_divergence_add(const efsi_grid *g, double inv_rho, double *const s[6],
                           double *restrict fu, double *restrict fv, double *restrict fw)
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
    FOR_BOX(g, lo, hi, p) fd[p] += stress_divergence_at(sdd, s1, s2, p, sd, se1, se2, cd, c1, c2);
  }
}
