/* The solver's arrays (src/step/solver.h), listed here, below the step, so that the case's
 * memory count (src/case/case.c) and the solver's allocation derive from one list. */
#ifndef EFSI_SOLVER_ARRAYS_H
#define EFSI_SOLVER_ARRAYS_H

/* The solver's work arrays, each a field of the block; with phi_next[m] for each material
 * they are all it allocates besides its scratch (solver_array_count; src/case/case.c counts
 * them for the memory estimate).  The six of work[] hold one thing after another in a
 * step: the stress of level N while v* is formed; the GPU's face fluxes of phi, then B^{N+1}
 * (B^{N+1} becomes the state's B, and B^N's arrays become work[]); dp, and D* without a
 * solid, in the projection. */
#define SOLVER_ARRAYS(X)                                                                  \
  X(fu) X(fv) X(fw)                    /* v* (the momentum's rate arrays) */              \
  X(work[0]) X(work[1]) X(work[2]) X(work[3]) X(work[4]) X(work[5])
#define SOLVER_COUNT_ONE(array) +1
static inline int solver_array_count(int nmat) { return (0 SOLVER_ARRAYS(SOLVER_COUNT_ONE)) + nmat; }

#endif
