/* The upper-convected (Oldroyd) rate of the left Cauchy-Green tensor B, and the fluid
 * treatment of B (docs/solid.md):
 *   dB/dt + v.grad B = L.B + B.L^T,   L_ab = dv_a/dx_b,
 * with L formed at the cell centre point by point, exactly as velocity_gradient.h does
 * (diagonal from the two faces, off-diagonal from central differences of face values
 * averaged to the centre), so that no L arrays are stored. */
#ifndef EFSI_OLDROYD_H
#define EFSI_OLDROYD_H

#include <float.h>

#include "base/grid.h"
#include "base/portable.h"
#include "base/tensor.h"
#include "stencils/symmetric.h"
#include "stencils/velocity_gradient.h"
#include "stencils/weno5.h"

/* The Oldroyd rate L.B + B.L^T at one point from L and B: with M = L.B,
 * L.B + B.L^T = M + M^T because B is symmetric. */
EFSI_POINT sym_tensor_t oldroyd_rate_at(const velocity_gradient_t *L, sym_tensor_t B)
{
  const double Mxx = L->xx * B.xx + L->xy * B.xy + L->xz * B.xz;
  const double Mxy = L->xx * B.xy + L->xy * B.yy + L->xz * B.yz;
  const double Mxz = L->xx * B.xz + L->xy * B.yz + L->xz * B.zz;
  const double Myx = L->yx * B.xx + L->yy * B.xy + L->yz * B.xz;
  const double Myy = L->yx * B.xy + L->yy * B.yy + L->yz * B.yz;
  const double Myz = L->yx * B.xz + L->yy * B.yz + L->yz * B.zz;
  const double Mzx = L->zx * B.xx + L->zy * B.xy + L->zz * B.xz;
  const double Mzy = L->zx * B.xy + L->zy * B.yy + L->zz * B.yz;
  const double Mzz = L->zx * B.xz + L->zy * B.yz + L->zz * B.zz;
  sym_tensor_t r = {2.0 * Mxx, 2.0 * Myy, 2.0 * Mzz, Mxy + Myx, Mxz + Mzx, Myz + Mzy};
  return r;
}

/* B + dt (R + s): one explicit step of the transport of B at a point, R = -v.grad B and
 * s = L.B + B.L^T. */
EFSI_POINT sym_tensor_t transported_at(sym_tensor_t B, double dt, sym_tensor_t R,
                                       sym_tensor_t s)
{
  sym_tensor_t t = {B.xx + dt * (R.xx + s.xx), B.yy + dt * (R.yy + s.yy),
                    B.zz + dt * (R.zz + s.zz), B.xy + dt * (R.xy + s.xy),
                    B.xz + dt * (R.xz + s.xz), B.yz + dt * (R.yz + s.yz)};
  return t;
}

/* gdot^2 = 2 D:D with 2 D_ab = L_ab + L_ba: the square of the local shear rate. */
EFSI_POINT double strain_rate_squared(const velocity_gradient_t *L)
{
  const double dxy = L->xy + L->yx, dxz = L->xz + L->zx, dyz = L->yz + L->zy;
  return 2.0 * (L->xx * L->xx + L->yy * L->yy + L->zz * L->zz)
       + (dxy * dxy + dxz * dxz + dyz * dyz);
}

/* x clipped to [0, 1]: the total solid fraction of a cell, which WENO5 lets over- and
 * undershoot slightly. */
EFSI_POINT double clip_unit(double x)
{
  const double above = x > 0.0 ? x : 0.0;
  return above < 1.0 ? above : 1.0;
}

/* The weight f of B in the fluid treatment, B <- f B + (1 - f) I:
 * f = 1/(1 + dt r) with r = kappa gdot (1 - phi)/phi, multiplied through by phi so that
 * phi = 0 gives f = 0 (not 0/0); DBL_MIN keeps phi = 0 at rest well defined and changes no
 * denominator above 1e-292. */
EFSI_POINT double treatment_weight(double phi, double dt_kappa, double gdot)
{
  return phi / (phi + dt_kappa * gdot * (1.0 - phi) + DBL_MIN);
}

/* f b + (1 - f) I: f = 1 returns b bitwise, f = 0 returns I exactly, and the convex
 * combination keeps b symmetric positive definite. */
EFSI_POINT sym_tensor_t treatment_apply(double f, sym_tensor_t b)
{
  const double one_minus_f = 1.0 - f;
  sym_tensor_t t = {f * b.xx + one_minus_f, f * b.yy + one_minus_f, f * b.zz + one_minus_f,
                    b.xy * f, b.xz * f, b.yz * f};
  return t;
}

