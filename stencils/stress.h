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
#include "stencils/solid_stress.h"

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

/* modulus_sum (stencils/kernel_list.h): gphi = sum_m G_m phi_m (modulus[m] = G_m) over -2..n
 * in every direction, in modulus_sum_at's order (solid_stress.h), by FOR_BOX_SUM
 * (stencils/loop.h).  Halo needed: phi_m width 2 on the low side.  Operations per owned cell
 * 2 nmat - 1; values streamed as the GPU's one pass streams them (each phi_m read, gphi
 * written: the CPU's passes stream 3 nmat - 1). */
#define MODULUS_SUM_FLOPS(nmat) (2.0 * (nmat) - 1.0)
#define MODULUS_SUM_ARRAYS(nmat) ((nmat) + 1.0)

/* stress_total (stencils/kernel_list.h): the whole stress of level N in one pass,
 *   s = 2 mu dev(D) + sum_m G_m phi_m dev(B)
 * on its staggered positions over indices -1..n (inclusive) in every direction, so that its
 * divergence on the owned points needs no exchange of s: the viscous part as stress.h
 * writes it, the solid part as solid_stress.h does from gphi = sum_m G_m phi_m over -2..n
 * (modulus_sum), the two added.  The viscous stress alone when nmat = 0 (b and gphi are not
 * read).  Halo needed: u, v, w width 2; B width 2 on the low side, 1 on the high side (edges
 * and corners included).  Operations per owned cell: 33 viscous, 43 more with a solid
 * (solid_stress.h); values streamed: u, v, w read and the six stresses written (9), with a
 * solid the six B and G phi read too (16). */
#define STRESS_TOTAL_FLOPS(nmat) \
  (STRESS_VISCOUS_FLOPS + ((nmat) > 0 ? SOLID_STRESS_FLOPS(nmat) - MODULUS_SUM_FLOPS(nmat) : 0.0))
#define STRESS_TOTAL_ARRAYS(nmat) ((nmat) > 0 ? 16.0 : 9.0)

/* stress_contrast_add (stencils/kernel_list.h): a viscosity contrast's share of the viscous
 * stress, s += 2 mu_x dev(D), mu_x = sum_m (mu_m - mu) phi_m the excess of the mixture rule
 * mu + sum_m (mu_m - mu) phi_m over the fluid's (docs/method.md, "The equations"), formed by
 * modulus_sum with the coefficients mu_m - mu: at the centre mu_x of its cell, on an edge
 * the mean of mu_x over the four cells sharing it (as the solid stress takes G phi there).
 * Over indices -1..n, as stress_total; halo needed: u, v, w width 2, mu_x over -2..n.
 * Operations per owned cell: the viscous 33, 2 mu_x at the centre (1), the edges' three
 * means (4 each) and the six adds: 52; values streamed: u, v, w and mu_x read, the six stresses read and written
 * (16). */
EFSI_POINT double contrast_edge_at(const double *restrict excess, ptrdiff_t p, ptrdiff_t sd,
                                   ptrdiff_t se)
{
  return 0.25 * ((excess[p] + excess[p - sd]) + (excess[p - se] + excess[p - sd - se]));
}
#define STRESS_CONTRAST_FLOPS (STRESS_VISCOUS_FLOPS + 1.0 + 12.0 + 6.0)
#define STRESS_CONTRAST_ARRAYS 16.0

#endif
