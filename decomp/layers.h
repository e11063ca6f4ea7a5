/* The point loops of the halo exchange and the wall layers, as one table per backend: the
 * CPU's (decomp/layers.c) works on host arrays with OpenMP threads; a GPU build adds one
 * that runs them as device kernels on a stream of their own, with message buffers in pinned
 * host memory or, for a CUDA-aware MPI, in device memory, and faces to a neighbour on the
 * same node written straight into its GPU's memory.  halo.c and boundary.c decide
 * which boxes move where; the table moves them.  A box is lo <= (i, j, k) < hi in local
 * indices; a packed buffer holds field by field, then k, j, i. */
#ifndef EFSI_LAYERS_H
#define EFSI_LAYERS_H

#include <stddef.h>

#include "base/grid.h"

/* An opaque handle to a buffer in one process's GPU memory, for another process of the node
 * (the size of a CUDA IPC memory handle). */
typedef struct { unsigned char bytes[64]; } efsi_peer_handle;

/* One wall layer: f(p) = offset + sign f(p + shift) over the box lo <= p < hi, filled from
 * its mirror image inside the block. */
typedef struct {
  double *f;
  int lo[3], hi[3];
  ptrdiff_t shift;
  double sign, offset;
} efsi_reflection;

typedef struct efsi_layer_ops {
  const char *name;
  /* box of fields[0..nf) -> buf (to_buffer = 1), or buf -> box (0) */
  void (*pack)(const efsi_grid *g, double *const *fields, int nf, const int lo[3],
               const int hi[3], double *buf, int to_buffer);
  /* f(p) = f(p + shift) over the box, for every field; source and box do not overlap */
  void (*copy)(const efsi_grid *g, double *const *fields, int nf, const int lo[3],
               const int hi[3], ptrdiff_t shift);
  /* n wall layers, as if one after the other; no layer's source may lie in another's box
   * (decomp/boundary.c sees to it), so that the GPU fills them all in one launch */
  void (*reflect)(const efsi_grid *g, const efsi_reflection *layers, int n);
  /* f = 0 over the box */
  void (*zero)(const efsi_grid *g, double *f, const int lo[3], const int hi[3]);
  /* message buffers of n doubles, where MPI reads and writes them (running out of memory
   * stops the run, base/errors.h) */
  double *(*alloc)(size_t n);
  void (*release)(double *buf);
  /* the ordering of an exchange against the kernels: begin before the first pack (the fields
   * are final), sent before MPI reads a packed buffer, end after the last unpack (the
   * kernels that follow see the halos); no-ops on the CPU */
  void (*begin)(int messages);   /* messages: the exchange has faces that go through MPI */
  void (*sent)(void);
  void (*end)(void);
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
} efsi_layer_ops;

/* The CPU's; the GPU's (decomp/cuda/layers.cu), with message buffers in page-locked host
 * memory, or in device memory for a CUDA-aware MPI. */
extern const efsi_layer_ops efsi_cpu_layers;
extern const efsi_layer_ops efsi_cuda_layers;
extern const efsi_layer_ops efsi_cuda_layers_aware;

#endif
