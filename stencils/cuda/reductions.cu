/* Local reductions on the GPU (the contract is in stencils/reductions.h; mirrors
 * reductions.c): one thread block per z-plane forms the plane's partial results, its threads
 * striding over the plane's points, then a fixed tree inside the block; the planes' partials
 * go to the host, which combines them in k order with the CPU's reduce_planes.  The order is
 * fixed, so two runs give the same bits; it is not the CPU's order within a plane, so for
 * the diagnostics GPU and CPU agree to round-off.  The ACM sums, in double-double, march in
 * z over columns instead (acm_column_kernel) and agree with the CPU bit for bit.  No
 * floating-point atomics. */
#include "stencils/cuda/launch.cuh"

extern "C" {
#include "base/tensor.h"
#include "stencils/kernel_list.h"
}

enum { PLANE_THREADS = 256 };

/* A thread's walk over the points (i, j) of a plane of n0 x n1 (n0 n1 < 2^32, as any plane
 * that fits a GPU's memory), from point `first` on by `step` points, i fastest: i and j are
 * carried along in 32 bits, so that no point pays for a division (a 64-bit one is a long
 * emulated sequence on the GPU, as long as the ACM's terms of a point themselves). */
struct plane_walk {
  unsigned i, j, di, dj, n0;
  __device__ plane_walk(unsigned n0_, unsigned first, unsigned step)
    : i(first % n0_), j(first / n0_), di(step % n0_), dj(step / n0_), n0(n0_) {}
  __device__ void next()
  {
    i += di;
    j += dj;
    if (i >= n0) {
      i -= n0;
      j++;
    }
  }
};

/* The plane partials of `count` values per point: term(p, v) fills v[0..count); values
 * with max[c] are combined by fmax from `start` (0 for magnitudes), the others summed. */
template <int COUNT, typename Term>
__global__ void __launch_bounds__(PLANE_THREADS)
plane_kernel(int n0, int n1, ptrdiff_t origin, ptrdiff_t s1, ptrdiff_t s2, unsigned max_mask,
             double start, Term term, double *plane)
{
  __shared__ double part[COUNT][PLANE_THREADS];
  const int t = threadIdx.x, k = blockIdx.x;
  double acc[COUNT];
  for (int c = 0; c < COUNT; c++) acc[c] = (max_mask >> c) & 1 ? start : 0.0;
  const unsigned points = (unsigned)n0 * (unsigned)n1;
  const ptrdiff_t base = origin + s2 * k;
  plane_walk at((unsigned)n0, t, PLANE_THREADS);
  for (unsigned q = t; q < points; q += PLANE_THREADS, at.next()) {
    double v[COUNT];
    term(base + at.i + s1 * at.j, v);
    for (int c = 0; c < COUNT; c++) acc[c] = (max_mask >> c) & 1 ? fmax(acc[c], v[c]) : acc[c] + v[c];
  }
  for (int c = 0; c < COUNT; c++) part[c][t] = acc[c];
  __syncthreads();
  for (int half = PLANE_THREADS / 2; half > 0; half /= 2) {
    if (t < half)
      for (int c = 0; c < COUNT; c++)
        part[c][t] = (max_mask >> c) & 1 ? fmax(part[c][t], part[c][t + half])
                                         : part[c][t] + part[c][t + half];
    __syncthreads();
  }
  if (t < COUNT) plane[(size_t)k * COUNT + t] = part[t][0];
}

/* Run the plane kernel over the owned cells of g, the partials in the scratch's work
 * memory, bring them to its staging memory and combine them in k order (combine[c] = 1:
 * maximum). */
