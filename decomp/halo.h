/* Halo (sleeve) exchange of any set of fields, width 1..EFSI_HALO: x first, then y
 * including the x halos, then z including the x and y halos, so edges and corners are
 * filled.  One packed message per face for all fields; a single-rank periodic direction
 * copies locally; nothing is received across a wall (boundary.h fills those layers). */
#ifndef EFSI_HALO_H
#define EFSI_HALO_H

#include "decomp/decomp.h"
#include "decomp/layers.h"
#include "base/grid.h"

typedef struct efsi_halo efsi_halo;

/* Collective: buffers for up to max_fields fields of width EFSI_HALO, allocated once; ops
 * moves the layers (efsi_cpu_layers for host arrays).  gpu_to_gpu: faces to a neighbour on
 * the same node go straight into its GPU's memory where ops can (ops->share) and both GPUs
 * map each other's buffers; the other faces go through MPI.  halo_free is collective too. */
efsi_halo *halo_create(const efsi_grid *g, const efsi_decomp *d, int max_fields,
                       const efsi_layer_ops *ops, int gpu_to_gpu);
void halo_free(efsi_halo *h);

/* The bytes of message buffers halo_create allocates for nfields fields on block g of the
 * rank at d->coords in the process grid d->dims: a send and a receive buffer for each face
 * it exchanges with another rank (its d->periodic say which directions wrap).  It needs no
 * communicator, so efsi --check --ranks N plans with it too. */
size_t halo_bytes(const efsi_grid *g, const efsi_decomp *d, int nfields);

/* Faces this rank exchanges with another rank, and how many of them GPU to GPU. */
int halo_faces(const efsi_halo *h);
int halo_gpu_to_gpu_faces(const efsi_halo *h);

/* Blocking exchange. */
void halo_exchange(efsi_halo *h, double *const *fields, int nfields, int width);

/* Split exchange for overlap: start packs and posts the x messages (non-blocking);
 * work on interior points that need no halo may run in between; finish completes x,
 * then does y and z. */
void halo_start(efsi_halo *h, double *const *fields, int nfields, int width);
void halo_finish(efsi_halo *h);

/* Whether an exchange is in flight (started, not finished). */
int halo_pending(const efsi_halo *h);

/* Whether halo_start itself fills the layers along d of the owned rows of the other two
 * directions: x (the first direction) periodic and held by one rank, copied in place at the
 * start.  Work on those rows may then read the x layers before the exchange is finished. */
int halo_filled_at_start(const efsi_halo *h, int d);

/* Finer overlap: complete the direction in flight and post the next (x, y, z), so that work
 * can run between the three directions.  Returns nonzero while a direction is still in
 * flight; halo_finish completes whatever remains. */
int halo_advance(efsi_halo *h);

#endif
