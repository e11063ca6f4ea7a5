/* The grid: global and local sizes, spacings, offsets and the one memory layout of every
 * field.  Cell (i,j,k) has its centre at ((i+1/2)hx, (j+1/2)hy, (k+1/2)hz); u(i,j,k) sits on
 * its west face, v on its south face, w on its bottom face.  Indices are local: owned cells
 * are 0 <= i < n[0], halos reach -EFSI_HALO .. n+EFSI_HALO-1.  Arrays are structure of arrays,
 * x fastest, 64-byte aligned; grid_index() is the only place that knows the layout. */
#ifndef EFSI_GRID_H
#define EFSI_GRID_H

#include <stddef.h>

#include "base/portable.h"

#define EFSI_HALO 3          /* sleeve width: WENO5 needs three cells */
#define EFSI_ALIGN 64        /* bytes */

typedef struct {
  int global_n[3];           /* Nx, Ny, Nz */
  double length[3];          /* Lx, Ly, Lz */
  double h[3], inv_h[3];     /* spacings and their inverses */
  int n[3];                  /* owned cells on this rank */
  int offset[3];             /* global index of this rank's first owned cell */
  int wall_lo[3], wall_hi[3];/* 1 where this rank's low/high side is a physical wall */
  ptrdiff_t stride[3];       /* 1, row stride, plane stride (row padded to EFSI_ALIGN) */
  size_t size;               /* doubles per field, halos and padding included */
} efsi_grid;

/* Fill the layout of a local block of n cells at offset within a global grid. */
void grid_init(efsi_grid *g, const int global_n[3], const double length[3],
               const int n[3], const int offset[3], const int wall_lo[3], const int wall_hi[3]);

/* Linear index of local point (i,j,k); halos have negative or >= n indices. */
EFSI_POINT ptrdiff_t grid_index(const efsi_grid *g, int i, int j, int k)
{
  return (ptrdiff_t)(i + EFSI_HALO) + g->stride[1] * (j + EFSI_HALO)
       + g->stride[2] * (k + EFSI_HALO);
}

/* First updated index of the velocity component normal to direction d: a wall face at the
 * low side of the domain (index 0) holds zero normal velocity and is never updated. */
static inline int grid_face_start(const efsi_grid *g, int d) { return g->wall_lo[d] ? 1 : 0; }

/* The points lo <= index < hi of g seen as a block of their own: a kernel called with view
 * and every array shifted by *shift works on exactly those points (strides unchanged; a
 * wall is kept only where the view reaches that side of the block).  The kernel's reads
 * around the view must stay inside g's halos. */
static inline void grid_view(const efsi_grid *g, const int lo[3], const int hi[3],
                             efsi_grid *view, ptrdiff_t *shift)
{
  *view = *g;
  *shift = 0;
  for (int d = 0; d < 3; d++) {
    view->n[d] = hi[d] - lo[d];
    view->offset[d] = g->offset[d] + lo[d];
    view->wall_lo[d] = g->wall_lo[d] && lo[d] == 0;
    view->wall_hi[d] = g->wall_hi[d] && hi[d] == g->n[d];
    *shift += lo[d] * g->stride[d];
  }
}

/* 64-byte aligned, zero-filled field of g->size doubles; running out of memory stops the
 * run (base/errors.h). */
double *field_alloc(const efsi_grid *g);
void field_free(double *f);

/* Number of owned cells on this rank. */
static inline size_t grid_cells(const efsi_grid *g) { return (size_t)g->n[0] * g->n[1] * g->n[2]; }

#endif
