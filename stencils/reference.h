/* The step's kernels unfused: one loop per formula, as the time step ran them before its
 * kernels were fused (docs/performance.md, "Counting conventions").  On the CPU only, for
 * the tests: the formulas are tested on them (WENO5's order, the stress of a linear flow,
 * divergence(gradient) = Laplacian, ...), and each fused kernel of the registry
 * (stencils/kernel_list.h) against them, bit for bit. */
#ifndef EFSI_REFERENCE_H
#define EFSI_REFERENCE_H

#include "base/grid.h"

/* out = -(a . grad f) at every updated point of location loc (location.h), a = (u, v, w)
 * interpolated to the point (weno5_stencil).  Halos needed valid: f width 3; u, v, w
 * width 1.  Other points of out are left untouched. */
void advection_weno5(const efsi_grid *g, int loc, const double *restrict f,
                     const double *restrict u, const double *restrict v,
                     const double *restrict w, double *restrict out);

/* s[c] += G phi dev(B)_c over -1..n (solid_stress.h), modulus[m] = G_m; gphi: an array of
 * the grid's size, on return sum_m G_m phi_m over -2..n (modulus_sum).  Nothing is done when
 * nmat = 0.  (The viscous stress alone is stress_total with nmat = 0.) */
void solid_stress_add(const efsi_grid *g, int nmat, const double *modulus, double *const phi[],
                      double *const b[6], double *const s[6], double *restrict gphi);

/* f_d += inv_rho (div s)_d at the updated points of each velocity component (location.h):
 *   fu += inv_rho ((sxx(i) - sxx(i-1))/hx + (sxy(j+1) - sxy(j))/hy + (sxz(k+1) - sxz(k))/hz)
 * and likewise fv, fw.  Needs s over -1..n (as stress_total writes it). */
void stress_divergence_add(const efsi_grid *g, double inv_rho, double *const s[6],
                           double *restrict fu, double *restrict fv, double *restrict fw);

/* out = compact 7-point Laplacian of f on owned cells.  Halo needed: f width 1. */
void laplacian(const efsi_grid *g, const double *restrict f, double *restrict out);

#endif
