/* Global reductions over the decomposition's communicator: values[i] <- sum (or max) over
 * ranks of values[i], in place, with exactly one MPI_Allreduce per call, so a caller that
 * gathers its sums into one array pays one latency.  A process-local counter of the calls
 * lets tests hold the time step to one reduction. */
#include "base/dd_contract_off.h"   /* first: the double-double sums (base/dd.h) */
#include "decomp/reduce.h"

#include "base/dd.h"
#include "base/errors.h"

static long reduction_calls;

static void reduce(const efsi_decomp *d, double *values, int n, MPI_Op op)
{
  reduction_calls++;
  MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, values, n, MPI_DOUBLE, op, d->comm));
}

void global_sum(const efsi_decomp *d, double *values, int n) { reduce(d, values, n, MPI_SUM); }

/* The MPI operation on double-double pairs: inout <- in + inout, pair by pair. */
static void add_pairs(void *in, void *inout, int *len, MPI_Datatype *type)
{
  (void)type;
  const double *a = in;
  double *b = inout;
  for (int i = 0; i < *len; i++) {
    const dd_sum s = dd_add_dd((dd_sum){a[2 * i], a[2 * i + 1]}, (dd_sum){b[2 * i], b[2 * i + 1]});
    b[2 * i] = s.hi;
    b[2 * i + 1] = s.lo;
  }
}

void global_sum_dd(const efsi_decomp *d, double *pairs, int n)
{
  static MPI_Datatype pair;
  static MPI_Op op;
  static int made;
  if (!made) {
    made = 1;
    MPI_CHECK(MPI_Type_contiguous(2, MPI_DOUBLE, &pair));
    MPI_CHECK(MPI_Type_commit(&pair));
    MPI_CHECK(MPI_Op_create(add_pairs, 1, &op));
  }
  reduction_calls++;
  MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, pairs, n, pair, op, d->comm));
}

void global_max(const efsi_decomp *d, double *values, int n) { reduce(d, values, n, MPI_MAX); }

long global_reduction_calls(void) { return reduction_calls; }
