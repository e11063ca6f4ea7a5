/* The GPU's build of the point-wise kernels and the reductions: the very sources of the
 * CPU's (the stencils/ files named here), compiled by nvcc, where KERNEL(name) is name_cuda,
 * FOR_BOX launches one thread per point on the compute stream and REDUCE_BOX a block per
 * plane (stencils/loop.h, stencils/reduce.h, stencils/cuda/launch.cuh,
 * stencils/cuda/reduce.cuh). */
#include "stencils/cuda/launch.cuh"
#include "stencils/cuda/reduce.cuh"

extern "C" {
#include "stencils/averages.c"
#include "stencils/b_advance.c"
#include "stencils/interpolate.c"
#include "stencils/membrane.c"
#include "stencils/momentum.c"
#include "stencils/operators.c"
#include "stencils/projection.c"
#include "stencils/reductions.c"
#include "stencils/stress.c"
}
