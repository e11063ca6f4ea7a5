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

/* pressure_correct (stencils/kernel_list.h): the ACM's pressure step and velocity
 * correction in one pass over the owned cells and one halo layer: dp = -(b p + a D)/dt
 * (pressure_increment_at), p_next = p + dp - shift (pressure_update_at) there, and on the
 * faces each component updates (location.h) u += scale grad dp, as gradient_add(scale, dp)
 * -- the increments of the three cells below a face formed again where they are needed
 * instead of stored, so the bits are those of the separate passes.  p and p_next are
 * different arrays (the caller swaps them).  Halo needed: p and D valid one layer on every
 * side (read two below, where the values go unused).  Values streamed per owned cell: p and D read, p_next written, u, v, w
 * updated: 9 (the separate passes: 11). */

/* pressure_update (stencils/kernel_list.h): p = p + dp - shift on owned cells and `width`
 * halo layers. */

/* field_scale (stencils/kernel_list.h): f *= c on the owned cells. */

#endif
