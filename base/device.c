/* The device interface of a CPU-only build (see device.h): there is no device. */
#include "base/device.h"

#include <stdio.h>

#include "base/errors.h"

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
void device_free_pinned(double *p) { (void)p; }
void device_upload(double *d, const double *h, size_t n) { (void)d, (void)h, (void)n; no_device("device_upload"); }
void device_download(double *h, const double *d, size_t n) { (void)d, (void)h, (void)n; no_device("device_download"); }
void device_synchronize(void) {}
void device_clock_start(int k) { (void)k; no_device("device_clock_start"); }
void device_clock_stop(int k) { (void)k; no_device("device_clock_stop"); }
void device_clock_read(double *seconds, int n) { (void)seconds, (void)n; }
int device_mpi_aware(void) { return 0; }
#endif
