/* Initial flow fields (see init.h). */
#include "src/case/init.h"

#include "stencils/initial.h"

void init_flow(const efsi_config *c, efsi_state *s)
{
  const efsi_grid *g = &s->grid;
  s->step = 0;
  s->time = 0.0;
  s->drive_force = c->drive_mode == DRIVE_PRESSURE ? c->pressure_gradient : 0.0;
  if (c->init_flow == INIT_TAYLOR_GREEN) initial_taylor_green(g, c->flow_amplitude, s->u, s->w);
  if (c->init_flow == INIT_COUETTE) initial_couette(g, c->wall_u[1][0], c->wall_u[1][1], s->u);
}
