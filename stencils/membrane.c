/* The membranes' kernels (formulas in membrane.h, reasoning in docs/membrane.md), for both
 * backends (stencils/loop.h; stencils/cuda/loops.cu compiles this file): the membrane stress
 * added to the stress of level N, the bending force added to v*, the reset of B's normal
 * fibre, the band's B from its foot points, and the level's transport and re-distancing. */
#include "base/limits.h"
#include "stencils/kernel_list.h"
#include "stencils/location.h"
#include "stencils/loop.h"

/* The membrane's stress component `comp` (TXY, TXZ or TYZ) on the d-e edge of index p (d < e,
 * f the third direction): psi and B the means over the four cells p, p - s_d, p - s_e,
 * p - s_d - s_e, psi's gradient along d and e the mean of the edge's two differences, along
 * f the mean of the four cells' centred differences. */
EFSI_POINT double membrane_edge_at(const double *restrict psi, double *const b[6], ptrdiff_t p,
                                   const ptrdiff_t s[3], const double ih[3], int d, int e,
                                   double gs, double c, double law, int comp)
{
  const int f = 3 - d - e;
  const ptrdiff_t sd = s[d], se = s[e], sf = s[f];
  const ptrdiff_t q0 = p, q1 = p - sd, q2 = p - se, q3 = p - sd - se;
  const double level = 0.25 * ((psi[q0] + psi[q1]) + (psi[q2] + psi[q3]));
  if (!(fabs(level) < MEMBRANE_DELTA_WIDTH)) return 0.0;
  double grad[3];
  grad[d] = 0.5 * ih[d] * ((psi[q0] - psi[q1]) + (psi[q2] - psi[q3]));
  grad[e] = 0.5 * ih[e] * ((psi[q0] - psi[q2]) + (psi[q1] - psi[q3]));
  grad[f] = 0.125 * ih[f] * (((psi[q0 + sf] - psi[q0 - sf]) + (psi[q1 + sf] - psi[q1 - sf]))
                             + ((psi[q2 + sf] - psi[q2 - sf]) + (psi[q3 + sf] - psi[q3 - sf])));
  const sym_tensor_t b0 = sym_load(b, q0), b1 = sym_load(b, q1), b2 = sym_load(b, q2),
                     b3 = sym_load(b, q3);
  const sym_tensor_t B = {0.25 * ((b0.xx + b1.xx) + (b2.xx + b3.xx)),
                          0.25 * ((b0.yy + b1.yy) + (b2.yy + b3.yy)),
                          0.25 * ((b0.zz + b1.zz) + (b2.zz + b3.zz)),
                          0.25 * ((b0.xy + b1.xy) + (b2.xy + b3.xy)),
                          0.25 * ((b0.xz + b1.xz) + (b2.xz + b3.xz)),
                          0.25 * ((b0.yz + b1.yz) + (b2.yz + b3.yz))};
  const sym_tensor_t t = membrane_stress_at(level, grad[0], grad[1], grad[2], B, gs, c, law);
  return comp == TXY ? t.xy : comp == TXZ ? t.xz : t.yz;
}

/* The membrane's stress at the centre p: the diagonal (the off-diagonal of the centre is
 * not used). */
EFSI_POINT sym_tensor_t membrane_centre_at(const double *restrict psi, double *const b[6],
                                           ptrdiff_t p, const ptrdiff_t s[3],
                                           const double ih[3], double gs, double c, double law)
{
  const sym_tensor_t zero = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  if (!(fabs(psi[p]) < MEMBRANE_DELTA_WIDTH)) return zero;
  double g[3];
  level_gradient_at(psi, p, s, ih, g);
  return membrane_stress_at(psi[p], g[0], g[1], g[2], sym_load(b, p), gs, c, law);
}

