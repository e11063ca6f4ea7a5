/* Point-wise formulas and kernels of the pressure step (docs/method.md, "The time step",
 * steps 2, 4 and 5): the velocity update v* = v + dt (F + f e_x) (inside the momentum
 * predictor, momentum.h), the pressure increment dp = -beta^2 dt (gamma p + D*) =
 * -(b p + a D*)/dt and the pressure update, an update f + c r (inside the transport of the
 * volume fractions), and the scaling f *= c of the SMAC path. */
#ifndef EFSI_PROJECTION_H
#define EFSI_PROJECTION_H

#include "base/grid.h"
#include "base/portable.h"

/* Operations per point: velocity update 3, dp 3, pressure 2, an update f += c r 2. */
#define VELOCITY_UPDATE_FLOPS 3.0
#define PRESSURE_INCREMENT_FLOPS 3.0
#define PRESSURE_UPDATE_FLOPS 2.0
#define AXPY_FLOPS 2.0

/* The per-point formulas. */
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

EFSI_POINT double axpy_at(double f, double c, double r) { return f + c * r; }

/* velocity_shift (stencils/kernel_list.h): Add a constant to every updated (owned) face of
 * component c; halos are refilled after. */

/* pressure_advance (stencils/kernel_list.h): the ACM's pressure step in one pass, on owned
 * cells and `width` halo layers: dp = -(b p + a D)/dt (pressure_increment_at) and
 * p = p + dp - shift (pressure_update_at); reads p and D once, writes p and dp. */

/* pressure_update (stencils/kernel_list.h): p = p + dp - shift on owned cells and `width`
 * halo layers. */

/* field_scale (stencils/kernel_list.h): f *= c on the owned cells. */

#endif
