/* Point-wise kernels of the pressure step (formulas in projection.h), for both backends
 * (stencils/loop.h). */
#include "stencils/kernel_list.h"
#include "stencils/location.h"
#include "stencils/loop.h"

void KERNEL(velocity_shift)(const efsi_grid *g, int c, double shift, double *restrict f)
{
  int lo[3], hi[3];
  location_range(g, LOC_FACE_X + c, lo, hi);
  FOR_BOX(g, lo, hi, p, f[p] += shift);
}

void KERNEL(pressure_correct)(const efsi_grid *g, double a_over_dt, double b_over_dt,
                              double shift, double scale, const double *restrict p,
                              const double *restrict div, double *restrict p_next,
                              double *restrict u, double *restrict v, double *restrict w)
{
  int lo[3], hi[3];
  box_owned(g, 1, lo, hi);
  /* the faces component d updates (location_range): start_d <= i_d < n_d, 0 <= i_e < n_e */
  const int n0 = g->n[0], n1 = g->n[1], n2 = g->n[2];
  const int f0 = grid_face_start(g, 0), f1 = grid_face_start(g, 1), f2 = grid_face_start(g, 2);
  const ptrdiff_t sx = g->stride[0], sy = g->stride[1], sz = g->stride[2];
  const double cx = scale * g->inv_h[0], cy = scale * g->inv_h[1], cz = scale * g->inv_h[2];
  const double a = a_over_dt, b = b_over_dt;
  FOR_BOX_AT(g, lo, hi, q, i, j, k,
             const double d = pressure_increment_at(a, b, p[q], div[q]);
             p_next[q] = pressure_update_at(p[q], d, shift);
             const uint64_t ii = range_mask(i, 0, n0), jj = range_mask(j, 0, n1);
             const uint64_t kk = range_mask(k, 0, n2);
             const double dx = pressure_increment_at(a, b, p[q - sx], div[q - sx]);
             const double dy = pressure_increment_at(a, b, p[q - sy], div[q - sy]);
             const double dz = pressure_increment_at(a, b, p[q - sz], div[q - sz]);
             u[q] = select_at(range_mask(i, f0, n0) & jj & kk, u[q] + cx * (d - dx), u[q]);
             v[q] = select_at(range_mask(j, f1, n1) & ii & kk, v[q] + cy * (d - dy), v[q]);
             w[q] = select_at(range_mask(k, f2, n2) & ii & jj, w[q] + cz * (d - dz), w[q]));
}

void KERNEL(pressure_update)(const efsi_grid *g, int width, double shift,
                             const double *restrict dp, double *restrict p)
{
  int lo[3], hi[3];
  box_owned(g, width, lo, hi);
  FOR_BOX(g, lo, hi, q, p[q] = pressure_update_at(p[q], dp[q], shift));
}

void KERNEL(field_scale)(const efsi_grid *g, double c, double *restrict f)
{
  int lo[3], hi[3];
  box_owned(g, 0, lo, hi);
  FOR_BOX(g, lo, hi, p, f[p] *= c);
}
