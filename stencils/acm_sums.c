/* The ACM step's sums on the CPU (stencils/reductions.h): the terms of acm_terms in the one
 * reduction form (stencils/reduce.h), double-double sums that do not depend on the order of
 * the points.  The GPU's are another algorithm (a march in z that keeps D* and p of three
 * planes in registers, stencils/cuda/reductions.cu) with the same bits. */
#include "base/dd_contract_off.h"   /* first: the double-double sums (base/dd.h) */
#include "stencils/kernel_list.h"
#include "stencils/loop.h"
#include "stencils/reduce.h"

void acm_sums(const efsi_grid *g, int laplacians, const double *restrict div,
              const double *restrict p, const double *restrict u, efsi_scratch *scratch,
              double sums[2 * SUM_COUNT])
{
  int lo[3], hi[3];
  box_owned(g, 0, lo, hi);
  const ptrdiff_t s[3] = {g->stride[0], g->stride[1], g->stride[2]};
  const double ih2[3] = {g->inv_h[0] * g->inv_h[0], g->inv_h[1] * g->inv_h[1],
                         g->inv_h[2] * g->inv_h[2]};
  dd_sum r[SUM_COUNT];
  /* laplacians a constant in each form, so that each loop vectorises without a branch */
  if (laplacians)
    REDUCE_BOX(g, lo, hi, scratch, SUM_COUNT, 0u, r, q, i, j, k,
               acm_terms(div, p, u, q, s, ih2, 1));
  else
    REDUCE_BOX(g, lo, hi, scratch, SUM_COUNT, 0u, r, q, i, j, k,
               acm_terms(div, p, u, q, s, ih2, 0));
  for (int c = 0; c < SUM_COUNT; c++) {
    sums[2 * c] = r[c].hi;
    sums[2 * c + 1] = r[c].lo;
  }
}
