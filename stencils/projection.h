/* Point-wise kernels of the pressure step (docs/method.md, "The time step", steps 2, 4 and
 * 5): the velocity update v* = v + dt (F + f e_x), the pressure increment
 * dp = -beta^2 dt (gamma p + D*) = -(b p + a D*)/dt and the pressure update, and two plain
 * array updates (f += c r, f *= c) that the solid's transport and the SMAC path use. */
#ifndef EFSI_PROJECTION_H
#define EFSI_PROJECTION_H

#include "base/grid.h"
#include "base/portable.h"

/* Operations per owned cell: velocity update 3 x 3, dp 3, pressure 2, and per array of an
 * update f += c r 2. */
#define VELOCITY_UPDATE_FLOPS 9.0
#define PRESSURE_FLOPS 5.0
#define AXPY_FLOPS 2.0

/* The per-point formulas of the three kernels below. */
EFSI_POINT double velocity_update_at(double f, double dt, double rate, double body)
{
  return f + dt * (rate + body);
}

EFSI_POINT double pressure_increment_at(double a_over_dt, double b_over_dt, double p,
                                        double div)
{
  return -(b_over_dt * p + a_over_dt * div);
}

EFSI_POINT double pressure_update_at(double p, double dp, double shift)
{
  return p + dp - shift;
}

/* Velocity component c (0, 1, 2) on its updated faces, into the rate array:
 * rate <- f + dt * (rate + body), i.e. v* = v^N + dt (F + f e_x / rho), leaving v^N intact. */
void velocity_update(const efsi_grid *g, int c, double dt, double body,
                     const double *restrict f, double *restrict rate);

/* Add a constant to every updated (owned) face of component c; halos are refilled after. */
void velocity_shift(const efsi_grid *g, int c, double shift, double *restrict f);

/* dp = -(b p + a D)/dt on owned cells and `width` halo layers. */
void pressure_increment(const efsi_grid *g, int width, double a_over_dt, double b_over_dt,
                        const double *restrict p, const double *restrict div,
                        double *restrict dp);

/* p = p + dp - shift on owned cells and `width` halo layers. */
void pressure_update(const efsi_grid *g, int width, double shift, const double *restrict dp,
                     double *restrict p);

/* f += c * r on the owned cells. */
void field_axpy(const efsi_grid *g, double c, const double *restrict r, double *restrict f);

/* f *= c on the owned cells. */
void field_scale(const efsi_grid *g, double c, double *restrict f);

#endif