template <int COUNT, typename Term>
static void plane_reduce(const efsi_grid *g, const char *name, const int *combine,
                         double start, efsi_scratch *scratch, Term term, double *out)
{
  const size_t n = (size_t)g->n[2] * COUNT;
  double *plane = (double *)scratch_work(scratch, n * sizeof(double));
  double *host = (double *)scratch_staging(scratch, n * sizeof(double));
  unsigned mask = 0;
  for (int c = 0; c < COUNT; c++) mask |= (combine && combine[c] ? 1u : 0u) << c;
  cudaStream_t stream = cuda_compute_stream();
  plane_kernel<COUNT><<<g->n[2], PLANE_THREADS, 0, stream>>>(
      g->n[0], g->n[1], grid_index(g, 0, 0, 0), g->stride[1], g->stride[2], mask, start,
      term, plane);
  cuda_launched(name);
  CUDA_CHECK(cudaMemcpyAsync(host, plane, n * sizeof(double), cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  reduce_planes(host, g->n[2], COUNT, combine, out);
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
enum { WARPS = ACM_GPU_COLUMNS / 32 };

/* The sum of a warp's 32 pairs, at lane 0. */
__device__ __forceinline__ dd_sum warp_dd_sum(dd_sum s)
{
  for (int offset = 16; offset > 0; offset /= 2) {
    const dd_sum other = {__shfl_down_sync(0xffffffffu, s.hi, offset),
                          __shfl_down_sync(0xffffffffu, s.lo, offset)};
    s = dd_add_dd(s, other);
  }
  return s;
}

/* The sum of a block's pairs of each of COUNT sums into part[c][0] (thread 0 writes it), the
 * block of WARPS warps. */
template <int COUNT>
__device__ __forceinline__ void block_dd_sums(dd_sum acc[COUNT], dd_sum part[COUNT][WARPS])
{
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
#pragma unroll
  for (int c = 0; c < COUNT; c++) {
    const dd_sum s = warp_dd_sum(acc[c]);
    if (lane == 0) part[c][warp] = s;
  }
  __syncthreads();
  if (threadIdx.x < COUNT) {
    dd_sum s = part[threadIdx.x][0];
    for (int w = 1; w < WARPS; w++) s = dd_add_dd(s, part[threadIdx.x][w]);
    part[threadIdx.x][0] = s;
  }
}

__global__ void __launch_bounds__(ACM_GPU_COLUMNS)
acm_column_kernel(int n0, int n1, int n2, ptrdiff_t origin, ptrdiff_t s1, ptrdiff_t s2,
                  int laplacians, double ih2x, double ih2y, double ih2z, const double *div,
                  const double *p, const double *u, double *block_pairs)
{
  __shared__ dd_sum part[SUM_COUNT][WARPS];
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
      double x[SUM_COUNT];
      acm_terms_of(d_at, ld, lp, p_at, u[q], x);
#pragma unroll
      for (int c = 0; c < SUM_COUNT; c++) acc[c] = dd_add(acc[c], x[c]);
      d_below = d_at;
      d_at = d_above;
      p_below = p_at;
      p_at = p_above;
    }
  }
  block_dd_sums<SUM_COUNT>(acc, part);
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
  __shared__ dd_sum part[1][WARPS];
  const int chunk = blockIdx.x / SUM_COUNT, c = blockIdx.x % SUM_COUNT;
  dd_sum s[1] = {{0.0, 0.0}};
  for (int m = threadIdx.x; m < blocks; m += ACM_GPU_COLUMNS) {
    const double *pair = block_pairs + 2 * (((size_t)chunk * blocks + m) * SUM_COUNT + c);
    s[0] = dd_add_dd(s[0], dd_sum{pair[0], pair[1]});
  }
  block_dd_sums<1>(s, part);
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

/* acm_sums' results in flight: the chunks' pairs that acm_blocks_kernel writes to the
 * staging memory, reduced into `to` once the event `ready` has passed (acm_sums_wait_cuda).
 * One at a time: a step queues its one reduction and waits for it before the next. */
static struct {
  const double *plane;
  int chunks;
  double *to;
  cudaEvent_t ready;
} pending;

void acm_sums_cuda(const efsi_grid *g, int laplacians, const double *div, const double *p,
                   const double *u, efsi_scratch *scratch, double sums[2 * SUM_COUNT])
{
  static int resident;
  if (!resident) {
    int per_multiprocessor = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor,
                                                             acm_column_kernel, ACM_GPU_COLUMNS, 0));
    resident = (per_multiprocessor > 0 ? per_multiprocessor : 1) * cuda_multiprocessors();
    CUDA_CHECK(cudaEventCreateWithFlags(&pending.ready, cudaEventDisableTiming));
  }
  if (pending.to)
    efsi_abort(EFSI_EXIT_RUNTIME, "acm_sums queued again before its sums were waited for");
  const long columns = ((long)g->n[0] * g->n[1] + ACM_GPU_COLUMNS - 1) / ACM_GPU_COLUMNS;
  const int chunks = acm_chunks((int)columns, g->n[2], resident);
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
  CUDA_CHECK(cudaEventRecord(pending.ready, stream));
  pending.plane = plane;
  pending.chunks = chunks;
  pending.to = sums;
}

