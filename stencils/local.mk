# stencils/: the numerical kernels (docs/discretisation.md, docs/solid.md): pure functions of
# a grid, arrays and scalars; the kernel registry and the CPU's kernel table.
libefsi_a_SOURCES += stencils/location.h stencils/loop.h stencils/kernel_list.h \
  stencils/kernels.c stencils/kernels.h stencils/symmetric.h stencils/weno5.h \
  stencils/transport.c stencils/momentum.c stencils/momentum.h stencils/operators.c \
  stencils/operators.h stencils/stress.c stencils/stress.h stencils/velocity_gradient.c \
  stencils/velocity_gradient.h stencils/projection.c stencils/projection.h \
  stencils/reductions.c stencils/reductions.h stencils/reduce.c stencils/reduce.h \
  stencils/acm_sums.c stencils/interpolate.c stencils/interpolate.h \
  stencils/initial.c stencils/initial.h stencils/oldroyd.c stencils/oldroyd.h \
  stencils/b_advance.c stencils/membrane.c stencils/membrane.h \
  stencils/solid_stress.h stencils/reference.c stencils/reference.h stencils/shapes.c \
  stencils/shapes.h stencils/draw.c stencils/draw.h stencils/averages.c
# The GPU's half: the shared point loops and reductions compiled by nvcc (loops.cu includes
# the stencils/*.c files it names), and the kernels whose algorithm differs on the GPU.
GPU_CUH += stencils/cuda/launch.cuh stencils/cuda/reduce.cuh
GPU_CU += stencils/cuda/kernels.cu stencils/cuda/loops.cu stencils/cuda/transport.cu \
  stencils/cuda/reductions.cu
