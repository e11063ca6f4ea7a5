/* The GPU's kernel table (see stencils/kernels.h): the CUDA kernels of stencils/cuda/. */
#include "stencils/cuda/kernels.cuh"

extern "C" {
#include "stencils/kernels.h"
}

extern "C" const efsi_kernels efsi_cuda_kernels = {
  "gpu",
  advection_weno5_cuda,
  advection_weno5_conservative_cuda,
  stress_viscous_cuda,
  solid_stress_add_cuda,
  stress_divergence_add_cuda,
  divergence_cuda,
  laplacian_cuda,
  gradient_add_cuda,
  velocity_update_cuda,
  velocity_shift_cuda,
  pressure_increment_cuda,
  pressure_update_cuda,
  field_axpy_cuda,
  field_scale_cuda,
  oldroyd_update_cuda,
  acm_sums_cuda,
  flow_norms_cuda,
  phi_moments_cuda,
  elastic_energy_cuda,
  det_range_cuda,
  wall_shear_sums_cuda,
  lumen_sums_cuda,
  tracers_interpolate_cuda,
};
