/* The membrane of a capsule or an RBC on the fixed grid (docs/membrane.md): an elastic
 * surface round a fluid interior, the interior its material's volume fraction phi_m, the
 * surface the zero of the material's level psi, the signed distance to the membrane in its
 * reference shape (negative inside, in cells of the smallest spacing h), advected with the
 * flow, Dpsi/Dt = 0.  The surface's deformation is read from the left Cauchy-Green tensor B
 * the solid already advances: for a material surface of unit normal n, the tangential part
 * of B^-1 = F^-T F^-1 is the inverse of the surface's left Cauchy-Green tensor B_s
 * (docs/membrane.md, "The surface's strain"), so no surface tensor of its own is stored.
 *
 * The surface (Cauchy) tension of an isotropic membrane with strain energy W(I1, I2) per
 * reference area, I1 = tr B_s - 2, I2 = J_s^2 - 1, J_s the area ratio, is
 *   tau = (2/J_s) dW/dI1 B_s + 2 J_s dW/dI2 P,   P = I - n n;
 * Skalak et al. (1973), W = (G_s/4) (I1^2 + 2 I1 - 2 I2 + C I2^2), gives
 *   tau = (G_s/J_s) (I1 + 1) B_s + G_s J_s (C I2 - 1) P,
 * whose principal tensions are Skalak's T_1 = G_s/(l1 l2) (l1^2 (l1^2 - 1) + C (l1 l2)^2
 * ((l1 l2)^2 - 1)).  The stress it puts in the momentum equation is the tension spread over
 * a band of the level by a smoothed delta function (continuum surface stress):
 *   sigma_membrane = delta_eps(psi) |grad psi| tau,
 * which integrates across the band to tau (the coarea formula), whatever psi's gradient. */
#ifndef EFSI_MEMBRANE_H
#define EFSI_MEMBRANE_H

#include <math.h>

#include "base/grid.h"
#include "base/portable.h"
#include "base/tensor.h"
#include "stencils/symmetric.h"

/* The level's geometry, in cells of the smallest spacing: the delta function's half-width
 * eps, the band in which the membrane holds B (|psi| <= MEMBRANE_HOLD_INNER: wholly,
 * fading to none at MEMBRANE_HOLD_OUTER; the fluid treatment relaxes B to I beyond it,
 * docs/membrane.md), and the value the level is capped at, |psi| <= MEMBRANE_LEVEL_CAP
 * (also its value at rest, far from every membrane). */
#define MEMBRANE_DELTA_WIDTH 2.0
#define MEMBRANE_HOLD_INNER 3.0
#define MEMBRANE_HOLD_OUTER 5.0
#define MEMBRANE_LEVEL_CAP 8.0

/* The smoothed delta function of psi (cells): Peskin's four-point function (Peskin, Acta
 * Numerica 11 (2002) 479), stretched to the half-width eps = 2 cells,
 *   phi(r) = (3 - 2|r| + sqrt(1 + 4|r| - 4 r^2)) / 8        for |r| <= 1,
 *            (5 - 2|r| - sqrt(-7 + 12|r| - 4 r^2)) / 8      for 1 <= |r| <= 2, else 0,
 * r = 2 psi / eps: continuous with its derivative, its integral 1, and its values at points
 * one cell apart sum to 1 wherever they fall, so the band's force sums to the membrane's
 * on the grid too.  Arithmetic and square roots only: the GPU rounds them as the CPU does,
 * where its cos() does not (docs/gpu.md). */
EFSI_POINT double membrane_delta(double psi)
{
  const double r = fabs(psi) * (2.0 / MEMBRANE_DELTA_WIDTH);
  const double scale = 2.0 / MEMBRANE_DELTA_WIDTH / 8.0;
  if (r <= 1.0) return scale * ((3.0 - 2.0 * r) + sqrt(1.0 + 4.0 * r - 4.0 * r * r));
  if (r < 2.0) return scale * ((5.0 - 2.0 * r) - sqrt(-7.0 + 12.0 * r - 4.0 * r * r));
  return 0.0;
}

/* How much of a cell at level psi holds B for the membrane: 1 in the band
 * |psi| <= MEMBRANE_HOLD_INNER, 0 beyond MEMBRANE_HOLD_OUTER, linear between. */
