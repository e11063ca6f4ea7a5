/* The diagnostics' reductions over the owned cells, for both backends: each is its per-point
 * formula (stencils/reductions.h) in the one reduction form, REDUCE_BOX (stencils/reduce.h),
 * whose double-double sums and maxima do not depend on the order of the points, so the CPU
 * and the GPU (stencils/cuda/loops.cu compiles this file) give the same bits.  The ACM's
 * sums, in the time step, are in acm_sums.c; the membranes' volume sums, in the step too, are
 * here for the form's rules on double-double sums. */
#include "base/dd_contract_off.h"   /* first: the double-double sums (base/dd.h) */
#include "base/limits.h"
#include "base/tensor.h"
#include "stencils/kernel_list.h"
#include "stencils/loop.h"
#include "stencils/reduce.h"

/* Bit c set: value c is combined by the maximum. */
#define MAXIMUM(c) (1u << (c))

void KERNEL(flow_norms)(const efsi_grid *g, double scale, const double *restrict u,
                        const double *restrict v, const double *restrict w,
                        const double *restrict div, efsi_scratch *scratch,
                        double out[FLOW_COUNT])
{
  int lo[3], hi[3];
  box_owned(g, 0, lo, hi);
  dd_sum r[FLOW_COUNT];
  REDUCE_BOX(g, lo, hi, scratch, FLOW_COUNT, MAXIMUM(FLOW_SPEED_MAX) | MAXIMUM(FLOW_DIV_MAX), r,
             p, i, j, k, flow_terms(u, v, w, div, scale, p));
  for (int c = 0; c < FLOW_COUNT; c++) out[c] = r[c].hi;
}

void KERNEL(phi_moments)(const efsi_grid *g, const double *restrict phi, efsi_scratch *scratch,
                         double out[MOMENT_COUNT])
{
  int lo[3], hi[3];
  box_owned(g, 0, lo, hi);
  const double hx = g->h[0], hy = g->h[1], hz = g->h[2];
  const double x0 = first_centre(g, 0), y0 = first_centre(g, 1), z0 = first_centre(g, 2);
  dd_sum r[MOMENT_COUNT];
  REDUCE_BOX(g, lo, hi, scratch, MOMENT_COUNT, 0u, r, p, i, j, k,
             moment_terms(phi[p], x0 + i * hx, y0 + j * hy, z0 + k * hz));
  for (int c = 0; c < MOMENT_COUNT; c++) out[c] = r[c].hi;
}

double KERNEL(elastic_energy)(const efsi_grid *g, int nmat, const double *modulus,
                              double *const phi[], double *const b[6], efsi_scratch *scratch)
{
  if (nmat == 0) return 0.0;
  int lo[3], hi[3];
  box_owned(g, 0, lo, hi);
  /* the materials' arrays and moduli in locals (the body reads only locals) */
  double *pm[EFSI_MAX_MATERIALS] = {NULL}, gm[EFSI_MAX_MATERIALS] = {0.0};
  for (int m = 0; m < nmat; m++) {
    pm[m] = phi[m];
    gm[m] = modulus[m];
  }
  const double *restrict bxx = b[TXX], *restrict byy = b[TYY], *restrict bzz = b[TZZ];
  dd_sum total;
  REDUCE_BOX(g, lo, hi, scratch, 1, 0u, &total, p, i, j, k,
             reduce_one(elastic_density_at(nmat, gm, pm, bxx, byy, bzz, p)));
  return 0.5 * total.hi * g->h[0] * g->h[1] * g->h[2];
}

double KERNEL(membrane_energy)(const efsi_grid *g, int nmem, double *const level[],
                               const double *shear_modulus, const double *dilatation,
                               const double *law, double *const b[6], efsi_scratch *scratch)
{
  if (nmem == 0) return 0.0;
  int lo[3], hi[3];
  box_owned(g, 0, lo, hi);
  /* the levels, B's arrays and the parameters in locals (the body reads only locals) */
  double *lv[EFSI_MAX_MATERIALS] = {NULL}, gs[EFSI_MAX_MATERIALS] = {0.0},
         cm[EFSI_MAX_MATERIALS] = {0.0}, lw[EFSI_MAX_MATERIALS] = {0.0};
  for (int m = 0; m < nmem; m++) {
    lv[m] = level[m];
    gs[m] = shear_modulus[m];
    cm[m] = dilatation[m];
    lw[m] = law[m];
  }
  double *const bl[6] = {b[0], b[1], b[2], b[3], b[4], b[5]};
  const ptrdiff_t sx = g->stride[0], sy = g->stride[1], sz = g->stride[2];
  const double ihx = g->inv_h[0], ihy = g->inv_h[1], ihz = g->inv_h[2];
  dd_sum total;
  REDUCE_BOX(g, lo, hi, scratch, 1, 0u, &total, p, i, j, k,
             reduce_one(membranes_energy_at(nmem, lv, gs, cm, lw, bl, p, sx, sy, sz, ihx, ihy, ihz)));
  return total.hi * g->h[0] * g->h[1] * g->h[2];
}

