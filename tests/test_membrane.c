/* The membrane (stencils/membrane.h, docs/membrane.md).  The point formula: no tension at
 * rest; the principal tensions of Skalak et al. (1973),
 *   T_1 = G_s/(l1 l2) (l1^2 (l1^2 - 1) + C (l1 l2)^2 ((l1 l2)^2 - 1)),
 * for a surface stretched by l1, l2 whatever the stretch along the normal, and the
 * neo-Hookean membrane's, T_1 = G_s/(l1 l2) (l1^2 - 1/(l1 l2)^2); a tangential
 * tensor; the same tension rotated with B and n.  The kernel: on a spherical membrane of
 * radius a stretched evenly by l, the stress spread over the band gives the Laplace law's
 * normal force, integral of f_r across the band = -2 T / a (T the even tension), within 1.5 %
 * at 8 cells a radius and converging at second order, and its elastic energy
 * (membrane_energy) W 4 pi a^2 / l^2 within 1 % at 8 and 0.1 % at 16 and 32; no force where
 * no band is; the
 * membrane's band holds B and the fluid around it does not (membrane_hold).  Bending: the
 * force on a cylinder of radius a, k_b / (2 a^3) outwards, within 25 % at 8 cells a radius
 * and 2 % at 32, at second order; on a sphere the force is zero, and what the grid leaves
 * falls at least twofold as the radius in cells doubles.  The tweezers' pull sums to its
 * force on each patch.  The normal fibre's reset keeps the surface's strain.  The band from the surface: B
 * from the foot points, the level re-distanced off the membrane, and its volume's shift. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/grid.h"
#include "stencils/kernel_list.h"
#include "stencils/membrane.h"
#include "tests/test_support.h"

/* Skalak's principal tension T_1 for stretches l1, l2 (the second from swapping them). */
static double skalak_t1(double gs, double c, double l1, double l2)
{
  const double j = l1 * l2;
  return gs / j * (l1 * l1 * (l1 * l1 - 1.0) + c * j * j * (j * j - 1.0));
}

static double sym_max_abs(sym_tensor_t t)
{
  return fmax(fmax(fmax(fabs(t.xx), fabs(t.yy)), fmax(fabs(t.zz), fabs(t.xy))),
              fmax(fabs(t.xz), fabs(t.yz)));
}

START_TEST(no_tension_at_rest)
{
  const sym_tensor_t I = {1, 1, 1, 0, 0, 0};
  const double n[3][3] = {{0, 0, 1}, {0.6, 0.8, 0}, {1 / sqrt(3.0), -1 / sqrt(3.0), 1 / sqrt(3.0)}};
  for (int k = 0; k < 3; k++) {
    for (int law = MEMBRANE_LAW_SKALAK; law <= MEMBRANE_LAW_NEO_HOOKEAN; law++) {
      const sym_tensor_t t = membrane_tension_at(I, n[k][0], n[k][1], n[k][2], 5e-3, 10.0, law);
      ck_assert_msg(sym_max_abs(t) < 1e-15 * 5e-3 * 21, "tension at rest %g (law %d)",
                    sym_max_abs(t), law);
    }
  }
}
END_TEST

START_TEST(principal_tensions_are_skalak)
{
  const double gs = 5e-3;
  const double cases[][4] = {{1.2, 0.9, 0.7, 1.0}, {1.5, 1.1, 2.0, 10.0}, {0.8, 0.8, 1.3, 0.5},
                             {2.0, 1.0, 0.4, 50.0}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    const double l1 = cases[k][0], l2 = cases[k][1], l3 = cases[k][2], c = cases[k][3];
    /* F = [[l1, 0, g], [0, l2, 0], [0, 0, l3]]: the normal fibre stretched by l3 and
     * tilted by g, which leave the surface's strain, so its tension, alone */
    const double tilt = 0.3 * (double)k;
    const sym_tensor_t B = {l1 * l1 + tilt * tilt, l2 * l2, l3 * l3, 0, tilt * l3, 0};
    const sym_tensor_t t = membrane_tension_at(B, 0, 0, 1, gs, c, MEMBRANE_LAW_SKALAK);
    const double t1 = skalak_t1(gs, c, l1, l2), t2 = skalak_t1(gs, c, l2, l1);
    ck_assert_msg(fabs(t.xx - t1) < 1e-12 * fabs(t1) + 1e-18, "T1 %g, Skalak %g", t.xx, t1);
    ck_assert_msg(fabs(t.yy - t2) < 1e-12 * fabs(t2) + 1e-18, "T2 %g, Skalak %g", t.yy, t2);
    ck_assert(fabs(t.zz) < 1e-15 && fabs(t.xz) < 1e-15 && fabs(t.yz) < 1e-15 &&
              fabs(t.xy) < 1e-15);
  }
}
END_TEST