EFSI_POINT double membrane_hold(double psi)
{
  const double x = (MEMBRANE_HOLD_OUTER - fabs(psi)) * (1.0 / (MEMBRANE_HOLD_OUTER - MEMBRANE_HOLD_INNER));
  const double above = x > 0.0 ? x : 0.0;
  return above < 1.0 ? above : 1.0;
}

/* The level's centred gradient at the centre p, (psi(p + s_d) - psi(p - s_d)) ih_d / 2 (cells
 * per unit length), into g[3]; returns its length. */
EFSI_POINT double level_gradient_at(const double *restrict psi, ptrdiff_t p, const ptrdiff_t s[3],
                                    const double ih[3], double g[3])
{
  for (int d = 0; d < 3; d++) g[d] = 0.5 * ih[d] * (psi[p + s[d]] - psi[p - s[d]]);
  return sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
}

/* The inverse of a symmetric positive definite tensor by its cofactors. */
EFSI_POINT sym_tensor_t sym_inverse(sym_tensor_t a)
{
  const double cxx = a.yy * a.zz - a.yz * a.yz, cyy = a.xx * a.zz - a.xz * a.xz;
  const double czz = a.xx * a.yy - a.xy * a.xy, cxy = a.xz * a.yz - a.xy * a.zz;
  const double cxz = a.xy * a.yz - a.xz * a.yy, cyz = a.xy * a.xz - a.xx * a.yz;
  const double inv = 1.0 / (a.xx * cxx + a.xy * cxy + a.xz * cxz);
  const sym_tensor_t r = {cxx * inv, cyy * inv, czz * inv, cxy * inv, cxz * inv, cyz * inv};
  return r;
}

/* A = P B^-1 P + n n at a point of tensor B and unit normal n: its inverse, which is
 * B_s + n n (B_s the surface's left Cauchy-Green tensor, tangential), and its determinant
 * 1 / J_s^2 into *det (docs/membrane.md, "The surface's strain").  Operations: 112. */
EFSI_POINT sym_tensor_t surface_metric_inverse(sym_tensor_t B, double nx, double ny, double nz,
                                               double *det)
{
  const sym_tensor_t bi = sym_inverse(B);
  /* q = B^-1 n, s = n . B^-1 n: P B^-1 P = B^-1 - n q^T - q n^T + s n n^T */
  const double qx = bi.xx * nx + bi.xy * ny + bi.xz * nz;
  const double qy = bi.xy * nx + bi.yy * ny + bi.yz * nz;
  const double qz = bi.xz * nx + bi.yz * ny + bi.zz * nz;
  const double s1 = nx * qx + ny * qy + nz * qz + 1.0;   /* s + 1: A = P B^-1 P + n n^T */
  const sym_tensor_t a = {bi.xx - 2.0 * nx * qx + s1 * nx * nx,
                          bi.yy - 2.0 * ny * qy + s1 * ny * ny,
                          bi.zz - 2.0 * nz * qz + s1 * nz * nz,
                          bi.xy - nx * qy - qx * ny + s1 * nx * ny,
                          bi.xz - nx * qz - qx * nz + s1 * nx * nz,
                          bi.yz - ny * qz - qy * nz + s1 * ny * nz};
  const double cxx = a.yy * a.zz - a.yz * a.yz, cyy = a.xx * a.zz - a.xz * a.xz;
  const double czz = a.xx * a.yy - a.xy * a.xy, cxy = a.xz * a.yz - a.xy * a.zz;
  const double cxz = a.xy * a.yz - a.xz * a.yy, cyz = a.xy * a.xz - a.xx * a.yz;
  *det = a.xx * cxx + a.xy * cxy + a.xz * cxz;
  const double inv = 1.0 / *det;
  const sym_tensor_t r = {cxx * inv, cyy * inv, czz * inv, cxy * inv, cxz * inv, cyz * inv};
  return r;
}

