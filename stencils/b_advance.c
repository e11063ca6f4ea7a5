/* The step's transport of B with the Oldroyd rate and the fluid treatment (formulas in
 * oldroyd.h and weno5.h, reasoning in docs/solid.md), for both backends in the row form
 * (stencils/loop.h, FOR_ROWS; stencils/cuda/loops.cu compiles this file):
 *   next = f (B + dt (-v.grad B + L.B + B.L^T)) + (1 - f) I,  f = treatment_weight,
 * at every owned cell.  The stages -- the advecting velocity of the cell centre, the WENO5
 * rate of each of B's six components, the clipped fraction that holds B (a sum over a
 * case's elastic solids and its membranes' bands), the strain rate with its square root, then the update -- are each a loop along
 * the row on the CPU, through row buffers that never leave the cache, so that the long loops
 * vectorise; a GPU thread runs them one after the other at its point.  L is formed from the
 * face velocities inside the point loops: no gradient arrays exist. */
#include "base/limits.h"
#include "stencils/kernel_list.h"
#include "stencils/loop.h"

/* Four blocks of 256 threads a GPU multiprocessor, so 64 registers a thread (a few values
 * spill to the cache): measured faster than three blocks (80 registers) and than the
 * compiler's own 94 registers, two blocks (docs/performance-gpu.md).  No bearing on the
 * CPU. */
enum { B_ADVANCE_MIN_BLOCKS = 4 };

/* The WENO5 rate -(a . grad B_c) of component c at p: on the GPU the diagonal's skips
 * WENO5's arithmetic where B_cc is constant along the line (advection_with_sparse: the same
 * bits), as in the plasma, where the fluid treatment sets it to 1 exactly, and a thread
 * there saves the work; the off-diagonal is b f there, tiny but not zero wherever the volume
 * fractions' WENO5 tails reach, which after some steps is everywhere.  The CPU's SIMD loop
 * would pay for both branches: it takes the plain formula. */
EFSI_POINT double b_component_rate(const weno5_stencil_t *st, const double *restrict f,
                                   advecting_t a, ptrdiff_t p, int c)
{
#if defined(__CUDA_ARCH__)
  if (c < TXY) return advection_with_sparse(st, f, a, p);
#endif
  (void)c;
  return advection_with(st, f, a, p);
}

/* Component c's rate at every point of the row, a stage each (c a constant: on the GPU the
 * rates stay in registers). */
#define B_RATE(c)                                                  \
  POINTS(p, const advecting_t a = {ROW(ax), ROW(ay), ROW(az)};    \
            ROW(rate[c]) = b_component_rate(&st, bl[c], a, p, c))

void KERNEL(b_advance)(const efsi_grid *g, int nmat, double *const phi[], int nlevel,
                       double *const level[], double dt, double kappa,
                       const double *restrict u, const double *restrict v,
                       const double *restrict w, double *const b[6], double *const next[6])
{
  int lo[3], hi[3];
  box_owned(g, 0, lo, hi);
  /* the arrays of B, B^{N+1} and the materials in locals (the body reads only locals) */
  double *const bl[6] = {b[0], b[1], b[2], b[3], b[4], b[5]};
  double *const nl[6] = {next[0], next[1], next[2], next[3], next[4], next[5]};
  double *pm[EFSI_MAX_MATERIALS] = {NULL};
  for (int m = 0; m < nmat; m++) pm[m] = phi[m];
  double *lv[EFSI_MAX_MATERIALS] = {NULL};
  for (int m = 0; m < nlevel; m++) lv[m] = level[m];
  const weno5_stencil_t st = weno5_stencil(g, LOC_CENTRE);
  const ptrdiff_t sx = g->stride[0], sy = g->stride[1], sz = g->stride[2];
  const double ihx = g->inv_h[0], ihy = g->inv_h[1], ihz = g->inv_h[2];
  const double dt_kappa = dt * kappa;
  FOR_ROWS(g, lo, hi, B_ADVANCE_MIN_BLOCKS,
    /* the row's own strides and spacings: the stores to B^{N+1} cannot alias them, so
     * they stay in registers */
    const ptrdiff_t s3[3] = {sx, sy, sz};
    const double ih[3] = {ihx, ihy, ihz};
    double ROW_BUFFER(ax), ROW_BUFFER(ay), ROW_BUFFER(az), ROW_BUFFER(rate[6]);
    double ROW_BUFFER(phi_row), ROW_BUFFER(gdot);
    POINTS(p, const advecting_t a = advecting_velocity(&st, u, v, w, p);
              ROW(ax) = a.x;
              ROW(ay) = a.y;
              ROW(az) = a.z;
              ROW(phi_row) = 0.0);
    B_RATE(TXX); B_RATE(TYY); B_RATE(TZZ); B_RATE(TXY); B_RATE(TXZ); B_RATE(TYZ);
    /* the fraction that holds B, clipped: the elastic solids' volume fractions added in
     * their order to 0, then each membrane's band (membrane.h, membrane_hold) */
    for (int m = 0; m < nmat; m++) POINTS(p, ROW(phi_row) += pm[m][p]);
    for (int m = 0; m < nlevel; m++) POINTS(p, ROW(phi_row) += membrane_hold(lv[m][p]));
    POINTS(p, ROW(phi_row) = clip_unit(ROW(phi_row)));
    POINTS(p, const velocity_gradient_t L = velocity_gradient_at(u, v, w, p, s3, ih);
              ROW(gdot) = strain_rate_squared(&L));
    POINTS(p, ROW(gdot) = sqrt(ROW(gdot)));
    POINTS(p, const velocity_gradient_t L = velocity_gradient_at(u, v, w, p, s3, ih);
              const sym_tensor_t B = sym_load(bl, p);
              const sym_tensor_t R = {ROW(rate[TXX]), ROW(rate[TYY]), ROW(rate[TZZ]),
                                      ROW(rate[TXY]), ROW(rate[TXZ]), ROW(rate[TYZ])};
              const sym_tensor_t moved = transported_at(B, dt, R, oldroyd_rate_at(&L, B));
              const double f = treatment_weight(ROW(phi_row), dt_kappa, ROW(gdot));
              sym_store(nl, p, treatment_apply(f, moved))));
}
#undef B_RATE
