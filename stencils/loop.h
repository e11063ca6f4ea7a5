/* The one point loop of the CPU kernels: every point p of the box lo <= (i, j, k) < hi of
 * grid g, OpenMP threads over the (k, j) rows (a static split, the same planes to the same
 * threads as the first touch of base/grid.c), SIMD along the unit-stride rows:
 *
 *     FOR_BOX(g, lo, hi, p) out[p] = f[p + s] - f[p];
 *
 * lo and hi are arrays of three ints; the statement after the macro is the loop body, a
 * pure function of p (no loop-carried dependency: the simd pragma asserts it). */
#ifndef EFSI_LOOP_H
#define EFSI_LOOP_H

#include "base/grid.h"

#define FOR_BOX(g, lo, hi, p)                                                              \
  _Pragma("omp parallel for collapse(2) schedule(static)")                                \
  for (int k_ = (lo)[2]; k_ < (hi)[2]; k_++)                                               \
    for (int j_ = (lo)[1]; j_ < (hi)[1]; j_++)                                             \
      _Pragma("omp simd")                                                                  \
      for (ptrdiff_t p = grid_index(g, (lo)[0], j_, k_); p < grid_index(g, (hi)[0], j_, k_); \
           p++)

/* The box of owned cells widened by `width` layers on every side. */
static inline void box_owned(const efsi_grid *g, int width, int lo[3], int hi[3])
{
  for (int d = 0; d < 3; d++) {
    lo[d] = -width;
    hi[d] = g->n[d] + width;
  }
}

#endif