/* The membrane's laws (docs/membrane.md, "The law"), as <family>.law names them: Skalak et
 * al. (1973), W = (G_s/4) (I1^2 + 2 I1 - 2 I2 + C I2^2), and the neo-Hookean membrane (a thin
 * sheet of incompressible neo-Hookean solid; Barthes-Biesel and Rallison, J. Fluid Mech. 113
 * (1981) 251), W = (G_s/2) (I1 - 1 + 1/(I2 + 1)), whose small-strain moduli are Skalak's with
 * C = 1 and which softens in area where Skalak's stiffens. */
enum { MEMBRANE_LAW_SKALAK = 0, MEMBRANE_LAW_NEO_HOOKEAN = 1 };

/* The law's small-strain area modulus K: G_s (1 + 2 C) for Skalak's, and 3 G_s (C = 1's) for
 * the neo-Hookean membrane; the tension of the membrane's capillary waves (the time-step
 * limit, src/step/timestep.c). */
EFSI_POINT double membrane_area_modulus(double law, double gs, double c)
{
  return gs * (1.0 + 2.0 * (law == MEMBRANE_LAW_NEO_HOOKEAN ? 1.0 : c));
}

/* The membrane's Cauchy tension tau (a tangential tensor: tau n = 0) at a point where B is
 * the left Cauchy-Green tensor and n the unit normal, for the law `law` (a MEMBRANE_LAW_*)
 * of surface shear modulus gs and, for Skalak's, area dilatation ratio c:
 *   B_s = (P B^-1 P + n n)^-1 - n n,  J_s^2 = det B_s on the plane,
 *   Skalak:       tau = (gs/J_s) (I1 + 1) B_s + gs J_s (c I2 - 1) P,
 *   neo-Hookean:  tau = (gs/J_s) B_s - (gs/J_s^3) P,
 * principal tensions G_s/(l1 l2) (l1^2 - 1/(l1 l2)^2) for the latter.  B = I gives tau = 0
 * to round-off.  Operations: 166 (112 for the metric, J_s with its square root 2, the
 * invariants 12, tau 40). */
#define MEMBRANE_TENSION_FLOPS 166.0

/* The surface's strain at a point of tensor B and unit normal n: B_s = (P B^-1 P + n n)^-1
 * - n n returned, J_s and J_s^2 into *j and *j2 (the law's and the energy's common part). */
EFSI_POINT sym_tensor_t surface_strain_at(sym_tensor_t B, double nx, double ny, double nz,
                                          double *j, double *j2)
{
  double det;
  const sym_tensor_t ai = surface_metric_inverse(B, nx, ny, nz, &det);
  *j2 = 1.0 / det;
  *j = sqrt(*j2);
  const sym_tensor_t bs = {ai.xx - nx * nx, ai.yy - ny * ny, ai.zz - nz * nz,
                           ai.xy - nx * ny, ai.xz - nx * nz, ai.yz - ny * nz};
  return bs;
}

/* The law's energy per reference area W(I1, I2) (J_s^2 = I2 + 1). */
EFSI_POINT double membrane_law_energy(double law, double gs, double c, double i1, double j2)
{
  const double i2 = j2 - 1.0;
  if (law == MEMBRANE_LAW_NEO_HOOKEAN) return 0.5 * gs * (i1 - 1.0 + 1.0 / j2);
  return 0.25 * gs * (i1 * i1 + 2.0 * i1 - 2.0 * i2 + c * i2 * i2);
}

EFSI_POINT sym_tensor_t membrane_tension_at(sym_tensor_t B, double nx, double ny, double nz,
                                            double gs, double c, double law)
{
  double j, j2;
  const sym_tensor_t bs = surface_strain_at(B, nx, ny, nz, &j, &j2);
  const double i1 = (bs.xx + bs.yy + bs.zz) - 2.0, i2 = j2 - 1.0;
  /* the coefficients of B_s and of P: (2/J_s) dW/dI1 and 2 J_s dW/dI2 */
  const int neo = law == MEMBRANE_LAW_NEO_HOOKEAN;
  const double kb = neo ? gs / j : gs * (i1 + 1.0) / j;
  const double kp = neo ? -gs / (j * j2) : gs * j * (c * i2 - 1.0);
  const sym_tensor_t t = {kb * bs.xx + kp * (1.0 - nx * nx), kb * bs.yy + kp * (1.0 - ny * ny),
                          kb * bs.zz + kp * (1.0 - nz * nz), kb * bs.xy - kp * nx * ny,
                          kb * bs.xz - kp * nx * nz, kb * bs.yz - kp * ny * nz};
  return t;
}

