/* Step 1 of DESIGN.md section 3: transport of the solid, with the velocity of level N.
 *   phi_m^{N+1} = phi_m^N - dt div(v phi_m)                  (WENO5 face values, conservative)
 *   B^{N+1}     = B^N + dt (-v.grad B + L.B + B.L^T)         (WENO5 + the Oldroyd rate)
 * then the fluid treatment of B (docs/solid.md). */
#ifndef EFSI_SOLID_H
#define EFSI_SOLID_H

#include "solver.h"
#include "state.h"

/* Owned cells of phi and B are advanced; halos are refilled with the velocity at the end of
 * the step.  Uses sv->stress as scratch for the rate of B: call it after the stress
 * divergence has been added to the momentum.  When an exchange is in flight on sv->halo
 * (overlap), it is advanced one direction after each of the transport's first two stages
 * (the caller finishes it). */
void solid_transport(efsi_solver *sv, efsi_state *s, int overlap);

#endif
