/* The one reduction form of every reduction over grid points, written once for both
 * backends (in the spirit of AMReX's ReduceOps: a per-point function and a combine):
 *
 *     REDUCE_BOX(g, lo, hi, scratch, COUNT, max_mask, out, p, i, j, k, values)
 *
 * evaluates the expression `values` (a reduce_values: the point's values in v[0 .. COUNT),
 * from a per-point function of the headers) at every point p = (i, j, k) of the box
 * lo <= (i, j, k) < hi of grid g (local indices, int).  Value c is combined by
 * the maximum where bit c of max_mask is set (fmax: a NaN does not hide a number), summed in
 * double-double (base/dd.h) where it is not; out[c] (a dd_sum) receives the pair (hi, lo) of
 * a sum, whose hi is the correctly rounded sum of the terms whatever their order, and
 * (largest, 0) of a maximum.  The combine does not depend on the order of the terms, so a
 * result is the same bits on any number of threads and on either backend, as long as the
 * body is (the per-point formulas of the headers are).  COUNT is a
 * constant expression of at most REDUCE_COUNT_MAX; the partials live in the scratch's work
 * memory (a pair per value and plane of the box: 2 COUNT doubles a plane), on the GPU
 * brought back through its staging memory (base/device.h: efsi_scratch).  The box must
 * not be empty (the GPU cannot launch no blocks).
 *
 * Compiled as C, REDUCE_BOX is OpenMP threads over the planes k, each plane's rows in j
 * order, each row REDUCE_LANES points at a time into lanes of accumulators (the SIMD loop:
 * lane l takes every REDUCE_LANES-th point); a plane adds its lanes in order, and
 * reduce_combine adds the planes in k order on one thread.  Compiled by nvcc
 * (stencils/cuda/reduce.cuh), a thread block takes a plane, its threads striding over the
 * plane's points, then adds its threads' pairs by warp shuffles; the host adds the planes.
 * The expression follows FOR_BOX's rules (stencils/loop.h): it reads only locals, which the
 * GPU's lambda captures by value; and it declares nothing whose address is taken (an array
 * passed to a function, say): GCC would give such a local a copy a SIMD lane and not
 * vectorise the loop, so per-point functions take and return values. */
#ifndef EFSI_REDUCE_FORM_H
#define EFSI_REDUCE_FORM_H

#include <math.h>
#include <stddef.h>

#include "base/dd.h"
#include "base/device.h"
#include "base/grid.h"
#include "base/portable.h"

/* Lanes of the CPU's SIMD loop; the most values one form reduces. */
enum { REDUCE_LANES = 8, REDUCE_COUNT_MAX = 16 };

/* A point's values, v[0 .. COUNT) of a form (returned by value: no array of the point loop
 * has its address taken). */
typedef struct { double v[REDUCE_COUNT_MAX]; } reduce_values;

/* One value, x (the rest 0). */
EFSI_POINT reduce_values reduce_one(double x)
{
  reduce_values r = {{0.0}};
  r.v[0] = x;
  return r;
}

#ifdef __cplusplus
extern "C" {
#endif

/* The planes' pairs, count a plane (plane[k count + c]), combined in k order into out[count]
 * as REDUCE_BOX combines them (max_mask: which values take the maximum). */
void reduce_combine(const dd_sum *plane, int planes, int count, unsigned max_mask,
                    dd_sum *out);

#ifdef __cplusplus
}
#endif

/* The start of an accumulator of value c: -inf for a maximum, 0 for a sum. */
EFSI_POINT double reduce_start(unsigned max_mask, int c)
{
  return (max_mask >> c) & 1u ? -INFINITY : 0.0;
}

/* A pair of value c, a point's term x combined into it (the sum renormalised). */
EFSI_POINT dd_sum reduce_term(unsigned max_mask, int c, dd_sum s, double x)
{
  if ((max_mask >> c) & 1u) {
    const dd_sum m = {fmax(s.hi, x), 0.0};
    return m;
  }
  return dd_add(s, x);
}

/* Two pairs of value c combined. */
EFSI_POINT dd_sum reduce_pairs(unsigned max_mask, int c, dd_sum s, dd_sum t)
{
  if ((max_mask >> c) & 1u) {
    const dd_sum m = {fmax(s.hi, t.hi), 0.0};
    return m;
  }
  return dd_add_dd(s, t);
}

#ifdef __CUDACC__

#define REDUCE_BOX(g, lo, hi, scratch, count, max_mask, out, p, i, j, k, ...)               \
  reduce_box<count>(g, lo, hi, __func__, max_mask, scratch,                                  \
                    [=] __device__(ptrdiff_t p, int i, int j, int k) -> reduce_values {       \
                      (void)p, (void)i, (void)j, (void)k;                                     \
                      return (__VA_ARGS__);                                                  \
                    },                                                                       \
                    out)

