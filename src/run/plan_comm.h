/* The communication plan (docs/gpu.md, "Halo paths"): at the start of a run on GPUs, how
 * many faces of the ranks take which halo path; under efsi --check --ranks N, the same
 * predicted for N ranks without starting them (on a login node too), with the bytes a
 * step's halo messages carry. */
#ifndef EFSI_PLAN_COMM_H
#define EFSI_PLAN_COMM_H

#include <stddef.h>

#include "decomp/halo.h"
#include "src/case/backend.h"
#include "src/case/case.h"

/* Collective: the faces of every rank by path, printed by rank 0. */
void comm_print_paths(const efsi_halo *h, const efsi_decomp *d, const efsi_config *c);

/* The plan of a run on d->size ranks as the process grid d->dims, gpus_per_node ranks
 * filling each node in rank order (0: the GPUs visible here, or 4 where there are none),
 * printed for a GPU backend b; nothing on the CPU.  Nonzero with one line in err when a
 * forced halo path cannot work for some face. */
int comm_print_plan(const efsi_case *cs, const efsi_decomp *d, const efsi_grid *g,
                    const efsi_backend *b, int gpus_per_node, char *err, size_t errlen);

#endif
