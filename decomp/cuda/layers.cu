/* The GPU's layer moves and message transports (see decomp/layers.h; mirrors layers.c).
 * Packing, unpacking, the local periodic copies of an exchange and its messages' copies and
 * NCCL groups run on the halo stream, so that they overlap the interior kernels on the
 * compute stream (the halo stream has the higher priority: its blocks are scheduled ahead of
 * the waiting blocks of a long interior kernel); begin and end tie the two streams together
 * with events -- except in an exchange of one rank's periodic copies alone, whose copies
 * run on the compute stream in order with the kernels (an exchange without messages).  The wall layers
 * (reflect, zero) run on the compute stream, in order with the kernels.  Message buffers
 * are device memory: MPI moves them where it is CUDA-aware, and page-locked host copies of
 * them otherwise, which the copy engines fill and drain.  Device buffers are shared with the
 * other processes of the node through CUDA IPC, so that a face between two GPUs of a node
 * is packed straight into the neighbour's memory over NVLink or PCIe (decomp/halo.c;
 * cudaIpcMemLazyEnablePeerAccess turns on peer access). */
#include <string.h>

#include "base/cuda/cuda.cuh"

extern "C" {
#include "base/device.h"
#include "decomp/layers.h"
}
#include "decomp/cuda/nccl.cuh"

enum { MAX_LAYER_FIELDS = 4 + EFSI_MAX_MATERIALS + 6 };
struct field_list { double *f[MAX_LAYER_FIELDS]; };

/* A box of ni x nj x nk points per field, nf fields: blockIdx.y runs over (field, k), and
 * the threads of x over the plane's ni nj points flattened, i fastest (32-bit indices: a
 * plane of a halo box is far below 2^31 points).  A box one to three points thin along x
 * (the x faces' layers) so keeps every thread of a block busy, where a block of 64 x 4
 * threads over (i, j) would leave 61 of 64 idle.  The buffer holds the box in the order
 * ((f nk + k) nj + j) ni + i. */
enum { LAYER_THREADS = 256 };

static dim3 layer_grid(int ni, int nj, int nk, int nf)
{
  const long plane = (long)ni * nj;
  return dim3((unsigned)((plane + LAYER_THREADS - 1) / LAYER_THREADS), (unsigned)(nk * nf));
}

/* This thread's point of the box into *at, and its place in the buffer's order into *b;
 * false for a thread past the plane's end. */
__device__ __forceinline__ bool layer_point(const field_list &fl, int ni, int nj, int nk,
                                            ptrdiff_t origin, ptrdiff_t s1, ptrdiff_t s2,
                                            double **at, size_t *b)
{
  const unsigned q = blockIdx.x * blockDim.x + threadIdx.x, plane = (unsigned)ni * nj;
  if (q >= plane) return false;
  const int i = (int)(q % (unsigned)ni), j = (int)(q / (unsigned)ni);
  const int f = blockIdx.y / nk, k = blockIdx.y % nk;
  *at = fl.f[f] + origin + s1 * j + s2 * k + i;
  *b = (size_t)blockIdx.y * plane + q;
  return true;
}

__global__ void pack_kernel(field_list fl, int ni, int nj, int nk, ptrdiff_t origin,
                            ptrdiff_t s1, ptrdiff_t s2, double *buf, int to_buffer)
{
  double *at;
  size_t b;
  if (!layer_point(fl, ni, nj, nk, origin, s1, s2, &at, &b)) return;
  if (to_buffer) buf[b] = *at;
  else *at = buf[b];
}

__global__ void copy_kernel(field_list fl, int ni, int nj, int nk, ptrdiff_t origin,
                            ptrdiff_t s1, ptrdiff_t s2, ptrdiff_t shift)
{
  double *at;
  size_t b;
  if (layer_point(fl, ni, nj, nk, origin, s1, s2, &at, &b)) *at = at[shift];
}

/* Up to EFSI_REFLECT_BATCH wall layers, one per blockIdx.y; the threads of x run over the
 * points of a layer's box, i fastest.  The batch travels as the kernel's parameters (7 KB:
 * past the classic 4 KB, which CUDA 12.1 and later take on Volta and newer GPUs). */
