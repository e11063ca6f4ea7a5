/* Point-wise kernels of the pressure step: velocity update, the ACM sums, the pressure
 * increment dp = -beta^2 dt (gamma p + D*) and the pressure update (DESIGN.md section 3). */
#include "stencils/projection.h"

#include <math.h>
#include <string.h>

void velocity_update(const efsi_grid *g, int c, double dt, double body,
                     const double *restrict f, double *restrict rate)
{
  int lo[3] = {0, 0, 0};
  lo[c] = grid_face_start(g, c);
#pragma omp parallel for collapse(2)
  for (int k = lo[2]; k < g->n[2]; k++)
    for (int j = lo[1]; j < g->n[1]; j++) {
      const ptrdiff_t row = grid_index(g, 0, j, k);
#pragma omp simd
      for (int i = lo[0]; i < g->n[0]; i++) rate[row + i] = f[row + i] + dt * (rate[row + i] + body);
    }
}

void velocity_shift(const efsi_grid *g, int c, double shift, double *restrict f)
{
  int lo[3] = {0, 0, 0};
  lo[c] = grid_face_start(g, c);
#pragma omp parallel for
  for (int k = lo[2]; k < g->n[2]; k++)
    for (int j = lo[1]; j < g->n[1]; j++) {
      const ptrdiff_t row = grid_index(g, 0, j, k);
#pragma omp simd
      for (int i = lo[0]; i < g->n[0]; i++) f[row + i] += shift;
    }
}

void acm_local_sums(const efsi_grid *g, const double *restrict div,
                    const double *restrict lap_div, const double *restrict p,
                    const double *restrict lap_p, const double *restrict u,
                    double *restrict plane_sums, double sums[SUM_COUNT])
{
#pragma omp parallel for
  for (int k = 0; k < g->n[2]; k++) {
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0, s8 = 0;
    for (int j = 0; j < g->n[1]; j++) {
      const ptrdiff_t row = grid_index(g, 0, j, k);
#pragma omp simd reduction(+ : s0, s1, s2, s3, s4, s5, s6, s7, s8)
      for (int i = 0; i < g->n[0]; i++) {
        const double d = div[row + i], ld = lap_div[row + i], lp = lap_p[row + i];
        s0 += d * ld;
        s1 += ld * ld;
        s2 += lp * lp;
        s3 += d * lp;
        s4 += ld * lp;
        s5 += p[row + i];
        s6 += d;
        s7 += d * d;
        s8 += u[row + i];
      }
    }
    double *ps = plane_sums + (size_t)k * SUM_COUNT;
    ps[SUM_D_LAPD] = s0;
    ps[SUM_LAPD2] = s1;
    ps[SUM_LAPP2] = s2;
    ps[SUM_D_LAPP] = s3;
    ps[SUM_LAPD_LAPP] = s4;
    ps[SUM_P] = s5;
    ps[SUM_D] = s6;
    ps[SUM_D2] = s7;
    ps[SUM_U] = s8;
  }
  memset(sums, 0, SUM_COUNT * sizeof sums[0]);
  for (int k = 0; k < g->n[2]; k++)
    for (int s = 0; s < SUM_COUNT; s++) sums[s] += plane_sums[(size_t)k * SUM_COUNT + s];
}

void pressure_increment(const efsi_grid *g, int width, double a_over_dt, double b_over_dt,
                        const double *restrict p, const double *restrict div,
                        double *restrict dp)
{
#pragma omp parallel for
  for (int k = -width; k < g->n[2] + width; k++)
    for (int j = -width; j < g->n[1] + width; j++) {
      const ptrdiff_t row = grid_index(g, 0, j, k);
#pragma omp simd
      for (int i = -width; i < g->n[0] + width; i++)
        dp[row + i] = -(b_over_dt * p[row + i] + a_over_dt * div[row + i]);
    }
}

void pressure_update(const efsi_grid *g, int width, double shift, const double *restrict dp,
                     double *restrict p)
{
#pragma omp parallel for
  for (int k = -width; k < g->n[2] + width; k++)
    for (int j = -width; j < g->n[1] + width; j++) {
      const ptrdiff_t row = grid_index(g, 0, j, k);
#pragma omp simd
      for (int i = -width; i < g->n[0] + width; i++) p[row + i] = p[row + i] + dp[row + i] - shift;
    }
}

void field_norms(const efsi_grid *g, const double *restrict f, double *restrict plane_sums,
                 double *sum_squares, double *max_abs)
{
  double *plane_max = plane_sums + g->n[2];
#pragma omp parallel for
  for (int k = 0; k < g->n[2]; k++) {
    double s = 0, m = 0;
    for (int j = 0; j < g->n[1]; j++) {
      const ptrdiff_t row = grid_index(g, 0, j, k);
#pragma omp simd reduction(+ : s) reduction(max : m)
      for (int i = 0; i < g->n[0]; i++) {
        s += f[row + i] * f[row + i];
        m = fmax(m, fabs(f[row + i]));
      }
    }
    plane_sums[k] = s;
    plane_max[k] = m;
  }
  double s = 0, m = 0;
  for (int k = 0; k < g->n[2]; k++) {
    s += plane_sums[k];
    m = fmax(m, plane_max[k]);
  }
  *sum_squares = s;
  *max_abs = m;
}
