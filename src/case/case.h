/* A case resolved once (docs/architecture.md, "A case resolved once"): what a run needs of
 * its configuration, worked out in one place right after the case file is read, so that
 * no module derives it again: the materials in the state's order, the periodic directions,
 * the device and the methods, and the lists of arrays the state, its exchange and the
 * solver hold.  The memory efsi --check reports and the memory a run allocates both come
 * from these lists (case_memory; tests/test_memory checks that they agree). */
#ifndef EFSI_CASE_H
#define EFSI_CASE_H

#include "base/grid.h"
#include "decomp/decomp.h"
#include "src/case/config.h"
#include "src/case/materials.h"

typedef struct {
  const efsi_config *config;
  efsi_materials materials;      /* the solid materials, in the order the state stores them */
  int nmat;                      /* materials.count (0: fluid only) */
  int wall_material, rbc_material;   /* indices of "wall" and "rbc", -1 when absent */
  int periodic[3];               /* x always; y and z from boundary.y and boundary.z */
  int gpu;                       /* performance.device = gpu */
  int smac;                      /* pressure.method = smac (else the ACM) */
  int thinc;                     /* solid.phi_transport = thinc */
  int viscosity_contrast;        /* a material's viscosity differs from the fluid's */
  int membranes;                 /* materials of the membrane model (docs/membrane.md) */
  /* the arrays of one rank, each a field of the block with its halos */
  int state_arrays;              /* u, v, w, p; with a solid each phi_m and the six B */
  int exchanged_arrays;          /* those the state's exchange carries: all but p */
  int solver_arrays;             /* the solver's arrays (src/case/solver_arrays.h: SOLVER_ARRAYS) */
  int average_arrays;            /* the running sums of the averages (src/case/outputs.c): where
                                    the kernels run, and a host copy on a GPU */
} efsi_case;

/* Resolve the validated configuration c (which must outlive the case). */
void case_resolve(const efsi_config *c, efsi_case *cs);

/* The memory of the rank d->rank of the process grid d (its dims, coords, periodic and
 * size; no communicator needed) on block g, item by item, in bytes.  On the CPU
 * everything is host memory; on a GPU the fields are device memory and the host holds a
 * mirror of the state for output; the SMAC solve on a GPU works on rank 0's. */
typedef struct {
  double state, solver, scratch, halo, smac;   /* in the memory the kernels use */
  double averages;                             /* the averages' sums (there, and on a GPU
                                                  their host copies too) */
  double host, device;                         /* the totals per kind of memory */
} efsi_memory;

efsi_memory case_memory(const efsi_case *cs, const efsi_grid *g, const efsi_decomp *d);

#endif