struct reflect_layer {
  double *f;
  ptrdiff_t origin, shift;
  double sign, offset;
  int ni, nj, points;
};
struct reflect_batch { reflect_layer l[EFSI_REFLECT_BATCH]; };
#if CUDART_VERSION < 12010
#error "efsi's GPU backend needs CUDA 12.1 or later: the wall layers' batch is a kernel parameter past 4 KB"
#endif
static_assert(sizeof(reflect_batch) <= 32764, "a kernel's parameters hold at most 32764 bytes");

__global__ void reflect_kernel(reflect_batch b, ptrdiff_t s1, ptrdiff_t s2)
{
  const reflect_layer r = b.l[blockIdx.y];
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= r.points) return;
  const int i = p % r.ni, j = p / r.ni % r.nj, k = p / r.ni / r.nj;
  double *at = r.f + r.origin + s1 * j + s2 * k + i;
  *at = r.sign != 0.0 ? r.offset + r.sign * at[r.shift] : r.offset;
}

__global__ void zero_kernel(double *f, cuda_box b)
{
  int i, j;
  if (cuda_box_place(b, &i, &j)) f[cuda_box_index(b, i, j)] = 0.0;
}

static field_list list_of(double *const *fields, int nf)
{
  if (nf > MAX_LAYER_FIELDS)
    efsi_abort(EFSI_EXIT_RUNTIME, "layers: %d fields in one exchange, at most %d", nf,
               MAX_LAYER_FIELDS);
  field_list fl;
  for (int f = 0; f < MAX_LAYER_FIELDS; f++) fl.f[f] = f < nf ? fields[f] : NULL;
  return fl;
}

static void pack(const efsi_grid *g, double *const *fields, int nf, const int lo[3],
                 const int hi[3], double *buf, int to_buffer)
{
  const int ni = hi[0] - lo[0], nj = hi[1] - lo[1], nk = hi[2] - lo[2];
  if (ni <= 0 || nj <= 0 || nk <= 0 || nf <= 0) return;
  pack_kernel<<<layer_grid(ni, nj, nk, nf), LAYER_THREADS, 0, cuda_halo_stream()>>>(
      list_of(fields, nf), ni, nj, nk, grid_index(g, lo[0], lo[1], lo[2]), g->stride[1],
      g->stride[2], buf, to_buffer);
  cuda_launched(to_buffer ? "halo pack" : "halo unpack");
}

/* An exchange without messages (messages = 0: one rank's periodic copies alone, the same
 * for every exchange of a run, which share its process grid) queues its copies on the
 * compute stream, in order with the kernels, and neither begin, copy nor end ties the
 * streams by events (each tie a few microseconds of the GPU's time, a dozen a step: on a
 * 72^3 grid a step is half a millisecond).  The exchange says which it is at each call. */

/* A local periodic copy; the kernels after it see the layers it fills (as on the CPU, where
 * the copy is done when the call returns). */
static void copy(const efsi_grid *g, double *const *fields, int nf, const int lo[3],
                 const int hi[3], ptrdiff_t shift, int messages)
{
  const int local_only = !messages;
  const int ni = hi[0] - lo[0], nj = hi[1] - lo[1], nk = hi[2] - lo[2];
  if (ni <= 0 || nj <= 0 || nk <= 0 || nf <= 0) return;
  copy_kernel<<<layer_grid(ni, nj, nk, nf), LAYER_THREADS, 0,
                local_only ? cuda_compute_stream() : cuda_halo_stream()>>>(
      list_of(fields, nf), ni, nj, nk, grid_index(g, lo[0], lo[1], lo[2]), g->stride[1],
      g->stride[2], shift);
  cuda_launched("halo periodic copy");
  if (!local_only) cuda_compute_after_halo();
}

/* Every layer of the call in one launch (per EFSI_REFLECT_BATCH): the caller guarantees that
 * no layer reads another's box, so the order the CPU fills them in does not matter. */
static void reflect(const efsi_grid *g, const efsi_reflection *layers, int n)
{
  for (int first = 0; first < n; first += EFSI_REFLECT_BATCH) {
    const int count = n - first < EFSI_REFLECT_BATCH ? n - first : EFSI_REFLECT_BATCH;
    reflect_batch b;
    int most = 0;
    for (int l = 0; l < count; l++) {
      const efsi_reflection *r = &layers[first + l];
      const int ni = r->hi[0] - r->lo[0], nj = r->hi[1] - r->lo[1], nk = r->hi[2] - r->lo[2];
      const int points = ni > 0 && nj > 0 && nk > 0 ? ni * nj * nk : 0;
      b.l[l] = {r->f, grid_index(g, r->lo[0], r->lo[1], r->lo[2]), r->shift, r->sign, r->offset,
                ni > 0 ? ni : 1, nj > 0 ? nj : 1, points};
      if (points > most) most = points;
    }
    if (most == 0) continue;
    const int threads = 256;
    reflect_kernel<<<dim3((most + threads - 1) / threads, count), threads, 0,
                     cuda_compute_stream()>>>(b, g->stride[1], g->stride[2]);
    cuda_launched("wall layers");
  }
}

