/* The solid stress sum_m G_m phi_m dev(B) on the staggered stress positions (formulas in
 * solid_stress.h), for both backends (stencils/loop.h).  The material sum G phi is formed
 * once per cell, material by material, so the loops stay unit-stride on the CPU; then one
 * pass streams B, G phi and the six stresses once. */
#include "stencils/kernel_list.h"
#include "stencils/loop.h"

void KERNEL(solid_stress_add)(const efsi_grid *g, int nmat, const double *modulus,
                              double *const phi[], double *const b[6], double *const s[6],
                              double *restrict gphi)
{
  if (nmat == 0) return;
  int lo[3], hi[3];
  box_owned(g, 2, lo, hi);
  hi[0]--, hi[1]--, hi[2]--;   /* -2..n */
  const double g0 = modulus[0];
  const double *restrict p0 = phi[0];
  FOR_BOX(g, lo, hi, p, gphi[p] = g0 * p0[p]);
  for (int m = 1; m < nmat; m++) {
    const double *restrict pm = phi[m];
    const double gm = modulus[m];
    FOR_BOX(g, lo, hi, p, gphi[p] += gm * pm[p]);
  }
  box_owned(g, 1, lo, hi);
  /* the arrays in locals: the stores to the stress cannot alias them */
  double *const bl[6] = {b[0], b[1], b[2], b[3], b[4], b[5]};
  double *const sl[6] = {s[0], s[1], s[2], s[3], s[4], s[5]};
  const ptrdiff_t sx = g->stride[0], sy = g->stride[1], sz = g->stride[2];
  FOR_BOX(g, lo, hi, p, solid_stress_at(gphi, bl, sl, p, sx, sy, sz));
}
