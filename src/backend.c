/* The backend of a run (see backend.h). */
#include "src/backend.h"

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
                                       "CPU"};

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

/* This rank's number among the ranks of its node. */
static int node_rank(const efsi_decomp *d)
{
  MPI_Comm node;
  int rank = 0;
  MPI_CHECK(MPI_Comm_split_type(d->comm, MPI_COMM_TYPE_SHARED, d->rank, MPI_INFO_NULL, &node));
  MPI_CHECK(MPI_Comm_rank(node, &rank));
  MPI_CHECK(MPI_Comm_free(&node));
  return rank;
}

int backend_choose(const efsi_config *c, const efsi_decomp *d, efsi_backend *b, char *err,
                   size_t errlen)
{
  *b = efsi_cpu_backend;
  if (c->device == DEVICE_CPU) return 0;
  char desc[384] = "";
  int refused = device_select(node_rank(d), desc, sizeof desc);
  /* the same verdict on every rank: the first refusal's message */
  int first = refused ? d->rank : d->size;
  MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, d->comm));
  if (first < d->size) {
    MPI_CHECK(MPI_Bcast(desc, (int)sizeof desc, MPI_CHAR, first, d->comm));
    snprintf(err, errlen, "%s: performance.device = gpu: %s", config_where(c, "performance.device"),
             desc);
    return 1;
  }
#ifdef EFSI_CUDA
  const int aware = c->cuda_aware_mpi == AWARE_YES
                 || (c->cuda_aware_mpi == AWARE_AUTO && device_mpi_aware());
  b->gpu = 1;
  b->k = &efsi_cuda_kernels;
  b->poisson = &gpu_poisson;
  b->layers = aware ? &efsi_cuda_layers_aware : &efsi_cuda_layers;
  snprintf(b->description, sizeof b->description, "%s; halos: %s", desc, b->layers->name);
#endif
  return 0;
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
