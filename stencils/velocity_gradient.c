/* Velocity gradient at cell centres on the CPU (formulas in velocity_gradient.h): one pass
 * per velocity component a, reading v_a once and writing its row L_a0, L_a1, L_a2; the same
 * code serves the three components through their strides. */
#include "stencils/velocity_gradient.h"

#include "stencils/loop.h"

void velocity_gradient(const efsi_grid *g, const double *restrict u, const double *restrict v,
                       const double *restrict w, double *const L[9])
{
  const double *const vel[3] = {u, v, w};
  int lo[3], hi[3];
  box_owned(g, 0, lo, hi);
  for (int a = 0; a < 3; a++) {
    const int b1 = (a + 1) % 3, b2 = (a + 2) % 3;
    const ptrdiff_t s = g->stride[a], t1 = g->stride[b1], t2 = g->stride[b2];
    const double iha = g->inv_h[a], q1 = 0.25 * g->inv_h[b1], q2 = 0.25 * g->inv_h[b2];
    const double *restrict va = vel[a];
    double *restrict laa = L[3 * a + a], *restrict lab1 = L[3 * a + b1],
           *restrict lab2 = L[3 * a + b2];
    FOR_BOX(g, lo, hi, p,
            laa[p] = forward_difference(va, p, s, iha);
            lab1[p] = cross_difference(va, p, s, t1, q1);
            lab2[p] = cross_difference(va, p, s, t2, q2));
  }
}
