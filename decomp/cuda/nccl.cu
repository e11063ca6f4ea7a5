/* NCCL as a transport of the halo exchange (docs/gpu.md, "Halo paths"): one communicator of
 * the decomposition's ranks, set up once from MPI (rank 0's unique id broadcast), and per
 * direction of an exchange one group of ncclSend/ncclRecv on the halo stream, queued after
 * the packing kernels and before the unpacking ones, so that neither the host nor the
 * compute stream waits for the network.  NCCL needs a GPU for each rank (two ranks on one
 * GPU are refused: decomp/halo_path.c sees to it before this is called). */
#include "decomp/cuda/nccl.cuh"

#ifdef EFSI_NCCL
void nccl_failed(ncclResult_t r, const char *call, const char *file, int line)
{
  const char *detail = ncclGetLastError(NULL);
  efsi_abort(EFSI_EXIT_RUNTIME, "%s:%d: %s failed: %s%s%s", file, line, call,
             ncclGetErrorString(r), detail && detail[0] ? ": " : "", detail ? detail : "");
}

void *nccl_open(MPI_Comm comm)
{
  int rank = 0, size = 1;
  MPI_CHECK(MPI_Comm_rank(comm, &rank));
  MPI_CHECK(MPI_Comm_size(comm, &size));
  ncclUniqueId id;
  if (rank == 0) NCCL_CHECK(ncclGetUniqueId(&id));
  MPI_CHECK(MPI_Bcast(&id, (int)sizeof id, MPI_BYTE, 0, comm));
  ncclComm_t nccl;
  NCCL_CHECK(ncclCommInitRank(&nccl, size, id, rank));
  return nccl;
}

void nccl_close(void *nccl)
{
  ncclComm_t c = (ncclComm_t)nccl;
  NCCL_CHECK(ncclCommFinalize(c));
  NCCL_CHECK(ncclCommDestroy(c));
}

void nccl_exchange(void *nccl, const efsi_message *m, int n)
{
  ncclComm_t c = (ncclComm_t)nccl;
  NCCL_CHECK(ncclGroupStart());
  for (int i = 0; i < n; i++) {
    if (m[i].send)
      NCCL_CHECK(ncclSend(m[i].buf, m[i].count, ncclDouble, m[i].peer, c, cuda_halo_stream()));
    else
      NCCL_CHECK(ncclRecv(m[i].buf, m[i].count, ncclDouble, m[i].peer, c, cuda_halo_stream()));
  }
  NCCL_CHECK(ncclGroupEnd());
  cuda_launched("NCCL halo exchange");
}
#endif
