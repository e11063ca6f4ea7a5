/* Point-wise kernels of the pressure step on the GPU (mirrors projection.c). */
#include "stencils/cuda/kernels.cuh"

extern "C" {
#include "stencils/location.h"
#include "stencils/loop.h"
#include "stencils/projection.h"
}

void velocity_update_cuda(const efsi_grid *g, int c, double dt, double body, const double *f,
                          double *rate)
{
  int lo[3], hi[3];
  location_range(g, LOC_FACE_X + c, lo, hi);
  for_box(g, lo, hi, "velocity_update", [=] __device__(ptrdiff_t p) {
    rate[p] = velocity_update_at(f[p], dt, rate[p], body);
  });
}

void velocity_shift_cuda(const efsi_grid *g, int c, double shift, double *f)
{
  int lo[3], hi[3];
  location_range(g, LOC_FACE_X + c, lo, hi);
  for_box(g, lo, hi, "velocity_shift", [=] __device__(ptrdiff_t p) { f[p] += shift; });
}

void pressure_increment_cuda(const efsi_grid *g, int width, double a_over_dt,
                             double b_over_dt, const double *p, const double *div, double *dp)
{
  int lo[3], hi[3];
  box_owned(g, width, lo, hi);
  for_box(g, lo, hi, "pressure_increment", [=] __device__(ptrdiff_t q) {
    dp[q] = pressure_increment_at(a_over_dt, b_over_dt, p[q], div[q]);
  });
}

void pressure_update_cuda(const efsi_grid *g, int width, double shift, const double *dp,
                          double *p)
{
  int lo[3], hi[3];
  box_owned(g, width, lo, hi);
  for_box(g, lo, hi, "pressure_update", [=] __device__(ptrdiff_t q) {
    p[q] = pressure_update_at(p[q], dp[q], shift);
  });
}

void field_axpy_cuda(const efsi_grid *g, double c, const double *r, double *f)
{
  int lo[3], hi[3];
  box_owned(g, 0, lo, hi);
  for_box(g, lo, hi, "field_axpy", [=] __device__(ptrdiff_t p) { f[p] += c * r[p]; });
}

void field_scale_cuda(const efsi_grid *g, double c, double *f)
{
  int lo[3], hi[3];
  box_owned(g, 0, lo, hi);
  for_box(g, lo, hi, "field_scale", [=] __device__(ptrdiff_t p) { f[p] *= c; });
}
