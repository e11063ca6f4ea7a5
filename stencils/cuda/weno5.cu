/* WENO5 advection on the GPU (formulas in stencils/weno5.h; mirrors weno5.c). */
#include "stencils/cuda/kernels.cuh"

extern "C" {
#include "stencils/loop.h"
#include "stencils/weno5.h"
}

void advection_weno5_cuda(const efsi_grid *g, int loc, const double *f, const double *u,
                          const double *v, const double *w, double *out)
{
  int lo[3], hi[3];
  location_range(g, loc, lo, hi);
  const weno5_stencil_t st = weno5_stencil(g, loc);
  for_box(g, lo, hi, "advection_weno5", [=] __device__(ptrdiff_t p) {
    out[p] = advection_at(&st, f, u, v, w, p);
  });
}

void advection_weno5_conservative_cuda(const efsi_grid *g, const double *f, const double *u,
                                       const double *v, const double *w, double thinc_beta,
                                       double dt, double *out)
{
  int lo[3], hi[3];
  box_owned(g, 0, lo, hi);
  const weno5_stencil_t st = weno5_stencil(g, LOC_CENTRE);
  /* WENO5's rate everywhere, then THINC's change where an upwind cell is an interface cell:
   * the WENO5 kernel keeps its speed, and only the warps at an interface branch */
  for_box(g, lo, hi, "advection_weno5_conservative", [=] __device__(ptrdiff_t p) {
    out[p] = advection_conservative_at(&st, f, u, v, w, p);
  });
  if (thinc_beta > 0)
    for_box(g, lo, hi, "advection_thinc", [=] __device__(ptrdiff_t p) {
      const double c = thinc_correction_at(&st, f, u, v, w, p, thinc_beta, dt);
      if (c != 0) out[p] += c;
    });
}
