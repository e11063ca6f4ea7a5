/* The GPU Poisson solver in a build without the GPU backend (see poisson_cuda.h): never
 * reached, since such a build refuses performance.device = gpu. */
#include "verify/poisson_cuda.h"

#include "base/errors.h"

#ifndef EFSI_CUDA
efsi_poisson_cuda *poisson_cuda_create(const efsi_grid *g, const efsi_decomp *d)
{
  (void)g, (void)d;
  efsi_abort(EFSI_EXIT_RUNTIME, "poisson_cuda_create: this efsi was built without the GPU backend");
}

void poisson_cuda_solve(efsi_poisson_cuda *ps, const double *rhs, double *x)
{
  (void)ps, (void)rhs, (void)x;
}

void poisson_cuda_free(efsi_poisson_cuda *ps) { (void)ps; }
#endif
