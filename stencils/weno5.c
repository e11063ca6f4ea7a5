/* WENO5 advection: out = -sum_d a_d (df/dx_d)_upwind at the updated points of one location.
 * Per direction d the six differences f(m) - f(m-1), m = -2..3, are formed once; the sign of
 * a_d picks the five that make the left-biased (a_d > 0) or right-biased derivative, by an
 * arithmetic blend with weights 1 and 0 (exact, and free of branches on every target). */
#include "stencils/weno5.h"

#include <math.h>
#include <stddef.h>

/* Upwind WENO5 first difference of f at p along stride s (undivided: times 1/h gives df/dx).
 * The blend l x + r y with (l, r) = (1, 0) or (0, 1) rather than a ternary: GCC turns the
 * ternaries into a branch, sinks the loads of the unused side into it, and without masked
 * loads (SSE2, AVX without AVX2) can then not vectorise the loop. */
WENO5_INLINE double weno5_upwind(const double *restrict f, ptrdiff_t p, ptrdiff_t s, double a)
{
  const double dm2 = f[p - 2 * s] - f[p - 3 * s];
  const double dm1 = f[p - s] - f[p - 2 * s];
  const double d0 = f[p] - f[p - s];
  const double d1 = f[p + s] - f[p];
  const double d2 = f[p + 2 * s] - f[p + s];
  const double d3 = f[p + 3 * s] - f[p + 2 * s];
  const double l = 0.5 + copysign(0.5, a), r = 0.5 - copysign(0.5, a);
  return weno5_derivative(l * dm2 + r * d3, l * dm1 + r * d2, l * d0 + r * d1,
                          l * d1 + r * d0, l * d2 + r * dm1);
}

/* Advecting component at p: the mean of four face values at offsets o[0..3] (pairs summed
 * first, so four equal offsets return the value exactly). */
static inline double interpolate(const double *restrict a, ptrdiff_t p, const ptrdiff_t o[4])
{
  return 0.25 * ((a[p + o[0]] + a[p + o[1]]) + (a[p + o[2]] + a[p + o[3]]));
}

/* Offsets from a point of location loc to the faces of the velocity component along d that
 * surround it: see advection_weno5 in weno5.h. */
static void interpolation_offsets(const efsi_grid *g, int loc, int d, ptrdiff_t o[4])
{
  const int e = location_direction(loc);
  const ptrdiff_t sd = g->stride[d];
  if (e == d) {
    o[0] = o[1] = o[2] = o[3] = 0;
  } else if (e < 0) {
    o[0] = o[2] = 0;
    o[1] = o[3] = sd;
  } else {
    const ptrdiff_t se = g->stride[e];
    o[0] = 0;
    o[1] = sd;
    o[2] = -se;
    o[3] = sd - se;
  }
}

void advection_weno5(const efsi_grid *g, int loc, const double *restrict f,
                     const double *restrict u, const double *restrict v,
                     const double *restrict w, double *restrict out)
{
  int lo[3], hi[3];
  location_range(g, loc, lo, hi);
  ptrdiff_t ou[4], ov[4], ow[4];
  interpolation_offsets(g, loc, 0, ou);
  interpolation_offsets(g, loc, 1, ov);
  interpolation_offsets(g, loc, 2, ow);
  const ptrdiff_t sx = g->stride[0], sy = g->stride[1], sz = g->stride[2];
  const double ihx = g->inv_h[0], ihy = g->inv_h[1], ihz = g->inv_h[2];

#pragma omp parallel for collapse(2)
  for (int k = lo[2]; k < hi[2]; k++)
    for (int j = lo[1]; j < hi[1]; j++) {
      const ptrdiff_t row = grid_index(g, 0, j, k);
#pragma omp simd
      for (int i = lo[0]; i < hi[0]; i++) {
        const ptrdiff_t p = row + i;
        const double ax = interpolate(u, p, ou) * ihx;
        const double ay = interpolate(v, p, ov) * ihy;
        const double az = interpolate(w, p, ow) * ihz;
        out[p] = -(ax * weno5_upwind(f, p, sx, ax) + ay * weno5_upwind(f, p, sy, ay)
                   + az * weno5_upwind(f, p, sz, az));
      }
    }
}

/* WENO5 value of f on the face between the points p - s and p, from the five values on the
 * upwind side of the face velocity a (the same blend as weno5_upwind: exact, branch-free).
 * weno5_derivative's combination of five values is the Jiang-Shu reconstruction. */
WENO5_INLINE double weno5_face(const double *restrict f, ptrdiff_t p, ptrdiff_t s, double a)
{
  const double l = 0.5 + copysign(0.5, a), r = 0.5 - copysign(0.5, a);
  const double fm3 = f[p - 3 * s], fm2 = f[p - 2 * s], fm1 = f[p - s];
  const double f0 = f[p], f1 = f[p + s], f2 = f[p + 2 * s];
  return weno5_derivative(l * fm3 + r * f2, l * fm2 + r * f1, l * fm1 + r * f0,
                          l * f0 + r * fm1, l * f1 + r * fm2);
}

void advection_weno5_conservative(const efsi_grid *g, const double *restrict f,
                                  const double *restrict u, const double *restrict v,
                                  const double *restrict w, double *restrict out)
{
  const ptrdiff_t sx = g->stride[0], sy = g->stride[1], sz = g->stride[2];
  const double ihx = g->inv_h[0], ihy = g->inv_h[1], ihz = g->inv_h[2];
#pragma omp parallel for
  for (int k = 0; k < g->n[2]; k++)
    for (int j = 0; j < g->n[1]; j++) {
      const ptrdiff_t row = grid_index(g, 0, j, k);
#pragma omp simd
      for (int i = 0; i < g->n[0]; i++) {
        const ptrdiff_t p = row + i;
        const double fx = u[p + sx] * weno5_face(f, p + sx, sx, u[p + sx])
                        - u[p] * weno5_face(f, p, sx, u[p]);
        const double fy = v[p + sy] * weno5_face(f, p + sy, sy, v[p + sy])
                        - v[p] * weno5_face(f, p, sy, v[p]);
        const double fz = w[p + sz] * weno5_face(f, p + sz, sz, w[p + sz])
                        - w[p] * weno5_face(f, p, sz, w[p]);
        out[p] = -(fx * ihx + fy * ihy + fz * ihz);
      }
    }
}
