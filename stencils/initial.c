/* Initial fields (see initial.h). */
#include "stencils/initial.h"

#include <math.h>

void initial_taylor_green(const efsi_grid *g, double amplitude, double *restrict u,
                          double *restrict w)
{
  const double U = amplitude, kx = 2.0 * M_PI / g->length[0];
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
        u[at] = U * sin(kx * x_face) * cos(kz * z_centre);
        w[at] = -U * ratio * cos(kx * x_centre) * sin(kz * z_face);
      }
}

void initial_couette(const efsi_grid *g, double u_lo, double u_hi, double *restrict u)
{
  const double slope = (u_hi - u_lo) / g->length[1];
#pragma omp parallel for
  for (int k = 0; k < g->n[2]; k++)
    for (int j = 0; j < g->n[1]; j++) {
      const double y = (g->offset[1] + j + 0.5) * g->h[1];
      for (int i = 0; i < g->n[0]; i++) u[grid_index(g, i, j, k)] = u_lo + slope * y;
    }
}

void field_fill(const efsi_grid *g, double value, double *restrict f)
{
#pragma omp parallel for schedule(static)
  for (size_t n = 0; n < g->size; n++) f[n] = value;
}
