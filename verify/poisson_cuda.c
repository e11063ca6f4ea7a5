/* The memory of the GPU Poisson solver (see poisson_cuda.h), and the solver in a build
 * without the GPU backend: never reached, since such a build refuses
 * performance.device = gpu. */
#include "verify/poisson_cuda.h"

#include "base/errors.h"

/* The whole grid, its spectrum (3.5 complex values a line point: the transforms' work) on
 * rank 0's GPU; on several ranks the packed block of each rank on its GPU and its host,
 * and rank 0's host gathers and scatters the whole grid (verify/cuda/poisson.cu). */
double poisson_cuda_device_bytes(const efsi_grid *g, int ranks, int root)
{
  const double whole = (double)g->global_n[0] * g->global_n[1] * g->global_n[2];
  double bytes = 0;
  if (root)
    bytes += whole * sizeof(double)
             + 3.5 * (g->global_n[0] / 2 + 1) * (double)g->global_n[1] * g->global_n[2] * 16.0;
  if (ranks > 1) bytes += (double)grid_cells(g) * sizeof(double);
  return bytes;
}

double poisson_cuda_host_bytes(const efsi_grid *g, int ranks, int root)
{
  const double whole = (double)g->global_n[0] * g->global_n[1] * g->global_n[2];
  if (ranks == 1) return 0;
  return (double)grid_cells(g) * sizeof(double) + (root ? 2.0 * whole * sizeof(double) : 0.0);
}

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
