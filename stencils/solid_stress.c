/* The solid stress sum_m G_m phi_m dev(B) on the staggered stress positions, the elastic
 * energy and the range of det B (formulas in solid_stress.h).  The material sum G phi is formed
 * once per cell; the three edge components share one edge mean, written once and given the
 * pair of directions by its two strides. */
#include "stencils/solid_stress.h"

#include <math.h>
#include <stddef.h>

#include "base/tensor.h"
#include "stencils/stress.h"

/* gphi = sum_m G_m phi_m over -lo..n in every direction (lo = 2 for the stress, 0 for the
 * energy), material by material along each row so the i loops stay unit-stride. */
static void modulus_sum(const efsi_grid *g, int lo, int nmat, const double *modulus,
                        double *const phi[], double *restrict gphi)
{
#pragma omp parallel for collapse(2)
  for (int k = -lo; k <= g->n[2]; k++)
    for (int j = -lo; j <= g->n[1]; j++) {
      const ptrdiff_t row = grid_index(g, 0, j, k);
      const double *restrict p0 = phi[0] + row;
      double *restrict out = gphi + row;
      const double g0 = modulus[0];
#pragma omp simd
      for (int i = -lo; i <= g->n[0]; i++) out[i] = g0 * p0[i];
      for (int m = 1; m < nmat; m++) {
        const double *restrict pm = phi[m] + row;
        const double gm = modulus[m];
#pragma omp simd
        for (int i = -lo; i <= g->n[0]; i++) out[i] += gm * pm[i];
      }
    }
}

/* The mean of G phi B_de over the four cells sharing the d-e edge of index p: p, p - s_d,
 * p - s_e, p - s_d - s_e. */
static inline double edge_mean(const double *restrict gphi, const double *restrict bde,
                               ptrdiff_t p, ptrdiff_t sd, ptrdiff_t se)
{
  return 0.25 * ((gphi[p] * bde[p] + gphi[p - sd] * bde[p - sd])
                 + (gphi[p - se] * bde[p - se] + gphi[p - sd - se] * bde[p - sd - se]));
}

void solid_stress_add(const efsi_grid *g, int nmat, const double *modulus,
                      double *const phi[], double *const b[6], double *const s[6],
                      double *restrict gphi)
{
  if (nmat == 0) return;
  modulus_sum(g, 2, nmat, modulus, phi, gphi);
  const double *restrict bxx = b[TXX], *restrict byy = b[TYY], *restrict bzz = b[TZZ],
               *restrict bxy = b[TXY], *restrict bxz = b[TXZ], *restrict byz = b[TYZ];
  double *restrict sxx = s[TXX], *restrict syy = s[TYY], *restrict szz = s[TZZ],
         *restrict sxy = s[TXY], *restrict sxz = s[TXZ], *restrict syz = s[TYZ];
  const ptrdiff_t sx = g->stride[0], sy = g->stride[1], sz = g->stride[2];
  /* One pass for all six components: B, G phi and s are each streamed once. */
#pragma omp parallel for collapse(2)
  for (int k = -1; k <= g->n[2]; k++)
    for (int j = -1; j <= g->n[1]; j++) {
      const ptrdiff_t row = grid_index(g, 0, j, k);
#pragma omp simd
      for (int i = -1; i <= g->n[0]; i++) {
        const ptrdiff_t p = row + i;
        /* dev(B)_xx = (2 Bxx - Byy - Bzz)/3: exactly 0 for B = I, with or without
         * fused multiply-adds (Bxx - tr(B)/3 is not, once contracted) */
        const double g3 = gphi[p] * (1.0 / 3.0);
        sxx[p] += g3 * (2.0 * bxx[p] - byy[p] - bzz[p]);
        syy[p] += g3 * (2.0 * byy[p] - bxx[p] - bzz[p]);
        szz[p] += g3 * (2.0 * bzz[p] - bxx[p] - byy[p]);
        sxy[p] += edge_mean(gphi, bxy, p, sx, sy);
        sxz[p] += edge_mean(gphi, bxz, p, sx, sz);
        syz[p] += edge_mean(gphi, byz, p, sy, sz);
      }
    }
}

double solid_elastic_energy(const efsi_grid *g, int nmat, const double *modulus,
                            double *const phi[], double *const b[6])
{
  if (nmat == 0) return 0.0;
  const double *restrict bxx = b[TXX], *restrict byy = b[TYY], *restrict bzz = b[TZZ];
  double plane[g->n[2]];
#pragma omp parallel for
  for (int k = 0; k < g->n[2]; k++) {
    double sum = 0.0;
    for (int j = 0; j < g->n[1]; j++) {
      const ptrdiff_t row = grid_index(g, 0, j, k);
#pragma omp simd reduction(+ : sum)
      for (int i = 0; i < g->n[0]; i++) {
        const ptrdiff_t p = row + i;
        double gp = 0.0;
        for (int m = 0; m < nmat; m++) gp += modulus[m] * phi[m][p];
        sum += gp * (bxx[p] + byy[p] + bzz[p] - 3.0);
      }
    }
    plane[k] = sum;
  }
  double total = 0.0;
  for (int k = 0; k < g->n[2]; k++) total += plane[k];
  return 0.5 * total * g->h[0] * g->h[1] * g->h[2];
}

void solid_det_range(const efsi_grid *g, int nmat, double *const phi[],
                     double *const b[6], double phi_min, double range[2])
{
  const double *restrict bxx = b[TXX], *restrict byy = b[TYY], *restrict bzz = b[TZZ],
               *restrict bxy = b[TXY], *restrict bxz = b[TXZ], *restrict byz = b[TYZ];
  double lo = INFINITY, hi = -INFINITY;
#pragma omp parallel for reduction(min : lo) reduction(max : hi)
  for (int k = 0; k < g->n[2]; k++)
    for (int j = 0; j < g->n[1]; j++) {
      const ptrdiff_t row = grid_index(g, 0, j, k);
      for (int i = 0; i < g->n[0]; i++) {
        const ptrdiff_t p = row + i;
        double phi_total = 0.0;
        for (int m = 0; m < nmat; m++) phi_total += phi[m][p];
        if (phi_total < phi_min) continue;
        const double det = bxx[p] * (byy[p] * bzz[p] - byz[p] * byz[p])
                         - bxy[p] * (bxy[p] * bzz[p] - byz[p] * bxz[p])
                         + bxz[p] * (bxy[p] * byz[p] - byy[p] * bxz[p]);
        lo = fmin(lo, det);
        hi = fmax(hi, det);
      }
    }
  range[0] = lo;
  range[1] = hi;
}
