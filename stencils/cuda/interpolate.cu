/* The velocity at the tracers on the GPU (formula in stencils/interpolate.h; mirrors
 * interpolate.c): the tracers live in page-locked host memory, few per rank; the kernel
 * reads their positions and writes their velocities there through the host's own pointer
 * (unified addressing), with no copy and no wait: the caller waits when it needs them. */
#include "stencils/cuda/launch.cuh"

extern "C" {
#include "stencils/interpolate.h"
#include "stencils/kernel_list.h"
}

__global__ void interpolate_kernel(efsi_grid g, const double *u, const double *v,
                                   const double *w, efsi_tracer *t, long count)
{
  const long n = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (n >= count) return;
  const double *velocity[3] = {u, v, w};
  for (int c = 0; c < 3; c++) t[n].v[c] = interpolate_component(&g, velocity[c], c, t[n].x);
}

void velocity_at_tracers_cuda(const efsi_grid *g, const double *u, const double *v,
                              const double *w, efsi_tracer *t, long count)
{
  if (count == 0) return;
  interpolate_kernel<<<(unsigned)((count + 127) / 128), 128, 0, cuda_compute_stream()>>>(
      *g, u, v, w, t, count);
  cuda_launched("velocity_at_tracers");
}
