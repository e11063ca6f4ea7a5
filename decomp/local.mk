# decomp/: Cartesian decomposition, halo exchange, wall layers, reductions, pencil
# transposes (docs/parallel.md); nothing of the physics.
libefsi_a_SOURCES += decomp/decomp.c decomp/decomp.h decomp/halo.c decomp/halo.h \
  decomp/boundary.c decomp/boundary.h decomp/reduce.c decomp/reduce.h decomp/transpose.c \
  decomp/transpose.h decomp/layers.c decomp/layers.h decomp/halo_path.c decomp/halo_path.h
GPU_CU += decomp/cuda/layers.cu decomp/cuda/nccl.cu
GPU_CUH += decomp/cuda/nccl.cuh
