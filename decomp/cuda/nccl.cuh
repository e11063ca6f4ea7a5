/* NCCL as a transport of the halo exchange (decomp/cuda/nccl.cu), in a build configured
 * with NCCL (EFSI_NCCL); and NCCL_CHECK, the checking macro every NCCL call goes through
 * (base/errors.h, rule 1). */
#ifndef EFSI_NCCL_CUH
#define EFSI_NCCL_CUH

#ifdef EFSI_NCCL
#include <nccl.h>

#include "base/cuda/cuda.cuh"
extern "C" {
#include "decomp/layers.h"
}

#define NCCL_CHECK(call) do { ncclResult_t r_ = (call); \
  if (r_ != ncclSuccess) nccl_failed(r_, #call, __FILE__, __LINE__); } while (0)

/* Stop every rank with exit status 1, naming the call and NCCL's message. */
[[noreturn]] void nccl_failed(ncclResult_t r, const char *call, const char *file, int line);

/* The moves of efsi_layer_ops (decomp/layers.h). */
void *nccl_open(MPI_Comm comm);
void nccl_close(void *nccl);
void nccl_exchange(void *nccl, const efsi_message *messages, int n);
#endif

#endif
