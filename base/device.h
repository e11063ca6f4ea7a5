/* Where the fields live: host memory (the CPU backend) or the memory of one GPU per MPI rank
 * (the GPU backend, docs/gpu.md).  This is the one interface the rest of efsi has to a
 * device: choosing it, its memory, copies, the two streams the GPU's kernels and halo moves
 * run on, and errors.  A CPU-only build (base/device.c) has no device: device_count() is 0.
 * The CUDA build implements it in base/cuda/device.cu; every CUDA call goes through
 * CUDA_CHECK there, and a failing kernel stops the run with exit status 1 naming it. */
#ifndef EFSI_DEVICE_H
#define EFSI_DEVICE_H

#include <stddef.h>

/* GPUs this process can see; 0 in a CPU-only build. */
int device_count(void);

/* Choose the GPU of a rank: node_rank modulo device_count().  desc receives one line: the
 * device's number, name and memory.  Returns nonzero (message in desc) when there is none. */
int device_select(int node_rank, char *desc, size_t len);

/* Bytes of device memory free and in all (0 without a device). */
void device_memory(size_t *free_bytes, size_t *total_bytes);

/* n doubles of device memory, zero-filled.  Running out stops the run (base/errors.h). */
double *device_alloc(size_t n);
void device_free(double *p);

/* n doubles of page-locked host memory that the device can read and write directly (halo
 * messages through host memory).  Running out stops the run. */
double *device_alloc_pinned(size_t n);
void device_free_pinned(double *p);

/* Scratch memory of the object that owns it (the solver's, a test's), handed to the kernels
 * that need some: no kernel keeps memory of its own between calls.  `work` is where the
 * backend's kernels work (device memory on a GPU, host memory on the CPU); `staging` holds
 * results on their way to the host (page-locked on a GPU).  Each grows on demand and keeps
 * its size; scratch_reserve sizes both in advance, so that a run allocates nothing once it
 * steps and --check counts it (src/step/solver.c). */
/* A reduction queued on the device and not yet waited for (acm_sums on a GPU): its
 * chunks' pairs in staging memory, the backend's event that says they are there, and where
 * the sums go (NULL: none in flight); `resident`, the blocks of its kernel the device holds
 * at once (0 until first asked). */
typedef struct {
  const double *plane;
  int chunks, resident;
  double *to;
  void *ready;
} efsi_queued_sums;

typedef struct {
  int gpu;                    /* 1: work in device memory, staging page-locked */
  void *work, *staging;
  size_t work_bytes, staging_bytes;
  efsi_queued_sums queued;    /* the reduction in flight (stencils/kernels.h, sums_wait) */
} efsi_scratch;

/* An empty scratch of the backend (gpu 0 or 1). */
efsi_scratch scratch_of(int gpu);
/* At least `bytes` of work or staging memory; the contents are not kept when it grows. */
void *scratch_work(efsi_scratch *s, size_t bytes);
void *scratch_staging(efsi_scratch *s, size_t bytes);
void scratch_reserve(efsi_scratch *s, size_t work_bytes, size_t staging_bytes);
void scratch_free(efsi_scratch *s);
/* The GPU backend's half of the above: `bytes` of device memory (staging 0) or page-locked
 * host memory (staging 1); running out stops the run. */
void *device_scratch_alloc(size_t bytes, int staging);
void device_scratch_release(void *p, int staging);
/* An event of the backend's (a queued reduction's `ready`) released; NULL does nothing. */
void device_event_release(void *event);

/* Copies of n doubles; they wait for the kernels before them (the compute stream). */
void device_upload(double *device, const double *host, size_t n);
void device_download(double *host, const double *device, size_t n);

/* Wait until every kernel launched so far on the compute stream has finished (the halo
 * stream's work is ordered with it by the layer moves' begin, sent and end). */
void device_synchronize(void);

/* Clocks that leave the host free to run ahead of the GPU (a wait after each kernel family
 * costs a small grid most of its step): device_clock_start(k) and device_clock_stop(k)
 * record events on the compute stream around the work of clock k (0 <= k < DEVICE_CLOCKS;
 * a stop closes the latest start of its clock); device_clock_read(seconds, n) adds the time
 * between every recorded pair of clock k < n to seconds[k], waiting for the last, and
 * forgets them.  A pair measures the stream's time from the start to the stop: the kernels
 * between them, and the host's time between them where the stream was idle (MPI). */
enum { DEVICE_CLOCKS = 16 };
void device_clock_start(int k);
void device_clock_stop(int k);
void device_clock_read(double *seconds, int n);

/* Fences in the compute stream's queue: device_fence(f) marks the work queued so far,
 * device_fence_wait(f) returns once the stream has done it (at once when it has: the host
 * waits for that work only, not for what was queued after the mark).  One mark a fence;
 * the CPU build has nothing to wait for. */
enum { DEVICE_FENCE_TRACERS, DEVICE_FENCES };
void device_fence(int f);
void device_fence_wait(int f);

/* Kernels this process has launched on its GPU so far (0 without one): the report's
 * launches a step, what bounds the step of a small grid (docs/performance-gpu.md). */
long device_launches(void);

/* Whether the MPI library takes device pointers (CUDA-aware), asked at run time: 1 yes, 0
 * no (or a build without the GPU backend), -1 where the library cannot be asked. */
int device_mpi_aware(void);

#endif