/* The neo-Hookean membrane's principal tensions, T_1 = G_s/(l1 l2) (l1^2 - 1/(l1 l2)^2)
 * (Barthes-Biesel and Rallison 1981), whatever the normal fibre; its energy per reference
 * area (G_s/2) (l1^2 + l2^2 + 1/(l1 l2)^2 - 3); and at small strain the Skalak law's with
 * C = 1 (shear and area moduli G_s and 3 G_s), to second order in the strain. */
START_TEST(principal_tensions_are_neo_hookean)
{
  const double gs = 5e-3;
  const double cases[][3] = {{1.2, 0.9, 0.7}, {1.5, 1.1, 2.0}, {0.8, 0.8, 1.3}, {2.0, 1.0, 0.4}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    const double l1 = cases[k][0], l2 = cases[k][1], l3 = cases[k][2], tilt = 0.3 * (double)k;
    const sym_tensor_t B = {l1 * l1 + tilt * tilt, l2 * l2, l3 * l3, 0, tilt * l3, 0};
    const sym_tensor_t t = membrane_tension_at(B, 0, 0, 1, gs, 7.0, MEMBRANE_LAW_NEO_HOOKEAN);
    const double j2 = l1 * l1 * l2 * l2, j = l1 * l2;
    const double t1 = gs / j * (l1 * l1 - 1.0 / j2), t2 = gs / j * (l2 * l2 - 1.0 / j2);
    ck_assert_msg(fabs(t.xx - t1) < 1e-12 * fabs(t1) + 1e-18, "T1 %g, neo-Hookean %g", t.xx, t1);
    ck_assert_msg(fabs(t.yy - t2) < 1e-12 * fabs(t2) + 1e-18, "T2 %g, neo-Hookean %g", t.yy, t2);
    ck_assert(fabs(t.zz) < 1e-15 && fabs(t.xz) < 1e-15 && fabs(t.yz) < 1e-15);
    const double w = membrane_law_energy(MEMBRANE_LAW_NEO_HOOKEAN, gs, 7.0,
                                         l1 * l1 + l2 * l2 - 2.0, j2);
    const double want = 0.5 * gs * (l1 * l1 + l2 * l2 + 1.0 / j2 - 3.0);
    ck_assert_msg(fabs(w - want) < 1e-15, "W %g, neo-Hookean %g", w, want);
  }
  /* the area modulus the time step takes: the even tension over the area strain */
  const double e0 = 1e-5, l = 1.0 + e0;
  const sym_tensor_t even = {l * l, l * l, 1, 0, 0, 0};
  const double k_nh = membrane_area_modulus(MEMBRANE_LAW_NEO_HOOKEAN, gs, 7.0);
  const double t_nh = membrane_tension_at(even, 0, 0, 1, gs, 7.0, MEMBRANE_LAW_NEO_HOOKEAN).xx;
  ck_assert_msg(fabs(t_nh / (l * l - 1.0) / k_nh - 1.0) < 1e-4, "K %g, tension / strain %g",
                k_nh, t_nh / (l * l - 1.0));
  for (double e = 1e-2; e > 1e-4; e /= 10) {
    const sym_tensor_t B = {(1 + e) * (1 + e), (1 - 0.5 * e) * (1 - 0.5 * e), 1, 0, 0, 0};
    const sym_tensor_t nh = membrane_tension_at(B, 0, 0, 1, gs, 1.0, MEMBRANE_LAW_NEO_HOOKEAN);
    const sym_tensor_t sk = membrane_tension_at(B, 0, 0, 1, gs, 1.0, MEMBRANE_LAW_SKALAK);
    ck_assert_msg(fabs(nh.xx - sk.xx) < 20.0 * gs * e * e && fabs(nh.yy - sk.yy) < 20.0 * gs * e * e,
                  "strain %g: neo-Hookean %g %g, Skalak C = 1 %g %g", e, nh.xx, nh.yy, sk.xx, sk.yy);
  }
}
END_TEST

/* R B R^T for a rotation R (rows), as a symmetric tensor. */
static sym_tensor_t rotate(const double R[3][3], sym_tensor_t b)
{
  const double m[3][3] = {{b.xx, b.xy, b.xz}, {b.xy, b.yy, b.yz}, {b.xz, b.yz, b.zz}};
  double r[3][3];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      r[i][j] = 0;
      for (int k = 0; k < 3; k++)
        for (int l = 0; l < 3; l++) r[i][j] += R[i][k] * m[k][l] * R[j][l];
    }
  const sym_tensor_t t = {r[0][0], r[1][1], r[2][2], r[0][1], r[0][2], r[1][2]};
  return t;
}

