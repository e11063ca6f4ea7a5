/* The point loops of the halo exchange and the wall layers, and the message transports, as
 * one table per backend: the CPU's (decomp/layers.c) works on host arrays with OpenMP
 * threads; a GPU build adds one that runs them as device kernels on a stream of their own,
 * with message buffers in device memory that travel by CUDA IPC to a GPU of the same node,
 * by NCCL, by a CUDA-aware MPI, or staged through page-locked host memory for any MPI
 * (docs/gpu.md, "Halo paths").  halo.c and boundary.c decide which boxes move where; the
 * table moves them.  A box is lo <= (i, j, k) < hi in local indices; a packed buffer holds
 * field by field, then k, j, i. */
#ifndef EFSI_LAYERS_H
#define EFSI_LAYERS_H

#include <mpi.h>
#include <stddef.h>

#include "base/grid.h"

/* An opaque handle to a buffer in one process's GPU memory, for another process of the node
 * (the size of a CUDA IPC memory handle). */
typedef struct { unsigned char bytes[64]; } efsi_peer_handle;

/* One wall layer: f(p) = offset + sign f(p + shift) over the box lo <= p < hi, filled from
 * its mirror image inside the block; sign 0: f(p) = offset, nothing read (a wall face). */
typedef struct {
  double *f;
  int lo[3], hi[3];
  ptrdiff_t shift;
  double sign, offset;
} efsi_reflection;

/* The most layers one reflect call fills in one launch: every layer of one wall direction
 * of the largest exchange (3 velocity components, EFSI_MAX_MATERIALS volume fractions and B's
 * six, EFSI_HALO layers a side, and the two wall faces) */
enum { EFSI_REFLECT_BATCH = 128 };

/* One message of an NCCL exchange: count doubles sent from or received into buf (device
 * memory), to or from rank peer of the communicator. */
typedef struct {
  double *buf;
  size_t count;
  int peer, send;
} efsi_message;

/* What tells two ranks' GPUs apart (a CUDA device's UUID): ranks that hold the same one
 * share a GPU. */
typedef struct { unsigned char bytes[16]; } efsi_gpu_identity;

typedef struct efsi_layer_ops {
  const char *name;
  /* box of fields[0..nf) -> buf (to_buffer = 1), or buf -> box (0) */
  void (*pack)(const efsi_grid *g, double *const *fields, int nf, const int lo[3],
               const int hi[3], double *buf, int to_buffer);
  /* f(p) = f(p + shift) over the box, for every field; source and box do not overlap;
   * messages as given to the exchange's begin */
  void (*copy)(const efsi_grid *g, double *const *fields, int nf, const int lo[3],
               const int hi[3], ptrdiff_t shift, int messages);
  /* n wall layers, as if one after the other; no layer's source may lie in another's box
   * (decomp/boundary.c sees to it), so that the GPU fills them all in one launch (up to
   * EFSI_REFLECT_BATCH layers) */
  void (*reflect)(const efsi_grid *g, const efsi_reflection *layers, int n);
  /* f = 0 over the box */
  void (*zero)(const efsi_grid *g, double *f, const int lo[3], const int hi[3]);
  /* message buffers of n doubles, where the packing writes them (device memory on a GPU);
   * running out of memory stops the run (base/errors.h) */
  double *(*alloc)(size_t n);
  void (*release)(double *buf);
  /* A GPU's messages through an MPI that takes host memory only (NULL on the CPU, whose
   * buffers are host memory already): page-locked host buffers, and the copy of n doubles
   * between a message buffer and one of them (to_host: device to host), queued after the
   * packing, so that the copy engines move it while the multiprocessors compute */
  double *(*alloc_host)(size_t n);
  void (*release_host)(double *buf);
  void (*stage)(double *to, const double *from, size_t n, int to_host);
  /* The ordering of an exchange against the kernels (no-ops on the CPU): begin before the
   * first pack (the fields are final; host_messages: the exchange has faces whose buffers
   * MPI reads or writes, which must not be posted while the last exchange still reads
   * them; messages: the exchange has faces at all -- without any, one rank's periodic
   * copies alone, the GPU queues the copies in order with the kernels, with no events);
   * sent before MPI reads a packed buffer or an empty message says a neighbour's buffer is
   * written (the host waits for the packing); end after each direction's unpack: the
   * kernels queued after it see those halos, with no wait of the host.  copy and end are
   * given the exchange's messages too: the exchange, not the table, knows what it is. */
  void (*begin)(int host_messages, int messages);
  void (*sent)(void);
  void (*end)(int messages);
  /* GPU to GPU on one node (NULL where there is no such path: the CPU).  share allocates n
   * doubles of device memory that another process of the node can map, and writes its
   * handle; open maps a neighbour's shared buffer from its handle (NULL when this GPU
   * cannot reach it); close unmaps it, unshare releases a shared buffer.  A packed box
   * written into a mapped buffer lands in the neighbour's GPU; sent also orders that write
   * (and any unpack) before the host goes on. */
  double *(*share)(size_t n, efsi_peer_handle *handle);
  double *(*open)(const efsi_peer_handle *handle);
  void (*close)(double *peer);
  void (*unshare)(double *buf);
  /* NCCL (NULL where the build has none).  nccl_open is collective over comm: one NCCL
   * communicator of its ranks, a GPU each, set up from MPI; nccl_exchange queues the
   * messages as one group of sends and receives on the halo stream, after the packing and
   * before the unpacking, with no wait of the host. */
  void *(*nccl_open)(MPI_Comm comm);
  void (*nccl_close)(void *nccl);
  void (*nccl_exchange)(void *nccl, const efsi_message *messages, int n);
  /* The identity of this process's GPU (NULL on the CPU). */
  void (*gpu_identity)(efsi_gpu_identity *id);
} efsi_layer_ops;

/* The CPU's; the GPU's (decomp/cuda/layers.cu). */
extern const efsi_layer_ops efsi_cpu_layers;
extern const efsi_layer_ops efsi_cuda_layers;

#endif
