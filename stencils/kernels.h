/* The kernel API: every loop over grid points that the time step and the diagnostics run,
 * as one table of functions per backend, both generated from the registry
 * (stencils/kernel_list.h).  The CPU's table (stencils/kernels.c) points to the OpenMP
 * kernels of the stencils/ sources; a GPU build adds the CUDA table (stencils/cuda/
 * kernels.cu), whose kernels take the same arguments with arrays in device memory and are
 * the same sources compiled by nvcc where the algorithm is the same.  The solver holds one
 * table and only sequences its kernels, the exchanges and the one reduction
 * (docs/architecture.md). */
#ifndef EFSI_KERNELS_H
#define EFSI_KERNELS_H

#include "stencils/kernel_list.h"

typedef struct efsi_kernels {
  const char *name;          /* "cpu" or "gpu" */
#define EFSI_KERNEL_MEMBER(name, family, flops, arrays, agreement, type, parameters) \
  type(*name) parameters;
  EFSI_KERNEL_LIST(EFSI_KERNEL_MEMBER)
#undef EFSI_KERNEL_MEMBER
  /* The results of acm_sums, the reduction that is queued and not waited for: they are in
   * its sums[] once this returns (the CPU's at once; the GPU's as its queue reaches them,
   * so that the step queues more work before it waits, src/step/solver.c). */
  void (*sums_wait)(efsi_scratch *scratch);
} efsi_kernels;

/* The CPU's kernels; the GPU's in a build with the GPU backend. */
#ifdef __cplusplus
extern "C" {
#endif
extern const efsi_kernels efsi_cpu_kernels;
extern const efsi_kernels efsi_cuda_kernels;
#ifdef __cplusplus
}
#endif

#endif