START_TEST(tension_turns_with_the_membrane)
{
  /* a rotation about (1, 2, 2)/3 by 0.7 rad (Rodrigues) */
  const double ax[3] = {1 / 3.0, 2 / 3.0, 2 / 3.0}, th = 0.7, c = cos(th), s = sin(th);
  double R[3][3];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      const double cross[3][3] = {{0, -ax[2], ax[1]}, {ax[2], 0, -ax[0]}, {-ax[1], ax[0], 0}};
      R[i][j] = (i == j ? c : 0) + (1 - c) * ax[i] * ax[j] + s * cross[i][j];
    }
  /* a general B (stretch, shear in the plane and across it) */
  const sym_tensor_t B = {1.3, 0.8, 1.1, 0.2, 0.15, -0.1};
  const double n[3] = {0, 0, 1};
  const int law = MEMBRANE_LAW_SKALAK;
  const sym_tensor_t t = membrane_tension_at(B, n[0], n[1], n[2], 1.0, 2.0, law);
  const double rn[3] = {R[0][2], R[1][2], R[2][2]};
  const sym_tensor_t tr = membrane_tension_at(rotate(R, B), rn[0], rn[1], rn[2], 1.0, 2.0, law);
  const sym_tensor_t expect = rotate(R, t);
  const sym_tensor_t d = {tr.xx - expect.xx, tr.yy - expect.yy, tr.zz - expect.zz,
                          tr.xy - expect.xy, tr.xz - expect.xz, tr.yz - expect.yz};
  ck_assert_msg(sym_max_abs(d) < 1e-13 * sym_max_abs(t), "rotated %g", sym_max_abs(d));
  /* tangential: tau n = 0 */
  const double tn[3] = {tr.xx * rn[0] + tr.xy * rn[1] + tr.xz * rn[2],
                        tr.xy * rn[0] + tr.yy * rn[1] + tr.yz * rn[2],
                        tr.xz * rn[0] + tr.yz * rn[1] + tr.zz * rn[2]};
  ck_assert(fabs(tn[0]) + fabs(tn[1]) + fabs(tn[2]) < 1e-13 * sym_max_abs(t));
}
END_TEST

/* The normal fibre's reset (membrane_reset_at): for a general B and a tilted normal, the
 * reset B keeps the surface's strain (B_s and J_s, so the tension) to round-off, its normal
 * fibre is upright, B n = n / J_s^2, and a B whose fibre is upright already is kept. */
START_TEST(reset_keeps_the_surface_strain)
{
  const sym_tensor_t B = {1.3, 0.8, 1.1, 0.2, 0.15, -0.1};
  const double norm = sqrt(0.09 + 0.16 + 0.81), n[3] = {0.3 / norm, -0.4 / norm, 0.9 / norm};
  const sym_tensor_t r = membrane_reset_at(B, n[0], n[1], n[2]);
  double j, j2, jr, jr2;
  const sym_tensor_t bs = surface_strain_at(B, n[0], n[1], n[2], &j, &j2);
  const sym_tensor_t bsr = surface_strain_at(r, n[0], n[1], n[2], &jr, &jr2);
  const sym_tensor_t d = {bsr.xx - bs.xx, bsr.yy - bs.yy, bsr.zz - bs.zz,
                          bsr.xy - bs.xy, bsr.xz - bs.xz, bsr.yz - bs.yz};
  ck_assert_msg(sym_max_abs(d) < 1e-14 && fabs(jr - j) < 1e-14, "B_s moved by %g, J_s %g",
                sym_max_abs(d), jr - j);
  /* B n = n / J_s^2: the fibre neither tilted nor stretched but by the volume */
  const double rn[3] = {r.xx * n[0] + r.xy * n[1] + r.xz * n[2],
                        r.xy * n[0] + r.yy * n[1] + r.yz * n[2],
                        r.xz * n[0] + r.yz * n[1] + r.zz * n[2]};
  for (int d3 = 0; d3 < 3; d3++)
    ck_assert_msg(fabs(rn[d3] - n[d3] / j2) < 1e-14, "(B n)_%d %g, n/J_s^2 %g", d3, rn[d3],
                  n[d3] / j2);
  const sym_tensor_t again = membrane_reset_at(r, n[0], n[1], n[2]);
  const sym_tensor_t e = {again.xx - r.xx, again.yy - r.yy, again.zz - r.zz,
                          again.xy - r.xy, again.xz - r.xz, again.yz - r.yz};
  ck_assert_msg(sym_max_abs(e) < 1e-14, "a second reset moved B by %g", sym_max_abs(e));
}
END_TEST

START_TEST(band_holds_b)
{
  ck_assert_double_eq(membrane_hold(0.0), 1.0);
  ck_assert_double_eq(membrane_hold(-MEMBRANE_HOLD_INNER), 1.0);
  ck_assert_double_eq(membrane_hold(MEMBRANE_HOLD_OUTER), 0.0);
  ck_assert_double_eq(membrane_hold(-MEMBRANE_LEVEL_CAP), 0.0);
  ck_assert_double_eq(membrane_delta(MEMBRANE_DELTA_WIDTH), 0.0);
  /* the delta's integral over psi is 1 (midpoint rule, fine) */
  double sum = 0;
  const int n = 4000;
  for (int i = 0; i < n; i++) {
    const double psi = -3.0 + 6.0 * (i + 0.5) / n;
    sum += membrane_delta(psi) * 6.0 / n;
  }
  ck_assert_msg(fabs(sum - 1.0) < 1e-6, "integral of the delta %g", sum);
}
END_TEST

