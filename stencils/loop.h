/* The one point loop of every point-wise kernel, written once for both backends:
 *
 *     void KERNEL(field_scale)(const efsi_grid *g, double c, double *restrict f)
 *     {
 *       int lo[3], hi[3];
 *       box_owned(g, 0, lo, hi);
 *       FOR_BOX(g, lo, hi, p, f[p] *= c);
 *     }
 *
 * runs the body for every point p of the box lo <= (i, j, k) < hi of grid g.  Compiled as C
 * (stencils/X.c), KERNEL(name) is `name` and FOR_BOX is OpenMP threads over the (k, j) rows
 * (a static split, the same planes to the same threads as the first touch of base/grid.c)
 * and SIMD along the unit-stride rows.  Compiled by nvcc (stencils/cuda/loops.cu includes
 * the same sources), KERNEL(name) is `name_cuda` and FOR_BOX launches one thread per point
 * on the compute stream (stencils/cuda/launch.cuh), the body a device lambda.
 *
 * The body is a pure function of p (no loop-carried dependency: the simd pragma asserts
 * it) that reads only locals: the lambda captures them by value, so an array of pointers
 * the body indexes must be a local array (copied), never a parameter (a pointer to host
 * memory), and the body never reads through g.  Sources built for both backends are written
 * in the common subset of C11 and C++ (no compound literals, no variable-length arrays). */
#ifndef EFSI_LOOP_H
#define EFSI_LOOP_H

#include <stdint.h>

#include "base/grid.h"
#include "base/portable.h"

#ifdef __CUDACC__

#define KERNEL(name) name##_cuda
#define FOR_BOX(g, lo, hi, p, ...) \
  for_box(g, lo, hi, __func__, [=] __device__(ptrdiff_t p) { __VA_ARGS__; })
#define FOR_BOX_AT(g, lo, hi, p, i, j, k, ...) \
  for_box_at(g, lo, hi, __func__, [=] __device__(ptrdiff_t p, int i, int j, int k) { __VA_ARGS__; })
#define FOR_BOX_SUM(g, lo, hi, p, out, m, count, ...)          \
  FOR_BOX(g, lo, hi, p, int m = 0; double sum_ = (__VA_ARGS__);   \
          for (m = 1; m < (count); m++) sum_ += (__VA_ARGS__);     \
          out[p] = sum_)
#define FOR_EACH(n, item, ...) \
  for_each(n, __func__, [=] __device__(long item) { __VA_ARGS__; })
#define FOR_ROWS(g, lo, hi, min_blocks, ...) \
  for_box<min_blocks>(g, lo, hi, __func__, [=] __device__(ptrdiff_t point_) { __VA_ARGS__; })
#define ROW_BUFFER(x) x
#define ROW(x) (x)
#define POINTS(p, ...) do { const ptrdiff_t p = point_; (void)p; __VA_ARGS__; } while (0)

#else

#define KERNEL(name) name
#define FOR_BOX(g, lo, hi, p, ...)                                                         \
  _Pragma("omp parallel for collapse(2) schedule(static)")                                \
  for (int k_ = (lo)[2]; k_ < (hi)[2]; k_++)                                               \
    for (int j_ = (lo)[1]; j_ < (hi)[1]; j_++)                                             \
      _Pragma("omp simd")                                                                  \
      for (ptrdiff_t p = grid_index(g, (lo)[0], j_, k_); p < grid_index(g, (hi)[0], j_, k_); \
           p++) {                                                                          \
        __VA_ARGS__;                                                                       \
      }
#define FOR_BOX_AT(g, lo, hi, p, i, j, k, ...)                                             \
  do {                                                                                     \
    const ptrdiff_t o_ = grid_index(g, 0, 0, 0), s1_ = (g)->stride[1], s2_ = (g)->stride[2]; \
    _Pragma("omp parallel for collapse(2) schedule(static)")                              \
    for (int k = (lo)[2]; k < (hi)[2]; k++)                                                \
      for (int j = (lo)[1]; j < (hi)[1]; j++)                                              \
        _Pragma("omp simd")                                                                \
        for (ptrdiff_t p = o_ + s1_ * j + s2_ * k + (lo)[0]; p < o_ + s1_ * j + s2_ * k + (hi)[0]; \
             p++) {                                                                        \
          const ptrdiff_t i = p - (o_ + s1_ * j + s2_ * k);                                \
          __VA_ARGS__;                                                                     \
        }                                                                                  \
  } while (0)
#define FOR_BOX_SUM(g, lo, hi, p, out, m, count, ...)                       \
  do {                                                                      \
    int m = 0;                                                              \
    FOR_BOX(g, lo, hi, p, out[p] = (__VA_ARGS__));                          \
    for (m = 1; m < (count); m++) FOR_BOX(g, lo, hi, p, out[p] += (__VA_ARGS__)); \
  } while (0)
