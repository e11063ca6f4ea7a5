/* The velocity at the tracers on the GPU (formula in stencils/interpolate.h; mirrors
 * interpolate.c): the tracers live on the host, few per rank; they travel to the device and
 * back with their velocities. */
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
                              const double *w, efsi_tracer *t, long count,
                              efsi_scratch *scratch)
{
  if (count == 0) return;
  efsi_tracer *device = (efsi_tracer *)scratch_work(scratch, (size_t)count * sizeof *device);
  cudaStream_t stream = cuda_compute_stream();
  const size_t bytes = (size_t)count * sizeof *t;
  CUDA_CHECK(cudaMemcpyAsync(device, t, bytes, cudaMemcpyHostToDevice, stream));
  interpolate_kernel<<<(unsigned)((count + 127) / 128), 128, 0, stream>>>(*g, u, v, w, device,
                                                                           count);
  cuda_launched("velocity_at_tracers");
  CUDA_CHECK(cudaMemcpyAsync(t, device, bytes, cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
}
