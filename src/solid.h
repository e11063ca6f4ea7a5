/* Step 1 of the time step (docs/method.md, "The time step"): transport of the solid with the
 * velocity of level N,
 *   phi_m^{N+1} = phi_m^N - dt div(v phi_m)                  (WENO5 face values, conservative)
 *   B^{N+1}     = B^N + dt (-v.grad B + L.B + B.L^T)         (WENO5 + the Oldroyd rate)
 * then the fluid treatment of B (docs/solid.md). */
#ifndef EFSI_SOLID_H
#define EFSI_SOLID_H

#include "decomp/halo.h"
#include "src/state.h"
#include "src/timers.h"
#include "stencils/kernels.h"

/* Owned cells of phi and B are advanced from the velocity and halos of s (valid to width
 * 3, edges included).  phi is carried with WENO5 face values (thinc_beta = 0) or THINC ones
 * in its interface cells (thinc_beta > 0: solid.phi_transport = thinc, its steepness).
 * phi_rate[m] (one per material) and b_rate[6] are scratch fields.  When in_flight is
 * not NULL an exchange is in flight on it, and it is moved on by one direction after each
 * of the transport's first two stages (the caller finishes it). */
void solid_transport(const efsi_kernels *k, efsi_state *s, double dt, double thinc_beta,
                     double *const phi_rate[], double *const b_rate[6], efsi_halo *in_flight,
                     efsi_timers *timers);

#endif
