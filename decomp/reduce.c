/* Global reductions over the decomposition's communicator: values[i] <- sum (or max) over
 * ranks of values[i], in place, with exactly one MPI_Allreduce per call, so a caller that
 * gathers its sums into one array pays one latency.  A process-local counter of the calls
 * lets tests hold the time step to one reduction. */
#include "decomp/reduce.h"

#include "base/errors.h"

static long reduction_calls;

static void reduce(const efsi_decomp *d, double *values, int n, MPI_Op op)
{
  reduction_calls++;
  MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, values, n, MPI_DOUBLE, op, d->comm));
}

void global_sum(const efsi_decomp *d, double *values, int n) { reduce(d, values, n, MPI_SUM); }

void global_max(const efsi_decomp *d, double *values, int n) { reduce(d, values, n, MPI_MAX); }

long global_reduction_calls(void) { return reduction_calls; }
