/* The velocity at a point (docs/tracers.md): component c sits at (i + s_0, j + s_1, k + s_2) h
 * with s_d = 0 along d = c and 1/2 across, so with q_d = x_d / h_d - s_d, base b_d =
 * floor(q_d) and weight f_d = q_d - b_d,  v_c(x) = sum over the 8 corners of
 * prod_d (f_d or 1 - f_d).  The weights are computed from global indices, so they are the
 * same bits on every process grid. */
#ifndef EFSI_INTERPOLATE_H
#define EFSI_INTERPOLATE_H

#include <math.h>

#include "base/grid.h"
#include "base/portable.h"
#include "base/tracer.h"

/* Component c at x, trilinear from its faces.  The base is clamped to the local range
 * -1 .. n-1 (so the stencil stays in the halo of width 1); it only binds at the rounding
 * edge of a block or at x = L, where the weight then reaches 1. */
EFSI_POINT double interpolate_component(const efsi_grid *g, const double *f, int c,
                                        const double x[3])
{
  int base[3];
  double weight[3];
  for (int d = 0; d < 3; d++) {
    const double q = x[d] * g->inv_h[d] - (d == c ? 0.0 : 0.5);
    double b = floor(q);
    if (b < g->offset[d] - 1) b = g->offset[d] - 1;
    if (b > g->offset[d] + g->n[d] - 1) b = g->offset[d] + g->n[d] - 1;
    base[d] = (int)b - g->offset[d];
    weight[d] = q - b;
  }
  const double *corner = f + grid_index(g, base[0], base[1], base[2]);
  double sum = 0.0;
  for (int m = 0; m < 8; m++) {
    double wm = 1.0;
    ptrdiff_t at = 0;
    for (int d = 0; d < 3; d++) {
      const int up = (m >> d) & 1;
      wm *= up ? weight[d] : 1.0 - weight[d];
      at += up * g->stride[d];
    }
    sum += wm * corner[at];
  }
  return sum;
}

/* velocity_at_tracers (stencils/kernel_list.h): t[n].v = the velocity (u, v, w) at t[n].x for
 * n < count.  Reads the owned faces and one halo layer (-1 and n), so the velocity halo of
 * width 1 must be valid (at walls filled by the wall layers, whose reflection makes the
 * interpolation give the wall velocity).  t is host memory that the backend's kernels
 * reach: on a GPU page-locked (device_alloc_pinned), which its kernel reads and writes in
 * place, queued on the compute stream: the velocities are there once the stream has passed
 * the call (device_synchronize); on the CPU when the call returns. */

#endif