/* The membrane's energy per volume of its band at a point of level psi (cells), level
 * gradient (gx, gy, gz) (cells per unit length) and tensor B (diagnostics,
 * docs/output.md): delta(psi) |grad psi| W / J_s, with W the law's energy per reference area
 * (membrane_law_energy), so that its integral is the membrane's elastic energy; 0 outside the
 * delta's band. */
EFSI_POINT double membrane_energy_at(double psi, double gx, double gy, double gz,
                                     sym_tensor_t B, double gs, double c, double law)
{
  const double d = membrane_delta(psi), norm = sqrt(gx * gx + gy * gy + gz * gz);
  if (!(d > 0.0 && norm > 0.0)) return 0.0;
  double j, j2;
  const sym_tensor_t bs = surface_strain_at(B, gx / norm, gy / norm, gz / norm, &j, &j2);
  const double i1 = (bs.xx + bs.yy + bs.zz) - 2.0;
  return d * norm * membrane_law_energy(law, gs, c, i1, j2) / j;
}

/* B with its normal fibre reset: B_s + n n / J_s^2, the tensor of a deformation with the
 * same surface strain whose normal fibre is neither tilted nor stretched but by the volume
 * it keeps (det = 1 when det B_s = J_s^2).  The tension reads only the tangential part of
 * B^-1, which the reset keeps; the fluid beside a tank-treading membrane shears B's normal
 * fibre, in opposite senses on its two sides, and the advection's mixing of two fibres
 * tilted apart reads as a tangential stretch, which the reset at every step takes away
 * (docs/membrane.md, "B in the band"). */
EFSI_POINT sym_tensor_t membrane_reset_at(sym_tensor_t B, double nx, double ny, double nz)
{
  double det;
  const sym_tensor_t ai = surface_metric_inverse(B, nx, ny, nz, &det);
  const double k = det - 1.0;   /* A^-1 = B_s + n n: add (1/J_s^2 - 1) n n */
  const sym_tensor_t r = {ai.xx + k * nx * nx, ai.yy + k * ny * ny, ai.zz + k * nz * nz,
                          ai.xy + k * nx * ny, ai.xz + k * nx * nz, ai.yz + k * ny * nz};
  return r;
}

/* The band's B from its foot points (docs/membrane.md, "The band from the surface"): a
 * cell of the band off the membrane, MEMBRANE_FOOT_INNER <= |psi| < MEMBRANE_HOLD_OUTER,
 * takes the B of its nearest point of the membrane, x - psi grad psi / |grad psi|^2, by
 * trilinear interpolation of B there, so that every cell of the band holds the membrane's
 * deformation rather than the fluid's beside it.  Only where the level is near a distance
 * (0.5 < |grad psi| h < 2, h the smallest spacing) and the foot within MEMBRANE_FOOT_REACH
 * cells; elsewhere B stays.  The interpolation reads B up to MEMBRANE_FOOT_REACH + 1 cells
 * from the cell (a halo of width 3). */
#define MEMBRANE_FOOT_INNER 1.0
#define MEMBRANE_FOOT_REACH 2.0
EFSI_POINT sym_tensor_t membrane_foot_at(const double *restrict psi, double *const b[6],
                                         ptrdiff_t p, const ptrdiff_t s[3], const double ih[3],
                                         double h)
{
  const double level = psi[p];
  if (!(fabs(level) >= MEMBRANE_FOOT_INNER && fabs(level) < MEMBRANE_HOLD_OUTER))
    return sym_load(b, p);
  double g[3];
  const double norm = level_gradient_at(psi, p, s, ih, g), hn = norm * h;
  if (!(hn > 0.5 && hn < 2.0) || fabs(level) > MEMBRANE_FOOT_REACH * hn) return sym_load(b, p);
  /* the foot's offset from p in cells along each direction: its lower corner q, weights w */
  const double scale = level / (norm * norm);
  ptrdiff_t q = p;
  double w[3];
  for (int d = 0; d < 3; d++) {
    const double x = -scale * g[d] * ih[d], lower = floor(x);
    w[d] = x - lower;
    q += (ptrdiff_t)lower * s[d];
  }
  sym_tensor_t r = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  for (int c = 0; c < 8; c++) {
    const int cx = c & 1, cy = (c >> 1) & 1, cz = c >> 2;
    const double wc =
        (cx ? w[0] : 1.0 - w[0]) * (cy ? w[1] : 1.0 - w[1]) * (cz ? w[2] : 1.0 - w[2]);
    const sym_tensor_t v = sym_load(b, q + cx * s[0] + cy * s[1] + cz * s[2]);
    r.xx += wc * v.xx;
    r.yy += wc * v.yy;
    r.zz += wc * v.zz;
    r.xy += wc * v.xy;
    r.xz += wc * v.xz;
    r.yz += wc * v.yz;
  }
  return r;
}

