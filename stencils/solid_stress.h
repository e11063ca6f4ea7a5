/* The elastic stress of the solid materials, neo-Hookean and incompressible:
 *   sigma_solid = sum_m G_m phi_m dev(B),   dev(B) = B - tr(B)/3 I,
 * added into the staggered stress arrays of stress.h (TXX..TYZ): the diagonal at the cell
 * centres, each off-diagonal component on its edge as the mean over the four cells sharing
 * the edge (DESIGN.md section 2), e.g. sxy(i,j,k) += mean over (i-1..i, j-1..j, k) of G phi Bxy.
 * Also the elastic energy, e = sum_m G_m phi_m (tr B - 3)/2 per volume, and det B. */
#ifndef EFSI_SOLID_STRESS_H
#define EFSI_SOLID_STRESS_H

#include "base/grid.h"

/* s[c] += G phi dev(B)_c over indices -1..n (inclusive) in every direction, the range that
 * stress_viscous writes, so that stress_divergence_add then sees the total stress.
 * modulus[m] = G_m.  gphi: scratch of g->size doubles; on return it holds sum_m G_m phi_m over
 * -2..n.  Halo needed: phi_m and B width 2 on the low side, 1 on the high side (edges and
 * corners included; a width-2 exchange provides it).  Nothing is done when nmat = 0.
 * Floating-point operations (add, mul = 1, FMA = 2): 2 nmat - 1 per point of -2..n for
 * sum_m G_m phi_m, then 43 per point of -1..n: 16 at the centre (G phi / 3: 1; three times
 * 2 B_aa - B_bb - B_cc, times G phi / 3, add: 15) and 27 on the edges (three times four
 * products, three adds, the quarter and the add).  Per owned cell of a large block:
 * 42 + 2 nmat. */
#define SOLID_STRESS_FLOPS(nmat) (42.0 + 2.0 * (nmat))

void solid_stress_add(const efsi_grid *g, int nmat, const double *modulus,
                      double *const phi[], double *const b[6], double *const s[6],
                      double *restrict gphi);

/* The elastic energy on the owned cells, sum over cells of e hx hy hz with
 * e = sum_m G_m phi_m (tr B - 3)/2 (zero at B = I; for det B = 1, tr B >= 3).  Summed plane
 * by plane in a fixed order, so the result does not depend on the number of threads. */
double solid_elastic_energy(const efsi_grid *g, int nmat, const double *modulus,
                            double *const phi[], double *const b[6]);

/* range[0], range[1] = min and max of det B over the owned cells whose total solid fraction
 * sum_m phi_m is at least phi_min (the incompressible solid keeps det B = 1); +inf and -inf
 * when there is no such cell. */
void solid_det_range(const efsi_grid *g, int nmat, double *const phi[],
                     double *const b[6], double phi_min, double range[2]);

#endif
