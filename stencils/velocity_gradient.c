/* Velocity gradient at cell centres (formulas in velocity_gradient.h): one pass per velocity
 * component a, reading v_a once and writing its row L_a0, L_a1, L_a2; the same code serves
 * the three components through their strides. */
#include "stencils/velocity_gradient.h"

#include <stddef.h>

/* dv_a/dx_b at the centre p for b != a: s = stride along a, t = stride along b. */
static inline double cross(const double *restrict a, ptrdiff_t p, ptrdiff_t s, ptrdiff_t t,
                           double quarter_inv_h)
{
  return ((a[p + t] + a[p + s + t]) - (a[p - t] + a[p + s - t])) * quarter_inv_h;
}

/* Row a of L: the diagonal (v_a along a) and the two cross derivatives along b1, b2. */
static void gradient_row(const efsi_grid *g, int a, int b1, int b2, const double *restrict va,
                         double *restrict laa, double *restrict lab1, double *restrict lab2)
{
  const ptrdiff_t s = g->stride[a], t1 = g->stride[b1], t2 = g->stride[b2];
  const double iha = g->inv_h[a], q1 = 0.25 * g->inv_h[b1], q2 = 0.25 * g->inv_h[b2];
#pragma omp parallel for
  for (int k = 0; k < g->n[2]; k++)
    for (int j = 0; j < g->n[1]; j++) {
      const ptrdiff_t row = grid_index(g, 0, j, k);
#pragma omp simd
      for (int i = 0; i < g->n[0]; i++) {
        const ptrdiff_t p = row + i;
        laa[p] = (va[p + s] - va[p]) * iha;
        lab1[p] = cross(va, p, s, t1, q1);
        lab2[p] = cross(va, p, s, t2, q2);
      }
    }
}

void velocity_gradient(const efsi_grid *g, const double *restrict u, const double *restrict v,
                       const double *restrict w, double *const L[9])
{
  const double *const vel[3] = {u, v, w};
  for (int a = 0; a < 3; a++) {
    const int b1 = (a + 1) % 3, b2 = (a + 2) % 3;
    gradient_row(g, a, b1, b2, vel[a], L[3 * a + a], L[3 * a + b1], L[3 * a + b2]);
  }
}