/* The level's re-distancing off the membrane (docs/membrane.md, "The band from the surface"):
 * one Jacobi step of Sussman, Smereka and Osher's equation
 *   psi_tau + S(psi0) (|grad psi| - 1) = 0,   S(x) = x / sqrt(x^2 + 1),
 * in index space (the level in cells; |grad psi| of Godunov's upwind differences), pseudo-
 * time step MEMBRANE_REDISTANCE_STEP cells, on the cells MEMBRANE_REDISTANCE_INNER <=
 * |psi0| < MEMBRANE_LEVEL_CAP - 1; the cells nearer the membrane keep their level (its
 * position), the others their psi0.  psi0 = shifted(level[p], shift) and the iterate's
 * values shifted(cur[q], cur_shift) (membrane_shifted: the level's volume correction).
 * Reads cur one cell round p. */
#define MEMBRANE_REDISTANCE_INNER 1.5
#define MEMBRANE_REDISTANCE_STEP 0.3
EFSI_POINT double membrane_shifted(double psi, double shift)
{
  return fabs(psi) < MEMBRANE_LEVEL_CAP ? psi - shift : psi;
}
EFSI_POINT double level_redistance_at(double psi0, const double *cur, double cur_shift,
                                      ptrdiff_t p, const ptrdiff_t s[3])
{
  const double c = membrane_shifted(cur[p], cur_shift);
  if (!(fabs(psi0) >= MEMBRANE_REDISTANCE_INNER && fabs(psi0) < MEMBRANE_LEVEL_CAP - 1.0))
    return c;
  double g2 = 0.0;
  for (int d = 0; d < 3; d++) {
    const double a = c - membrane_shifted(cur[p - s[d]], cur_shift);
    const double b = membrane_shifted(cur[p + s[d]], cur_shift) - c;
    /* upwind: outside (psi0 > 0) information comes from the smaller neighbours */
    const double x = psi0 > 0.0 ? (a > 0.0 ? a : 0.0) : (a < 0.0 ? a : 0.0);
    const double y = psi0 > 0.0 ? (b < 0.0 ? b : 0.0) : (b > 0.0 ? b : 0.0);
    g2 += x * x > y * y ? x * x : y * y;
  }
  const double sign = psi0 / sqrt(psi0 * psi0 + 1.0);
  return c - MEMBRANE_REDISTANCE_STEP * sign * (sqrt(g2) - 1.0);
}

/* The optical tweezers' pull on one membrane (docs/membrane.md, "Stretching an RBC"): a
 * force F along the axis e_a on each of two contact patches, the membrane's band within
 * radius r of the axis through the cell's centre c, +F e_a on the side x_a > c_a and -F e_a
 * on the other, as beads glued to its two ends pull it (Mills et al., Mech. Chem. Biosyst. 1
 * (2004) 169).  Each patch spreads its force over its band as the tension is: the force
 * density F delta(psi) |grad psi| / A_patch, A_patch the patch's area (the sum of
 * delta(psi) |grad psi| over its cells), so that it sums to F on the grid too.
 * membrane_patch_weight gives delta(psi) |grad psi| at a cell at x (relative to c) within
 * the patch (r2 = r^2), signed by its side, else 0. */