#else

/* Lane l of the accumulators hi, lo [count][REDUCE_LANES] += a point's values x, the
 * values one after the other written out (count a constant once inlined: the steps past it
 * vanish), as GCC's vectoriser needs of a loop nested in the point loop. */
#define REDUCE_STEP(c)                                                                      \
  if ((c) < count) {                                                                        \
    const dd_sum s_ = {hi[c][l], lo[c][l]};                                                 \
    const dd_sum r_ = reduce_term(max_mask, c, s_, x.v[c]);                                 \
    hi[c][l] = r_.hi;                                                                       \
    lo[c][l] = r_.lo;                                                                       \
  }
static inline __attribute__((always_inline)) void
reduce_lane_add(int count, unsigned max_mask, double hi[][REDUCE_LANES],
                double lo[][REDUCE_LANES], int l, reduce_values x)
{
  _Static_assert(REDUCE_COUNT_MAX == 16, "a step for each of the most values");
  REDUCE_STEP(0) REDUCE_STEP(1) REDUCE_STEP(2) REDUCE_STEP(3) REDUCE_STEP(4) REDUCE_STEP(5)
  REDUCE_STEP(6) REDUCE_STEP(7) REDUCE_STEP(8) REDUCE_STEP(9) REDUCE_STEP(10) REDUCE_STEP(11)
  REDUCE_STEP(12) REDUCE_STEP(13) REDUCE_STEP(14) REDUCE_STEP(15)
}
#undef REDUCE_STEP

/* The lanes of a plane added in order into part[count]. */
static inline void reduce_lanes(int count, unsigned max_mask, double hi[][REDUCE_LANES],
                                double lo[][REDUCE_LANES], dd_sum *part)
{
  for (int c = 0; c < count; c++) {
    dd_sum s = {reduce_start(max_mask, c), 0.0};
    for (int l = 0; l < REDUCE_LANES; l++) {
      const dd_sum t = {hi[c][l], lo[c][l]};
      s = reduce_pairs(max_mask, c, s, t);
    }
    part[c] = s;
  }
}

#define REDUCE_BOX(g, lo, hi, scratch, count, max_mask, out, p, i, j, k, ...)                 \
  do {                                                                                       \
    _Static_assert((int)(count) <= (int)REDUCE_COUNT_MAX, "at most REDUCE_COUNT_MAX values"); \
    const int k0_ = (lo)[2], nk_ = (hi)[2] - (lo)[2], i0_ = (lo)[0], i1_ = (hi)[0];         \
    const int whole_ = i0_ + (i1_ - i0_) / REDUCE_LANES * REDUCE_LANES;                       \
    const unsigned mask_ = (max_mask);                                                       \
    dd_sum *plane_ = (dd_sum *)scratch_work(scratch, (size_t)nk_ * (count) * sizeof(dd_sum)); \
    _Pragma("omp parallel for schedule(static)")                                            \
    for (int k = k0_; k < k0_ + nk_; k++) {                                                  \
      double hi_[count][REDUCE_LANES], lo_[count][REDUCE_LANES];                             \
      for (int c_ = 0; c_ < (count); c_++)                                                   \
        for (int l_ = 0; l_ < REDUCE_LANES; l_++) {                                          \
          hi_[c_][l_] = reduce_start(mask_, c_);                                             \
          lo_[c_][l_] = 0.0;                                                                 \
        }                                                                                    \
      for (int j = (lo)[1]; j < (hi)[1]; j++) {                                              \
        const ptrdiff_t row_ = grid_index(g, 0, j, k);                                       \
        for (int at_ = i0_; at_ < whole_; at_ += REDUCE_LANES) {                              \
          _Pragma("omp simd")                                                                \
          for (int l_ = 0; l_ < REDUCE_LANES; l_++) {                                        \
            const int i = at_ + l_;                                                          \
            const ptrdiff_t p = row_ + i;                                                    \
            (void)p, (void)i, (void)j, (void)k;                                              \
            reduce_lane_add(count, mask_, hi_, lo_, l_, (__VA_ARGS__));                      \
          }                                                                                  \
        }                                                                                    \
        for (int i = whole_; i < i1_; i++) {                                                 \
          const ptrdiff_t p = row_ + i;                                                      \
          (void)p, (void)i, (void)j, (void)k;                                                \
          reduce_lane_add(count, mask_, hi_, lo_, i - whole_, (__VA_ARGS__));                \
        }                                                                                    \
      }                                                                                      \
      reduce_lanes(count, mask_, hi_, lo_, plane_ + (size_t)(k - k0_) * (count));           \
    }                                                                                        \
    reduce_combine(plane_, nk_, count, mask_, out);                                          \
  } while (0)

#endif

#endif
