/* Grid layout: strides with rows padded to the alignment, and aligned field storage. */
#include "base/grid.h"

#include "base/errors.h"

#include <stdlib.h>
#include <string.h>

void grid_init(efsi_grid *g, const int global_n[3], const double length[3],
               const int n[3], const int offset[3], const int wall_lo[3], const int wall_hi[3])
{
  memset(g, 0, sizeof *g);
  const ptrdiff_t per_line = EFSI_ALIGN / sizeof(double);
  for (int d = 0; d < 3; d++) {
    g->global_n[d] = global_n[d];
    g->length[d] = length[d];
    g->h[d] = length[d] / global_n[d];
    g->inv_h[d] = global_n[d] / length[d];
    g->n[d] = n[d];
    g->offset[d] = offset[d];
    g->wall_lo[d] = wall_lo[d];
    g->wall_hi[d] = wall_hi[d];
  }
  const ptrdiff_t row = n[0] + 2 * EFSI_HALO;
  g->stride[0] = 1;
  g->stride[1] = (row + per_line - 1) / per_line * per_line;
  g->stride[2] = g->stride[1] * (n[1] + 2 * EFSI_HALO);
  g->size = (size_t)(g->stride[2] * (n[2] + 2 * EFSI_HALO));
}

double *field_alloc(const efsi_grid *g)
{
  size_t bytes = g->size * sizeof(double);
  bytes = (bytes + EFSI_ALIGN - 1) / EFSI_ALIGN * EFSI_ALIGN;
  double *f = aligned_alloc(EFSI_ALIGN, bytes);
  if (!f) efsi_abort(EFSI_EXIT_RUNTIME, "out of memory: a field of %zu bytes", bytes);
  /* First touch by the threads that will work on each plane: the kernels split the k range
   * among OpenMP threads the same static way, so on a multi-socket node each plane's pages
   * land in the memory of the socket that uses them. */
  const int planes = g->n[2] + 2 * EFSI_HALO;
  const size_t plane = (size_t)g->stride[2];
#pragma omp parallel for schedule(static)
  for (int k = 0; k < planes; k++) memset(f + (size_t)k * plane, 0, plane * sizeof(double));
  const size_t tail = bytes / sizeof(double) - (size_t)planes * plane;
  if (tail) memset(f + (size_t)planes * plane, 0, tail * sizeof(double));
  return f;
}

void field_free(double *f) { free(f); }
