/* Divergence, Laplacian and gradient on the staggered grid (formulas in operators.h).  The
 * per-direction term is one inline function applied with each direction's stride; the
 * gradient loops once per component over that component's own range. */
#include "stencils/operators.h"

#include <stddef.h>

/* (a(p + s) - a(p)) / h: the forward difference across a cell, face to face. */
static inline double forward(const double *restrict a, ptrdiff_t p, ptrdiff_t s, double inv_h)
{
  return (a[p + s] - a[p]) * inv_h;
}

/* (f(p + s) - 2 f(p) + f(p - s)) / h^2. */
static inline double second(const double *restrict f, ptrdiff_t p, ptrdiff_t s, double inv_h2)
{
  return (f[p + s] - 2.0 * f[p] + f[p - s]) * inv_h2;
}

void divergence(const efsi_grid *g, const double *restrict u, const double *restrict v,
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
        out[p] = forward(u, p, sx, ihx) + forward(v, p, sy, ihy) + forward(w, p, sz, ihz);
      }
    }
}

void laplacian(const efsi_grid *g, const double *restrict f, double *restrict out)
{
  const ptrdiff_t sx = g->stride[0], sy = g->stride[1], sz = g->stride[2];
  const double ihx2 = g->inv_h[0] * g->inv_h[0], ihy2 = g->inv_h[1] * g->inv_h[1],
               ihz2 = g->inv_h[2] * g->inv_h[2];
#pragma omp parallel for
  for (int k = 0; k < g->n[2]; k++)
    for (int j = 0; j < g->n[1]; j++) {
      const ptrdiff_t row = grid_index(g, 0, j, k);
#pragma omp simd
      for (int i = 0; i < g->n[0]; i++) {
        const ptrdiff_t p = row + i;
        out[p] = second(f, p, sx, ihx2) + second(f, p, sy, ihy2) + second(f, p, sz, ihz2);
      }
    }
}

/* a += scale * (p(i) - p(i - e_d)) / h_d on the updated points of the d faces. */
static void gradient_add_component(const efsi_grid *g, int d, double scale,
                                   const double *restrict p, double *restrict a)
{
  int lo[3], hi[3];
  location_range(g, LOC_FACE_X + d, lo, hi);
  const ptrdiff_t s = g->stride[d];
  const double c = scale * g->inv_h[d];
#pragma omp parallel for collapse(2)
  for (int k = lo[2]; k < hi[2]; k++)
    for (int j = lo[1]; j < hi[1]; j++) {
      const ptrdiff_t row = grid_index(g, 0, j, k);
#pragma omp simd
      for (int i = lo[0]; i < hi[0]; i++) {
        const ptrdiff_t q = row + i;
        a[q] += c * (p[q] - p[q - s]);
      }
    }
}

void gradient_add(const efsi_grid *g, double scale, const double *restrict p,
                  double *restrict u, double *restrict v, double *restrict w)
{
  gradient_add_component(g, 0, scale, p, u);
  gradient_add_component(g, 1, scale, p, v);
  gradient_add_component(g, 2, scale, p, w);
}
