# base/: the ground layer every folder shares (docs/architecture.md): grid layout, errors,
# limits, the tensor component order, the tracer record.
libefsi_a_SOURCES += base/grid.c base/grid.h base/errors.c base/errors.h base/limits.h \
  base/tensor.h base/tracer.h base/portable.h base/dd.h base/dd_contract_off.h base/device.c \
  base/device.h
GPU_CU += base/cuda/device.cu
GPU_CUH += base/cuda/cuda.cuh