static void zero(const efsi_grid *g, double *f, const int lo[3], const int hi[3])
{
  const int ni = hi[0] - lo[0], nj = hi[1] - lo[1], nk = hi[2] - lo[2];
  if (ni <= 0 || nj <= 0 || nk <= 0) return;
  const cuda_box b = cuda_box_of(ni, nj, grid_index(g, lo[0], lo[1], lo[2]), g->stride[1],
                                 g->stride[2]);
  zero_kernel<<<cuda_box_blocks(b, nk), dim3(CUDA_BLOCK_X, CUDA_BLOCK_Y), 0,
                cuda_compute_stream()>>>(f, b);
  cuda_launched("wall face");
}

static void begin(int host_messages, int messages)
{
  if (!messages) return;
  /* The last direction's unpack of the previous exchange may still be queued: a new
   * exchange whose first directions are local copies would post its MPI receives into
   * that buffer before any sent() waited for it.  The stream is idle by now as a rule.
   * Without such messages (one GPU, peer and NCCL faces) nothing waits: the streams keep
   * their order by events. */
  if (host_messages) CUDA_CHECK(cudaStreamSynchronize(cuda_halo_stream()));
  cuda_halo_after_compute();
}

static void sent(void) { CUDA_CHECK(cudaStreamSynchronize(cuda_halo_stream())); }

static void end(int messages)
{
  if (messages) cuda_compute_after_halo();
}

/* A message's copy to or from its page-locked twin, by a copy engine. */
static void stage(double *to, const double *from, size_t n, int to_host)
{
  CUDA_CHECK(cudaMemcpyAsync(to, from, n * sizeof(double),
                             to_host ? cudaMemcpyDeviceToHost : cudaMemcpyHostToDevice,
                             cuda_halo_stream()));
}

static void gpu_identity(efsi_gpu_identity *id)
{
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  static_assert(sizeof prop.uuid.bytes == sizeof id->bytes, "a GPU's identity is its UUID");
  memcpy(id->bytes, prop.uuid.bytes, sizeof id->bytes);
}

static_assert(sizeof(cudaIpcMemHandle_t) == sizeof(efsi_peer_handle),
              "efsi_peer_handle holds a CUDA IPC memory handle");

static double *share(size_t n, efsi_peer_handle *handle)
{
  double *buf = device_alloc(n);
  if (!buf) return NULL;
  cudaIpcMemHandle_t h;
  CUDA_CHECK(cudaIpcGetMemHandle(&h, buf));
  memcpy(handle->bytes, &h, sizeof h);
  return buf;
}

static double *open_peer(const efsi_peer_handle *handle)
{
  cudaIpcMemHandle_t h;
  memcpy(&h, handle->bytes, sizeof h);
  void *p = NULL;
  if (cudaIpcOpenMemHandle(&p, h, cudaIpcMemLazyEnablePeerAccess) != cudaSuccess) {
    cudaGetLastError();   /* this GPU cannot reach the other: the plan takes another path */
    return NULL;
  }
  return (double *)p;
}

static void close_peer(double *p)
{
  if (p) CUDA_CHECK(cudaIpcCloseMemHandle(p));
}

static double *pinned(size_t n) { return device_alloc_pinned(n); }
static void release_pinned(double *buf) { device_free_pinned(buf); }
static double *on_device(size_t n) { return device_alloc(n); }
static void release_device(double *buf) { device_free(buf); }

extern "C" const efsi_layer_ops efsi_cuda_layers = {
  "gpu", pack, copy, reflect, zero, on_device, release_device, pinned, release_pinned, stage,
  begin, sent, end, share, open_peer, close_peer, release_device,
#ifdef EFSI_NCCL
  nccl_open, nccl_close, nccl_exchange,
#else
  NULL, NULL, NULL,
#endif
  gpu_identity,
};
