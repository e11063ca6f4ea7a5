/* Point-wise kernels of the pressure step on the GPU (mirrors projection.c). */
#include "stencils/cuda/kernels.cuh"

extern "C" {
#include "stencils/location.h"
#include "stencils/projection.h"
}

void velocity_update_cuda(const efsi_grid *g, int c, double dt, double body, const double *f,
                          double *rate)
{
  int lo[3], hi[3];
  location_range(g, LOC_FACE_X + c, lo, hi);
  for_box(g, lo, hi, "velocity_update", [=] __device__(ptrdiff_t p) {
    rate[p] = f[p] + dt * (rate[p] + body);
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
  const int lo[3] = {-width, -width, -width};
  const int hi[3] = {g->n[0] + width, g->n[1] + width, g->n[2] + width};
  for_box(g, lo, hi, "pressure_increment", [=] __device__(ptrdiff_t q) {
    dp[q] = -(b_over_dt * p[q] + a_over_dt * div[q]);
  });
}

void pressure_update_cuda(const efsi_grid *g, int width, double shift, const double *dp,
                          double *p)
{
  const int lo[3] = {-width, -width, -width};
  const int hi[3] = {g->n[0] + width, g->n[1] + width, g->n[2] + width};
  for_box(g, lo, hi, "pressure_update", [=] __device__(ptrdiff_t q) {
    p[q] = p[q] + dp[q] - shift;
  });
}

void field_axpy_cuda(const efsi_grid *g, double c, const double *r, double *f)
{
  const int lo[3] = {0, 0, 0};
  for_box(g, lo, g->n, "field_axpy", [=] __device__(ptrdiff_t p) { f[p] += c * r[p]; });
}

void field_scale_cuda(const efsi_grid *g, double c, double *f)
{
  const int lo[3] = {0, 0, 0};
  for_box(g, lo, g->n, "field_scale", [=] __device__(ptrdiff_t p) { f[p] *= c; });
}