void acm_sums_wait_cuda(void)
{
  if (!pending.to) return;
  CUDA_CHECK(cudaEventSynchronize(pending.ready));
  reduce_planes_dd(pending.plane, pending.chunks, SUM_COUNT, pending.to);
  pending.to = NULL;
}

void flow_norms_cuda(const efsi_grid *g, double scale, const double *u, const double *v,
                     const double *w, const double *div, efsi_scratch *scratch,
                     double out[FLOW_COUNT])
{
  static const int combine[FLOW_COUNT] = {0, 0, 0, 1, 1};
  plane_reduce<FLOW_COUNT>(g, "flow_norms", combine, 0.0, scratch,
                           [=] __device__(ptrdiff_t q, double *x) {
    flow_terms(u, v, w, div, scale, q, x);
  }, out);
}

void phi_moments_cuda(const efsi_grid *g, const double *phi, efsi_scratch *scratch,
                      double out[MOMENT_COUNT])
{
  /* the point's (i, j, k) from its index: i < n0 <= s1 and j s1 + i < s2 */
  const ptrdiff_t origin = grid_index(g, 0, 0, 0), s1 = g->stride[1], s2 = g->stride[2];
  const double x0 = first_centre(g, 0), y0 = first_centre(g, 1), z0 = first_centre(g, 2);
  const double hx = g->h[0], hy = g->h[1], hz = g->h[2];
  plane_reduce<MOMENT_COUNT>(g, "phi_moments", NULL, 0.0, scratch,
                             [=] __device__(ptrdiff_t q, double *m) {
    const ptrdiff_t r = q - origin;
    const int k = (int)(r / s2), j = (int)((r % s2) / s1), i = (int)(r % s1);
    const double f = phi[q], x = x0 + i * hx, y = y0 + j * hy, z = z0 + k * hz;
    m[MOMENT_1] = f;
    m[MOMENT_X] = f * x;
    m[MOMENT_Y] = f * y;
    m[MOMENT_Z] = f * z;
    m[MOMENT_XX] = f * x * x;
    m[MOMENT_YY] = f * y * y;
    m[MOMENT_ZZ] = f * z * z;
    m[MOMENT_XY] = f * x * y;
    m[MOMENT_XZ] = f * x * z;
    m[MOMENT_YZ] = f * y * z;
  }, out);
}

double elastic_energy_cuda(const efsi_grid *g, int nmat, const double *modulus,
                           double *const phi[], double *const b[6], efsi_scratch *scratch)
{
  if (nmat == 0) return 0.0;
  const material_arrays m = materials(nmat, phi, modulus);
  const double *bxx = b[TXX], *byy = b[TYY], *bzz = b[TZZ];
  double total;
  plane_reduce<1>(g, "elastic_energy", NULL, 0.0, scratch,
                  [=] __device__(ptrdiff_t q, double *x) {
    x[0] = elastic_density_at(nmat, m.modulus, (double *const *)m.a, bxx, byy, bzz, q);
  }, &total);
  return 0.5 * total * g->h[0] * g->h[1] * g->h[2];
}

void det_range_cuda(const efsi_grid *g, int nmat, double *const phi[], double *const b[6],
                    double phi_min, efsi_scratch *scratch, double range[2])
{
  static const int combine[2] = {1, 1};
  const material_arrays m = materials(nmat, phi, NULL);
  const six_arrays bb = six(b);
  double extremes[2];
  plane_reduce<2>(g, "det_range", combine, -INFINITY, scratch,
                  [=] __device__(ptrdiff_t q, double *x) {
    const double phi_total = solid_fraction_at(nmat, (double *const *)m.a, q);
    const double det = symmetric_det(bb.a[TXX][q], bb.a[TYY][q], bb.a[TZZ][q], bb.a[TXY][q],
                                     bb.a[TXZ][q], bb.a[TYZ][q]);
    const int solid = phi_total >= phi_min;
    x[0] = solid ? -det : -INFINITY;
    x[1] = solid ? det : -INFINITY;
  }, extremes);
  range[0] = -extremes[0];
  range[1] = extremes[1];
}

