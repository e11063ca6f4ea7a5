/* The SMAC path's exact Poisson solve on the GPU (verify/cuda/poisson.cu, docs/smac.md): the
 * problem of verify/poisson_fft.h, with cuFFT and a tridiagonal solve on the device.  On
 * several ranks the blocks are gathered onto rank 0's GPU and solved there, so the solution
 * does not depend on the number of GPUs. */
#ifndef EFSI_POISSON_CUDA_H
#define EFSI_POISSON_CUDA_H

#include "base/grid.h"
#include "decomp/decomp.h"

typedef struct efsi_poisson_cuda efsi_poisson_cuda;

/* Collective: plans, eigenvalues and work arrays for the whole grid on rank 0's GPU, and on
 * several ranks the buffers of the gather; g is this rank's block of the decomposition d
 * (x periodic; y and z periodic or wall as d says). */
efsi_poisson_cuda *poisson_cuda_create(const efsi_grid *g, const efsi_decomp *d);

/* Collective: x <- the zero-mean solution of lap(x) = rhs; rhs and x device fields of grid g
 * (owned cells read and written; they may be the same array). */
void poisson_cuda_solve(efsi_poisson_cuda *ps, const double *rhs, double *x);

void poisson_cuda_free(efsi_poisson_cuda *ps);

/* What poisson_cuda_create allocates on one rank of `ranks` (root: rank 0), in bytes of
 * device memory and of host memory. */
double poisson_cuda_device_bytes(const efsi_grid *g, int ranks, int root);
double poisson_cuda_host_bytes(const efsi_grid *g, int ranks, int root);

#endif
