/* Diagnostics of the current state for diagnostics.csv: kinetic energy, divergence (rms
 * and max of rho div v), flow rate, wall shear stress, maximum speed.  Two reductions. */
#ifndef EFSI_DIAGNOSE_H
#define EFSI_DIAGNOSE_H

#include "io/diagnostics.h"
#include "src/step/step_context.h"
#include "src/case/state.h"

/* Collective.  Fills the flow columns of row (the ACM columns come from sv->info).
 * Velocity halos (width 1) must be valid.  Uses the solver's div_v
 * (src/case/solver_arrays.h). */
void diagnose(efsi_solver *sv, const efsi_state *s, efsi_diagnostics *row);

/* Collective.  When some owned value of u, v, w or p is not finite, or (find_max) to locate
 * the largest speed: the field name and global index of the first such point on the
 * lowest rank that has one.  Returns 0 when nothing was found. */
int locate_point(const efsi_decomp *d, const efsi_state *s, int find_max,
                 char field[8], int index[3]);

#endif
