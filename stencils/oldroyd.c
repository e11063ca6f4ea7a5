/* The Oldroyd rate L.B + B.L^T and the fluid treatment of B on the CPU (formulas in
 * oldroyd.h, reasoning in docs/solid.md).  The kernels form the nine entries of L at the
 * cell centre inside the point loop from the face velocities, so memory traffic is the three
 * velocities and B, and no gradient arrays exist.  The treatment works row by row: the
 * total solid fraction (a sum over a case-dependent number of materials) and the strain
 * rate with its square root each have a loop of their own, so that the long loops around
 * them vectorise. */
#include "stencils/oldroyd.h"

#include <math.h>
#include <stddef.h>

#include "stencils/loop.h"

void oldroyd_rate_add(const efsi_grid *g, const double *restrict u, const double *restrict v,
                      const double *restrict w, double *const b[6], double *const out[6])
{
  const double *restrict bxx = b[TXX], *restrict byy = b[TYY], *restrict bzz = b[TZZ],
               *restrict bxy = b[TXY], *restrict bxz = b[TXZ], *restrict byz = b[TYZ];
  double *restrict oxx = out[TXX], *restrict oyy = out[TYY], *restrict ozz = out[TZZ],
         *restrict oxy = out[TXY], *restrict oxz = out[TXZ], *restrict oyz = out[TYZ];
  int lo[3], hi[3];
  box_owned(g, 0, lo, hi);
  const ptrdiff_t *s = g->stride;
  const double *ih = g->inv_h;
  FOR_BOX(g, lo, hi, p) {
    const velocity_gradient_t L = velocity_gradient_at(u, v, w, p, s, ih);
    const double B[6] = {bxx[p], byy[p], bzz[p], bxy[p], bxz[p], byz[p]};
    double r[6];
    oldroyd_rate_at(&L, B, r);
    oxx[p] += r[TXX];
    oyy[p] += r[TYY];
    ozz[p] += r[TZZ];
    oxy[p] += r[TXY];
    oxz[p] += r[TXZ];
    oyz[p] += r[TYZ];
  }
}

/* The row buffers of the treatment at row (j, k): the clipped total solid fraction and the
 * strain rate gdot.  layout: the thread's own copy of the grid (see oldroyd_update). */
static inline void treatment_row(const efsi_grid *layout, int nmat, double *const phi[],
                                 const double *restrict u, const double *restrict v,
                                 const double *restrict w, ptrdiff_t row,
                                 double *restrict phi_row, double *restrict gdot_row)
{
  const int nx = layout->n[0];
  for (int i = 0; i < nx; i++) phi_row[i] = 0.0;
  for (int m = 0; m < nmat; m++) {
    const double *restrict pm = phi[m] + row;
#pragma omp simd
    for (int i = 0; i < nx; i++) phi_row[i] += pm[i];
  }
#pragma omp simd
  for (int i = 0; i < nx; i++) phi_row[i] = clip_unit(phi_row[i]);
#pragma omp simd
  for (int i = 0; i < nx; i++) {
    const velocity_gradient_t L = velocity_gradient_at(u, v, w, row + i, layout->stride,
                                                       layout->inv_h);
    gdot_row[i] = strain_rate_squared(&L);
  }
  for (int i = 0; i < nx; i++) gdot_row[i] = sqrt(gdot_row[i]);
}

void solid_fluid_treatment(const efsi_grid *g, int nmat, double *const phi[], double dt,
                           double kappa, const double *restrict u, const double *restrict v,
                           const double *restrict w, double *const b[6])
{
  double *restrict bxx = b[TXX], *restrict byy = b[TYY], *restrict bzz = b[TZZ],
         *restrict bxy = b[TXY], *restrict bxz = b[TXZ], *restrict byz = b[TYZ];
  const double dt_kappa = dt * kappa;
  const int nx = g->n[0];
#pragma omp parallel for
  for (int k = 0; k < g->n[2]; k++) {
    const efsi_grid layout = *g;
    double phi_buffer[nx], gdot_buffer[nx];
    double *restrict phi_row = phi_buffer, *restrict gdot_row = gdot_buffer;
    for (int j = 0; j < g->n[1]; j++) {
      const ptrdiff_t row = grid_index(g, 0, j, k);
      treatment_row(&layout, nmat, phi, u, v, w, row, phi_row, gdot_row);
#pragma omp simd
      for (int i = 0; i < nx; i++) {
        const ptrdiff_t p = row + i;
        double B[6] = {bxx[p], byy[p], bzz[p], bxy[p], bxz[p], byz[p]};
        treatment_apply(treatment_weight(phi_row[i], dt_kappa, gdot_row[i]), B);
        bxx[p] = B[TXX];
        byy[p] = B[TYY];
        bzz[p] = B[TZZ];
        bxy[p] = B[TXY];
        bxz[p] = B[TXZ];
        byz[p] = B[TYZ];
      }
    }
  }
}

void oldroyd_update(const efsi_grid *g, int nmat, double *const phi[], double dt, double kappa,
                    const double *restrict u, const double *restrict v,
                    const double *restrict w, double *const rate[6], double *const b[6])
{
  double *restrict bxx = b[TXX], *restrict byy = b[TYY], *restrict bzz = b[TZZ],
         *restrict bxy = b[TXY], *restrict bxz = b[TXZ], *restrict byz = b[TYZ];
  const double *restrict rxx = rate[TXX], *restrict ryy = rate[TYY], *restrict rzz = rate[TZZ],
               *restrict rxy = rate[TXY], *restrict rxz = rate[TXZ], *restrict ryz = rate[TYZ];
  const double dt_kappa = dt * kappa;
  const int nx = g->n[0];
#pragma omp parallel for
  for (int k = 0; k < g->n[2]; k++) {
    /* the thread's own copy of the layout: the stores to B cannot alias it, so its strides
     * and spacings stay in registers and the point loop vectorises (through g GCC reloads
     * them after every store: "latch block not empty") */
    const efsi_grid layout = *g;
    double phi_buffer[nx], gdot_buffer[nx];
    double *restrict phi_row = phi_buffer, *restrict gdot_row = gdot_buffer;
    for (int j = 0; j < g->n[1]; j++) {
      const ptrdiff_t row = grid_index(g, 0, j, k);
      treatment_row(&layout, nmat, phi, u, v, w, row, phi_row, gdot_row);
#pragma omp simd
      for (int i = 0; i < nx; i++) {
        const ptrdiff_t p = row + i;
        const velocity_gradient_t L = velocity_gradient_at(u, v, w, p, layout.stride,
                                                           layout.inv_h);
        double B[6] = {bxx[p], byy[p], bzz[p], bxy[p], bxz[p], byz[p]};
        double r[6];
        oldroyd_rate_at(&L, B, r);
        /* the transport, then the treatment, as the separate kernels do them */
        B[TXX] += dt * (rxx[p] + r[TXX]);
        B[TYY] += dt * (ryy[p] + r[TYY]);
        B[TZZ] += dt * (rzz[p] + r[TZZ]);
        B[TXY] += dt * (rxy[p] + r[TXY]);
        B[TXZ] += dt * (rxz[p] + r[TXZ]);
        B[TYZ] += dt * (ryz[p] + r[TYZ]);
        treatment_apply(treatment_weight(phi_row[i], dt_kappa, gdot_row[i]), B);
        bxx[p] = B[TXX];
        byy[p] = B[TYY];
        bzz[p] = B[TZZ];
        bxy[p] = B[TXY];
        bxz[p] = B[TXZ];
        byz[p] = B[TYZ];
      }
    }
  }
}
