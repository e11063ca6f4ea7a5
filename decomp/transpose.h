/* Pencil transposes: redistribute a rank's 3-D block so that it holds full lines along one
 * direction d (a "d-pencil"), and back, with one MPI_Alltoallv on the ranks along d
 * (decomp line[d]).  The p_d ranks of a line share the n_a * n_b lines of their common
 * block cross-section (a < b the other two directions), split as evenly as integers allow;
 * with p_d = 1 a transpose is a local reordering copy. */
#ifndef EFSI_TRANSPOSE_H
#define EFSI_TRANSPOSE_H

#include <stddef.h>

#include "decomp/decomp.h"
#include "base/grid.h"

typedef struct efsi_transpose efsi_transpose;

/* Counts, displacements and buffers for the block of g in all three directions.
 * Collective on d->comm (gathers each line member's extent along d). */
efsi_transpose *transpose_create(const efsi_grid *g, const efsi_decomp *d);
void transpose_free(efsi_transpose *t);

/* Lines along d in this rank's d-pencil; the pencil stores them one after the other, each
 * global_n[d] contiguous doubles: pencil[l * global_n[d] + t], t the global index along d. */
int transpose_lines(const efsi_transpose *t, int d);

/* Global (i, j, k) of the point t = 0 of pencil line l along d (component d is 0).
 * Lines are numbered with a (the lower of the other two directions) fastest. */
void transpose_line_origin(const efsi_transpose *t, int d, int l, int global[3]);

/* block points at the local cell (0,0,0) of an array with the given strides (a field of
 * grid g: f + grid_index(g, 0, 0, 0) and g->stride; a packed block: {1, n0, n0 n1}).
 * Only owned cells are read or written.  Collective on line[d]. */
void transpose_to_pencil(efsi_transpose *t, int d, const double *block,
                         const ptrdiff_t stride[3], double *pencil);
void transpose_to_block(efsi_transpose *t, int d, const double *pencil,
                        double *block, const ptrdiff_t stride[3]);

#endif