#define FOR_EACH(n, item, ...)                                              \
  _Pragma("omp parallel for schedule(static)")                             \
  for (long item = 0; item < (n); item++) {                                 \
    __VA_ARGS__;                                                            \
  }
#define FOR_ROWS(g, lo, hi, min_blocks, ...)                                \
  do {                                                                      \
    const int ni_ = (hi)[0] - (lo)[0];                                      \
    _Pragma("omp parallel for collapse(2) schedule(static)")               \
    for (int k_ = (lo)[2]; k_ < (hi)[2]; k_++)                              \
      for (int j_ = (lo)[1]; j_ < (hi)[1]; j_++) {                          \
        const ptrdiff_t row_ = grid_index(g, (lo)[0], j_, k_);              \
        __VA_ARGS__;                                                        \
      }                                                                     \
  } while (0)
#define ROW_BUFFER(x) x[ni_]
#define ROW(x) (x)[i_]
#define POINTS(p, ...)                                                      \
  _Pragma("omp simd")                                                       \
  for (int i_ = 0; i_ < ni_; i_++) {                                        \
    const ptrdiff_t p = row_ + i_;                                          \
    (void)p;                                                                \
    __VA_ARGS__;                                                            \
  }

#endif

/* FOR_BOX_SUM(g, lo, hi, p, out, m, count, term): out[p] = the sum of term over m = 0 ..
 * count - 1 (count >= 1), added in that order, at every point p of the box; term is an
 * expression of p and m (a material's contribution, say).  The CPU adds a term a pass, so
 * that each pass is a unit-stride loop that vectorises (a loop over m inside the point
 * loop would not); the GPU adds them all in one pass, one launch.  The same bits: each
 * partial sum is a double either way. */

/* FOR_EACH(n, item, body): the body for item = 0 .. n - 1 (long), items that are no grid
 * points (tracers, say): OpenMP threads on the CPU, a thread an item on the GPU. */

/* FOR_ROWS(g, lo, hi, min_blocks, body): the row form, for a kernel that the CPU runs in
 * stages, each a loop of its own along a row, so that a loop over a case's materials or a
 * tensor's components sits outside the point loops and every point loop vectorises.  The
 * body runs for every row (j, k) of the box; inside it, POINTS(p, statements) runs the
 * statements at every point p of the row, and ROW(x) is the point's value of a row buffer
 * declared `double ROW_BUFFER(x);`.  On the CPU a POINTS is a SIMD loop along the row and a
 * ROW_BUFFER an array of the row's length (threads over the rows); on the GPU the body runs
 * at one point a thread (for_box, stencils/cuda/launch.cuh; min_blocks its floor on the
 * blocks a multiprocessor holds, 0 for none), a POINTS is its statements, a ROW_BUFFER a
 * scalar, so the stages run one after the other in registers.  A statement that is not in
 * a POINTS runs once a row on the CPU, once a point on the GPU: loops over materials or
 * components, and the thread's copies of strides and spacings (declared in the body, the
 * stores of the point loops cannot alias them, so they stay in registers). */

/* FOR_BOX_AT(g, lo, hi, p, i, j, k, body) is FOR_BOX whose body also sees the point's
 * local indices i, j, k (int on the GPU; i a ptrdiff_t on the CPU), for a kernel whose work
 * differs across its box (which velocity components a point updates).  A body that updates
 * an array only at some points writes a[p] = select_at(range_mask(..) & .., new, a[p]), so
 * that the CPU's loop vectorises without masked stores (the same bits: an unchanged point
 * is written back as it was). */

/* All bits set where lo <= i < hi, none elsewhere (|i|, |lo|, |hi| < 2^62), from the signs
 * of i - hi and i - lo: integer arithmetic that SIMD units have, where a comparison's
 * truth value would have to be widened. */
EFSI_POINT uint64_t range_mask(ptrdiff_t i, ptrdiff_t lo, ptrdiff_t hi)
{
  const uint64_t below_hi = (uint64_t)0 - ((uint64_t)(i - hi) >> 63);
  const uint64_t below_lo = (uint64_t)0 - ((uint64_t)(i - lo) >> 63);
  return below_hi & ~below_lo;
}

/* x where mask has all bits set, y where it has none, by the bits and with no branch: a loop
 * that updates an array at some of its points (a[p] = select_at(mask, new, a[p])) then
 * vectorises without masked stores, where GCC would turn a plain conditional back into a
 * conditional store. */
EFSI_POINT double select_at(uint64_t mask, double x, double y)
{
  return bits_double((double_bits(x) & mask) | (double_bits(y) & ~mask));
}

/* The box of owned cells widened by `width` layers on every side. */
static inline void box_owned(const efsi_grid *g, int width, int lo[3], int hi[3])
{
  for (int d = 0; d < 3; d++) {
    lo[d] = -width;
    hi[d] = g->n[d] + width;
  }
}

#endif
