/* The backend of a run (see backend.h). */
#include "src/case/backend.h"

#include <stdio.h>
#include <string.h>

#include "base/device.h"
#include "base/errors.h"
#include "verify/poisson_cuda.h"
#include "verify/poisson_fft.h"

static void *cpu_poisson_create(const efsi_grid *g, const efsi_decomp *d) { return poisson_create(g, d); }
static void cpu_poisson_solve(void *p, const double *rhs, double *x) { poisson_solve(p, rhs, x); }
static void cpu_poisson_free(void *p) { poisson_free(p); }
static const efsi_poisson_ops cpu_poisson = {cpu_poisson_create, cpu_poisson_solve,
                                             cpu_poisson_free};

const efsi_backend efsi_cpu_backend = {0, &efsi_cpu_kernels, &efsi_cpu_layers, &cpu_poisson,
                                       {{{0}}}, "CPU"};

#ifdef EFSI_CUDA
/* On the GPU the solve stays on the device, on several GPUs on rank 0's (docs/smac.md). */
static void *gpu_poisson_create(const efsi_grid *g, const efsi_decomp *d)
{
  return poisson_cuda_create(g, d);
}
static void gpu_poisson_solve(void *p, const double *rhs, double *x)
{
  poisson_cuda_solve(p, rhs, x);
}
static void gpu_poisson_free(void *p) { poisson_cuda_free(p); }
static const efsi_poisson_ops gpu_poisson = {gpu_poisson_create, gpu_poisson_solve,
                                             gpu_poisson_free};
#endif

unsigned backend_halo_paths(const efsi_config *c)
{
  return c->halo_path == HALO_PATH_AUTO ? HALO_ANY_PATH : 1u << (c->halo_path - 1);
}

const efsi_halo_plan *backend_halo_plan(const efsi_backend *b) { return b->gpu ? &b->halo_plan : NULL; }

/* The GPU's tables. */
static void gpu_backend(efsi_backend *b)
{
#ifdef EFSI_CUDA
  b->gpu = 1;
  b->k = &efsi_cuda_kernels;
  b->poisson = &gpu_poisson;
  b->layers = &efsi_cuda_layers;
#else
  (void)b;
#endif
}

int backend_choose(const efsi_config *c, const efsi_decomp *d, efsi_backend *b, char *err,
                   size_t errlen)
{
  *b = efsi_cpu_backend;
  if (c->device == DEVICE_CPU) return 0;
  char desc[384] = "";
  int refused = device_select(d->node_rank, desc, sizeof desc);
  /* the same verdict on every rank: the first refusal's message */
  int first = refused ? d->rank : d->size;
  MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, d->comm));
  if (first < d->size) {
    MPI_CHECK(MPI_Bcast(desc, (int)sizeof desc, MPI_CHAR, first, d->comm));
    snprintf(err, errlen, "%s: performance.device = gpu: %s", config_where(c, "performance.device"),
             desc);
    return 1;
  }
  gpu_backend(b);
  snprintf(b->description, sizeof b->description, "%s", desc);
  char why[512] = "";
  if (halo_plan_create(d, b->layers, backend_halo_paths(c), device_mpi_aware(), &b->halo_plan,
                       why, sizeof why)) {
    snprintf(err, errlen, "%s: performance.halo_path = %s: %s",
             config_where(c, "performance.halo_path"), halo_path_name(c->halo_path - 1), why);
    return 1;
  }
  return 0;
}

int backend_plan(const efsi_config *c, efsi_backend *b, char *err, size_t errlen)
{
  *b = efsi_cpu_backend;
  if (c->device == DEVICE_CPU) return 0;
#ifdef EFSI_CUDA
  (void)err, (void)errlen;
  gpu_backend(b);
  snprintf(b->description, sizeof b->description, "GPU, one per rank (planned: no GPU is "
           "selected here)");
  return 0;
#else
  char desc[256];
  device_select(0, desc, sizeof desc);   /* the line of a build without the GPU backend */
  snprintf(err, errlen, "%s: performance.device = gpu: %s", config_where(c, "performance.device"),
           desc);
  return 1;
#endif
}

double *backend_field_alloc(const efsi_backend *b, const efsi_grid *g)
{
  return b->gpu ? device_alloc(g->size) : field_alloc(g);
}

void backend_field_free(const efsi_backend *b, double *f)
{
  if (b->gpu) device_free(f);
  else field_free(f);
}

void backend_upload(const efsi_backend *b, double *field, const double *host, const efsi_grid *g)
{
  if (b->gpu) device_upload(field, host, g->size);
  else if (field != host) memcpy(field, host, g->size * sizeof(double));
}

void backend_download(const efsi_backend *b, double *host, const double *field,
                      const efsi_grid *g)
{
  if (b->gpu) device_download(host, field, g->size);
  else if (field != host) memcpy(host, field, g->size * sizeof(double));
}

void backend_wait(const efsi_backend *b)
{
  if (b->gpu) device_synchronize();
}