EFSI_POINT double membrane_patch_weight(const double *restrict psi, ptrdiff_t p,
                                        const ptrdiff_t s[3], const double ih[3],
                                        const double x[3], int axis, double r2)
{
  const double lateral2 = (x[0] * x[0] + x[1] * x[1] + x[2] * x[2]) - x[axis] * x[axis];
  if (!(fabs(psi[p]) < MEMBRANE_DELTA_WIDTH && lateral2 < r2)) return 0.0;
  double g[3];
  const double w = membrane_delta(psi[p]) * level_gradient_at(psi, p, s, ih, g);
  return x[axis] > 0.0 ? w : -w;
}

/* A cell's pull weight (membrane_patch_weight) from its indices: its position relative to
 * the patches' centre. */
EFSI_POINT double patch_weight_at(const efsi_grid *g, const double *restrict psi, ptrdiff_t p,
                                  int i, int j, int k, const double centre[3], int axis,
                                  double r2)
{
  const int idx[3] = {i, j, k};
  double x[3];
  for (int d = 0; d < 3; d++) x[d] = (g->offset[d] + idx[d] + 0.5) * g->h[d] - centre[d];
  return membrane_patch_weight(psi, p, g->stride, g->inv_h, x, axis, r2);
}

/* The membrane's stress delta(psi) |grad psi| tau at a point of level psi (cells), level
 * gradient (gx, gy, gz) (cells per unit length) and tensor B; 0 outside the delta's band
 * or where the gradient vanishes. */
EFSI_POINT sym_tensor_t membrane_stress_at(double psi, double gx, double gy, double gz,
                                           sym_tensor_t B, double gs, double c, double law)
{
  const double d = membrane_delta(psi), norm = sqrt(gx * gx + gy * gy + gz * gz);
  sym_tensor_t t = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  if (d > 0.0 && norm > 0.0) {
    const double inv = 1.0 / norm, w = d * norm;
    const sym_tensor_t tau = membrane_tension_at(B, gx * inv, gy * inv, gz * inv, gs, c, law);
    t.xx = w * tau.xx, t.yy = w * tau.yy, t.zz = w * tau.zz;
    t.xy = w * tau.xy, t.xz = w * tau.xz, t.yz = w * tau.yz;
  }
  return t;
}

/* The membranes' stress added to the staggered stress arrays of stress.h, with the same
 * positions (docs/discretisation.md, "Stress"): the diagonal from the point formula at the
 * cell centre, each off-diagonal component from the point formula at its edge, where psi and
 * B are the means over the four cells sharing the edge and psi's gradient its centred
 * differences there.  nmem membranes, each a level (cells), a surface shear modulus and a
 * dilatation ratio.  Over indices -1..n like the viscous stress; halo needed: psi width 2
 * on the low side and 1 on the high side, B width 2 low, 1 high.  Operations per point and
 * membrane in the band: 4 (MEMBRANE_TENSION_FLOPS + 25) + 60 for the means and
 * differences; none outside it. */
#define MEMBRANE_STRESS_FLOPS(nmem) ((nmem) * (4.0 * (MEMBRANE_TENSION_FLOPS + 25.0) + 60.0))

/* Bending (Helfrich, zero spontaneous curvature; docs/membrane.md, "Bending"): energy
 * (k_b/2) kappa^2 per area, kappa = div n the total curvature (2/R on a sphere, n outward),
 * and the force on the fluid per area of membrane
 *   f = k_b (lap_s kappa + kappa (kappa^2/2 - 2 K)) n,
 * K the Gaussian curvature, lap_s the surface Laplacian: zero on a sphere, k_b / (2 R^3)
 * outwards on a cylinder.  From the level by centred differences: with g = grad psi, H the
 * Hessian of psi,
 *   kappa = (|g|^2 tr H - g.H.g) / |g|^3,   K = g.adj(H).g / |g|^4,
 *   lap_s kappa = lap kappa - n.Hess(kappa).n - kappa dkappa/dn,
 * kappa's derivatives from its values at the 19 points of the centred stencil round the
 * cell. */

/* kappa and K at p from the level's centred differences (h_d = 1/ih[d]); the unit normal
 * into n.  Returns |grad psi|, 0 where it vanishes (kappa = K = 0 there). */
