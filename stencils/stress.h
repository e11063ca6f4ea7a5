/* The deviatoric viscous stress 2 mu dev(D) on its staggered positions (docs/discretisation.md, "Stress"),
 * and its divergence at the velocity points:
 *   s_dd(i,j,k) = 2 mu ((v_d(i + e_d) - v_d(i))/h_d - div/3)         at the cell centre
 *   s_de(i,j,k) = mu ((v_d(i) - v_d(i - e_e))/h_e + (v_e(i) - v_e(i - e_d))/h_d)   d < e,
 * on the d-e edge: sxy(i,j,k) at (i hx, j hy, (k+1/2) hz), sxz(i,j,k) at (i hx, (j+1/2) hy, k hz),
 * syz(i,j,k) at ((i+1/2) hx, j hy, k hz); the edge is shared by the four cells (i-1..i, j-1..j)
 * (for xy), so the solid stress G phi dev(B) is added there as the mean over those cells. */
#ifndef EFSI_STRESS_H
#define EFSI_STRESS_H

#include "base/grid.h"
#include "base/portable.h"
#include "base/tensor.h"
#include "stencils/location.h"
#include "stencils/operators.h"

/* The three diagonal components at the centre p: 2 mu (dv_d/dx_d - div/3). */
EFSI_POINT void stress_diagonal_at(double mu2, const double *restrict u,
                                   const double *restrict v, const double *restrict w,
                                   ptrdiff_t p, const ptrdiff_t s[3], const double inv_h[3],
                                   double *sxx, double *syy, double *szz)
{
  const double ex = forward_difference(u, p, s[0], inv_h[0]);
  const double ey = forward_difference(v, p, s[1], inv_h[1]);
  const double ez = forward_difference(w, p, s[2], inv_h[2]);
  const double third_div = (ex + ey + ez) * (1.0 / 3.0);
  *sxx = mu2 * (ex - third_div);
  *syy = mu2 * (ey - third_div);
  *szz = mu2 * (ez - third_div);
}

/* The edge component s_de at p: mu ((a_d(p) - a_d(p - s_e))/h_e + (a_e(p) - a_e(p - s_d))/h_d),
 * sd, se the strides along d and e. */
EFSI_POINT double stress_edge_at(double mu, const double *restrict ad, const double *restrict ae,
                                 ptrdiff_t p, ptrdiff_t sd, ptrdiff_t se, double ihd,
                                 double ihe)
{
  return mu * ((ad[p] - ad[p - se]) * ihe + (ae[p] - ae[p - sd]) * ihd);
}

/* The divergence of the stress for the component along d at its face p:
 * cd (sdd(p) - sdd(p - s_d)) + c1 (s1(p + s_e1) - s1(p)) + c2 (s2(p + s_e2) - s2(p)),
 * e1, e2 the other two directions, c the inverse spacings times 1/rho. */
EFSI_POINT double stress_divergence_at(const double *restrict sdd, const double *restrict s1,
                                       const double *restrict s2, ptrdiff_t p, ptrdiff_t sd,
                                       ptrdiff_t se1, ptrdiff_t se2, double cd, double c1,
                                       double c2)
{
  return cd * (sdd[p] - sdd[p - sd]) + c1 * (s1[p + se1] - s1[p]) + c2 * (s2[p + se2] - s2[p]);
}

/* Operations per owned cell: viscous 33 (centres 15, edges 3 x 6); divergence 3 x 9. */
#define STRESS_VISCOUS_FLOPS 33.0
#define STRESS_DIVERGENCE_FLOPS 27.0

/* stress_viscous (stencils/kernel_list.h): s[0..5] = 2 mu dev(D) over indices -1..n (inclusive) in every direction, so that the
 * divergence on the owned points needs no exchange of s.  Halo needed: u, v, w width 2. */

/* stress_divergence_add (stencils/kernel_list.h): f_d += inv_rho (div s)_d at the updated points of each velocity component (location.h):
 *   fu += inv_rho ((sxx(i) - sxx(i-1))/hx + (sxy(j+1) - sxy(j))/hy + (sxz(k+1) - sxz(k))/hz)
 * and likewise fv, fw.  Needs s over -1..n (as stress_viscous writes it). */

#endif
