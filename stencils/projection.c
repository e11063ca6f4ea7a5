/* Point-wise kernels of the pressure step (formulas in projection.h), for both backends
 * (stencils/loop.h). */
#include "stencils/kernel_list.h"
#include "stencils/location.h"
#include "stencils/loop.h"

void KERNEL(velocity_update)(const efsi_grid *g, int c, double dt, double body,
                             const double *restrict f, double *restrict rate)
{
  int lo[3], hi[3];
  location_range(g, LOC_FACE_X + c, lo, hi);
  FOR_BOX(g, lo, hi, p, rate[p] = velocity_update_at(f[p], dt, rate[p], body));
}

void KERNEL(velocity_shift)(const efsi_grid *g, int c, double shift, double *restrict f)
{
  int lo[3], hi[3];
  location_range(g, LOC_FACE_X + c, lo, hi);
  FOR_BOX(g, lo, hi, p, f[p] += shift);
}

void KERNEL(pressure_increment)(const efsi_grid *g, int width, double a_over_dt,
                                double b_over_dt, const double *restrict p,
                                const double *restrict div, double *restrict dp)
{
  int lo[3], hi[3];
  box_owned(g, width, lo, hi);
  FOR_BOX(g, lo, hi, q, dp[q] = pressure_increment_at(a_over_dt, b_over_dt, p[q], div[q]));
}

void KERNEL(pressure_update)(const efsi_grid *g, int width, double shift,
                             const double *restrict dp, double *restrict p)
{
  int lo[3], hi[3];
  box_owned(g, width, lo, hi);
  FOR_BOX(g, lo, hi, q, p[q] = pressure_update_at(p[q], dp[q], shift));
}

void KERNEL(field_axpy)(const efsi_grid *g, double c, const double *restrict r,
                        double *restrict f)
{
  int lo[3], hi[3];
  box_owned(g, 0, lo, hi);
  FOR_BOX(g, lo, hi, p, f[p] += c * r[p]);
}

void KERNEL(field_scale)(const efsi_grid *g, double c, double *restrict f)
{
  int lo[3], hi[3];
  box_owned(g, 0, lo, hi);
  FOR_BOX(g, lo, hi, p, f[p] *= c);
}