void KERNEL(membrane_stress_add)(const efsi_grid *g, int nmem, double *const level[],
                                 const double *shear_modulus, const double *dilatation,
                                 const double *law, double *const b[6], double *const s[6])
{
  int lo[3], hi[3];
  box_owned(g, 1, lo, hi);
  /* the arrays and parameters in locals (the loop bodies read only locals) */
  double *lv[EFSI_MAX_MATERIALS], gs[EFSI_MAX_MATERIALS], cm[EFSI_MAX_MATERIALS],
      lw[EFSI_MAX_MATERIALS];
  for (int m = 0; m < nmem; m++) {
    lv[m] = level[m];
    gs[m] = shear_modulus[m];
    cm[m] = dilatation[m];
    lw[m] = law[m];
  }
  double *const bl[6] = {b[0], b[1], b[2], b[3], b[4], b[5]};
  double *const sl[6] = {s[0], s[1], s[2], s[3], s[4], s[5]};
  const ptrdiff_t sx = g->stride[0], sy = g->stride[1], sz = g->stride[2];
  const double ihx = g->inv_h[0], ihy = g->inv_h[1], ihz = g->inv_h[2];
  FOR_BOX(g, lo, hi, p,
          const ptrdiff_t st[3] = {sx, sy, sz};
          const double ih[3] = {ihx, ihy, ihz};
          for (int m = 0; m < nmem; m++) {
            const sym_tensor_t t = membrane_centre_at(lv[m], bl, p, st, ih, gs[m], cm[m], lw[m]);
            sl[TXX][p] += t.xx;
            sl[TYY][p] += t.yy;
            sl[TZZ][p] += t.zz;
            sl[TXY][p] += membrane_edge_at(lv[m], bl, p, st, ih, 0, 1, gs[m], cm[m], lw[m], TXY);
            sl[TXZ][p] += membrane_edge_at(lv[m], bl, p, st, ih, 0, 2, gs[m], cm[m], lw[m], TXZ);
            sl[TYZ][p] += membrane_edge_at(lv[m], bl, p, st, ih, 1, 2, gs[m], cm[m], lw[m], TYZ);
          });
}

void KERNEL(level_advance)(const efsi_grid *g, const double *restrict psi,
                           const double *restrict u, const double *restrict v,
                           const double *restrict w, double dt, double *restrict next)
{
  int lo[3], hi[3];
  box_owned(g, 0, lo, hi);
  const weno5_stencil_t st = weno5_stencil(g, LOC_CENTRE);
  FOR_BOX(g, lo, hi, p,
          const advecting_t a = advecting_velocity(&st, u, v, w, p);
          next[p] = psi[p] + dt * advection_with(&st, psi, a, p));
}

void KERNEL(membrane_reset)(const efsi_grid *g, int nmem, double *const level[],
                            double *const b[6])
{
  int lo[3], hi[3];
  box_owned(g, 0, lo, hi);
  double *lv[EFSI_MAX_MATERIALS];
  for (int m = 0; m < nmem; m++) lv[m] = level[m];
  double *const bl[6] = {b[0], b[1], b[2], b[3], b[4], b[5]};
  const ptrdiff_t sx = g->stride[0], sy = g->stride[1], sz = g->stride[2];
  const double ihx = g->inv_h[0], ihy = g->inv_h[1], ihz = g->inv_h[2];
  FOR_BOX(g, lo, hi, p,
          const ptrdiff_t st[3] = {sx, sy, sz};
          const double ih[3] = {ihx, ihy, ihz};
          for (int m = 0; m < nmem; m++) {
            const double *const psi = lv[m];
            if (!(fabs(psi[p]) < MEMBRANE_HOLD_OUTER)) continue;
            double g[3];
            const double norm = level_gradient_at(psi, p, st, ih, g);
            if (!(norm > 0.0)) continue;
            const double inv = 1.0 / norm;
            sym_store(bl, p, membrane_reset_at(sym_load(bl, p), g[0] * inv, g[1] * inv, g[2] * inv));
          });
}

void KERNEL(membrane_foot)(const efsi_grid *g, int nmem, double *const level[],
                           double *const b[6], double *const next[6])
{
  int lo[3], hi[3];
  box_owned(g, 0, lo, hi);
  double *lv[EFSI_MAX_MATERIALS];
  for (int m = 0; m < nmem; m++) lv[m] = level[m];
  double *const bl[6] = {b[0], b[1], b[2], b[3], b[4], b[5]};
  double *const nl[6] = {next[0], next[1], next[2], next[3], next[4], next[5]};
  const ptrdiff_t sx = g->stride[0], sy = g->stride[1], sz = g->stride[2];
  const double ihx = g->inv_h[0], ihy = g->inv_h[1], ihz = g->inv_h[2];
  const double h = fmin(g->h[0], fmin(g->h[1], g->h[2]));
  FOR_BOX(g, lo, hi, p,
          const ptrdiff_t st[3] = {sx, sy, sz};
          const double ih[3] = {ihx, ihy, ihz};
          /* the nearest membrane's foot */
          int near = 0;
          for (int m = 1; m < nmem; m++)
            if (fabs(lv[m][p]) < fabs(lv[near][p])) near = m;
          sym_store(nl, p, membrane_foot_at(lv[near], bl, p, st, ih, h)));
}

