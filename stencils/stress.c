/* The stress of level N on its staggered positions (formulas in stress.h and
 * solid_stress.h), for both backends (stencils/loop.h): the sum G phi over the materials
 * (modulus_sum: one pass on the GPU, a pass a material on the CPU), then one pass that reads
 * the velocity, B and G phi once and writes the six components of the viscous and the solid
 * stress added (stress_total); with a viscosity contrast, the excess viscosity's share
 * added in a pass of its own (stress_contrast_add), so that a case without one runs as
 * before. */
#include "base/limits.h"
#include "stencils/kernel_list.h"
#include "stencils/loop.h"

void KERNEL(modulus_sum)(const efsi_grid *g, int nmat, const double *modulus,
                         double *const phi[], double *restrict gphi)
{
  int lo[3], hi[3];
  box_owned(g, 2, lo, hi);
  hi[0]--, hi[1]--, hi[2]--;   /* -2..n */
  /* the materials' arrays and moduli in locals (the body reads only locals) */
  double *pm[EFSI_MAX_MATERIALS], gm[EFSI_MAX_MATERIALS];
  for (int m = 0; m < nmat; m++) {
    pm[m] = phi[m];
    gm[m] = modulus[m];
  }
  FOR_BOX_SUM(g, lo, hi, p, gphi, m, nmat, gm[m] * pm[m][p]);
}

/* What both stress kernels take as locals (the loop bodies read only locals): the box
 * -1..n, the strides and inverse spacings (each also as an array), the six stress arrays. */
#define STRESS_LOCALS(g, s)                                                                 \
  int lo[3], hi[3];                                                                         \
  box_owned(g, 1, lo, hi);                                                                  \
  const ptrdiff_t sx = (g)->stride[0], sy = (g)->stride[1], sz = (g)->stride[2];            \
  const double ihx = (g)->inv_h[0], ihy = (g)->inv_h[1], ihz = (g)->inv_h[2];               \
  const ptrdiff_t st[3] = {sx, sy, sz};                                                     \
  const double ih[3] = {ihx, ihy, ihz};                                                     \
  double *restrict sxx = (s)[TXX], *restrict syy = (s)[TYY], *restrict szz = (s)[TZZ];      \
  double *restrict sxy = (s)[TXY], *restrict sxz = (s)[TXZ], *restrict syz = (s)[TYZ]

void KERNEL(stress_contrast_add)(const efsi_grid *g, const double *restrict excess,
                                 const double *restrict u, const double *restrict v,
                                 const double *restrict w, double *const s[6])
{
  STRESS_LOCALS(g, s);
  FOR_BOX(g, lo, hi, p,
          double vxx, vyy, vzz;
          stress_diagonal_at(2.0 * excess[p], u, v, w, p, st, ih, &vxx, &vyy, &vzz);
          sxx[p] += vxx;
          syy[p] += vyy;
          szz[p] += vzz;
          sxy[p] += stress_edge_at(contrast_edge_at(excess, p, sx, sy), u, v, p, sx, sy, ihx, ihy);
          sxz[p] += stress_edge_at(contrast_edge_at(excess, p, sx, sz), u, w, p, sx, sz, ihx, ihz);
          syz[p] += stress_edge_at(contrast_edge_at(excess, p, sy, sz), v, w, p, sy, sz, ihy, ihz));
}

void KERNEL(stress_total)(const efsi_grid *g, double mu, int nmat, double *const b[6],
                          const double *restrict u, const double *restrict v,
                          const double *restrict w, const double *restrict gphi,
                          double *const s[6])
{
  STRESS_LOCALS(g, s);
  const double mu2 = 2.0 * mu;
  if (nmat == 0) {
    FOR_BOX(g, lo, hi, p,
            stress_diagonal_at(mu2, u, v, w, p, st, ih, &sxx[p], &syy[p], &szz[p]);
            sxy[p] = stress_edge_at(mu, u, v, p, sx, sy, ihx, ihy);
            sxz[p] = stress_edge_at(mu, u, w, p, sx, sz, ihx, ihz);
            syz[p] = stress_edge_at(mu, v, w, p, sy, sz, ihy, ihz));
    return;
  }
  /* the arrays of B in a local: the stores to the stress cannot alias it */
  double *const bl[6] = {b[0], b[1], b[2], b[3], b[4], b[5]};
  FOR_BOX(g, lo, hi, p,
          double vxx, vyy, vzz;
          stress_diagonal_at(mu2, u, v, w, p, st, ih, &vxx, &vyy, &vzz);
          const sym_tensor_t e = solid_stress_values(gphi, bl, p, sx, sy, sz);
          sxx[p] = vxx + e.xx;
          syy[p] = vyy + e.yy;
          szz[p] = vzz + e.zz;
          sxy[p] = stress_edge_at(mu, u, v, p, sx, sy, ihx, ihy) + e.xy;
          sxz[p] = stress_edge_at(mu, u, w, p, sx, sz, ihx, ihz) + e.xz;
          syz[p] = stress_edge_at(mu, v, w, p, sy, sz, ihy, ihz) + e.yz);
}
