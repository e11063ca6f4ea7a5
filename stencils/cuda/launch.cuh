/* The GPU's point loop, what FOR_BOX (stencils/loop.h) becomes under nvcc: for_box runs
 * body(p) for every point p of the box lo <= (i, j, k) < hi of grid g, one thread a point
 * (placed by cuda_box, base/cuda/cuda.cuh: neighbouring threads touch neighbouring
 * addresses), on the compute stream.  The body is a device lambda; it captures arrays
 * (device pointers) and scalars by value. */
#ifndef EFSI_CUDA_LAUNCH_CUH
#define EFSI_CUDA_LAUNCH_CUH

#include "base/cuda/cuda.cuh"

/* One thread a point of box b, the body given the point's index. */
template <typename Body>
__global__ void box_kernel(cuda_box b, Body body)
{
  int i, j;
  if (cuda_box_place(b, &i, &j)) body(cuda_box_index(b, i, j));
}

/* The same with a floor on the blocks a multiprocessor holds at once (__launch_bounds__: the
 * compiler then keeps the registers a thread uses to 65536 / (min_blocks x the block's
 * threads), spilling what does not fit), for a kernel whose registers would otherwise leave
 * too few threads to hide its latencies. */
template <int min_blocks, typename Body>
__global__ void __launch_bounds__(CUDA_BLOCK_X * CUDA_BLOCK_Y, min_blocks)
box_kernel_bounded(cuda_box b, Body body)
{
  int i, j;
  if (cuda_box_place(b, &i, &j)) body(cuda_box_index(b, i, j));
}

/* The same, the body also given the point's local indices (FOR_BOX_AT, stencils/loop.h). */
template <typename Body>
__global__ void box_kernel_at(cuda_box b, int lo0, int lo1, int lo2, Body body)
{
  int i, j;
  if (cuda_box_place(b, &i, &j))
    body(cuda_box_index(b, i, j), lo0 + i, lo1 + j, lo2 + (int)blockIdx.z);
}

/* min_blocks 0: no floor (the compiler's choice of registers). */
template <int min_blocks = 0, typename Body>
void for_box(const efsi_grid *g, const int lo[3], const int hi[3], const char *name, Body body)
{
  const int ni = hi[0] - lo[0], nj = hi[1] - lo[1], nk = hi[2] - lo[2];
  if (ni <= 0 || nj <= 0 || nk <= 0) return;
  const cuda_box b = cuda_box_of(ni, nj, grid_index(g, lo[0], lo[1], lo[2]), g->stride[1],
                                 g->stride[2]);
  const dim3 blocks = cuda_box_blocks(b, nk), threads(CUDA_BLOCK_X, CUDA_BLOCK_Y);
  cudaStream_t stream = cuda_compute_stream();
  if constexpr (min_blocks > 0)
    box_kernel_bounded<min_blocks><<<blocks, threads, 0, stream>>>(b, body);
  else
    box_kernel<<<blocks, threads, 0, stream>>>(b, body);
  cuda_launched(name);
}

template <typename Body>
void for_box_at(const efsi_grid *g, const int lo[3], const int hi[3], const char *name, Body body)
{
  const int ni = hi[0] - lo[0], nj = hi[1] - lo[1], nk = hi[2] - lo[2];
  if (ni <= 0 || nj <= 0 || nk <= 0) return;
  const cuda_box b = cuda_box_of(ni, nj, grid_index(g, lo[0], lo[1], lo[2]), g->stride[1],
                                 g->stride[2]);
  box_kernel_at<<<cuda_box_blocks(b, nk), dim3(CUDA_BLOCK_X, CUDA_BLOCK_Y), 0,
                  cuda_compute_stream()>>>(b, lo[0], lo[1], lo[2], body);
  cuda_launched(name);
}

/* One thread an item, item = 0 .. n - 1 (FOR_EACH, stencils/loop.h). */
template <typename Body>
__global__ void each_kernel(long n, Body body)
{
  const long item = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (item < n) body(item);
}

template <typename Body>
void for_each(long n, const char *name, Body body)
{
  if (n <= 0) return;
  each_kernel<<<(unsigned)((n + 127) / 128), 128, 0, cuda_compute_stream()>>>(n, body);
  cuda_launched(name);
}

/* Arrays of pointers captured by value in a lambda (a plain array decays to a pointer to
 * host memory): the six components of a tensor, the materials' volume fractions. */
struct six_arrays { double *a[6]; };
struct material_arrays { double *a[EFSI_MAX_MATERIALS]; double modulus[EFSI_MAX_MATERIALS]; };

static inline six_arrays six(double *const b[6])
{
  six_arrays s;
  for (int c = 0; c < 6; c++) s.a[c] = b[c];
  return s;
}

static inline material_arrays materials(int nmat, double *const phi[], const double *modulus)
{
  material_arrays m;
  for (int k = 0; k < EFSI_MAX_MATERIALS; k++) {
    m.a[k] = k < nmat ? phi[k] : NULL;
    m.modulus[k] = k < nmat && modulus ? modulus[k] : 0.0;
  }
  return m;
}

#endif
