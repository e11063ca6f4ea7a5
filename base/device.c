/* The device interface of a CPU-only build (see device.h): there is no device; and the
 * host half of the scratch memory of both builds. */
#include "base/device.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/errors.h"

efsi_scratch scratch_of(int gpu)
{
  efsi_scratch s = {.gpu = gpu};
  return s;
}

/* Memory of `bytes` or more in *p of *capacity; on the device or page-locked for a GPU
 * backend (device_scratch_grow, base/cuda/device.cu). */
static void *grow(int gpu, int staging, void **p, size_t *capacity, size_t bytes)
{
  if (bytes <= *capacity && *p) return *p;
  size_t want = 2 * *capacity;
  if (want < bytes) want = bytes;
  if (want == 0) want = sizeof(double);
  if (gpu) {
    device_scratch_release(*p, staging);
    *p = device_scratch_alloc(want, staging);
  } else {
    free(*p);
    *p = efsi_malloc(want, "kernel scratch");
  }
  *capacity = want;
  return *p;
}

void *scratch_work(efsi_scratch *s, size_t bytes)
{
  return grow(s->gpu, 0, &s->work, &s->work_bytes, bytes);
}

void *scratch_staging(efsi_scratch *s, size_t bytes)
{
  return grow(s->gpu, 1, &s->staging, &s->staging_bytes, bytes);
}

void scratch_reserve(efsi_scratch *s, size_t work_bytes, size_t staging_bytes)
{
  if (work_bytes) scratch_work(s, work_bytes);
  if (staging_bytes) scratch_staging(s, staging_bytes);
}

void scratch_free(efsi_scratch *s)
{
  if (s->gpu) {
    device_scratch_release(s->work, 0);
    device_scratch_release(s->staging, 1);
    device_event_release(s->queued.ready);
  } else {
    free(s->work);
    free(s->staging);
  }
  *s = scratch_of(s->gpu);
}

#ifndef EFSI_CUDA
int device_count(void) { return 0; }

int device_select(int node_rank, char *desc, size_t len)
{
  (void)node_rank;
  snprintf(desc, len, "this efsi was built without the GPU backend (configure --enable-cuda)");
  return 1;
}

void device_memory(size_t *free_bytes, size_t *total_bytes)
{
  *free_bytes = 0;
  *total_bytes = 0;
}

static _Noreturn void no_device(const char *what)
{
  efsi_abort(EFSI_EXIT_RUNTIME, "%s: this efsi was built without the GPU backend", what);
}

double *device_alloc(size_t n) { (void)n; no_device("device_alloc"); }
void device_free(double *p) { (void)p; }
double *device_alloc_pinned(size_t n) { (void)n; no_device("device_alloc_pinned"); }
void *device_scratch_alloc(size_t bytes, int staging)
{
  (void)bytes, (void)staging;
  no_device("device_scratch_alloc");
}
void device_scratch_release(void *p, int staging) { (void)p, (void)staging; }
void device_event_release(void *event) { (void)event; }
void device_free_pinned(double *p) { (void)p; }
void device_upload(double *d, const double *h, size_t n) { (void)d, (void)h, (void)n; no_device("device_upload"); }
void device_download(double *h, const double *d, size_t n) { (void)d, (void)h, (void)n; no_device("device_download"); }
void device_synchronize(void) {}
void device_clock_start(int k) { (void)k; no_device("device_clock_start"); }
void device_clock_stop(int k) { (void)k; no_device("device_clock_stop"); }
void device_clock_read(double *seconds, int n) { (void)seconds, (void)n; }
int device_mpi_aware(void) { return 0; }
long device_launches(void) { return 0; }
void device_fence(int f) { (void)f; }
void device_fence_wait(int f) { (void)f; }
#endif
