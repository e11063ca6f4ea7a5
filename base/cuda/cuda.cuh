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
/* The multiprocessors of the device device_select chose: sizes grid-stride launches. */
int cuda_multiprocessors(void);

/* The block shape of the point kernels and the grid that covers a box of ni x nj x nk. */
enum { CUDA_BLOCK_X = 64, CUDA_BLOCK_Y = 4 };
static inline dim3 cuda_box_grid(int ni, int nj, int nk)
{
  return dim3((unsigned)((ni + CUDA_BLOCK_X - 1) / CUDA_BLOCK_X),
              (unsigned)((nj + CUDA_BLOCK_Y - 1) / CUDA_BLOCK_Y), (unsigned)nk);
}

#endif
