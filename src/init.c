/* Initial flow fields (see init.h). */
#include "src/init.h"

#include <math.h>

void init_flow(const efsi_config *c, efsi_state *s)
{
  const efsi_grid *g = &s->grid;
  s->step = 0;
  s->time = 0.0;
  s->drive_force = c->drive_mode == DRIVE_PRESSURE ? c->pressure_gradient : 0.0;
  if (c->init_flow != INIT_TAYLOR_GREEN) return;
  const double U = c->flow_amplitude, kx = 2.0 * M_PI / g->length[0];
  const double kz = 2.0 * M_PI / g->length[2], ratio = g->length[2] / g->length[0];
#pragma omp parallel for
  for (int k = 0; k < g->n[2]; k++)
    for (int j = 0; j < g->n[1]; j++)
      for (int i = 0; i < g->n[0]; i++) {
        const double x_face = (g->offset[0] + i) * g->h[0];
        const double x_centre = x_face + 0.5 * g->h[0];
        const double z_face = (g->offset[2] + k) * g->h[2];
        const double z_centre = z_face + 0.5 * g->h[2];
        const ptrdiff_t at = grid_index(g, i, j, k);
        s->u[at] = U * sin(kx * x_face) * cos(kz * z_centre);
        s->w[at] = -U * ratio * cos(kx * x_centre) * sin(kz * z_face);
      }
}
