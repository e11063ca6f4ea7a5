/* WENO5 advection on the CPU (formulas in weno5.h): one point loop per kernel. */
#include "stencils/weno5.h"

#include <math.h>

#include "stencils/loop.h"

void advection_weno5(const efsi_grid *g, int loc, const double *restrict f,
                     const double *restrict u, const double *restrict v,
                     const double *restrict w, double *restrict out)
{
  int lo[3], hi[3];
  location_range(g, loc, lo, hi);
  const weno5_stencil_t st = weno5_stencil(g, loc);
  FOR_BOX(g, lo, hi, p) out[p] = advection_at(&st, f, u, v, w, p);
}

void advection_weno5_conservative(const efsi_grid *g, const double *restrict f,
                                  const double *restrict u, const double *restrict v,
                                  const double *restrict w, double thinc_beta,
                                  double *restrict out)
{
  int lo[3], hi[3];
  box_owned(g, 0, lo, hi);
  const weno5_stencil_t st = weno5_stencil(g, LOC_CENTRE);
  if (thinc_beta > 0) {
    FOR_BOX(g, lo, hi, p) out[p] = advection_conservative_at(&st, f, u, v, w, p, thinc_beta);
  } else {
    FOR_BOX(g, lo, hi, p) out[p] = advection_conservative_at(&st, f, u, v, w, p, 0.0);
  }
}
