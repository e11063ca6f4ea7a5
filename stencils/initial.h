/* Initial fields drawn on the grid: the Taylor-Green vortex
 *   u = U sin(2 pi x/Lx) cos(2 pi z/Lz),  w = -U (Lz/Lx) cos(2 pi x/Lx) sin(2 pi z/Lz),  v = 0,
 * sampled at each component's own face points (discretely divergence-free when Nx = Nz and
 * Lx/Nx = Lz/Nz), the plane Couette flow between the y walls, and a uniform value. */
#ifndef EFSI_INITIAL_H
#define EFSI_INITIAL_H

#include "base/grid.h"

/* u and w on the owned faces; v is left alone. */
void initial_taylor_green(const efsi_grid *g, double amplitude, double *restrict u,
                          double *restrict w);

/* u on the owned faces: the plane Couette profile between walls at y = 0 and y = Ly moving
 * in x at u_lo and u_hi, u = u_lo + (u_hi - u_lo) y/Ly at each face's y (the cell centre);
 * v and w are left alone. */
void initial_couette(const efsi_grid *g, double u_lo, double u_hi, double *restrict u);

/* f = value at every point of the array, halos included. */
void field_fill(const efsi_grid *g, double value, double *restrict f);

#endif