/* The level of a sphere of radius a cells centred on the cell centre x0 = n/2 + 1/2 of every
 * direction (or, cylinder = 1, of a cylinder along x), h = 1: the signed distance, capped
 * at MEMBRANE_LEVEL_CAP, on every cell of g's block, halos included. */
static void round_level(const efsi_grid *g, int a, int cylinder, double *level)
{
  const double x0 = g->n[1] / 2 + 0.5;
  for (int k = -EFSI_HALO; k < g->n[2] + EFSI_HALO; k++)
    for (int j = -EFSI_HALO; j < g->n[1] + EFSI_HALO; j++)
      for (int i = -EFSI_HALO; i < g->n[0] + EFSI_HALO; i++) {
        const double x = cylinder ? 0.0 : i + 0.5 - x0, y = j + 0.5 - x0, z = k + 0.5 - x0;
        level[grid_index(g, i, j, k)] =
            fmax(-MEMBRANE_LEVEL_CAP, fmin(MEMBRANE_LEVEL_CAP, sqrt(x * x + y * y + z * z) - a));
      }
}

/* The Laplace law on a sphere of radius a cells (centre at a cell centre), stretched evenly
 * by l: B = l^2 P + l^-4 n n.  Returns the relative error of the integral of f_x along the
 * +x half-line through the centre against -2 T / a; the largest |f_x| beyond the band into
 * *outside. */
static double laplace_error(int a, double l, double gs, double c, double *outside,
                            double *energy_error)
{
  const int n = 2 * a + 2 * (int)MEMBRANE_LEVEL_CAP + 2, cells[3] = {n, n, n};
  const double length[3] = {n, n, n};                   /* h = 1: psi in cells is r - a */
  efsi_grid g = test_grid(cells, length, 0, 0);
  double *level = field_alloc(&g), *b[6], *s[6];
  for (int t = 0; t < 6; t++) {
    b[t] = field_alloc(&g);
    s[t] = field_alloc(&g);
  }
  round_level(&g, a, 0, level);
  const double x0 = n / 2 + 0.5;   /* the centre: a cell centre */
  for (int k = -EFSI_HALO; k < n + EFSI_HALO; k++)
    for (int j = -EFSI_HALO; j < n + EFSI_HALO; j++)
      for (int i = -EFSI_HALO; i < n + EFSI_HALO; i++) {
        const ptrdiff_t p = grid_index(&g, i, j, k);
        const double x[3] = {i + 0.5 - x0, j + 0.5 - x0, k + 0.5 - x0};
        const double r = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
        const double e[3] = {r > 0 ? x[0] / r : 0, r > 0 ? x[1] / r : 0, r > 0 ? x[2] / r : 1};
        const double tan = l * l, nor = 1.0 / (l * l * l * l);
        const int ti[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {0, 2}, {1, 2}};
        for (int t = 0; t < 6; t++) {
          const int u = ti[t][0], v = ti[t][1];
          b[t][p] = tan * ((u == v) - e[u] * e[v]) + nor * e[u] * e[v];
          s[t][p] = 0.0;
        }
      }
  double *const level_list[1] = {level};
  const double law = MEMBRANE_LAW_SKALAK;
  membrane_stress_add(&g, 1, level_list, &gs, &c, &law, b, s);
  /* the elastic energy (membrane_energy) against W 4 pi a^2 / l^2, W the Skalak energy per
   * reference area of the even stretch: I1 = 2 (l^2 - 1), I2 = l^4 - 1 */
  const double i1 = 2.0 * (l * l - 1.0), i2 = l * l * l * l - 1.0;
  const double w = 0.25 * gs * (i1 * i1 + 2.0 * i1 - 2.0 * i2 + c * i2 * i2);
  const double energy = membrane_energy(&g, 1, level_list, &gs, &c, &law, b,
                                        test_plane_scratch(&g));
  *energy_error = energy / (w * 4.0 * M_PI * a * a / (l * l)) - 1.0;
  /* f_x at the x faces of the row through the centre (j = k = n/2: cell centre x0) */
  const int jc = n / 2, kc = n / 2;
  double integral = 0.0, beyond = 0.0;
  for (int i = n / 2 + 1; i < n; i++) {
    const ptrdiff_t p = grid_index(&g, i, jc, kc);
    const double fx = (s[TXX][p] - s[TXX][p - 1]) + (s[TXY][p + g.stride[1]] - s[TXY][p])
                    + (s[TXZ][p + g.stride[2]] - s[TXZ][p]);
    integral += fx;
    if (fabs(i - x0 - a) > MEMBRANE_DELTA_WIDTH + 2) beyond = fmax(beyond, fabs(fx));
  }
  const double tension = gs * ((l * l - 1.0) + c * l * l * (l * l * l * l - 1.0));
  *outside = beyond / (2.0 * tension / a);
  field_free(level);
  for (int t = 0; t < 6; t++) {
    field_free(b[t]);
    field_free(s[t]);
  }
  return integral / (-2.0 * tension / a) - 1.0;
}

