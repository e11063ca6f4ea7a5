/* The CPU's kernel table: the OpenMP kernels of stencils/. */
#include "stencils/kernels.h"

#include "stencils/interpolate.h"
#include "stencils/oldroyd.h"
#include "stencils/operators.h"
#include "stencils/projection.h"
#include "stencils/solid_stress.h"
#include "stencils/stress.h"
#include "stencils/weno5.h"

const efsi_kernels efsi_cpu_kernels = {
  .name = "cpu",
  .advection_weno5 = advection_weno5,
  .advection_weno5_conservative = advection_weno5_conservative,
  .stress_viscous = stress_viscous,
  .solid_stress_add = solid_stress_add,
  .stress_divergence_add = stress_divergence_add,
  .divergence = divergence,
  .laplacian = laplacian,
  .gradient_add = gradient_add,
  .velocity_update = velocity_update,
  .velocity_shift = velocity_shift,
  .pressure_increment = pressure_increment,
  .pressure_update = pressure_update,
  .field_axpy = field_axpy,
  .field_scale = field_scale,
  .oldroyd_update = oldroyd_update,
  .acm_sums = acm_sums,
  .flow_norms = flow_norms,
  .phi_moments = phi_moments,
  .elastic_energy = elastic_energy,
  .det_range = det_range,
  .wall_shear_sums = wall_shear_sums,
  .lumen_sums = lumen_sums,
  .tracers_interpolate = tracers_interpolate_cpu,
};
