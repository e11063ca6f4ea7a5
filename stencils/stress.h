/* The deviatoric viscous stress 2 mu dev(D) on its staggered positions (DESIGN.md section 2),
 * and its divergence at the velocity points:
 *   s_dd(i,j,k) = 2 mu ((v_d(i + e_d) - v_d(i))/h_d - div/3)         at the cell centre
 *   s_de(i,j,k) = mu ((v_d(i) - v_d(i - e_e))/h_e + (v_e(i) - v_e(i - e_d))/h_d)   d < e,
 * on the d-e edge: sxy(i,j,k) at (i hx, j hy, (k+1/2) hz), sxz(i,j,k) at (i hx, (j+1/2) hy, k hz),
 * syz(i,j,k) at ((i+1/2) hx, j hy, k hz); the edge is shared by the four cells (i-1..i, j-1..j)
 * (for xy), so the solid stress G phi dev(B) is added there as the mean over those cells. */
#ifndef EFSI_STRESS_H
#define EFSI_STRESS_H

#include "base/grid.h"
#include "base/tensor.h"
#include "stencils/location.h"

/* s[0..5] = 2 mu dev(D) over indices -1..n (inclusive) in every direction, so that the
 * divergence on the owned points needs no exchange of s.  Halo needed: u, v, w width 2. */
void stress_viscous(const efsi_grid *g, double mu, const double *restrict u,
                    const double *restrict v, const double *restrict w, double *const s[6]);

/* f_d += inv_rho (div s)_d at the updated points of each velocity component (location.h):
 *   fu += inv_rho ((sxx(i) - sxx(i-1))/hx + (sxy(j+1) - sxy(j))/hy + (sxz(k+1) - sxz(k))/hz)
 * and likewise fv, fw.  Needs s over -1..n (as stress_viscous writes it). */
void stress_divergence_add(const efsi_grid *g, double inv_rho, double *const s[6],
                           double *restrict fu, double *restrict fv, double *restrict fw);

#endif
