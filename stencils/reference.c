/* The step's kernels unfused, on the CPU (see reference.h): each the loop of one per-point
 * formula of the stencils/ headers, which the fused kernels share. */
#include "stencils/reference.h"

#include "stencils/kernel_list.h"

#include "stencils/location.h"
#include "stencils/loop.h"

void advection_weno5(const efsi_grid *g, int loc, const double *restrict f,
                     const double *restrict u, const double *restrict v,
                     const double *restrict w, double *restrict out)
{
  int lo[3], hi[3];
  location_range(g, loc, lo, hi);
  const weno5_stencil_t st = weno5_stencil(g, loc);
  FOR_BOX(g, lo, hi, p, out[p] = advection_at(&st, f, u, v, w, p));
}

void solid_stress_add(const efsi_grid *g, int nmat, const double *modulus, double *const phi[],
                      double *const b[6], double *const s[6], double *restrict gphi)
{
  if (nmat == 0) return;
  modulus_sum(g, nmat, modulus, phi, gphi);
  int lo[3], hi[3];
  box_owned(g, 1, lo, hi);
  double *const bl[6] = {b[0], b[1], b[2], b[3], b[4], b[5]};
  double *const sl[6] = {s[0], s[1], s[2], s[3], s[4], s[5]};
  const ptrdiff_t sx = g->stride[0], sy = g->stride[1], sz = g->stride[2];
  FOR_BOX(g, lo, hi, p,
          const sym_tensor_t e = solid_stress_values(gphi, bl, p, sx, sy, sz);
          sl[TXX][p] += e.xx;
          sl[TYY][p] += e.yy;
          sl[TZZ][p] += e.zz;
          sl[TXY][p] += e.xy;
          sl[TXZ][p] += e.xz;
          sl[TYZ][p] += e.yz);
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
    FOR_BOX(g, lo, hi, p,
            fd[p] += stress_divergence_at(sdd, s1, s2, p, sd, se1, se2, cd, c1, c2));
  }
}

void laplacian(const efsi_grid *g, const double *restrict f, double *restrict out)
{
  int lo[3], hi[3];
  box_owned(g, 0, lo, hi);
  const ptrdiff_t s[3] = {g->stride[0], g->stride[1], g->stride[2]};
  const double ih2[3] = {g->inv_h[0] * g->inv_h[0], g->inv_h[1] * g->inv_h[1],
                         g->inv_h[2] * g->inv_h[2]};
  FOR_BOX(g, lo, hi, p, out[p] = laplacian_at(f, p, s, ih2));
}