/* The shear of each wall face (i, b) of one wall: x index i, index b along the other
 * tangential direction; the same arithmetic as the CPU's wall_shear_sums. */
__global__ void wall_faces_kernel(int n0, ptrdiff_t origin, ptrdiff_t along, double scale,
                                  double u_wall, const double *u, const double *tangential,
                                  double *out)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x, b = blockIdx.y;
  if (i >= n0) return;
  const ptrdiff_t at = origin + i + along * b;
  const double t1 = u[at] - u_wall;
  const double t2 = 0.5 * (tangential[at] + tangential[at + along]);
  out[(ptrdiff_t)b * n0 + i] = scale * sqrt(t1 * t1 + t2 * t2);
}

/* The faces' shear on the device, summed on the host in the CPU's order (walls low then
 * high, rows b, then x). */
void wall_shear_sums_cuda(const efsi_grid *g, int d, double mu, const double *u,
                          const double *tangential, const double u_wall[2],
                          efsi_scratch *scratch, double sum_count[2])
{
  const int other = 3 - d;
  const ptrdiff_t along = g->stride[other];
  const double scale = mu * 2.0 * g->inv_h[d];
  const int n0 = g->n[0], rows = g->n[other], faces = n0 * rows;
  cudaStream_t stream = cuda_compute_stream();
  for (int side = 0; side < 2; side++) {
    if (!(side ? g->wall_hi[d] : g->wall_lo[d])) continue;
    double *device_faces = (double *)scratch_work(scratch, (size_t)faces * sizeof(double));
    double *host = (double *)scratch_staging(scratch, (size_t)faces * sizeof(double));
    int first[3] = {0, 0, 0};
    first[d] = side ? g->n[d] - 1 : 0;
    wall_faces_kernel<<<dim3((unsigned)((n0 + 127) / 128), (unsigned)rows), 128, 0, stream>>>(
        n0, grid_index(g, first[0], first[1], first[2]), along, scale, u_wall[side], u,
        tangential, device_faces);
    cuda_launched("wall_shear_sums");
    CUDA_CHECK(cudaMemcpyAsync(host, device_faces, (size_t)faces * sizeof(double),
                               cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    for (int f = 0; f < faces; f++) {
      sum_count[0] += host[f];
      sum_count[1] += 1.0;
    }
  }
}

/* The lumen's flux and wall shear (the per-cell formula lumen_at of reductions.h, the
 * cell's place from the tube's axis recovered from its index); the largest shear combined
 * by fmax from 0 (a shear is never negative). */
void lumen_sums_cuda(const efsi_grid *g, double mu, const double *phi_wall,
                     const double *phi_rbc, const double *u, const double *v, const double *w,
                     efsi_scratch *scratch, double out[LUMEN_COUNT])
{
  static const int combine[LUMEN_COUNT] = {0, 0, 0, 0, 1};
  const ptrdiff_t origin = grid_index(g, 0, 0, 0), s1 = g->stride[1], s2 = g->stride[2];
  const double h0 = g->h[0], h1 = g->h[1], h2 = g->h[2];
  const double y0 = lumen_first_centre(g, 1), z0 = lumen_first_centre(g, 2);
  plane_reduce<LUMEN_COUNT>(g, "lumen_sums", combine, 0.0, scratch,
                            [=] __device__(ptrdiff_t q, double *x) {
    const ptrdiff_t s[3] = {1, s1, s2};
    const double h[3] = {h0, h1, h2};
    const ptrdiff_t k = (q - origin) / s2, j = (q - origin - k * s2) / s1;
    lumen_at(phi_wall, phi_rbc, u, v, w, q, y0 + j * h1, z0 + k * h2, s, h, mu, x);
  }, out);
}
