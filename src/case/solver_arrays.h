/* The solver's arrays and the fields that live in them, declared once (docs/architecture.md,
 * "One time step through the files").  The list sits here, below the step, so that the
 * case's memory count (src/case/case.c) and the solver's allocation (src/step/solver.c)
 * derive from one table; src/step/fields.h reads the fields by name, swaps them with the
 * state's arrays, and checks the table.
 *
 * The arrays, X(store, arrays): each a field of the block with its halos, allocated once,
 * `arrays` of them for a case with nmat materials, viscous = 1 with a viscosity contrast
 * (a material whose viscosity is not the fluid's) and `levels` membranes (docs/membrane.md).  Besides the kernels' scratch they are
 * all the solver allocates (solver_array_count). */
#ifndef EFSI_SOLVER_ARRAYS_H
#define EFSI_SOLVER_ARRAYS_H

#include "base/limits.h"

#define SOLVER_ARRAYS(X)                                                                   \
  X(rates, 3)      /* the momentum's rate arrays */                                       \
  X(work, 6)       /* six arrays the stress, the face fluxes, B^{N+1} and dp take in turn */ \
  X(next, nmat)    /* one a material */                                                  \
  X(viscous, viscous)   /* with a viscosity contrast, its excess viscosity */          \
  X(levels, levels)     /* one a membrane: its kappa, its level's next value, its iterate */

/* The phases of a step (src/step/solver.c: solver_step), in their order. */
#define SOLVER_PHASE_LIST(X)                                                               \
  X(MOMENTUM)     /* the stress of level N, then v* (momentum) */                         \
  X(FRACTIONS)    /* phi^{N+1} with v^N while v* is exchanged (solid_fractions), until v*   \
                     becomes the state's velocity */                                      \
  X(DIVERGENCE)   /* D* (divergence_star), its sums queued (sums_start) */                \
  X(TENSOR)       /* B^{N+1} with v^N while the sums travel (solid_tensor), the wait for    \
                     them (global_sums) and the drive */                                  \
  X(BANDS)        /* the membranes' bands: B from the foot points, the levels' volume and   \
                     re-distancing (solid_bands) */                                       \
  X(ACM)          /* p^{N+1} and v^{N+1} by the ACM (pressure_acm) */                     \
  X(SMAC)         /* or by SMAC (pressure_smac) */                                        \
  X(BETWEEN)      /* between steps: the diagnostics (src/step/diagnose.c) */
#define SOLVER_PHASE_ID(phase) PHASE_##phase,
enum { SOLVER_PHASE_LIST(SOLVER_PHASE_ID) SOLVER_PHASES };
#undef SOLVER_PHASE_ID
#define LIVE(phase) (1u << PHASE_##phase)
#define WITH_SOLID(n) (nmat > 0 ? (n) : 0)   /* n with a solid, else none */

/* The fields, X(name, components, store, first, live): what each name holds, how many
 * arrays it spans (0: none in this case), the store and the array of it where they begin,
 * and the phases in which the name is live.  Two names share an array only where their
 * phases do not meet (fields_table_check); a name's arrays change hands only by
 * fields_swap, so a name never needs pointing again.
 *   v_star     v* = (u*, v*, w*), formed by the momentum, exchanged (width 2) while phi
 *              advances, then it changes places with the state's velocity
 *   v_n        the velocity of level N that v* left in the rate arrays, for B's transport
 *   stress     the stress of level N: sxx, syy, szz at centres, sxy, sxz, syz on edges
 *   sum_g_phi  sum_m G_m phi_m^N, while the stress is formed
 *   phi_flux   the GPU's transport of phi: its face fluxes in x, y and z and, in the
 *              fourth, its list of interface cells (the CPU's forms its fluxes in its loop)
 *   phi_next   phi_m^{N+1}, which changes places with the state's phi_m
 *   b_next     B^{N+1}, which changes places with the state's B; in the bands, B^{N+1} from
 *              the foot points, which changes places with it again
 *   div_star   D* = rho div v*: in phi^N's first array (free once phi^{N+1} is the state's,
 *              while B^{N+1} fills work), or without a solid in the first of work
 *   p_next     the ACM's p^{N+1}, which changes places with the state's p
 *   dp         the SMAC pressure increment
 *   div_v      rho div v of the state, for the diagnostics between steps
 *   mu_excess  sum_m (mu_m - mu) phi_m^N, while the stress is formed (a viscosity contrast)
 *   level_next each membrane's level psi^{N+1}, which changes places with the state's
 *   level_before psi^N, which the swap left in level_next's arrays (their halos valid), for
 *              the membranes' normals when B^{N+1} is formed
 *   level_iterate the first iterate of each level's re-distancing, on the owned cells and
 *              one ring
 *   kappa      each membrane's total curvature at the centres, for its bending force */
