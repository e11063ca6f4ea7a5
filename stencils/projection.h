/* Point-wise kernels of the pressure step (docs/method.md, "The time step", steps 2, 4 and
 * 5): the velocity update v* = v + dt (F + f e_x), the pressure increment
 * dp = -beta^2 dt (gamma p + D*) = -(b p + a D*)/dt and the pressure update, and two plain
 * array updates (f += c r, f *= c) that the solid's transport and the SMAC path use. */
#ifndef EFSI_PROJECTION_H
#define EFSI_PROJECTION_H

#include "base/grid.h"
#include "base/portable.h"

/* Operations per point: velocity update 3, dp 3, pressure 2, an update f += c r 2. */
#define VELOCITY_UPDATE_FLOPS 3.0
#define PRESSURE_INCREMENT_FLOPS 3.0
#define PRESSURE_UPDATE_FLOPS 2.0
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

/* velocity_update (stencils/kernel_list.h): Velocity component c (0, 1, 2) on its updated faces, into the rate array:
 * rate <- f + dt * (rate + body), i.e. v* = v^N + dt (F + f e_x / rho), leaving v^N intact. */

/* velocity_shift (stencils/kernel_list.h): Add a constant to every updated (owned) face of component c; halos are refilled after. */

/* pressure_increment (stencils/kernel_list.h): dp = -(b p + a D)/dt on owned cells and `width` halo layers. */

/* pressure_update (stencils/kernel_list.h): p = p + dp - shift on owned cells and `width` halo layers. */

/* field_axpy (stencils/kernel_list.h): f += c * r on the owned cells. */

/* field_scale (stencils/kernel_list.h): f *= c on the owned cells. */

#endif
