/* Cartesian domain decomposition: the process grid (px, py, pz), neighbours, periodicity
 * from the boundary types, and the local block of the global grid each rank owns.
 * Knows nothing of the physics. */
#ifndef EFSI_DECOMP_H
#define EFSI_DECOMP_H

#include <mpi.h>
#include <stddef.h>

#include "base/grid.h"

typedef struct {
  MPI_Comm comm;             /* Cartesian communicator (reorder = 0: ranks keep their order) */
  int rank, size;
  int dims[3], coords[3], periodic[3];
  int neighbor[3][2];        /* low/high neighbour ranks; MPI_PROC_NULL across a wall */
  MPI_Comm line[3];          /* ranks that share my coordinates except along d */
  MPI_Comm node;             /* the ranks of comm on my node (MPI_COMM_TYPE_SHARED), in
                                comm's order: the GPU a rank takes, the memory a node needs,
                                which halos stay on a node */
  int node_rank, node_size;  /* my number among them, and how many they are */
} efsi_decomp;

/* The process grid alone, without MPI: the dims decomp_create would choose for size ranks
 * (the same checks and messages).  --check plans a run of any size with it. */
int decomp_plan(int size, const int cells[3], const int ranks[3], const int periodic[3],
                int dims[3], char *err, size_t errlen);

/* Build the process grid for `cells` on comm.  ranks[d] = 0 lets efsi choose that factor:
 * among the factorizations that divide the cells (at least 3 per rank along a split or
 * walled direction) the one with the smallest halo surface (docs/parallel.md).  Returns
 * nonzero, with a one-line message in err, when the factors do not multiply to the number
 * of ranks or a factor does not divide its cell count.  Collective. */
int decomp_create(efsi_decomp *d, MPI_Comm comm, const int cells[3], const int ranks[3],
                  const int periodic[3], char *err, size_t errlen);

/* The layout of this rank's block (sizes, offsets, which sides are walls). */
void decomp_grid(const efsi_decomp *d, const int cells[3], const double length[3],
                 efsi_grid *g);

void decomp_free(efsi_decomp *d);

#endif
