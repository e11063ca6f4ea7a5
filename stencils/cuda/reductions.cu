/* The ACM step's sums on the GPU (stencils/reductions.h): another algorithm than the reduction
 * form that the CPU's (stencils/acm_sums.c) and the diagnostics' reductions share
 * (stencils/reduce.h), because the form's thread a point loads the seven values of each
 * Laplacian, where a thread that marches in z along a column keeps the planes k - 1, k, k + 1
 * in registers and loads two values and four in-plane neighbours a point; and because the
 * sums are queued, not waited for (sums_wait, stencils/kernels.h), so that the step queues
 * more work before it waits.  The same per-point terms (acm_terms_of) and the same order-free
 * double-double sums: the CPU's bits. */
#include "stencils/cuda/launch.cuh"
#include "stencils/cuda/reduce.cuh"

extern "C" {
#include "stencils/kernel_list.h"
}

/* The ACM sums in double-double (base/dd.h), marching in z: a thread takes a column (i, j)
 * of the owned cells through one chunk of the planes, and carries D* and p of the planes
 * k - 1, k and k + 1 in registers, so that a point loads the next plane's two values and
 * its four neighbours in the plane of each, where a point on its own loaded the seven of
 * each Laplacian (planes k +- 1 came again from the cache, and the kernel waited on them).
 * Each thread adds its terms into its own pairs; a block adds its threads' pairs by warp
 * shuffles, then its warps' in order, and writes one pair a sum; acm_blocks_kernel adds the
 * blocks' pairs of each chunk, and the chunks' pairs go to host memory, where they are
 * added in chunk order.  The rounded sums are the CPU's: double-double sums do not depend on
 * the order of their terms (docs/parallel.md, "Reductions"). */
static_assert((int)ACM_GPU_COLUMNS == (int)REDUCE_THREADS, "a block's pairs added as the form's");

__global__ void __launch_bounds__(ACM_GPU_COLUMNS)
acm_column_kernel(int n0, int n1, int n2, ptrdiff_t origin, ptrdiff_t s1, ptrdiff_t s2,
                  int laplacians, double ih2x, double ih2y, double ih2z, const double *div,
                  const double *p, const double *u, double *block_pairs)
{
  __shared__ dd_sum part[SUM_COUNT][REDUCE_WARPS];
  dd_sum acc[SUM_COUNT];
#pragma unroll
  for (int c = 0; c < SUM_COUNT; c++) acc[c] = dd_sum{0.0, 0.0};
  const unsigned column = blockIdx.x * ACM_GPU_COLUMNS + threadIdx.x;
  const int chunk = blockIdx.y, chunks = gridDim.y;
  const int k0 = (int)((long)n2 * chunk / chunks), k1 = (int)((long)n2 * (chunk + 1) / chunks);
  if (column < (unsigned)n0 * (unsigned)n1 && k0 < k1) {
    const unsigned i = column % (unsigned)n0, j = column / (unsigned)n0;
    ptrdiff_t q = origin + i + s1 * j + s2 * k0;
    double d_below = div[q - s2], d_at = div[q], p_below = p[q - s2], p_at = p[q];
    for (int k = k0; k < k1; k++, q += s2) {
      const double d_above = div[q + s2], p_above = p[q + s2];
      double ld = 0.0, lp = 0.0;
      if (laplacians) {   /* laplacian_at's sum, x, y, z in order */
        ld = second_difference_of(div[q - 1], d_at, div[q + 1], ih2x)
           + second_difference_of(div[q - s1], d_at, div[q + s1], ih2y)
           + second_difference_of(d_below, d_at, d_above, ih2z);
        lp = second_difference_of(p[q - 1], p_at, p[q + 1], ih2x)
           + second_difference_of(p[q - s1], p_at, p[q + s1], ih2y)
           + second_difference_of(p_below, p_at, p_above, ih2z);
      }
      const reduce_values x = acm_terms_of(d_at, ld, lp, p_at, u[q]);
#pragma unroll
      for (int c = 0; c < SUM_COUNT; c++) acc[c] = dd_add(acc[c], x.v[c]);
      d_below = d_at;
      d_at = d_above;
      p_below = p_at;
      p_at = p_above;
    }
  }
  block_combine<SUM_COUNT>(0u, acc, part);
  if (threadIdx.x < SUM_COUNT) {
    const size_t at = ((size_t)chunk * gridDim.x + blockIdx.x) * SUM_COUNT + threadIdx.x;
    block_pairs[2 * at] = part[threadIdx.x][0].hi;
    block_pairs[2 * at + 1] = part[threadIdx.x][0].lo;
  }
}

/* The blocks' pairs of each chunk and sum added (one block a chunk and sum, its threads
 * striding over the chunk's blocks), into plane[2 (chunk SUM_COUNT + c)]. */
