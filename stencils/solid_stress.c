/* The solid stress sum_m G_m phi_m dev(B) on the staggered stress positions, on the CPU
 * (formulas in solid_stress.h).  The material sum G phi is formed once per cell, material by
 * material along each row so the loops stay unit-stride; then one pass streams B, G phi and
 * the six stresses once. */
#include "stencils/solid_stress.h"

#include "base/tensor.h"
#include "stencils/loop.h"

void solid_stress_add(const efsi_grid *g, int nmat, const double *modulus,
                      double *const phi[], double *const b[6], double *const s[6],
                      double *restrict gphi)
{
  if (nmat == 0) return;
  int lo[3], hi[3];
  box_owned(g, 2, lo, hi);
  hi[0]--, hi[1]--, hi[2]--;   /* -2..n */
  const double g0 = modulus[0];
  const double *restrict p0 = phi[0];
  FOR_BOX(g, lo, hi, p) gphi[p] = g0 * p0[p];
  for (int m = 1; m < nmat; m++) {
    const double *restrict pm = phi[m];
    const double gm = modulus[m];
    FOR_BOX(g, lo, hi, p) gphi[p] += gm * pm[p];
  }
  box_owned(g, 1, lo, hi);
  const double *restrict bxx = b[TXX], *restrict byy = b[TYY], *restrict bzz = b[TZZ],
               *restrict bxy = b[TXY], *restrict bxz = b[TXZ], *restrict byz = b[TYZ];
  double *restrict sxx = s[TXX], *restrict syy = s[TYY], *restrict szz = s[TZZ],
         *restrict sxy = s[TXY], *restrict sxz = s[TXZ], *restrict syz = s[TYZ];
  const ptrdiff_t sx = g->stride[0], sy = g->stride[1], sz = g->stride[2];
  FOR_BOX(g, lo, hi, p) {
    const double g3 = gphi[p] * (1.0 / 3.0);
    sxx[p] += solid_diagonal_at(g3, bxx[p], byy[p], bzz[p]);
    syy[p] += solid_diagonal_at(g3, byy[p], bxx[p], bzz[p]);
    szz[p] += solid_diagonal_at(g3, bzz[p], bxx[p], byy[p]);
    sxy[p] += solid_edge_at(gphi, bxy, p, sx, sy);
    sxz[p] += solid_edge_at(gphi, bxz, p, sx, sz);
    syz[p] += solid_edge_at(gphi, byz, p, sy, sz);
  }
}