START_TEST(laplace_law_converges)
{
  double outside[3], energy[3];
  const int radii[3] = {8, 16, 32};
  double err[3];
  for (int r = 0; r < 3; r++) {
    err[r] = laplace_error(radii[r], 1.05, 1.0, 1.0, &outside[r], &energy[r]);
    printf("Laplace law, %2d cells a radius: relative error %+.3e, force beyond the band "
           "%.1e of 2T/a; elastic energy %+.3e\n", radii[r], err[r], outside[r], energy[r]);
  }
  ck_assert_msg(fabs(energy[0]) < 0.01 && fabs(energy[1]) < 1e-3 && fabs(energy[2]) < 1e-3,
                "elastic energy %g, %g, %g", energy[0], energy[1], energy[2]);
  const double order = log(fabs(err[1] / err[2])) / log(2.0);
  printf("Laplace law: order %.2f between 16 and 32 cells a radius\n", order);
  ck_assert_msg(fabs(err[0]) < 0.015, "8 cells a radius: %g", err[0]);
  ck_assert_msg(fabs(err[2]) < 0.002, "32 cells a radius: %g", err[2]);
  ck_assert_msg(order > 1.7, "order %g", order);
  for (int r = 0; r < 3; r++) ck_assert_msg(outside[r] < 1e-12, "force beyond the band");
}
END_TEST

/* The bending force (membrane_bending_add with dt/rho = 1 on v* = 0) of a level that is the
 * signed distance to a cylinder along x (cylinder = 1) or a sphere of radius a cells (h = 1),
 * centred on a cell centre.  Returns the integral of f_y along the +y half-line through the
 * axis (the v faces), against k_b / (2 a^3) for the cylinder; the largest |f| over the grid
 * into *largest (in units of k_b / a^3 per cell). */
static double bending_integral(int a, int cylinder, double kb, double *largest)
{
  const int n = 2 * a + 2 * (int)MEMBRANE_LEVEL_CAP + 2, cells[3] = {cylinder ? 4 : n, n, n};
  const double length[3] = {cells[0], n, n};
  efsi_grid g = test_grid(cells, length, 0, 0);
  double *level = field_alloc(&g), *f[3];
  for (int d = 0; d < 3; d++) f[d] = field_alloc(&g);   /* zero (field_alloc) */
  round_level(&g, a, cylinder, level);
  /* kappa on the block and two rings, as the momentum forms it */
  double *kappa = field_alloc(&g);
  efsi_grid ring;
  ptrdiff_t rs;
  const int rlo[3] = {-2, -2, -2}, rhi[3] = {cells[0] + 2, n + 2, n + 2};
  grid_view(&g, rlo, rhi, &ring, &rs);
  double *const levels[1] = {level}, *const kappas[1] = {kappa};
  double *const level_r[1] = {level + rs}, *const kappa_r[1] = {kappa + rs};
  level_kappa(&ring, 1, level_r, kappa_r);
  membrane_bending_add(&g, 1, levels, kappas, &kb, 1.0, f[0], f[1], f[2]);
  field_free(kappa);
  const int ic = cylinder ? 1 : n / 2, kc = n / 2;
  double integral = 0.0, most = 0.0;
  for (int j = n / 2 + 1; j < n; j++) integral += f[1][grid_index(&g, ic, j, kc)];
  for (int k = 0; k < n; k++)
    for (int j = 0; j < n; j++)
      for (int i = 0; i < cells[0]; i++)
        for (int d = 0; d < 3; d++) most = fmax(most, fabs(f[d][grid_index(&g, i, j, k)]));
  *largest = most / (kb / ((double)a * a * a));
  field_free(level);
  for (int d = 0; d < 3; d++) field_free(f[d]);
  return integral / (kb / (2.0 * a * a * a)) - 1.0;
}

/* The tweezers' pull (membrane_patch_sums, membrane_stretch_add) on a sphere of radius 8
 * cells, patches of radius 3 round the x axis: each patch's area within 3 % of the sphere's
 * over the cells' columns within the patch (averaged over the band's offsets), and the force on
 * the faces beyond the centre sums to +F, before it to -F, to round-off; none where the
 * cells are farther than the patch from the axis. */
