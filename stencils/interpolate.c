/* The velocity at the tracers (formula in interpolate.h), for both backends (stencils/loop.h,
 * FOR_EACH; stencils/cuda/loops.cu compiles this file).  On a GPU the tracers live in
 * page-locked host memory, few per rank; its kernel reads their positions and writes their
 * velocities there through the host's own pointer (unified addressing), with no copy and no
 * wait: the caller waits when it needs them. */
#include "stencils/interpolate.h"
#include "stencils/kernel_list.h"
#include "stencils/loop.h"

void KERNEL(velocity_at_tracers)(const efsi_grid *g, const double *u, const double *v,
                                 const double *w, efsi_tracer *t, long count)
{
  /* the grid and the arrays in locals (the body reads only locals) */
  const efsi_grid grid = *g;
  const double *const velocity[3] = {u, v, w};
  FOR_EACH(count, n,
           for (int c = 0; c < 3; c++)
             t[n].v[c] = interpolate_component(&grid, velocity[c], c, t[n].x));
}