EFSI_POINT double level_curvatures_at(const double *restrict psi, ptrdiff_t p, const ptrdiff_t s[3],
                                   const double ih[3], double *kappa, double *gauss,
                                   double n[3])
{
  double g[3], H[3][3];
  level_gradient_at(psi, p, s, ih, g);
  for (int d = 0; d < 3; d++)
    H[d][d] = ih[d] * ih[d] * ((psi[p + s[d]] - psi[p]) - (psi[p] - psi[p - s[d]]));
  for (int d = 0; d < 3; d++)
    for (int e = d + 1; e < 3; e++) {
      const ptrdiff_t a = s[d], b = s[e];
      H[d][e] = H[e][d] = 0.25 * ih[d] * ih[e]
                        * ((psi[p + a + b] - psi[p + a - b]) - (psi[p - a + b] - psi[p - a - b]));
    }
  const double g2 = g[0] * g[0] + g[1] * g[1] + g[2] * g[2];
  if (!(g2 > 0.0)) {
    *kappa = *gauss = 0.0;
    n[0] = n[1] = n[2] = 0.0;
    return 0.0;
  }
  const double norm = sqrt(g2);
  double gHg = 0.0, adj = 0.0;
  for (int d = 0; d < 3; d++)
    for (int e = 0; e < 3; e++) gHg += g[d] * H[d][e] * g[e];
  /* g . adj(H) . g with adj(H) the cofactor matrix of the symmetric H */
  const double A[3][3] = {{H[1][1] * H[2][2] - H[1][2] * H[1][2], H[0][2] * H[1][2] - H[0][1] * H[2][2],
                           H[0][1] * H[1][2] - H[0][2] * H[1][1]},
                          {H[0][2] * H[1][2] - H[0][1] * H[2][2], H[0][0] * H[2][2] - H[0][2] * H[0][2],
                           H[0][1] * H[0][2] - H[0][0] * H[1][2]},
                          {H[0][1] * H[1][2] - H[0][2] * H[1][1], H[0][1] * H[0][2] - H[0][0] * H[1][2],
                           H[0][0] * H[1][1] - H[0][1] * H[0][1]}};
  for (int d = 0; d < 3; d++)
    for (int e = 0; e < 3; e++) adj += g[d] * A[d][e] * g[e];
  *kappa = (g2 * (H[0][0] + H[1][1] + H[2][2]) - gHg) / (g2 * norm);
  *gauss = adj / (g2 * g2);
  for (int d = 0; d < 3; d++) n[d] = g[d] / norm;
  return norm;
}

/* kappa at p, alone. */
EFSI_POINT double level_kappa_at(const double *restrict psi, ptrdiff_t p, const ptrdiff_t s[3],
                                 const double ih[3])
{
  double kappa, gauss, n[3];
  level_curvatures_at(psi, p, s, ih, &kappa, &gauss, n);
  return kappa;
}

/* The bending force on the fluid at the centre p, delta(psi) |grad psi| f (a force per
 * volume), for the bending modulus kb, into f[3]; 0 outside the delta's band.  kap holds
 * kappa (level_kappa_at) at the 18 neighbours of p that its derivatives read (the level's
 * formed once a cell by level_kappa, where each force read it afresh 18 times). */
EFSI_POINT void bending_force_at(const double *restrict psi, const double *restrict kap,
                                 ptrdiff_t p, const ptrdiff_t s[3], const double ih[3], double kb,
                                 double f[3])
{
  f[0] = f[1] = f[2] = 0.0;
  const double weight = membrane_delta(psi[p]);
  if (!(weight > 0.0) || !(kb > 0.0)) return;
  double kappa, gauss, n[3];
  const double norm = level_curvatures_at(psi, p, s, ih, &kappa, &gauss, n);
  if (!(norm > 0.0)) return;
  /* kappa's gradient and Hessian by centred differences of its values round p */
  double dk[3], Hk[3][3], lap = 0.0;
  for (int d = 0; d < 3; d++) {
    const double up = kap[p + s[d]], down = kap[p - s[d]];
    dk[d] = 0.5 * ih[d] * (up - down);
    Hk[d][d] = ih[d] * ih[d] * ((up - kappa) - (kappa - down));
    lap += Hk[d][d];
  }
  for (int d = 0; d < 3; d++)
    for (int e = d + 1; e < 3; e++) {
      const ptrdiff_t a = s[d], b = s[e];
      Hk[d][e] = Hk[e][d] = 0.25 * ih[d] * ih[e]
          * ((kap[p + a + b] - kap[p + a - b]) - (kap[p - a + b] - kap[p - a - b]));
    }
  double nHn = 0.0, dn = 0.0;
  for (int d = 0; d < 3; d++) {
    dn += n[d] * dk[d];
    for (int e = 0; e < 3; e++) nHn += n[d] * Hk[d][e] * n[e];
  }
  const double lap_s = lap - nHn - kappa * dn;
  const double magnitude = kb * (lap_s + kappa * (0.5 * kappa * kappa - 2.0 * gauss)) * weight * norm;
  for (int d = 0; d < 3; d++) f[d] = magnitude * n[d];
}

