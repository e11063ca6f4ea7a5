/* The transport of B on the GPU (formulas in stencils/oldroyd.h and stencils/weno5.h): per
 * point, the advecting velocity of the cell centre, the WENO5 rate of each of the six
 * components, the clipped solid fraction, the strain rate, the Oldroyd rate, the transport
 * and the fluid treatment, in the CPU's order of operations.  Its own file because the CPU's
 * loop (stencils/oldroyd.c) works row by row through buffers, so that the square root, the
 * sum over a case's materials and the six rates leave its long loops vectorisable; a thread
 * per point needs none of them.  The diagonal's rates skip WENO5's arithmetic where B_aa is
 * constant along the line (advection_with_sparse: the same bits), as in the plasma, where the
 * fluid treatment sets it to 1 exactly; the off-diagonal is b f there, tiny but not zero
 * wherever the volume fractions' WENO5 tails reach, which after some steps is everywhere, so
 * it takes the plain formula. */
#include "stencils/cuda/launch.cuh"

/* Four blocks of 256 threads a multiprocessor, so 64 registers a thread (a few values
 * spill to the cache): measured faster than three blocks (80 registers) and than the
 * compiler's own 94 registers, two blocks (docs/performance-gpu.md). */
enum { B_ADVANCE_MIN_BLOCKS = 4 };

extern "C" {
#include "stencils/kernel_list.h"
#include "stencils/loop.h"
}

void b_advance_cuda(const efsi_grid *g, int nmat, double *const phi[], double dt, double kappa,
                    const double *u, const double *v, const double *w, double *const b[6],
                    double *const next[6])
{
  int lo[3], hi[3];
  box_owned(g, 0, lo, hi);
  const material_arrays m = materials(nmat, phi, NULL);
  const six_arrays bb = six(b), nn = six(next);
  const weno5_stencil_t st = weno5_stencil(g, LOC_CENTRE);
  const ptrdiff_t sx = g->stride[0], sy = g->stride[1], sz = g->stride[2];
  const double ihx = g->inv_h[0], ihy = g->inv_h[1], ihz = g->inv_h[2];
  const double dt_kappa = dt * kappa;
  for_box<B_ADVANCE_MIN_BLOCKS>(g, lo, hi, "b_advance", [=] __device__(ptrdiff_t p) {
    const ptrdiff_t s3[3] = {sx, sy, sz};
    const double ih[3] = {ihx, ihy, ihz};
    const advecting_t a = advecting_velocity(&st, u, v, w, p);
    const sym_tensor_t R = {advection_with_sparse(&st, bb.a[TXX], a, p),
                            advection_with_sparse(&st, bb.a[TYY], a, p),
                            advection_with_sparse(&st, bb.a[TZZ], a, p),
                            advection_with(&st, bb.a[TXY], a, p),
                            advection_with(&st, bb.a[TXZ], a, p),
                            advection_with(&st, bb.a[TYZ], a, p)};
    const double phi_p = clip_unit(solid_fraction_at(nmat, (double *const *)m.a, p));
    const velocity_gradient_t L = velocity_gradient_at(u, v, w, p, s3, ih);
    const double gdot = sqrt(strain_rate_squared(&L));
    const sym_tensor_t B = sym_load(bb.a, p);
    const sym_tensor_t r = oldroyd_rate_at(&L, B);
    const sym_tensor_t moved = transported_at(B, dt, R, r);
    sym_store(nn.a, p, treatment_apply(treatment_weight(phi_p, dt_kappa, gdot), moved));
  });
}