void KERNEL(level_redistance)(const efsi_grid *g, int nmem, double *const level[],
                              const double *shift, double *const cur[], int cur_shifted,
                              double *const out[])
{
  int lo[3], hi[3];
  box_owned(g, 0, lo, hi);
  double *lv[EFSI_MAX_MATERIALS], *cv[EFSI_MAX_MATERIALS], *ov[EFSI_MAX_MATERIALS];
  double sh[EFSI_MAX_MATERIALS], csh[EFSI_MAX_MATERIALS];
  for (int m = 0; m < nmem; m++) {
    lv[m] = level[m];
    cv[m] = cur[m];
    ov[m] = out[m];
    sh[m] = shift[m];
    csh[m] = cur_shifted ? shift[m] : 0.0;
  }
  const ptrdiff_t sx = g->stride[0], sy = g->stride[1], sz = g->stride[2];
  FOR_BOX(g, lo, hi, p,
          const ptrdiff_t st[3] = {sx, sy, sz};
          for (int m = 0; m < nmem; m++) {
            const double psi0 = membrane_shifted(lv[m][p], sh[m]);
            ov[m][p] = level_redistance_at(psi0, cv[m], csh[m], p, st);
          });
}

void KERNEL(level_kappa)(const efsi_grid *g, int nmem, double *const level[],
                         double *const kappa[])
{
  int lo[3], hi[3];
  box_owned(g, 0, lo, hi);
  double *lv[EFSI_MAX_MATERIALS], *kv[EFSI_MAX_MATERIALS];
  for (int m = 0; m < nmem; m++) {
    lv[m] = level[m];
    kv[m] = kappa[m];
  }
  const ptrdiff_t sx = g->stride[0], sy = g->stride[1], sz = g->stride[2];
  const double ihx = g->inv_h[0], ihy = g->inv_h[1], ihz = g->inv_h[2];
  FOR_BOX(g, lo, hi, p,
          const ptrdiff_t st[3] = {sx, sy, sz};
          const double ih[3] = {ihx, ihy, ihz};
          for (int m = 0; m < nmem; m++) kv[m][p] = level_kappa_at(lv[m], p, st, ih));
}

void KERNEL(membrane_bending_add)(const efsi_grid *g, int nmem, double *const level[],
                                  double *const kappa[], const double *bending, double scale,
                                  double *fu, double *fv, double *fw)
{
  double *lv[EFSI_MAX_MATERIALS], *kv[EFSI_MAX_MATERIALS], kb[EFSI_MAX_MATERIALS];
  for (int m = 0; m < nmem; m++) {
    lv[m] = level[m];
    kv[m] = kappa[m];
    kb[m] = bending[m];
  }
  double *const out[3] = {fu, fv, fw};
  const ptrdiff_t sx = g->stride[0], sy = g->stride[1], sz = g->stride[2];
  const double ihx = g->inv_h[0], ihy = g->inv_h[1], ihz = g->inv_h[2];
  for (int d = 0; d < 3; d++) {
    int lo[3], hi[3];
    location_range(g, LOC_FACE_X + d, lo, hi);
    double *restrict o = out[d];
    const ptrdiff_t sd = g->stride[d];
    const int dd = d;
    FOR_BOX(g, lo, hi, q,
            const ptrdiff_t st[3] = {sx, sy, sz};
            const double ih[3] = {ihx, ihy, ihz};
            for (int m = 0; m < nmem; m++) {
              const double *const psi = lv[m];
              if (!(fabs(psi[q]) < MEMBRANE_DELTA_WIDTH) &&
                  !(fabs(psi[q - sd]) < MEMBRANE_DELTA_WIDTH))
                continue;
              double a[3], b[3];
              bending_force_at(psi, kv[m], q, st, ih, kb[m], a);
              bending_force_at(psi, kv[m], q - sd, st, ih, kb[m], b);
              o[q] += scale * (0.5 * (a[dd] + b[dd]));
            });
  }
}

void KERNEL(membrane_stretch_add)(const efsi_grid *g, const double *restrict psi,
                                  const double centre[3], int axis, double radius,
                                  double f_plus, double f_minus, double scale, double *fa)
{
  int lo[3], hi[3];
  location_range(g, LOC_FACE_X + axis, lo, hi);
  const efsi_grid layout = *g;
  const double c[3] = {centre[0], centre[1], centre[2]}, r2 = radius * radius;
  const ptrdiff_t sa = g->stride[axis];
  const int ax = axis;
  FOR_BOX_AT(g, lo, hi, q, i, j, k,
             const int below[3] = {i - (ax == 0), j - (ax == 1), k - (ax == 2)};
             const double a = patch_weight_at(&layout, psi, q, i, j, k, c, ax, r2);
             const double b = patch_weight_at(&layout, psi, q - sa, below[0], below[1],
                                              below[2], c, ax, r2);
             const double fa_q = a > 0.0 ? f_plus * a : f_minus * a;
             const double fb_q = b > 0.0 ? f_plus * b : f_minus * b;
             if (a != 0.0 || b != 0.0) fa[q] += scale * (0.5 * (fa_q + fb_q)));
}
