/* The solid's transport in the time step (docs/method.md, "The time step"), with the
 * velocity of level N,
 *   phi_m^{N+1} = phi_m^N - dt div(v phi_m)                  (WENO5 face values, conservative)
 *   psi^{N+1}   = psi^N - dt v.grad psi                      (a membrane's level, WENO5)
 *   B^{N+1}     = B^N + dt (-v.grad B + L.B + B.L^T)         (WENO5 + the Oldroyd rate)
 * then the fluid treatment of B (docs/solid.md). */
#ifndef EFSI_SOLID_H
#define EFSI_SOLID_H

#include "src/step/step_context.h"

/* Owned cells of phi and B advance from the velocity and halos of level N (valid to width
 * 3, edges included), in two calls that the step separates (src/step/solver.c: phi's while v* is
 * exchanged, B's while the step's sums travel).  Nothing to do without a solid.
 *
 * solid_fractions: every phi_m^{N+1}, with WENO5 face values, or THINC ones in its
 * interface cells (solid.phi_transport = thinc, with solid.thinc_steepness), from the
 * state's velocity, formed in the solver's phi_next, which then changes places with the
 * state's phi (phi^N's arrays are the solver's again); then each membrane's level psi^{N+1}
 * (WENO5 advection with the same velocity) in the solver's level_next, swapped likewise.
 *
 * solid_tensor: B^{N+1} from B^N, the velocity of level N (the solver's v_n, after v* has
 * become the state's) and the fluid treatment's weight from the new phi, formed in the
 * solver's b_next, which then changes places with the state's B.  The treatment relaxes B
 * to I where no elastic solid and no membrane's band holds it (docs/membrane.md). */
void solid_fractions(efsi_solver *sv, efsi_state *s);

/* The membranes' levels of s (the addresses of their arrays in s->own), material order;
 * how many (docs/membrane.md). */
int solid_levels(const efsi_state *s, double **level[]);

/* The membranes of s: their levels (shifted by sh, a view's offset; 0 for the whole block)
 * and their parameters, parameter by parameter, in material order; how many. */
typedef struct {
  double *level[EFSI_MAX_MATERIALS];
  double param[MATERIAL_PARAM_COUNT][EFSI_MAX_MATERIALS];
} solid_membranes;
int solid_membranes_of(const efsi_solver *sv, const efsi_state *s, ptrdiff_t sh,
                       solid_membranes *mem);
void solid_tensor(efsi_solver *sv, efsi_state *s);

/* The membranes' bands after B^{N+1} and psi^{N+1} (docs/membrane.md, "The band from the
 * surface"): B's and the levels' halos exchanged (width 3); each cell of a band off its
 * membrane takes B from its foot point on the membrane (formed in b_next, swapped with the
 * state's B); each level shifted so that the volume inside it is its material's (one global
 * sum for all membranes), and re-distanced off the membrane by two Jacobi steps (the first in
 * level_iterate).  Nothing to do without a membrane. */
void solid_bands(efsi_solver *sv, efsi_state *s);

#endif
