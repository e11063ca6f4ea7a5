/* The SMAC path's exact Poisson solve on one GPU (verify/cuda/poisson.cu, docs/smac.md): the
 * problem of verify/poisson_fft.h, with cuFFT and a tridiagonal solve on the device, for a
 * rank that owns the whole grid. */
#ifndef EFSI_POISSON_CUDA_H
#define EFSI_POISSON_CUDA_H

#include "base/grid.h"

typedef struct efsi_poisson_cuda efsi_poisson_cuda;

/* Plans, eigenvalues and work arrays for the grid g (one block: g->n = g->global_n);
 * periodic[d] for y and z (x is periodic). */
efsi_poisson_cuda *poisson_cuda_create(const efsi_grid *g, const int periodic[3]);

/* x <- the zero-mean solution of lap(x) = rhs; rhs and x device fields of grid g (owned cells
 * read and written; they may be the same array). */
void poisson_cuda_solve(efsi_poisson_cuda *ps, const double *rhs, double *x);

void poisson_cuda_free(efsi_poisson_cuda *ps);

#endif
