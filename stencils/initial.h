/* Initial fields drawn on the grid: the Taylor-Green vortex
 *   u = U sin(2 pi x/Lx) cos(2 pi z/Lz),  w = -U (Lz/Lx) cos(2 pi x/Lx) sin(2 pi z/Lz),  v = 0,
 * sampled at each component's own face points (discretely divergence-free when Nx = Nz and
 * Lx/Nx = Lz/Nz), and a uniform value. */
#ifndef EFSI_INITIAL_H
#define EFSI_INITIAL_H

#include "base/grid.h"

/* u and w on the owned faces; v is left alone. */
void initial_taylor_green(const efsi_grid *g, double amplitude, double *restrict u,
                          double *restrict w);

/* f = value at every point of the array, halos included. */
void field_fill(const efsi_grid *g, double value, double *restrict f);

#endif