/* out[c] += (L.B + B.L^T)_c on owned cells, c in the order of base/tensor.h.  Halo needed: u, v, w width 1 (edges included); B none.
 * Floating-point operations per cell (add, mul = 1, FMA = 2): 87
 *   = 30 for L (3 diagonal x 2, 6 off-diagonal x 4) + 45 for M = L.B (9 entries x 5)
 *   + 12 for out_aa += 2 M_aa and out_ab += M_ab + M_ba. */
#define OLDROYD_FLOPS 87.0

void oldroyd_rate_add(const efsi_grid *g, const double *restrict u, const double *restrict v,
                      const double *restrict w, double *const b[6], double *const out[6]);

/* The fluid treatment of B, applied after the transport step, on owned cells:
 *   B <- f B + (1 - f) I,   f = phi / (phi + dt kappa gdot (1 - phi))
 * i.e. one backward-Euler step of the relaxation dB/dt = -r (B - I) at the rate
 *   r = kappa gdot (1 - phi) / phi,   gdot = sqrt(2 D:D),  D = (L + L^T)/2,
 * phi = sum_m phi_m clipped to [0, 1] (the new phi), L from v at the level the transport used.
 * phi = 0: B = I exactly;  phi = 1: B unchanged bitwise;  0 < phi < 1: the strain a cell can
 * hold under shear is bounded by W = phi / (kappa (1 - phi)) whatever the shear rate, the
 * duration and dt (docs/solid.md).  kappa > 0 is dimensionless (1 is the documented choice).
 * Halo needed: u, v, w width 1; phi none.
 * Floating-point operations per cell: 64 + nmat (30 for L, 16 for gdot with its square
 * root, nmat to sum phi, 2 to clip it, 6 for f with its division, 10 to update B). */
#define SOLID_TREATMENT_FLOPS(nmat) (64.0 + (nmat))

/* The operations per point of oldroyd_update (below). */
#define OLDROYD_UPDATE_FLOPS(nmat) (OLDROYD_FLOPS + 12.0 + SOLID_TREATMENT_FLOPS(nmat))

/* The documented choice of kappa: a mixture cell holds at most the strain phi/(1 - phi). */
#define SOLID_INTERFACE_KAPPA 1.0

void solid_fluid_treatment(const efsi_grid *g, int nmat, double *const phi[], double dt,
                           double kappa, const double *restrict u, const double *restrict v,
                           const double *restrict w, double *const b[6]);

/* The update of B in one pass over the cells (the fused form of the three above, the same
 * arithmetic in the same order):
 *   B <- f (B + dt (rate + L.B + B.L^T)) + (1 - f) I,  f of solid_fluid_treatment,
 * where rate holds -v.grad B (WENO5) on entry and phi the new volume fractions.  Halo
 * needed: u, v, w width 1.  Operations: those of the three kernels,
 * OLDROYD_FLOPS + 12 + SOLID_TREATMENT_FLOPS(nmat) (L is formed in the strain-rate loop
 * and again in the update loop, which keeps the square root out of the long loop).  The
 * reference of b_advance, for the tests (stencils/reference.h). */
void oldroyd_update(const efsi_grid *g, int nmat, double *const phi[], double dt, double kappa,
                    const double *restrict u, const double *restrict v,
                    const double *restrict w, double *const rate[6], double *const b[6]);

/* b_advance (stencils/kernel_list.h): the transport of B in one pass over the cells,
 *   next = f (B + dt (-v.grad B + L.B + B.L^T)) + (1 - f) I,  f of solid_fluid_treatment,
 * B^N in b, B^{N+1} into next (other arrays: B's neighbours are read), phi the new volume
 * fractions of the elastic solids and level the membranes' levels, whose bands hold B too
 * (membrane.h, membrane_hold; docs/membrane.md, "B in the band"): the WENO5 advection of
 * the six components (advection_with, the advecting velocity of the cell centre formed
 * once for the six), then oldroyd_update's arithmetic,
 * so the bits are those of six advection_weno5 and oldroyd_update.  Halo needed: B width 3,
 * u, v, w width 1.  Values streamed per owned cell: u, v, w, the six B and the nmat phi
 * read, the six of next written: 15 + nmat (the separate kernels streamed 52 + nmat). */
#define B_ADVANCE_FLOPS(nmat) \
  (ADVECTING_FLOPS + 6.0 * ADVECTION_WITH_FLOPS + OLDROYD_UPDATE_FLOPS(nmat))

#endif
