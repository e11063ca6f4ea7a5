/* Viscous stress 2 mu dev(D) at centres and edges, and the compact divergence of a stress
 * tensor at the faces (formulas in stress.h).  The edge component and the divergence of one
 * momentum component are each written once, for a pair or a direction given by strides. */
#include "stencils/stress.h"

#include <stddef.h>

/* (a(p + s) - a(p)) / h. */
static inline double forward(const double *restrict a, ptrdiff_t p, ptrdiff_t s, double inv_h)
{
  return (a[p + s] - a[p]) * inv_h;
}

/* Diagonal components over -1..n: 2 mu (dv_d/dx_d - div/3). */
static void stress_diagonal(const efsi_grid *g, double mu, const double *restrict u,
                            const double *restrict v, const double *restrict w,
                            double *restrict sxx, double *restrict syy, double *restrict szz)
{
  const ptrdiff_t sx = g->stride[0], sy = g->stride[1], sz = g->stride[2];
  const double ihx = g->inv_h[0], ihy = g->inv_h[1], ihz = g->inv_h[2];
  const double two_mu = 2.0 * mu;
#pragma omp parallel for collapse(2)
  for (int k = -1; k <= g->n[2]; k++)
    for (int j = -1; j <= g->n[1]; j++) {
      const ptrdiff_t row = grid_index(g, 0, j, k);
#pragma omp simd
      for (int i = -1; i <= g->n[0]; i++) {
        const ptrdiff_t p = row + i;
        const double ex = forward(u, p, sx, ihx), ey = forward(v, p, sy, ihy),
                     ez = forward(w, p, sz, ihz);
        const double third_div = (ex + ey + ez) * (1.0 / 3.0);
        sxx[p] = two_mu * (ex - third_div);
        syy[p] = two_mu * (ey - third_div);
        szz[p] = two_mu * (ez - third_div);
      }
    }
}

/* Edge component s_de over -1..n: mu ((a_d(p) - a_d(p - s_e))/h_e + (a_e(p) - a_e(p - s_d))/h_d). */
static void stress_edge(const efsi_grid *g, int d, int e, double mu, const double *restrict ad,
                        const double *restrict ae, double *restrict sde)
{
  const ptrdiff_t sd = g->stride[d], se = g->stride[e];
  const double ihd = g->inv_h[d], ihe = g->inv_h[e];
#pragma omp parallel for collapse(2)
  for (int k = -1; k <= g->n[2]; k++)
    for (int j = -1; j <= g->n[1]; j++) {
      const ptrdiff_t row = grid_index(g, 0, j, k);
#pragma omp simd
      for (int i = -1; i <= g->n[0]; i++) {
        const ptrdiff_t p = row + i;
        sde[p] = mu * ((ad[p] - ad[p - se]) * ihe + (ae[p] - ae[p - sd]) * ihd);
      }
    }
}

void stress_viscous(const efsi_grid *g, double mu, const double *restrict u,
                    const double *restrict v, const double *restrict w, double *const s[6])
{
  stress_diagonal(g, mu, u, v, w, s[TXX], s[TYY], s[TZZ]);
  stress_edge(g, 0, 1, mu, u, v, s[TXY]);
  stress_edge(g, 0, 2, mu, u, w, s[TXZ]);
  stress_edge(g, 1, 2, mu, v, w, s[TYZ]);
}

/* f += inv_rho ((sdd(p) - sdd(p - s_d))/h_d + sum over e != d of (sde(p + s_e) - sde(p))/h_e)
 * at the updated points of the d faces; e1, e2 are the two other directions. */
static void divergence_component(const efsi_grid *g, int d, double inv_rho,
                                 const double *restrict sdd, int e1, const double *restrict s1,
                                 int e2, const double *restrict s2, double *restrict f)
{
  int lo[3], hi[3];
  location_range(g, LOC_FACE_X + d, lo, hi);
  const ptrdiff_t sd = g->stride[d], se1 = g->stride[e1], se2 = g->stride[e2];
  const double cd = inv_rho * g->inv_h[d], c1 = inv_rho * g->inv_h[e1],
               c2 = inv_rho * g->inv_h[e2];
#pragma omp parallel for collapse(2)
  for (int k = lo[2]; k < hi[2]; k++)
    for (int j = lo[1]; j < hi[1]; j++) {
      const ptrdiff_t row = grid_index(g, 0, j, k);
#pragma omp simd
      for (int i = lo[0]; i < hi[0]; i++) {
        const ptrdiff_t p = row + i;
        f[p] += cd * (sdd[p] - sdd[p - sd]) + c1 * (s1[p + se1] - s1[p])
              + c2 * (s2[p + se2] - s2[p]);
      }
    }
}

void stress_divergence_add(const efsi_grid *g, double inv_rho, double *const s[6],
                           double *restrict fu, double *restrict fv, double *restrict fw)
{
  double *const f[3] = {fu, fv, fw};
  for (int d = 0; d < 3; d++) {
    const int e1 = (d + 1) % 3, e2 = (d + 2) % 3;
    divergence_component(g, d, inv_rho, s[d], e1, s[tensor_offdiagonal(d, e1)], e2,
                         s[tensor_offdiagonal(d, e2)], f[d]);
  }
}
