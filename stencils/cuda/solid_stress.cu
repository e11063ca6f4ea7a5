/* The solid stress on the GPU (formulas in stencils/solid_stress.h; mirrors solid_stress.c):
 * G phi over -2..n, then the six components over -1..n. */
#include "stencils/cuda/kernels.cuh"

extern "C" {
#include "stencils/loop.h"
#include "stencils/solid_stress.h"
}

void solid_stress_add_cuda(const efsi_grid *g, int nmat, const double *modulus,
                           double *const phi[], double *const b[6], double *const s[6],
                           double *gphi)
{
  if (nmat == 0) return;
  int lo[3], hi[3];
  box_owned(g, 2, lo, hi);
  hi[0]--, hi[1]--, hi[2]--;   /* -2..n */
  const material_arrays m = materials(nmat, phi, modulus);
  for_box(g, lo, hi, "solid_stress_add (G phi)", [=] __device__(ptrdiff_t p) {
    gphi[p] = modulus_sum_at(nmat, m.modulus, (double *const *)m.a, p);
  });
  box_owned(g, 1, lo, hi);
  const ptrdiff_t sx = g->stride[0], sy = g->stride[1], sz = g->stride[2];
  const six_arrays bb = six(b), ss = six(s);
  for_box(g, lo, hi, "solid_stress_add", [=] __device__(ptrdiff_t p) {
    solid_stress_at(gphi, bb.a, ss.a, p, sx, sy, sz);
  });
}