START_TEST(pull_sums_to_its_force)
{
  const int a = 8, n = 2 * a + 2 * (int)MEMBRANE_LEVEL_CAP + 2, cells[3] = {n, n, n};
  const double length[3] = {n, n, n}, r = 3.0, force = 0.193;
  efsi_grid g = test_grid(cells, length, 0, 0);
  double *level = field_alloc(&g), *fu = field_alloc(&g);
  round_level(&g, a, 0, level);
  const double x0 = n / 2 + 0.5, centre[3] = {x0, x0, x0};
  double pairs[4];
  membrane_patch_sums(&g, level, centre, 0, r, test_plane_scratch(&g), pairs);
  /* the caps' area over the cells' columns within the patch: rho / sqrt(rho^2 - l^2) of
   * sphere a column of lateral distance l holds, the band's offsets d weighted by the delta */
  double cap = 0.0;
  for (int k = 0; k < n; k++)
    for (int j = 0; j < n; j++) {
      const double y = j + 0.5 - x0, z = k + 0.5 - x0, l2 = y * y + z * z;
      if (!(l2 < r * r)) continue;
      for (int q = -40; q < 40; q++) {
        const double d = (q + 0.5) / 20.0, rho = a + d;
        cap += membrane_delta(d) / 20.0 * rho / sqrt(rho * rho - l2);
      }
    }
  printf("pull: patch areas %.4f and %.4f, caps %.4f\n", pairs[0], pairs[2], cap);
  ck_assert_msg(fabs(pairs[0] / cap - 1) < 0.03 && fabs(pairs[2] / cap - 1) < 0.03,
                "patch areas %g, %g against %g", pairs[0], pairs[2], cap);
  membrane_stretch_add(&g, level, centre, 0, r, force / pairs[0], force / pairs[2], 1.0, fu);
  double beyond = 0.0, before = 0.0, stray = 0.0;
  for (int k = 0; k < n; k++)
    for (int j = 0; j < n; j++)
      for (int i = 0; i <= n; i++) {
        const double f = fu[grid_index(&g, i, j, k)];
        const double y = j + 0.5 - x0, z = k + 0.5 - x0;
        if (i > x0) beyond += f;
        else before += f;
        if (y * y + z * z >= r * r) stray = fmax(stray, fabs(f));
      }
  printf("pull: %.15g beyond the centre, %.15g before it (F = %g)\n", beyond, before, force);
  ck_assert_msg(fabs(beyond - force) < 1e-12 && fabs(before + force) < 1e-12,
                "the pull sums to %g and %g, not +-%g", beyond, before, force);
  ck_assert_msg(stray == 0.0, "force %g off the patches", stray);
  free(level);
  free(fu);
}
END_TEST

START_TEST(bending_force_converges)
{
  const int radii[3] = {8, 16, 32};
  double err[3], sphere[3], most;
  for (int r = 0; r < 3; r++) {
    err[r] = bending_integral(radii[r], 1, 2e-4, &most);
    bending_integral(radii[r], 0, 2e-4, &sphere[r]);
    printf("bending, %2d cells a radius: cylinder's force k_b/(2a^3) to %+.3e; a sphere's "
           "largest force %.2e of k_b/a^3 a cell\n", radii[r], err[r], sphere[r]);
  }
  const double order = log(fabs(err[1] / err[2])) / log(2.0);
  printf("bending: the cylinder's error falls at order %.2f between 16 and 32 cells\n", order);
  ck_assert_msg(fabs(err[0]) < 0.25, "cylinder at 8 cells a radius: %g", err[0]);
  ck_assert_msg(fabs(err[2]) < 0.02, "cylinder at 32 cells a radius: %g", err[2]);
  ck_assert_msg(order > 1.7, "order %g", order);
  /* the sphere's force vanishes as the grid refines */
  ck_assert_msg(sphere[2] < 0.5 * sphere[1] && sphere[1] < 0.5 * sphere[0],
                "a sphere's spurious bending force does not fall: %g %g %g", sphere[0],
                sphere[1], sphere[2]);
}
END_TEST

/* The band from the surface (membrane_foot): on a sphere of radius 6 cells whose level is
 * its distance, with B an affine function f of position, every cell of the band off the
 * membrane within the foot's reach (1 <= |psi| < 2) takes f at its nearest point of the
 * sphere, c + a (x - c) / r, to 5 % of the difference between f there and at the cell (the
 * foot's error is the centred gradient's); every other cell keeps its B bit for bit. */
