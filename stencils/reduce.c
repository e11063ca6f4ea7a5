/* The host's half of the reductions: the planes' pairs of the reduction form combined in k
 * order (stencils/reduce.h; both backends), and the scan of a field in host memory for the
 * diagnosis of a blow-up (stencils/reductions.h). */
#include "base/dd_contract_off.h"   /* first: the double-double sums (base/dd.h) */
#include "stencils/reduce.h"
#include "stencils/reductions.h"

void reduce_combine(const dd_sum *plane, int planes, int count, unsigned max_mask,
                    dd_sum *out)
{
  for (int c = 0; c < count; c++) {
    dd_sum s = {reduce_start(max_mask, c), 0.0};
    for (int k = 0; k < planes; k++) s = reduce_pairs(max_mask, c, s, plane[(size_t)k * count + c]);
    out[c] = s;
  }
}

int field_locate(const efsi_grid *g, const double *f, int find_max, double *score, int at[3])
{
  int found = 0;
  for (int k = 0; k < g->n[2]; k++)
    for (int j = 0; j < g->n[1]; j++)
      for (int i = 0; i < g->n[0]; i++) {
        const double v = f[grid_index(g, i, j, k)];
        if (find_max ? !(fabs(v) > *score) : isfinite(v)) continue;
        *score = find_max ? fabs(v) : 1.0;
        at[0] = i;
        at[1] = j;
        at[2] = k;
        found = 1;
        if (!find_max) return 1;
      }
  return found;
}
