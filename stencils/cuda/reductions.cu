/* Local reductions on the GPU (the contract is in stencils/reductions.h; mirrors
 * reductions.c): one thread block per z-plane (the ACM sums: a few per plane, each a chunk
 * of it, then added on the device in chunk order) forms the plane's partial results, its
 * threads striding over the plane's points, then a fixed tree inside the block; the planes'
 * partials go to the host, which combines them in k order with the CPU's reduce_planes.  The order is fixed, so two runs give the same bits;
 * it is not the CPU's order within a plane, so for the diagnostics GPU and CPU agree to
 * round-off -- the ACM sums, in double-double, agree bit for bit.  No floating-point
 * atomics. */
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

/* The ACM sums in double-double (base/dd.h): a plane is cut into gridDim.y chunks, each a
 * block's (one block a plane left most multiprocessors idle at 72^3 to 128^3: the
 * Laplacians inside make a point's work long); each thread adds its points into its own
 * pairs, the block adds the pairs in a fixed tree; acm_chunks_kernel adds each plane's
 * chunks in order and writes the planes' pairs to host memory, where they are added in k
 * order -- the rounded sums are the CPU's, as double-double sums do not depend on the order
 * of their terms (docs/parallel.md, "Reductions"). */
__global__ void __launch_bounds__(PLANE_THREADS)
acm_plane_kernel(int n0, int n1, ptrdiff_t origin, ptrdiff_t s1, ptrdiff_t s2, int laplacians,
                 double ih2x, double ih2y, double ih2z, const double *div, const double *p,
                 const double *u, double *plane)
{
  __shared__ dd_sum part[SUM_COUNT][PLANE_THREADS];
  const int t = threadIdx.x, k = blockIdx.x, chunk = blockIdx.y, chunks = gridDim.y;
  const ptrdiff_t s[3] = {1, s1, s2};
  const double ih2[3] = {ih2x, ih2y, ih2z};
  dd_sum acc[SUM_COUNT];
  for (int c = 0; c < SUM_COUNT; c++) acc[c] = dd_sum{0.0, 0.0};
  const unsigned points = (unsigned)n0 * (unsigned)n1, first = chunk * PLANE_THREADS + t,
                 step = chunks * PLANE_THREADS;
  const ptrdiff_t base = origin + s2 * k;
  plane_walk at((unsigned)n0, first, step);
  for (unsigned q = first; q < points; q += step, at.next()) {
    double x[SUM_COUNT];
    acm_terms(div, p, u, base + at.i + s1 * at.j, s, ih2, laplacians, x);
#pragma unroll
    for (int c = 0; c < SUM_COUNT; c++) acc[c] = dd_add(acc[c], x[c]);
  }
  for (int c = 0; c < SUM_COUNT; c++) part[c][t] = acc[c];
  __syncthreads();
  for (int half = PLANE_THREADS / 2; half > 0; half /= 2) {
    if (t < half)
      for (int c = 0; c < SUM_COUNT; c++) part[c][t] = dd_add_dd(part[c][t], part[c][t + half]);
    __syncthreads();
  }
  if (t < SUM_COUNT) {
    const size_t at = (size_t)k * chunks + chunk;
    plane[2 * (at * SUM_COUNT + t)] = part[t][0].hi;
    plane[2 * (at * SUM_COUNT + t) + 1] = part[t][0].lo;
  }
}

/* The chunks' pairs of each plane and sum added in chunk order (one thread a plane and
 * sum), so that the host adds n[2] planes' pairs, as without chunks. */
__global__ void acm_chunks_kernel(int planes, int chunks, const double *chunk_pairs,
                                  double *plane)
{
  const int item = blockIdx.x * blockDim.x + threadIdx.x;
  if (item >= planes * SUM_COUNT) return;
  const int k = item / SUM_COUNT, c = item % SUM_COUNT;
  dd_sum s = {0.0, 0.0};
  for (int m = 0; m < chunks; m++) {
    const double *pair = chunk_pairs + 2 * (((size_t)k * chunks + m) * SUM_COUNT + c);
    s = dd_add_dd(s, dd_sum{pair[0], pair[1]});
  }
  plane[2 * item] = s.hi;
  plane[2 * item + 1] = s.lo;
}

/* The chunks a plane is cut into: the count, at most ACM_GPU_CHUNKS_MAX, whose blocks fill
 * the waves of blocks the GPU holds at once best (the fewest chunks among equals: each block
 * ends in a tree of its own); `resident` blocks at once. */
static int acm_chunks(int planes, int resident)
{
  int best = 1;
  double best_fill = 0.0;
  for (int c = 1; c <= ACM_GPU_CHUNKS_MAX; c++) {
    const long blocks = (long)planes * c, waves = (blocks + resident - 1) / resident;
    const double fill = (double)blocks / ((double)waves * resident);
    if (fill > best_fill + 0.02) {
      best = c;
      best_fill = fill;
    }
  }
  return best;
}

void acm_sums_cuda(const efsi_grid *g, int laplacians, const double *div, const double *p,
                   const double *u, efsi_scratch *scratch, double sums[2 * SUM_COUNT])
{
  static int resident;
  if (!resident) {
    int per_multiprocessor = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor,
                                                             acm_plane_kernel, PLANE_THREADS, 0));
    resident = (per_multiprocessor > 0 ? per_multiprocessor : 1) * cuda_multiprocessors();
  }
  const int chunks = acm_chunks(g->n[2], resident);
  const size_t n = (size_t)g->n[2] * 2 * SUM_COUNT, chunked = n * chunks;
  double *chunk_pairs = (double *)scratch_work(scratch, chunked * sizeof(double));
  /* the planes' pairs go straight to the page-locked staging memory, which a GPU with
   * unified addressing writes through the host's own pointer: no copy to queue and wait for */
  double *plane = (double *)scratch_staging(scratch, n * sizeof(double));
  cudaStream_t stream = cuda_compute_stream();
  acm_plane_kernel<<<dim3((unsigned)g->n[2], (unsigned)chunks), PLANE_THREADS, 0, stream>>>(
      g->n[0], g->n[1], grid_index(g, 0, 0, 0), g->stride[1], g->stride[2], laplacians,
      g->inv_h[0] * g->inv_h[0], g->inv_h[1] * g->inv_h[1], g->inv_h[2] * g->inv_h[2], div, p,
      u, chunk_pairs);
  cuda_launched("acm_sums");
  const int items = g->n[2] * SUM_COUNT;
  acm_chunks_kernel<<<(items + 127) / 128, 128, 0, stream>>>(g->n[2], chunks, chunk_pairs, plane);
  cuda_launched("acm_sums (chunks)");
  CUDA_CHECK(cudaStreamSynchronize(stream));
  reduce_planes_dd(plane, g->n[2], SUM_COUNT, sums);
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
