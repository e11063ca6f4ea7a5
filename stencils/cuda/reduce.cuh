/* The GPU's reduction form, what REDUCE_BOX (stencils/reduce.h) becomes under nvcc: a thread
 * block a plane of the box, its threads striding over the plane's points, each adding its
 * points' values into its own pairs (double-double sums, maxima); the block adds its
 * threads' pairs by warp shuffles, then its warps' in order, and writes one pair a value;
 * the planes' pairs go to the host, which adds them in k order (reduce_combine).  The
 * combine does not depend on the order, so the results are the CPU's bits.  The warp and
 * block sums serve the ACM's column march too (stencils/cuda/reductions.cu).  No
 * floating-point atomics. */
#ifndef EFSI_CUDA_REDUCE_CUH
#define EFSI_CUDA_REDUCE_CUH

#include "base/cuda/cuda.cuh"

extern "C" {
#include "stencils/reduce.h"
}

/* Threads of a block of the reductions, and its warps. */
enum { REDUCE_THREADS = 256, REDUCE_WARPS = REDUCE_THREADS / 32 };

/* The pairs of a warp's 32 lanes of value c combined, at lane 0. */
__device__ __forceinline__ dd_sum warp_pairs(unsigned max_mask, int c, dd_sum s)
{
  for (int offset = 16; offset > 0; offset /= 2) {
    const dd_sum other = {__shfl_down_sync(0xffffffffu, s.hi, offset),
                          __shfl_down_sync(0xffffffffu, s.lo, offset)};
    s = reduce_pairs(max_mask, c, s, other);
  }
  return s;
}

/* The pairs of a block's threads of each of COUNT values combined into part[c][0] (thread
 * c writes it; a block of REDUCE_WARPS warps). */
template <int COUNT>
__device__ __forceinline__ void block_combine(unsigned max_mask, dd_sum acc[COUNT],
                                            dd_sum part[COUNT][REDUCE_WARPS])
{
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
#pragma unroll
  for (int c = 0; c < COUNT; c++) {
    const dd_sum s = warp_pairs(max_mask, c, acc[c]);
    if (lane == 0) part[c][warp] = s;
  }
  __syncthreads();
  if (threadIdx.x < COUNT) {
    const int c = threadIdx.x;
    dd_sum s = part[c][0];
    for (int w = 1; w < REDUCE_WARPS; w++) s = reduce_pairs(max_mask, c, s, part[c][w]);
    part[c][0] = s;
  }
}

/* A thread's walk over the points (i, j) of a plane of ni x nj (ni nj < 2^32, as any plane
 * that fits a GPU's memory), from point `first` on by `step` points, i fastest: i and j are
 * carried along in 32 bits, so that no point pays for a division (a 64-bit one is a long
 * emulated sequence on the GPU). */
struct plane_walk {
  unsigned i, j, di, dj, ni;
  __device__ plane_walk(unsigned ni_, unsigned first, unsigned step)
    : i(first % ni_), j(first / ni_), di(step % ni_), dj(step / ni_), ni(ni_) {}
  __device__ void next()
  {
    i += di;
    j += dj;
    if (i >= ni) {
      i -= ni;
      j++;
    }
  }
};

/* Plane lo[2] + blockIdx.x of the box (ni x nj points from (lo0, lo1), origin the index of
 * its first point) into plane[blockIdx.x COUNT + c]. */
template <int COUNT, typename Body>
__global__ void __launch_bounds__(REDUCE_THREADS)
reduce_plane_kernel(int ni, int nj, int lo0, int lo1, int lo2, ptrdiff_t origin, ptrdiff_t s1,
                    ptrdiff_t s2, unsigned max_mask, Body body, dd_sum *plane)
{
  __shared__ dd_sum part[COUNT][REDUCE_WARPS];
  const int t = threadIdx.x, k = blockIdx.x;
  dd_sum acc[COUNT];
#pragma unroll
  for (int c = 0; c < COUNT; c++) acc[c] = dd_sum{reduce_start(max_mask, c), 0.0};
  const unsigned points = (unsigned)ni * (unsigned)nj;
  const ptrdiff_t base = origin + s2 * k;
  plane_walk at((unsigned)ni, t, REDUCE_THREADS);
  for (unsigned q = t; q < points; q += REDUCE_THREADS, at.next()) {
    const reduce_values x = body(base + at.i + s1 * at.j, lo0 + (int)at.i, lo1 + (int)at.j, lo2 + k);
#pragma unroll
    for (int c = 0; c < COUNT; c++) acc[c] = reduce_term(max_mask, c, acc[c], x.v[c]);
  }
  block_combine<COUNT>(max_mask, acc, part);
  if (t < COUNT) plane[(size_t)k * COUNT + t] = part[t][0];
}

/* REDUCE_BOX on the GPU: the planes' pairs in the scratch's work memory, brought to its
 * staging memory and combined there in k order; the host waits for them. */
template <int COUNT, typename Body>
void reduce_box(const efsi_grid *g, const int lo[3], const int hi[3], const char *name,
                unsigned max_mask, efsi_scratch *scratch, Body body, dd_sum *out)
{
  static_assert(COUNT <= REDUCE_COUNT_MAX, "at most REDUCE_COUNT_MAX values");
  const int ni = hi[0] - lo[0], nj = hi[1] - lo[1], nk = hi[2] - lo[2];
  const size_t bytes = (size_t)nk * COUNT * sizeof(dd_sum);
  dd_sum *plane = (dd_sum *)scratch_work(scratch, bytes);
  dd_sum *host = (dd_sum *)scratch_staging(scratch, bytes);
  cudaStream_t stream = cuda_compute_stream();
  reduce_plane_kernel<COUNT><<<nk, REDUCE_THREADS, 0, stream>>>(
      ni, nj, lo[0], lo[1], lo[2], grid_index(g, lo[0], lo[1], lo[2]), g->stride[1],
      g->stride[2], max_mask, body, plane);
  cuda_launched(name);
  CUDA_CHECK(cudaMemcpyAsync(host, plane, bytes, cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  reduce_combine(host, nk, COUNT, max_mask, out);
}

#endif