START_TEST(band_takes_b_from_the_surface)
{
  const int a = 6, n = 2 * a + 2 * (int)MEMBRANE_LEVEL_CAP + 2, cells[3] = {n, n, n};
  const double length[3] = {n, n, n}, x0 = n / 2 + 0.5;
  efsi_grid g = test_grid(cells, length, 0, 0);
  double *level = field_alloc(&g), *b[6], *next[6];
  round_level(&g, a, 0, level);
  /* f_t(x) = c_t + 0.01 (t + 1) (x + 2 y - z) / 3 */
  const double base[6] = {1.0, 1.1, 0.9, 0.05, -0.02, 0.03};
#define AFFINE(t, x, y, z) (base[t] + 0.01 * ((t) + 1) * ((x) + 2.0 * (y) - (z)) / 3.0)
  for (int t = 0; t < 6; t++) {
    b[t] = field_alloc(&g);
    next[t] = field_alloc(&g);
    for (int k = -EFSI_HALO; k < n + EFSI_HALO; k++)
      for (int j = -EFSI_HALO; j < n + EFSI_HALO; j++)
        for (int i = -EFSI_HALO; i < n + EFSI_HALO; i++)
          b[t][grid_index(&g, i, j, k)] = AFFINE(t, i + 0.5 - x0, j + 0.5 - x0, k + 0.5 - x0);
  }
  double *const levels[1] = {level};
  membrane_foot(&g, 1, levels, b, next);
  double worst = 0.0, moved = 0.0;
  long band = 0, kept = 0, others = 0;
  for (int k = 0; k < n; k++)
    for (int j = 0; j < n; j++)
      for (int i = 0; i < n; i++) {
        const ptrdiff_t p = grid_index(&g, i, j, k);
        const double x = i + 0.5 - x0, y = j + 0.5 - x0, z = k + 0.5 - x0;
        const double r = sqrt(x * x + y * y + z * z), psi = level[p];
        if (fabs(psi) > MEMBRANE_FOOT_REACH - 0.1 && fabs(psi) < MEMBRANE_FOOT_REACH + 0.1)
          continue;   /* the foot's reach, 2 |grad psi| h, is 2 to the gradient's error */
        if (fabs(psi) >= MEMBRANE_FOOT_INNER && fabs(psi) < MEMBRANE_FOOT_REACH) {
          band++;
          const double xs = a * x / r, ys = a * y / r, zs = a * z / r;
          for (int t = 0; t < 6; t++) {
            worst = fmax(worst, fabs(next[t][p] - AFFINE(t, xs, ys, zs)));
            moved = fmax(moved, fabs(b[t][p] - AFFINE(t, xs, ys, zs)));
          }
        } else {
          others++;
          int same = 1;
          for (int t = 0; t < 6; t++) same &= next[t][p] == b[t][p];
          kept += same;
        }
      }
#undef AFFINE
  printf("foot points: %ld cells of the band take B from the sphere to %.2e (B differed by "
         "up to %.2e); %ld of %ld other cells keep theirs\n", band, worst, moved, kept, others);
  ck_assert(band > 400);
  ck_assert_msg(worst < 0.05 * moved, "foot points' B off by %g of %g", worst, moved);
  ck_assert_int_eq(kept, others);
  field_free(level);
  for (int t = 0; t < 6; t++) {
    field_free(b[t]);
    field_free(next[t]);
  }
}
END_TEST

/* The level as a distance (level_redistance): the level of a sphere of radius 12 cells
 * stretched 1.3 times (|grad psi| h = 1.3), given 40 Jacobi steps as the step gives two (the
 * first into an iterate, the second in place), becomes a distance off the membrane:
 * |grad psi| h within 0.1 of 1 where 2 <= |psi| <= 4 (first-order upwind differences on a
 * curved level: 0.05 outside, 0.08 inside), while the cells within
 * MEMBRANE_REDISTANCE_INNER (the membrane's position) keep their level bit for bit.  A shift
 * moves every uncapped cell by it. */
START_TEST(level_becomes_a_distance)
{
  const int a = 12, n = 2 * a + 2 * (int)MEMBRANE_LEVEL_CAP + 2, cells[3] = {n, n, n};
  const double length[3] = {n, n, n};
  efsi_grid g = test_grid(cells, length, 0, 0);
  double *level = field_alloc(&g), *start = field_alloc(&g), *iterate = field_alloc(&g);
  round_level(&g, a, 0, level);
  for (size_t p = 0; p < g.size; p++)
    level[p] = fmax(-MEMBRANE_LEVEL_CAP, fmin(MEMBRANE_LEVEL_CAP, 1.3 * level[p]));
  for (size_t p = 0; p < g.size; p++) start[p] = level[p];
  double *const levels[1] = {level}, *const iterates[1] = {iterate};
  const double none[1] = {0.0};
  for (int it = 0; it < 20; it++) {
    level_redistance(&g, 1, levels, none, levels, 1, iterates);
    level_redistance(&g, 1, levels, none, iterates, 0, levels);
  }
  const ptrdiff_t st[3] = {g.stride[0], g.stride[1], g.stride[2]};
  const double ih[3] = {1.0, 1.0, 1.0};
  double worst = 0.0;
  long kept = 0, inner = 0;
  for (int k = 1; k < n - 1; k++)
    for (int j = 1; j < n - 1; j++)
      for (int i = 1; i < n - 1; i++) {
        const ptrdiff_t p = grid_index(&g, i, j, k);
        if (fabs(start[p]) < MEMBRANE_REDISTANCE_INNER) {
          inner++;
          kept += level[p] == start[p];
        } else if (fabs(level[p]) >= 2.0 && fabs(level[p]) <= 4.0) {
          double gr[3];
          worst = fmax(worst, fabs(level_gradient_at(level, p, st, ih, gr) - 1.0));
        }
      }
  printf("re-distancing: |grad psi| h from 1.3 to within %.3f of 1 at 2 <= |psi| <= 4; "
         "%ld of %ld cells within %.1f kept\n", worst, kept, inner, MEMBRANE_REDISTANCE_INNER);
  ck_assert_msg(worst < 0.1, "|grad psi| h off 1 by %g", worst);
  ck_assert_int_eq(kept, inner);
  /* the shift, through the first step's iterate and the second's psi0 */
  const double shift[1] = {0.25};
  level_redistance(&g, 1, levels, shift, levels, 1, iterates);
  level_redistance(&g, 1, levels, shift, iterates, 0, iterates);
  const ptrdiff_t c = grid_index(&g, n / 2, n / 2, n / 2 + a);
  ck_assert_double_eq(iterates[0][c], level[c] - 0.25);
  field_free(level);
  field_free(start);
  field_free(iterate);
}
END_TEST

