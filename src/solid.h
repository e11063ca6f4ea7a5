/* The solid's transport in the time step (docs/method.md, "The time step"), with the
 * velocity of level N,
 *   phi_m^{N+1} = phi_m^N - dt div(v phi_m)                  (WENO5 face values, conservative)
 *   B^{N+1}     = B^N + dt (-v.grad B + L.B + B.L^T)         (WENO5 + the Oldroyd rate)
 * then the fluid treatment of B (docs/solid.md). */
#ifndef EFSI_SOLID_H
#define EFSI_SOLID_H

#include "src/solver.h"

/* Owned cells of phi and B advance from the velocity and halos of s (valid to width 3,
 * edges included).  phi is carried with WENO5 face values, or THINC ones in its interface
 * cells (solid.phi_transport = thinc, with solid.thinc_steepness).  The solver's
 * phi_rate[m] and stress arrays hold the rates.  Nothing to do without a solid. */
void solid_transport(efsi_solver *sv, efsi_state *s);

#endif
