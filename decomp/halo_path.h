/* Which transport carries each face of the halo exchange between two ranks (docs/gpu.md,
 * "Halo paths"): GPU to GPU inside a node by CUDA IPC (peer), NCCL, a CUDA-aware MPI from
 * device memory, or MPI through page-locked host memory (host_mpi, which every MPI can do
 * and which is the CPU's only path).  A policy allows one path or all of them; each face
 * takes the first allowed path, in that order, that works for it, and both ranks of a face
 * come to the same choice.  A plan is made once, before anything large is allocated, so
 * that a path forced where it cannot work is refused as input (exit status 2). */
#ifndef EFSI_HALO_PATH_H
#define EFSI_HALO_PATH_H

#include <stddef.h>

#include "decomp/decomp.h"
#include "decomp/layers.h"

/* The paths, fastest first; the names are the words of performance.halo_path. */
enum { HALO_PEER, HALO_NCCL, HALO_DEVICE_MPI, HALO_HOST_MPI, HALO_PATHS };
enum { HALO_NO_FACE = -1 };
#define HALO_ANY_PATH ((1u << HALO_PATHS) - 1u)
const char *halo_path_name(int path);

/* The path of each face of one rank: HALO_NO_FACE where it exchanges with no other rank (a
 * wall, or a direction one rank holds). */
typedef struct { int path[3][2]; } efsi_halo_plan;

/* The first path of HALO_PEER, HALO_NCCL, HALO_DEVICE_MPI, HALO_HOST_MPI that is in
 * `allowed` and in `works` (bit p: path p works for the face); HALO_NO_FACE when none. */
int halo_path_choose(unsigned allowed, unsigned works);

/* Collective over d->comm, with this rank's GPU selected: the plan of its faces for the
 * moves ops (efsi_cuda_layers) under `allowed` (HALO_ANY_PATH for auto, one bit to force a
 * path).  It asks what works: which neighbours share the node and map each other's memory
 * (a small CUDA IPC buffer shared and opened, then released), whether the build has NCCL
 * and every rank a GPU of its own, whether the MPI library is CUDA-aware (mpi_aware: 1, 0,
 * or -1 where it cannot be asked, then taken at its word only when forced).  Returns
 * nonzero with one line in err, the same on every rank, when a forced path cannot work. */
int halo_plan_create(const efsi_decomp *d, const efsi_layer_ops *ops, unsigned allowed,
                     int mpi_aware, efsi_halo_plan *plan, char *err, size_t errlen);

/* The same plan without the ranks (efsi --check --ranks N, on a login node): rank r of the
 * process grid dims (MPI's order, the last coordinate fastest), ranks filling nodes of
 * ranks_per_node in order, one GPU each that maps its node's others. */
int halo_plan_predict(const int dims[3], const int periodic[3], int r, int ranks_per_node,
                      const efsi_layer_ops *ops, unsigned allowed, int mpi_aware,
                      efsi_halo_plan *plan, char *err, size_t errlen);

/* counts[p] += the faces of plan that take path p. */
void halo_plan_count(const efsi_halo_plan *plan, int counts[HALO_PATHS]);

/* A plan whose every face to another rank of d goes through MPI from host memory: the
 * CPU's. */
void halo_plan_host(const efsi_decomp *d, efsi_halo_plan *plan);

#endif
