/* What the CUDA sources share: the error check every CUDA call goes through, the check after
 * every kernel launch, and the two streams (base/device.h).  Kernels of the time step run in
 * order on the compute stream; halo packing and unpacking run on the halo stream, so that
 * they overlap the interior kernels (decomp/cuda/layers.cu).
 * efsi's headers are C: a CUDA source includes the system headers first, then efsi's inside
 * extern "C" { }, so the functions it defines for the C code keep C linkage. */
#ifndef EFSI_CUDA_CUH
#define EFSI_CUDA_CUH

/* MPI's C interface only (its C++ bindings pull in the standard library's templates, which
 * may not be declared inside extern "C"). */
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <cuda_runtime.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

extern "C" {
#include "base/errors.h"
#include "base/grid.h"
#include "base/limits.h"
}

#define CUDA_CHECK(call) do { cudaError_t e_ = (call); \
  if (e_ != cudaSuccess) cuda_failed(e_, #call, __FILE__, __LINE__); } while (0)

/* Stop every rank with exit status 1, naming the call and CUDA's message. */
[[noreturn]] void cuda_failed(cudaError_t e, const char *call, const char *file, int line);

/* After a launch of kernel `name`: a launch error stops the run naming the kernel; with
 * EFSI_CUDA_SYNC=1 in the environment every launch is also waited for, so that a fault
 * inside a kernel is named exactly (otherwise it surfaces at the next wait, named by the
 * last kernel launched before it). */
void cuda_launched(const char *name);

cudaStream_t cuda_compute_stream(void);
cudaStream_t cuda_halo_stream(void);
/* The two streams tied in order, with no wait of the host: the halo stream's work queued
 * from now on runs after the compute stream's queued so far (cuda_halo_after_compute), or
 * the other way round.  The events that tie them are the backend's, made with the streams
 * (device_select). */
void cuda_halo_after_compute(void);
void cuda_compute_after_halo(void);
/* The multiprocessors of the device device_select chose: sizes grid-stride launches. */
int cuda_multiprocessors(void);

/* The point kernels' threads: blocks of CUDA_BLOCK_X x CUDA_BLOCK_Y, the box's plane k =
 * blockIdx.z.  Where the box's rows are whole tiles wide (ni a multiple of CUDA_BLOCK_X:
 * 128^3, 256^3 a rank) a block covers a tile of CUDA_BLOCK_X points of CUDA_BLOCK_Y rows;
 * otherwise (`flat`) its threads take consecutive points of the plane, row after row, so
 * that no warp idles past a row's end (a row of 72 points in tiles of 64 left 56 of every
 * 128 threads without a point).  Either way neighbouring threads touch neighbouring
 * addresses along a row. */
enum { CUDA_BLOCK_X = 64, CUDA_BLOCK_Y = 4 };
typedef struct {
  int ni, nj, flat;           /* the box's rows and their length; the threads' map */
  ptrdiff_t origin, s1, s2;   /* the index of its first point; the grid's strides */
} cuda_box;

static inline cuda_box cuda_box_of(int ni, int nj, ptrdiff_t origin, ptrdiff_t s1, ptrdiff_t s2)
{
  const cuda_box b = {ni, nj, ni % CUDA_BLOCK_X != 0, origin, s1, s2};
  return b;
}

/* The blocks that cover nk planes of box b. */
static inline dim3 cuda_box_blocks(const cuda_box &b, int nk)
{
  const int tile = CUDA_BLOCK_X * CUDA_BLOCK_Y;
  if (b.flat) return dim3((unsigned)(((long)b.ni * b.nj + tile - 1) / tile), 1u, (unsigned)nk);
  return dim3((unsigned)((b.ni + CUDA_BLOCK_X - 1) / CUDA_BLOCK_X),
              (unsigned)((b.nj + CUDA_BLOCK_Y - 1) / CUDA_BLOCK_Y), (unsigned)nk);
}

/* This thread's place (i, j) in its plane of box b (relative to the box's first point);
 * false for a thread past the box's edge. */
__device__ __forceinline__ bool cuda_box_place(const cuda_box &b, int *i, int *j)
{
  if (b.flat) {
    const unsigned t = (blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    *j = (int)(t / (unsigned)b.ni);
    *i = (int)(t - (unsigned)*j * (unsigned)b.ni);
  } else {
    *i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    *j = (int)(blockIdx.y * blockDim.y + threadIdx.y);
  }
  return *i < b.ni && *j < b.nj;
}

/* The index of the point (i, j) of this thread's plane of box b. */
__device__ __forceinline__ ptrdiff_t cuda_box_index(const cuda_box &b, int i, int j)
{
  return b.origin + i + b.s1 * j + b.s2 * (ptrdiff_t)blockIdx.z;
}

#endif