/* The level's volume (level_volume_sums): a sphere's level moved out by 0.3 cells against
 * the volume fraction of the sphere itself: the shift (V_phi - V_psi) / A that the step
 * takes is 0.3 cells to 0.01, and after it the volumes' mismatch is a tenth at most. */
START_TEST(volume_sums_give_the_shift)
{
  const int a = 6, n = 2 * a + 2 * (int)MEMBRANE_LEVEL_CAP + 2, cells[3] = {n, n, n};
  const double length[3] = {n, n, n};
  efsi_grid g = test_grid(cells, length, 0, 0);
  double *level = field_alloc(&g), *phi = field_alloc(&g);
  round_level(&g, a, 0, level);
  for (size_t p = 0; p < g.size; p++) {
    phi[p] = fmin(1.0, fmax(0.0, 0.5 - level[p]));
    level[p] = fmin(MEMBRANE_LEVEL_CAP, level[p] + 0.3);
  }
  efsi_scratch scratch = scratch_of(0);
  double pairs[2 * LEVEL_VOLUME_COUNT];
  level_volume_sums(&g, level, phi, &scratch, pairs);
  const double area = pairs[2 * LEVEL_AREA];
  const double shift = (pairs[2 * LEVEL_VOLUME_PHI] - pairs[2 * LEVEL_VOLUME_PSI]) / area;
  /* the level shifted: the volume's mismatch falls tenfold at least */
  for (size_t p = 0; p < g.size; p++) level[p] = membrane_shifted(level[p], shift);
  double after[2 * LEVEL_VOLUME_COUNT];
  level_volume_sums(&g, level, phi, &scratch, after);
  const double before = pairs[2 * LEVEL_VOLUME_PHI] - pairs[2 * LEVEL_VOLUME_PSI];
  const double left = after[2 * LEVEL_VOLUME_PHI] - after[2 * LEVEL_VOLUME_PSI];
  printf("volume sums: area %.2f cells (4 pi a^2 = %.2f), shift %.4f cells for 0.3; the "
         "volume's mismatch %.2f cells, then %.3f\n", area, 4.0 * M_PI * a * a, shift, before,
         left);
  ck_assert_msg(fabs(shift - 0.3) < 0.01, "shift %g", shift);
  ck_assert_msg(fabs(left) < 0.1 * fabs(before), "mismatch %g after %g", left, before);
  ck_assert_msg(fabs(area / (4.0 * M_PI * (a - 0.3) * (a - 0.3)) - 1.0) < 0.02, "area %g", area);
  scratch_free(&scratch);
  field_free(level);
  field_free(phi);
}
END_TEST

static Suite *membrane_suite(void)
{
  Suite *s = suite_create("membrane");
  TCase *tc = tcase_create("membrane");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, no_tension_at_rest);
  tcase_add_test(tc, principal_tensions_are_skalak);
  tcase_add_test(tc, principal_tensions_are_neo_hookean);
  tcase_add_test(tc, tension_turns_with_the_membrane);
  tcase_add_test(tc, reset_keeps_the_surface_strain);
  tcase_add_test(tc, band_holds_b);
  tcase_add_test(tc, laplace_law_converges);
  tcase_add_test(tc, bending_force_converges);
  tcase_add_test(tc, pull_sums_to_its_force);
  tcase_add_test(tc, band_takes_b_from_the_surface);
  tcase_add_test(tc, level_becomes_a_distance);
  tcase_add_test(tc, volume_sums_give_the_shift);
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(membrane_suite());
  srunner_run_all(sr, CK_NORMAL);
  const int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