void KERNEL(level_volume_sums)(const efsi_grid *g, const double *restrict psi,
                               const double *restrict phi, efsi_scratch *scratch,
                               double pairs[2 * LEVEL_VOLUME_COUNT])
{
  int lo[3], hi[3];
  box_owned(g, 0, lo, hi);
  const ptrdiff_t sx = g->stride[0], sy = g->stride[1], sz = g->stride[2];
  const double ihx = g->inv_h[0], ihy = g->inv_h[1], ihz = g->inv_h[2];
  const double h = fmin(g->h[0], fmin(g->h[1], g->h[2]));
  dd_sum r[LEVEL_VOLUME_COUNT];
  REDUCE_BOX(g, lo, hi, scratch, LEVEL_VOLUME_COUNT, 0u, r, p, i, j, k,
             level_volume_terms(psi, phi, p, sx, sy, sz, ihx, ihy, ihz, h));
  for (int c = 0; c < LEVEL_VOLUME_COUNT; c++) {
    pairs[2 * c] = r[c].hi;
    pairs[2 * c + 1] = r[c].lo;
  }
}

void KERNEL(det_range)(const efsi_grid *g, int nmat, double *const phi[], double *const b[6],
                       double phi_min, efsi_scratch *scratch, double range[2])
{
  int lo[3], hi[3];
  box_owned(g, 0, lo, hi);
  /* the materials' arrays and B's in locals (the body reads only locals) */
  double *pm[EFSI_MAX_MATERIALS] = {NULL};
  for (int m = 0; m < nmat; m++) pm[m] = phi[m];
  double *const bl[6] = {b[0], b[1], b[2], b[3], b[4], b[5]};
  /* the largest -det and det over the solid cells: -min and max */
  dd_sum r[2];
  REDUCE_BOX(g, lo, hi, scratch, 2, MAXIMUM(0) | MAXIMUM(1), r, p, i, j, k,
             det_values(nmat, pm, bl, phi_min, p));
  range[0] = -r[0].hi;
  range[1] = r[1].hi;
}

void KERNEL(wall_shear_sums)(const efsi_grid *g, int d, double mu, const double *restrict u,
                             const double *restrict tangential, const double u_wall[2],
                             efsi_scratch *scratch, double sum_count[2])
{
  const int other = 3 - d;   /* the tangential direction other than x */
  const ptrdiff_t along = g->stride[other];
  const double scale = mu * 2.0 * g->inv_h[d];
  for (int side = 0; side < 2; side++) {
    if (!(side ? g->wall_hi[d] : g->wall_lo[d])) continue;
    /* the wall's first layer of owned cells */
    int lo[3], hi[3];
    box_owned(g, 0, lo, hi);
    lo[d] = side ? g->n[d] - 1 : 0;
    hi[d] = lo[d] + 1;
    const double wall = u_wall[side];
    dd_sum r[2];
    REDUCE_BOX(g, lo, hi, scratch, 2, 0u, r, p, i, j, k,
               wall_shear_at(u, tangential, p, along, wall, scale));
    sum_count[0] += r[0].hi;
    sum_count[1] += r[1].hi;
  }
}

void KERNEL(lumen_sums)(const efsi_grid *g, double mu, const double *restrict phi_wall,
                        const double *restrict phi_rbc, const double *restrict u,
                        const double *restrict v, const double *restrict w,
                        efsi_scratch *scratch, double out[LUMEN_COUNT])
{
  int lo[3], hi[3];
  box_owned(g, 0, lo, hi);
  const ptrdiff_t s[3] = {1, g->stride[1], g->stride[2]};
  const double h[3] = {g->h[0], g->h[1], g->h[2]};
  /* cell (j, k) lies at (y0 + j h1, z0 + k h2) from the axis */
  const double y0 = lumen_first_centre(g, 1), z0 = lumen_first_centre(g, 2);
  const double h1 = h[1], h2 = h[2];
  dd_sum r[LUMEN_COUNT];
  REDUCE_BOX(g, lo, hi, scratch, LUMEN_COUNT, MAXIMUM(LUMEN_SHEAR_MAX), r, p, i, j, k,
             lumen_at(phi_wall, phi_rbc, u, v, w, p, y0 + j * h1, z0 + k * h2, s, h, mu));
  for (int c = 0; c < LUMEN_COUNT; c++) out[c] = r[c].hi;
}

/* The pull's two patch areas' terms from a cell's signed weight w (membrane.h). */
EFSI_POINT reduce_values patch_terms(double w, double volume)
{
  reduce_values r = {{0.0}};
  r.v[w > 0.0 ? 0 : 1] = fabs(w) * volume;
  return r;
}

void KERNEL(membrane_patch_sums)(const efsi_grid *g, const double *restrict psi,
                                 const double centre[3], int axis, double radius,
                                 efsi_scratch *scratch, double pairs[4])
{
  int lo[3], hi[3];
  box_owned(g, 0, lo, hi);
  const efsi_grid layout = *g;
  const double c[3] = {centre[0], centre[1], centre[2]}, r2 = radius * radius;
  const double volume = g->h[0] * g->h[1] * g->h[2];
  const int ax = axis;
  dd_sum r[2];
  REDUCE_BOX(g, lo, hi, scratch, 2, 0u, r, p, i, j, k,
             patch_terms(patch_weight_at(&layout, psi, p, i, j, k, c, ax, r2), volume));
  for (int c = 0; c < 2; c++) {
    pairs[2 * c] = r[c].hi;
    pairs[2 * c + 1] = r[c].lo;
  }
}
