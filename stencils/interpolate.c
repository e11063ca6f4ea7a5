/* The velocity at the tracers on the CPU (formula in interpolate.h). */
#include "stencils/interpolate.h"
#include "stencils/kernel_list.h"

void velocity_at_tracers(const efsi_grid *g, const double *u, const double *v, const double *w,
                         efsi_tracer *t, long count)
{
  const double *velocity[3] = {u, v, w};
#pragma omp parallel for schedule(static)
  for (long n = 0; n < count; n++)
    for (int c = 0; c < 3; c++) t[n].v[c] = interpolate_component(g, velocity[c], c, t[n].x);
}
