/* The GPU's build of the point-wise kernels: the very sources of the CPU's (the stencils/ files
 * named here), compiled by nvcc, where KERNEL(name) is name_cuda and FOR_BOX launches one
 * thread per point on the compute stream (stencils/loop.h, stencils/cuda/launch.cuh). */
#include "stencils/cuda/launch.cuh"

extern "C" {
#include "stencils/averages.c"
#include "stencils/momentum.c"
#include "stencils/operators.c"
#include "stencils/projection.c"
#include "stencils/stress.c"
}
