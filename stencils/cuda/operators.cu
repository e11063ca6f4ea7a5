/* Divergence, Laplacian and gradient on the GPU (formulas in stencils/operators.h; mirrors
 * operators.c). */
#include "stencils/cuda/kernels.cuh"

extern "C" {
#include "stencils/loop.h"
#include "stencils/operators.h"
}

/* Strides and inverse spacings by value (the lambdas capture them). */
struct spacing { ptrdiff_t s[3]; double ih[3]; };

static spacing spacing_of(const efsi_grid *g, int squared)
{
  spacing sp;
  for (int d = 0; d < 3; d++) {
    sp.s[d] = g->stride[d];
    sp.ih[d] = squared ? g->inv_h[d] * g->inv_h[d] : g->inv_h[d];
  }
  return sp;
}

void divergence_cuda(const efsi_grid *g, double scale, const double *u, const double *v,
                     const double *w, double *out)
{
  int lo[3], hi[3];
  box_owned(g, 0, lo, hi);
  const spacing sp = spacing_of(g, 0);
  for_box(g, lo, hi, "divergence", [=] __device__(ptrdiff_t p) {
    out[p] = scale * divergence_at(u, v, w, p, sp.s, sp.ih);
  });
}

void laplacian_cuda(const efsi_grid *g, const double *f, double *out)
{
  int lo[3], hi[3];
  box_owned(g, 0, lo, hi);
  const spacing sp = spacing_of(g, 1);
  for_box(g, lo, hi, "laplacian", [=] __device__(ptrdiff_t p) {
    out[p] = laplacian_at(f, p, sp.s, sp.ih);
  });
}

void gradient_add_cuda(const efsi_grid *g, double scale, const double *p, double *u, double *v,
                       double *w)
{
  double *const velocity[3] = {u, v, w};
  for (int d = 0; d < 3; d++) {
    int lo[3], hi[3];
    double c;
    const ptrdiff_t s = gradient_faces(g, d, scale, lo, hi, &c);
    double *a = velocity[d];
    for_box(g, lo, hi, "gradient_add", [=] __device__(ptrdiff_t q) {
      a[q] += gradient_at(p, q, s, c);
    });
  }
}
