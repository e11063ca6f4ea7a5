/* The momentum predictor (docs/method.md, "The time step", step 2) in one pass per velocity
 * component d, at each of its updated faces (location.h):
 *   v*_d = v_d + dt (-(v.grad v_d) + (div s)_d / rho + f_d) - (dt/rho) (p(i) - p(i - e_d)) / h_d
 * with the WENO5 advection (weno5.h: advection_at), the compact divergence of the stress
 * (stress.h: stress_divergence_at), the velocity update (projection.h: velocity_update_at)
 * and the pressure gradient (operators.h: gradient_at), in the order and with the
 * operations of the separate kernels the step ran before (stencils/reference.h), so the
 * bits are theirs: v_d and its rate are read once, v* written once. */
#ifndef EFSI_MOMENTUM_H
#define EFSI_MOMENTUM_H

#include "base/grid.h"
#include "base/portable.h"
#include "stencils/operators.h"
#include "stencils/projection.h"
#include "stencils/stress.h"
#include "stencils/weno5.h"

/* v*_d at face q: the advection of f = v_d by (u, v, w) (stencil st of the face location),
 * plus the divergence of the stress (sdd, s1, s2 with the strides and coefficients of
 * stress_divergence_at), the update with dt and the body force, and the gradient of p times
 * c = -(dt/rho)/h_d. */
EFSI_POINT double momentum_at(const weno5_stencil_t *st, const double *restrict f,
                              const double *restrict u, const double *restrict v,
                              const double *restrict w, const double *restrict sdd,
                              const double *restrict s1, const double *restrict s2,
                              ptrdiff_t sd, ptrdiff_t se1, ptrdiff_t se2, double cd, double c1,
                              double c2, const double *restrict p, double c, double dt,
                              double body, ptrdiff_t q)
{
  const double rate = advection_at(st, f, u, v, w, q)
                    + stress_divergence_at(sdd, s1, s2, q, sd, se1, se2, cd, c1, c2);
  return velocity_update_at(f[q], dt, rate, body) + gradient_at(p, q, sd, c);
}

/* Operations per owned cell: three components x (advection 335, stress divergence 9,
 * update 3, gradient 3): 1050. */
#define MOMENTUM_FLOPS \
  (3.0 * (ADVECTION_FLOPS + VELOCITY_UPDATE_FLOPS) + STRESS_DIVERGENCE_FLOPS + GRADIENT_FLOPS)

/* momentum_predictor (stencils/kernel_list.h): (fu, fv, fw) = v* from the state's velocity
 * (u, v, w), the stress s of level N over -1..n (stress_total) and the pressure p:
 * inv_rho = 1/rho, body the body force over rho along x, grad_scale = -dt/rho.  One pass
 * per component over its updated faces; other points of fu, fv, fw are left untouched.
 * Halos needed: u, v, w width 3; p width 1 on the low side.  Values streamed per owned
 * cell: three components x (u, v, w, p and three stresses read, v*_d written) = 24. */

#endif
