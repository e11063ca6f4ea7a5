/* The fused update of B on the GPU (formulas in stencils/oldroyd.h): per point, the clipped
 * solid fraction, the strain rate, the Oldroyd rate, the transport and the fluid treatment,
 * in the CPU's order of operations.  Its own file because the CPU's loop (stencils/
 * oldroyd.c) works row by row through buffers, so that the square root and the sum over a
 * case's materials leave its long loops vectorisable; a thread per point needs neither. */
#include "stencils/cuda/launch.cuh"

extern "C" {
#include "stencils/kernel_list.h"
#include "stencils/loop.h"
}

void oldroyd_update_cuda(const efsi_grid *g, int nmat, double *const phi[], double dt,
                         double kappa, const double *u, const double *v, const double *w,
                         double *const rate[6], double *const b[6])
{
  int lo[3], hi[3];
  box_owned(g, 0, lo, hi);
  const material_arrays m = materials(nmat, phi, NULL);
  const six_arrays bb = six(b), rr = six(rate);
  const ptrdiff_t sx = g->stride[0], sy = g->stride[1], sz = g->stride[2];
  const double ihx = g->inv_h[0], ihy = g->inv_h[1], ihz = g->inv_h[2];
  const double dt_kappa = dt * kappa;
  for_box(g, lo, hi, "oldroyd_update", [=] __device__(ptrdiff_t p) {
    const ptrdiff_t st[3] = {sx, sy, sz};
    const double ih[3] = {ihx, ihy, ihz};
    const double phi_p = clip_unit(solid_fraction_at(nmat, (double *const *)m.a, p));
    const velocity_gradient_t L = velocity_gradient_at(u, v, w, p, st, ih);
    const double gdot = sqrt(strain_rate_squared(&L));
    const sym_tensor_t B = sym_load(bb.a, p), R = sym_load(rr.a, p);
    const sym_tensor_t r = oldroyd_rate_at(&L, B);
    const sym_tensor_t moved = transported_at(B, dt, R, r);
    sym_store(bb.a, p, treatment_apply(treatment_weight(phi_p, dt_kappa, gdot), moved));
  });
}
