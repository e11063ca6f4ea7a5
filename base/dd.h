/* Sums carried in two doubles, hi + lo with |lo| <= ulp(hi)/2 ("double-double", Dekker
 * 1971, Knuth's TwoSum): each addition keeps the rounding error of the sum in lo, so a sum of
 * N terms is accurate to about N 2^-106 of the sum of their magnitudes, and rounded to one
 * double (hi) it is the correctly rounded sum of the terms -- whatever order they were added
 * in -- unless the terms cancel to within 2^-53 N 2^-53 of that magnitude.  Every
 * reduction uses it, through the reduction form (stencils/reduce.h), so that the step does
 * not depend on the number of threads, the process grid or the backend (docs/parallel.md,
 * "Reductions"). */
#ifndef EFSI_DD_H
#define EFSI_DD_H

/* TwoSum is exact only if each + and - is rounded on its own: a compiler that contracts
 * x = a * b; s = hi + x into one fused multiply-add (-ffp-contract=fast, the
 * --enable-native build) computes another s than the error term assumes, and the sums then
 * depend on their order again.  A file whose functions add with dd_add must be compiled
 * without contraction: it includes base/dd_contract_off.h before anything else.  On the GPU
 * two_sum adds and subtracts with __dadd_rn and __dsub_rn, which nvcc never fuses into a
 * multiply-add, so the sums stay exact with --fmad=true (--enable-cuda-fma) as well. */

#include "base/portable.h"

typedef struct { double hi, lo; } dd_sum;

/* a + b with its rounding error: *error exactly (a + b) - fl(a + b) (Knuth's TwoSum, no
 * condition on the magnitudes). */
EFSI_POINT double two_sum(double a, double b, double *error)
{
#if defined(__CUDA_ARCH__)
  const double s = __dadd_rn(a, b), bb = __dsub_rn(s, a);
  *error = __dadd_rn(__dsub_rn(a, __dsub_rn(s, bb)), __dsub_rn(b, bb));
#else
  const double s = a + b, bb = s - a;
  *error = (a - (s - bb)) + (b - bb);
#endif
  return s;
}

/* s + x, renormalised. */
EFSI_POINT dd_sum dd_add(dd_sum s, double x)
{
  double e, lo;
  const double t = two_sum(s.hi, x, &e);
  const double hi = two_sum(t, e + s.lo, &lo);
  dd_sum r = {hi, lo};
  return r;
}

/* s + t, renormalised. */
EFSI_POINT dd_sum dd_add_dd(dd_sum s, dd_sum t)
{
  double e, lo;
  const double u = two_sum(s.hi, t.hi, &e);
  const double hi = two_sum(u, e + (s.lo + t.lo), &lo);
  dd_sum r = {hi, lo};
  return r;
}

#endif
