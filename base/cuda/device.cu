/* The device interface of the GPU backend (see base/device.h, base/cuda/cuda.cuh). */
#include "base/cuda/cuda.cuh"   /* first: MPI's C interface only (mpi.h there) */

#include <mpi-ext.h>
#include <stdio.h>
#include <stdlib.h>

extern "C" {
#include "base/device.h"
}

static cudaStream_t compute_stream, halo_stream;
/* the events that tie the streams: halo after compute, compute after halo */
static cudaEvent_t computed, halo_done;
static int multiprocessors;   /* of the selected device (device_select) */
static const char *last_kernel = "(none yet)";
static int sync_every_launch = -1;

void cuda_failed(cudaError_t e, const char *call, const char *file, int line)
{
  efsi_abort(EFSI_EXIT_RUNTIME, "%s:%d: %s failed: %s (last kernel launched: %s)", file, line,
             call, cudaGetErrorString(e), last_kernel);
}

static long launches;
static cudaEvent_t fences[DEVICE_FENCES];

void device_fence(int f)
{
  if (!fences[f]) CUDA_CHECK(cudaEventCreateWithFlags(&fences[f], cudaEventDisableTiming));
  CUDA_CHECK(cudaEventRecord(fences[f], compute_stream));
}

void device_fence_wait(int f)
{
  if (fences[f]) CUDA_CHECK(cudaEventSynchronize(fences[f]));
}

long device_launches(void) { return launches; }

void cuda_launched(const char *name)
{
  last_kernel = name;
  launches++;
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess)
    efsi_abort(EFSI_EXIT_RUNTIME, "kernel %s failed to launch: %s", name, cudaGetErrorString(e));
  if (sync_every_launch < 0) {
    const char *env = getenv("EFSI_CUDA_SYNC");
    sync_every_launch = env && env[0] == '1';
  }
  if (sync_every_launch) {
    const cudaError_t s = cudaDeviceSynchronize();
    if (s != cudaSuccess)
      efsi_abort(EFSI_EXIT_RUNTIME, "kernel %s failed: %s", name, cudaGetErrorString(s));
  }
}

cudaStream_t cuda_compute_stream(void) { return compute_stream; }

void cuda_halo_after_compute(void)
{
  CUDA_CHECK(cudaEventRecord(computed, compute_stream));
  CUDA_CHECK(cudaStreamWaitEvent(halo_stream, computed, 0));
}

void cuda_compute_after_halo(void)
{
  CUDA_CHECK(cudaEventRecord(halo_done, halo_stream));
  CUDA_CHECK(cudaStreamWaitEvent(compute_stream, halo_done, 0));
}
int cuda_multiprocessors(void) { return multiprocessors; }
cudaStream_t cuda_halo_stream(void) { return halo_stream; }

int device_count(void)
{
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();   /* no driver or no device: the CPU backend only */
    return 0;
  }
  return n;
}

int device_select(int node_rank, char *desc, size_t len)
{
  const int n = device_count();
  if (n == 0) {
    snprintf(desc, len, "no GPU is visible to this process");
    return 1;
  }
  const int id = node_rank % n;
  CUDA_CHECK(cudaSetDevice(id));
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, id));
  multiprocessors = prop.multiProcessorCount;
  CUDA_CHECK(cudaStreamCreateWithFlags(&compute_stream, cudaStreamNonBlocking));
  /* the halo moves go first where both streams have blocks waiting: the exchange then
   * advances while a long interior kernel runs (docs/gpu.md, "Overlap") */
  int least = 0, greatest = 0;
  CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  CUDA_CHECK(cudaStreamCreateWithPriority(&halo_stream, cudaStreamNonBlocking, greatest));
  CUDA_CHECK(cudaEventCreateWithFlags(&computed, cudaEventDisableTiming));
  CUDA_CHECK(cudaEventCreateWithFlags(&halo_done, cudaEventDisableTiming));
  snprintf(desc, len, "GPU %d of %d: %s, %.1f GiB, compute capability %d.%d, %d multiprocessors",
           id, n, prop.name, prop.totalGlobalMem / 1073741824.0, prop.major, prop.minor,
           prop.multiProcessorCount);
  return 0;
}

void device_memory(size_t *free_bytes, size_t *total_bytes)
{
  CUDA_CHECK(cudaMemGetInfo(free_bytes, total_bytes));
}

/* Out of device memory: a fault once --check and the start-up checks have passed
 * (base/errors.h, rule 2). */
static void out_of_memory(size_t bytes, const char *what)
{
  cudaGetLastError();
  size_t free_bytes = 0, total = 0;
  cudaMemGetInfo(&free_bytes, &total);
  efsi_abort(EFSI_EXIT_RUNTIME, "out of %s memory: %zu bytes asked, %zu of %zu free", what,
             bytes, free_bytes, total);
}