__global__ void __launch_bounds__(ACM_GPU_COLUMNS)
acm_blocks_kernel(int blocks, const double *block_pairs, double *plane)
{
  __shared__ dd_sum part[1][REDUCE_WARPS];
  const int chunk = blockIdx.x / SUM_COUNT, c = blockIdx.x % SUM_COUNT;
  dd_sum s[1] = {{0.0, 0.0}};
  for (int m = threadIdx.x; m < blocks; m += ACM_GPU_COLUMNS) {
    const double *pair = block_pairs + 2 * (((size_t)chunk * blocks + m) * SUM_COUNT + c);
    s[0] = dd_add_dd(s[0], dd_sum{pair[0], pair[1]});
  }
  block_combine<1>(0u, s, part);
  if (threadIdx.x == 0) {
    plane[2 * blockIdx.x] = part[0][0].hi;
    plane[2 * blockIdx.x + 1] = part[0][0].lo;
  }
}

/* The chunks the planes are cut into: the count, at most ACM_GPU_CHUNKS_MAX and n2, whose
 * blocks (`columns` of them a chunk) fill the waves of blocks the GPU holds at once best (the
 * fewest chunks among equals: each chunk costs its blocks two planes more); `resident`
 * blocks at once. */
static int acm_chunks(int columns, int n2, int resident)
{
  int best = 1;
  double best_fill = 0.0;
  for (int c = 1; c <= ACM_GPU_CHUNKS_MAX && c <= n2; c++) {
    const long blocks = (long)columns * c, waves = (blocks + resident - 1) / resident;
    const double fill = (double)blocks / ((double)waves * resident);
    if (fill > best_fill + 0.02) {
      best = c;
      best_fill = fill;
    }
  }
  return best;
}

/* acm_sums' results in flight live in the caller's scratch (base/device.h,
 * efsi_queued_sums): the chunks' pairs that acm_blocks_kernel writes to the staging memory,
 * reduced into `to` once the event `ready` has passed (acm_sums_wait_cuda).  One at a time
 * a scratch: a step queues its one reduction and waits for it before the next. */
void acm_sums_cuda(const efsi_grid *g, int laplacians, const double *div, const double *p,
                   const double *u, efsi_scratch *scratch, double sums[2 * SUM_COUNT])
{
  efsi_queued_sums *pending = &scratch->queued;
  if (!pending->resident) {
    int per_multiprocessor = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor,
                                                             acm_column_kernel, ACM_GPU_COLUMNS, 0));
    pending->resident = (per_multiprocessor > 0 ? per_multiprocessor : 1) * cuda_multiprocessors();
  }
  if (!pending->ready) {
    cudaEvent_t ready;
    CUDA_CHECK(cudaEventCreateWithFlags(&ready, cudaEventDisableTiming));
    pending->ready = (void *)ready;
  }
  if (pending->to)
    efsi_abort(EFSI_EXIT_RUNTIME, "acm_sums queued again before its sums were waited for");
  const long columns = ((long)g->n[0] * g->n[1] + ACM_GPU_COLUMNS - 1) / ACM_GPU_COLUMNS;
  const int chunks = acm_chunks((int)columns, g->n[2], pending->resident);
  double *block_pairs = (double *)scratch_work(
      scratch, (size_t)columns * chunks * 2 * SUM_COUNT * sizeof(double));
  /* the chunks' pairs go straight to the page-locked staging memory, which a GPU with
   * unified addressing writes through the host's own pointer: no copy to queue */
  const size_t n = (size_t)chunks * 2 * SUM_COUNT;
  double *plane = (double *)scratch_staging(scratch, n * sizeof(double));
  cudaStream_t stream = cuda_compute_stream();
  acm_column_kernel<<<dim3((unsigned)columns, (unsigned)chunks), ACM_GPU_COLUMNS, 0, stream>>>(
      g->n[0], g->n[1], g->n[2], grid_index(g, 0, 0, 0), g->stride[1], g->stride[2],
      laplacians, g->inv_h[0] * g->inv_h[0], g->inv_h[1] * g->inv_h[1],
      g->inv_h[2] * g->inv_h[2], div, p, u, block_pairs);
  cuda_launched("acm_sums");
  acm_blocks_kernel<<<chunks * SUM_COUNT, ACM_GPU_COLUMNS, 0, stream>>>((int)columns, block_pairs,
                                                                       plane);
  cuda_launched("acm_sums (blocks)");
  CUDA_CHECK(cudaEventRecord((cudaEvent_t)pending->ready, stream));
  pending->plane = plane;
  pending->chunks = chunks;
  pending->to = sums;
}

void acm_sums_wait_cuda(efsi_scratch *scratch)
{
  efsi_queued_sums *pending = &scratch->queued;
  if (!pending->to) return;
  CUDA_CHECK(cudaEventSynchronize((cudaEvent_t)pending->ready));
  dd_sum r[SUM_COUNT];
  reduce_combine((const dd_sum *)pending->plane, pending->chunks, SUM_COUNT, 0u, r);
  for (int c = 0; c < SUM_COUNT; c++) {
    pending->to[2 * c] = r[c].hi;
    pending->to[2 * c + 1] = r[c].lo;
  }
  pending->to = NULL;
}

