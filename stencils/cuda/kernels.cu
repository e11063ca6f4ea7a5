/* The GPU's kernel table (stencils/kernels.h), from the registry (stencils/kernel_list.h):
 * every entry is the function name_cuda, from stencils/cuda/loops.cu (the shared point
 * loops) or from the files of this folder whose algorithm differs on the GPU. */
#include "stencils/cuda/launch.cuh"

extern "C" {
#include "stencils/kernels.h"
}

#define EFSI_GPU_ENTRY(name, ...) .name = name##_cuda,
extern "C" const efsi_kernels efsi_cuda_kernels = {
  .name = "gpu",
  EFSI_KERNEL_LIST(EFSI_GPU_ENTRY)
  .sums_wait = acm_sums_wait_cuda,
};
#undef EFSI_GPU_ENTRY