double *device_alloc(size_t n)
{
  void *p = NULL;
  const size_t bytes = (n > 0 ? n : 1) * sizeof(double);
  if (cudaMalloc(&p, bytes) != cudaSuccess) out_of_memory(bytes, "device");
  /* zeroed before any kernel of the (non-blocking) streams can touch it */
  CUDA_CHECK(cudaMemset(p, 0, bytes));
  CUDA_CHECK(cudaDeviceSynchronize());
  return (double *)p;
}

void device_free(double *p)
{
  if (p) CUDA_CHECK(cudaFree(p));
}

double *device_alloc_pinned(size_t n)
{
  void *p = NULL;
  const size_t bytes = (n > 0 ? n : 1) * sizeof(double);
  if (cudaHostAlloc(&p, bytes, cudaHostAllocMapped) != cudaSuccess)
    out_of_memory(bytes, "page-locked host");
  return (double *)p;
}

void *device_scratch_alloc(size_t bytes, int staging)
{
  void *p = NULL;
  if ((staging ? cudaMallocHost(&p, bytes) : cudaMalloc(&p, bytes)) != cudaSuccess)
    out_of_memory(bytes, staging ? "page-locked host" : "device");
  return p;
}

void device_scratch_release(void *p, int staging)
{
  if (p) CUDA_CHECK(staging ? cudaFreeHost(p) : cudaFree(p));
}

void device_event_release(void *event)
{
  if (event) CUDA_CHECK(cudaEventDestroy((cudaEvent_t)event));
}

void device_free_pinned(double *p)
{
  if (p) CUDA_CHECK(cudaFreeHost(p));
}

void device_upload(double *device, const double *host, size_t n)
{
  CUDA_CHECK(cudaMemcpyAsync(device, host, n * sizeof(double), cudaMemcpyHostToDevice,
                             compute_stream));
  CUDA_CHECK(cudaStreamSynchronize(compute_stream));
}

void device_download(double *host, const double *device, size_t n)
{
  CUDA_CHECK(cudaMemcpyAsync(host, device, n * sizeof(double), cudaMemcpyDeviceToHost,
                             compute_stream));
  CUDA_CHECK(cudaStreamSynchronize(compute_stream));
}

void device_synchronize(void) { CUDA_CHECK(cudaStreamSynchronize(compute_stream)); }

/* The recorded pairs of events; a full table is read into clock_seconds, which
 * device_clock_read hands over. */
enum { CLOCK_PAIRS = 256 };
static struct clock_pair { cudaEvent_t start, stop; int k, open; } clock_pair[CLOCK_PAIRS];
static int clock_pairs;
static double clock_seconds[DEVICE_CLOCKS];

static void clock_drain(void)
{
  int kept = 0;
  for (int p = 0; p < clock_pairs; p++) {
    struct clock_pair *c = &clock_pair[p];
    if (c->open) {   /* still running: kept, its events with it */
      const struct clock_pair open = *c;
      *c = clock_pair[kept];
      clock_pair[kept++] = open;
      continue;
    }
    float ms = 0.0f;
    CUDA_CHECK(cudaEventSynchronize(c->stop));
    CUDA_CHECK(cudaEventElapsedTime(&ms, c->start, c->stop));
    clock_seconds[c->k] += 1e-3 * ms;
  }
  clock_pairs = kept;
}

void device_clock_start(int k)
{
  if (k < 0 || k >= DEVICE_CLOCKS)
    efsi_abort(EFSI_EXIT_RUNTIME, "device_clock_start: clock %d outside 0..%d", k,
               DEVICE_CLOCKS - 1);
  if (clock_pairs == CLOCK_PAIRS) clock_drain();
  if (clock_pairs == CLOCK_PAIRS)
    efsi_abort(EFSI_EXIT_RUNTIME, "device_clock_start: %d clocks running", CLOCK_PAIRS);
  struct clock_pair *c = &clock_pair[clock_pairs++];
  if (!c->start) {
    CUDA_CHECK(cudaEventCreate(&c->start));
    CUDA_CHECK(cudaEventCreate(&c->stop));
  }
  CUDA_CHECK(cudaEventRecord(c->start, compute_stream));
  c->k = k;
  c->open = 1;
}

void device_clock_stop(int k)
{
  for (int p = clock_pairs - 1; p >= 0; p--)
    if (clock_pair[p].open && clock_pair[p].k == k) {
      CUDA_CHECK(cudaEventRecord(clock_pair[p].stop, compute_stream));
      clock_pair[p].open = 0;
      return;
    }
  efsi_abort(EFSI_EXIT_RUNTIME, "device_clock_stop: clock %d was not started", k);
}

void device_clock_read(double *seconds, int n)
{
  clock_drain();
  for (int k = 0; k < DEVICE_CLOCKS; k++) {
    if (k < n) seconds[k] += clock_seconds[k];
    clock_seconds[k] = 0.0;
  }
}

int device_mpi_aware(void)
{
#if defined(MPIX_CUDA_AWARE_SUPPORT)
  return MPIX_Query_cuda_support();
#else
  return -1;   /* a library without Open MPI's query */
#endif
}
