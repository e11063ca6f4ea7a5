/* The elastic stress of the solid materials, neo-Hookean and incompressible
 * (docs/solid.md, "Stress of the solid"):
 *   sigma_solid = sum_m G_m phi_m dev(B),   dev(B) = B - tr(B)/3 I,
 * added into the staggered stress arrays of stress.h: the diagonal at the cell centres,
 * each off-diagonal component on its edge as the mean over the four cells sharing the edge
 * (docs/discretisation.md, "Stress"), e.g. sxy(i,j,k) += mean over (i-1..i, j-1..j, k) of
 * G phi Bxy. */
#ifndef EFSI_SOLID_STRESS_H
#define EFSI_SOLID_STRESS_H

#include "base/grid.h"
#include "base/portable.h"
#include "base/tensor.h"

/* sum_m G_m phi_m at p, materials in their order (modulus[m] = G_m). */
EFSI_POINT double modulus_sum_at(int nmat, const double *modulus, double *const phi[],
                                 ptrdiff_t p)
{
  double gp = modulus[0] * phi[0][p];
  for (int m = 1; m < nmat; m++) gp += modulus[m] * phi[m][p];
  return gp;
}

/* sum_m phi_m at p, the total solid fraction, the materials added in their order to 0 (the
 * CPU's treatment of B forms the same sum row by row: stencils/oldroyd.c, treatment_row). */
EFSI_POINT double solid_fraction_at(int nmat, double *const phi[], ptrdiff_t p)
{
  double total = 0.0;
  for (int m = 0; m < nmat; m++) total += phi[m][p];
  return total;
}

/* G phi dev(B)_aa at p for the diagonal component a with the other two b, c:
 * (G phi / 3) (2 B_aa - B_bb - B_cc), exactly 0 for B = I with or without fused
 * multiply-adds (B_aa - tr(B)/3 is not, once contracted). */
EFSI_POINT double solid_diagonal_at(double g3, double baa, double bbb, double bcc)
{
  return g3 * (2.0 * baa - bbb - bcc);
}

/* The mean of G phi B_de over the four cells sharing the d-e edge of index p: p, p - s_d,
 * p - s_e, p - s_d - s_e. */
EFSI_POINT double solid_edge_at(const double *restrict gphi, const double *restrict bde,
                                ptrdiff_t p, ptrdiff_t sd, ptrdiff_t se)
{
  return 0.25 * ((gphi[p] * bde[p] + gphi[p - sd] * bde[p - sd])
                 + (gphi[p - se] * bde[p - se] + gphi[p - sd - se] * bde[p - sd - se]));
}

/* s[c] += G phi dev(B)_c at p for the six components c (order of base/tensor.h): the
 * diagonal at the centre p, the off-diagonal on the edges of index p; gphi holds G phi. */
EFSI_POINT void solid_stress_at(const double *restrict gphi, double *const b[6],
                                double *const s[6], ptrdiff_t p, ptrdiff_t sx, ptrdiff_t sy,
                                ptrdiff_t sz)
{
  const double g3 = gphi[p] * (1.0 / 3.0);
  const double bxx = b[TXX][p], byy = b[TYY][p], bzz = b[TZZ][p];
  s[TXX][p] += solid_diagonal_at(g3, bxx, byy, bzz);
  s[TYY][p] += solid_diagonal_at(g3, byy, bxx, bzz);
  s[TZZ][p] += solid_diagonal_at(g3, bzz, bxx, byy);
  s[TXY][p] += solid_edge_at(gphi, b[TXY], p, sx, sy);
  s[TXZ][p] += solid_edge_at(gphi, b[TXZ], p, sx, sz);
  s[TYZ][p] += solid_edge_at(gphi, b[TYZ], p, sy, sz);
}

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


#endif