#define SOLVER_FIELDS(X)                                                                    \
  X(v_star, 3, STORE_rates, 0, LIVE(MOMENTUM) | LIVE(FRACTIONS))                            \
  X(v_n, WITH_SOLID(3), STORE_rates, 0, LIVE(DIVERGENCE) | LIVE(TENSOR))                    \
  X(stress, 6, STORE_work, 0, LIVE(MOMENTUM))                                               \
  X(sum_g_phi, WITH_SOLID(1), STORE_next, 0, LIVE(MOMENTUM))                                \
  X(phi_flux, WITH_SOLID(4), STORE_work, 0, LIVE(FRACTIONS))                                \
  X(phi_next, nmat, STORE_next, 0, LIVE(FRACTIONS))                                         \
  X(b_next, WITH_SOLID(6), STORE_work, 0, LIVE(TENSOR) | LIVE(BANDS))                       \
  X(div_star, 1, nmat > 0 ? STORE_next : STORE_work, 0,                                     \
    LIVE(DIVERGENCE) | LIVE(TENSOR) | LIVE(BANDS) | LIVE(ACM) | LIVE(SMAC))                 \
  X(p_next, 1, STORE_work, 1, LIVE(ACM))                                                    \
  X(dp, 1, STORE_work, 1, LIVE(SMAC))                                                       \
  X(div_v, 1, STORE_work, 0, LIVE(BETWEEN))                                                 \
  X(mu_excess, viscous, STORE_viscous, 0, LIVE(MOMENTUM))                                   \
  X(level_next, levels, STORE_levels, 0, LIVE(FRACTIONS))                                  \
  X(level_before, levels, STORE_levels, 0, LIVE(DIVERGENCE) | LIVE(TENSOR))                 \
  X(level_iterate, levels, STORE_levels, 0, LIVE(BANDS))                                    \
  X(kappa, levels, STORE_levels, 0, LIVE(MOMENTUM))

#define SOLVER_STORE_ID(store, arrays) STORE_##store,
enum { SOLVER_ARRAYS(SOLVER_STORE_ID) SOLVER_STORES };
#undef SOLVER_STORE_ID
#define SOLVER_FIELD_ID(name, components, store, first, live) FIELD_##name,
enum { SOLVER_FIELDS(SOLVER_FIELD_ID) SOLVER_FIELD_COUNT };
#undef SOLVER_FIELD_ID

/* The arrays the solver allocates for nmat materials, viscous (0 or 1: a viscosity
 * contrast) and levels membranes (src/case/case.c counts them for efsi --check); at most
 * SOLVER_MAX_ARRAYS, the count at EFSI_MAX_MATERIALS membranes with a contrast (every
 * store's count grows with all three). */
#define SOLVER_ADD_ARRAYS(store, arrays) +(arrays)
static inline int solver_array_count(int nmat, int viscous, int levels)
{
  return 0 SOLVER_ARRAYS(SOLVER_ADD_ARRAYS);
}
#define nmat EFSI_MAX_MATERIALS
#define viscous 1
#define levels EFSI_MAX_MATERIALS
enum { SOLVER_MAX_ARRAYS = 0 SOLVER_ARRAYS(SOLVER_ADD_ARRAYS) };
#undef levels
#undef viscous
#undef nmat

#endif
