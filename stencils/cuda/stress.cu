/* Viscous stress and the stress divergence on the GPU (formulas in stencils/stress.h;
 * mirrors stress.c): the six components in one pass over -1..n. */
#include "stencils/cuda/kernels.cuh"

extern "C" {
#include "stencils/loop.h"
#include "stencils/stress.h"
}

void stress_viscous_cuda(const efsi_grid *g, double mu, const double *u, const double *v,
                         const double *w, double *const s[6])
{
  int lo[3], hi[3];
  box_owned(g, 1, lo, hi);
  const ptrdiff_t sx = g->stride[0], sy = g->stride[1], sz = g->stride[2];
  const double ihx = g->inv_h[0], ihy = g->inv_h[1], ihz = g->inv_h[2];
  const double mu2 = 2.0 * mu;
  const six_arrays t = six(s);
  for_box(g, lo, hi, "stress_viscous", [=] __device__(ptrdiff_t p) {
    const ptrdiff_t st[3] = {sx, sy, sz};
    const double ih[3] = {ihx, ihy, ihz};
    stress_diagonal_at(mu2, u, v, w, p, st, ih, &t.a[TXX][p], &t.a[TYY][p], &t.a[TZZ][p]);
    t.a[TXY][p] = stress_edge_at(mu, u, v, p, sx, sy, ihx, ihy);
    t.a[TXZ][p] = stress_edge_at(mu, u, w, p, sx, sz, ihx, ihz);
    t.a[TYZ][p] = stress_edge_at(mu, v, w, p, sy, sz, ihy, ihz);
  });
}

void stress_divergence_add_cuda(const efsi_grid *g, double inv_rho, double *const s[6],
                                double *fu, double *fv, double *fw)
{
  double *const f[3] = {fu, fv, fw};
  for (int d = 0; d < 3; d++) {
    const int e1 = (d + 1) % 3, e2 = (d + 2) % 3;
    int lo[3], hi[3];
    location_range(g, LOC_FACE_X + d, lo, hi);
    const double *sdd = s[d], *s1 = s[tensor_offdiagonal(d, e1)],
                 *s2 = s[tensor_offdiagonal(d, e2)];
    const ptrdiff_t sd = g->stride[d], se1 = g->stride[e1], se2 = g->stride[e2];
    const double cd = inv_rho * g->inv_h[d], c1 = inv_rho * g->inv_h[e1],
                 c2 = inv_rho * g->inv_h[e2];
    double *fd = f[d];
    for_box(g, lo, hi, "stress_divergence_add", [=] __device__(ptrdiff_t p) {
      fd[p] += stress_divergence_at(sdd, s1, s2, p, sd, se1, se2, cd, c1, c2);
    });
  }
}
