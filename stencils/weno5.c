/* WENO5 advection (formulas in weno5.h), for both backends (stencils/loop.h). */
#include "stencils/kernel_list.h"
#include "stencils/loop.h"

void KERNEL(advection_weno5)(const efsi_grid *g, int loc, const double *restrict f,
                             const double *restrict u, const double *restrict v,
                             const double *restrict w, double *restrict out)
{
  int lo[3], hi[3];
  location_range(g, loc, lo, hi);
  const weno5_stencil_t st = weno5_stencil(g, loc);
  FOR_BOX(g, lo, hi, p, out[p] = advection_at(&st, f, u, v, w, p));
}
