/* Global reductions.  The ACM step puts all of its sums into one small array and calls
 * global_sum once; global_sum_calls() counts the calls so tests can hold it to that. */
#ifndef EFSI_REDUCE_H
#define EFSI_REDUCE_H

#include "decomp/decomp.h"

/* In place: values[i] <- sum over ranks.  One MPI_Allreduce. */
void global_sum(const efsi_decomp *d, double *values, int n);
/* In place: pairs[2 i], pairs[2 i + 1] <- the double-double sum (base/dd.h) over ranks of
 * the n double-double values (hi, lo).  One MPI_Allreduce. */
void global_sum_dd(const efsi_decomp *d, double *pairs, int n);
/* In place: values[i] <- max over ranks.  One MPI_Allreduce. */
void global_max(const efsi_decomp *d, double *values, int n);
/* How many global_sum/global_max calls this process has made. */
long global_reduction_calls(void);

#endif