/* level_kappa: kappa[m] = level_kappa_at of each membrane's level at every owned cell of g
 * (the momentum runs it on its box and two rings round it); halo needed: the level width 1
 * round g.  Operations per cell and membrane: 9 for the gradient, 35 for the Hessian, 25
 * for kappa: 70.
 * membrane_bending_add: v*_d += scale (f_d(p) + f_d(p - s_d)) / 2 at every face the momentum
 * predictor updates (location.h), f the bending force at the cell centres
 * (bending_force_at, from the level and its kappa), scale = dt / rho; nmem membranes, each a
 * level, its kappa and a bending modulus.  Halo needed: the level width 2, kappa width 2
 * (its second differences round the face's cells).  Operations per face and membrane in a
 * band: about 2 x (70 + 80); none outside it. */
#define LEVEL_KAPPA_FLOPS 70.0
#define MEMBRANE_BENDING_FLOPS 300.0

/* level_advance: the level advanced by one explicit step, next = psi - dt v.grad psi (the
 * WENO5 advection of B's components, weno5.h), at every owned cell; halo needed: psi width
 * 3, u, v, w width 1.
 * membrane_reset: B's normal fibre reset (membrane_reset_at) at every owned cell within
 * MEMBRANE_HOLD_OUTER of a membrane, the normal from the centred gradient of the level
 * psi^N; halo needed: the level width 1.  Operations per cell in a band: 112 for the metric,
 * 12 for the fibre, 20 for the normal. */
#define MEMBRANE_RESET_FLOPS 144.0

/* membrane_foot: next = B at every owned cell, but in the band of the nearest membrane,
 * where it is B at the cell's foot point (membrane_foot_at); halo needed: B width 3, the
 * level width 1.  Operations per cell in a band: 10 for the gradient, 8 + 4 for the foot,
 * 8 x 16 for the interpolation: 150.
 * level_redistance: out = one Jacobi step of the re-distancing (level_redistance_at) of
 * each membrane's level, shifted by shift[m], from the iterate cur (shifted too where
 * cur_shifted), at every owned cell; halo needed: cur width 1.  The step runs it on the
 * owned cells and one ring (the first iterate, from the level), then on the owned cells
 * in place (out = level).  Operations per cell and membrane: 3 x 8 + 8: 32. */
#define MEMBRANE_FOOT_FLOPS 150.0
#define MEMBRANE_REDISTANCE_FLOPS 32.0

/* membrane_patch_sums: the areas of the pull's two patches (the + side's, the - side's), the
 * sums of |membrane_patch_weight| hx hy hz over the owned cells, as double-double pairs (hi,
 * lo) into pairs[0..1] and pairs[2..3]; halo needed: the level width 1.
 * membrane_stretch_add: the pull's force added to the axis's face velocities, scale times
 * the mean over the face's two cells of f_plus w (w > 0) or f_minus w (w < 0), w the
 * cell's membrane_patch_weight, f = F / A_patch; halo needed: the level width 2 on the low
 * side.  centre: the patches' centre c in the grid's coordinates (cell i's centre at
 * (offset + i + 1/2) h). */
#define MEMBRANE_PATCH_FLOPS 30.0
#define MEMBRANE_STRETCH_FLOPS 64.0

#endif
