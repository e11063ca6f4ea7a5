/* The running sums of the time averages (docs/output.md, "Averages"), for both backends
 * (stencils/loop.h): at every owned cell sum += f, or, for a velocity stored on the faces,
 * sum += (f(c) + f(c + e_d)) / 2, the cell-centre value the fields files hold, bit for bit. */
#include "stencils/kernel_list.h"
#include "stencils/loop.h"

void KERNEL(field_accumulate)(const efsi_grid *g, int centre_dir, const double *restrict f,
                              double *restrict sum)
{
  int lo[3], hi[3];
  box_owned(g, 0, lo, hi);
  const ptrdiff_t next = centre_dir < 0 ? 0 : g->stride[centre_dir];
  if (centre_dir < 0) {
    FOR_BOX(g, lo, hi, p, sum[p] += f[p]);
  } else {
    FOR_BOX(g, lo, hi, p, sum[p] += 0.5 * (f[p] + f[p + next]));
  }
}
