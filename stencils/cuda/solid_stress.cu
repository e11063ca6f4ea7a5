/* The solid stress on the GPU (formulas in stencils/solid_stress.h; mirrors solid_stress.c):
 * G phi over -2..n, then the six components over -1..n. */
#include "stencils/cuda/kernels.cuh"

extern "C" {
#include "base/tensor.h"
#include "stencils/solid_stress.h"
}

void solid_stress_add_cuda(const efsi_grid *g, int nmat, const double *modulus,
                           double *const phi[], double *const b[6], double *const s[6],
                           double *gphi)
{
  if (nmat == 0) return;
  const int lo2[3] = {-2, -2, -2}, hi2[3] = {g->n[0] + 1, g->n[1] + 1, g->n[2] + 1};
  const material_arrays m = materials(nmat, phi, modulus);
  for_box(g, lo2, hi2, "solid_stress_add (G phi)", [=] __device__(ptrdiff_t p) {
    gphi[p] = modulus_sum_at(nmat, m.modulus, (double *const *)m.a, p);
  });
  const int lo[3] = {-1, -1, -1};
  const ptrdiff_t sx = g->stride[0], sy = g->stride[1], sz = g->stride[2];
  const six_arrays bb = six(b), ss = six(s);
  for_box(g, lo, hi2, "solid_stress_add", [=] __device__(ptrdiff_t p) {
    const double g3 = gphi[p] * (1.0 / 3.0);
    const double bxx = bb.a[TXX][p], byy = bb.a[TYY][p], bzz = bb.a[TZZ][p];
    ss.a[TXX][p] += solid_diagonal_at(g3, bxx, byy, bzz);
    ss.a[TYY][p] += solid_diagonal_at(g3, byy, bxx, bzz);
    ss.a[TZZ][p] += solid_diagonal_at(g3, bzz, bxx, byy);
    ss.a[TXY][p] += solid_edge_at(gphi, bb.a[TXY], p, sx, sy);
    ss.a[TXZ][p] += solid_edge_at(gphi, bb.a[TXZ], p, sx, sz);
    ss.a[TYZ][p] += solid_edge_at(gphi, bb.a[TYZ], p, sy, sz);
  });
}
