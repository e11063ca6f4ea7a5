/* The backend a run computes on (performance.device, docs/gpu.md): the CPU's kernels and
 * layer moves on host arrays, or the GPU's on device arrays with one GPU per MPI rank.  The
 * solver and the run loop take everything device-specific from here: the kernel table, the
 * layer moves, where fields are allocated, and the copies between a device state and its
 * host mirror for initialisation and output. */
#ifndef EFSI_BACKEND_H
#define EFSI_BACKEND_H

#include <stddef.h>

#include "decomp/decomp.h"
#include "decomp/halo_path.h"
#include "decomp/layers.h"
#include "src/case/config.h"
#include "stencils/kernels.h"

/* The exact Poisson solve of the SMAC path (docs/smac.md) on the backend's fields: create
 * and free are collective, solve is lap x = rhs, zero mean (verify/poisson_fft.h on the
 * host, verify/poisson_cuda.h on the GPU). */
typedef struct {
  void *(*create)(const efsi_grid *g, const efsi_decomp *d);
  void (*solve)(void *solver, const double *rhs, double *x);
  void (*free)(void *solver);
} efsi_poisson_ops;

typedef struct {
  int gpu;                       /* 1: fields in device memory */
  const efsi_kernels *k;
  const efsi_layer_ops *layers;
  const efsi_poisson_ops *poisson;
  efsi_halo_plan halo_plan;      /* GPU: the path of each face (performance.halo_path) */
  char description[512];         /* what efsi prints at start: the device */
} efsi_backend;

/* The CPU's backend (no device; what the tests use). */
extern const efsi_backend efsi_cpu_backend;

/* Collective: the backend of performance.device.  On gpu each rank takes the GPU of its
 * rank on the node (MPI_COMM_TYPE_SHARED) and plans the path of each face of its halos
 * (performance.halo_path, decomp/halo_path.h).  Returns nonzero with a one-line message in
 * err when gpu is refused (a build without the GPU backend, or no visible GPU) or a forced
 * halo path cannot work. */
int backend_choose(const efsi_config *c, const efsi_decomp *d, efsi_backend *b, char *err,
                   size_t errlen);

/* The backend of a run planned by efsi --check --ranks N, on a machine that may have no
 * GPU (a login node): no device is selected and no halo planned.  Nonzero with a one-line
 * message in err where performance.device = gpu and the build has no GPU backend. */
int backend_plan(const efsi_config *c, efsi_backend *b, char *err, size_t errlen);

/* The halo paths (halo_create) of the backend's faces: the plan on a GPU, NULL on the CPU,
 * whose faces all go through MPI from host memory. */
const efsi_halo_plan *backend_halo_plan(const efsi_backend *b);

/* The moves of performance.halo_path: HALO_ANY_PATH for auto, else the one forced path. */
unsigned backend_halo_paths(const efsi_config *c);

/* A field of grid g where the backend's kernels read it (zero-filled); running out of
 * memory stops the run.  backend_field_free releases it. */
double *backend_field_alloc(const efsi_backend *b, const efsi_grid *g);
void backend_field_free(const efsi_backend *b, double *f);

/* Copies of a whole field (halos included) between host memory and the backend's; plain
 * copies on the CPU. */
void backend_upload(const efsi_backend *b, double *field, const double *host, const efsi_grid *g);
void backend_download(const efsi_backend *b, double *host, const double *field, const efsi_grid *g);

/* Wait for the backend's kernels (the GPU's run asynchronously): before a clock is read. */
void backend_wait(const efsi_backend *b);

#endif
