/* The Oldroyd rate L.B + B.L^T and the fluid treatment of B (formulas in oldroyd.h, reasoning
 * in docs/solid.md).  Both kernels form the nine entries of L at the cell centre inside the
 * point loop from the face velocities (velocity_gradient.h's stencils), so memory traffic is
 * the three velocities and B, and no gradient arrays exist. */
#include "stencils/oldroyd.h"

#include <float.h>
#include <math.h>
#include <stddef.h>

#include "base/tensor.h"

/* The velocity gradient at one centre, written once for every pair of directions: the
 * diagonal dv_a/dx_a from the two a faces; the cross derivative dv_a/dx_b (s = stride along a,
 * t = stride along b) as the central difference of the face values averaged to the centre. */
static inline double diagonal(const double *restrict va, ptrdiff_t p, ptrdiff_t s, double inv_h)
{
  return (va[p + s] - va[p]) * inv_h;
}

static inline double cross(const double *restrict va, ptrdiff_t p, ptrdiff_t s, ptrdiff_t t,
                           double quarter_inv_h)
{
  return ((va[p + t] + va[p + s + t]) - (va[p - t] + va[p + s - t])) * quarter_inv_h;
}

typedef struct { double xx, xy, xz, yx, yy, yz, zx, zy, zz; } gradient;

/* Forced inline (as WENO5_INLINE): with -march=native GCC otherwise calls it and the two
 * point loops do not vectorise. */
static inline __attribute__((always_inline)) gradient
gradient_at(const efsi_grid *g, const double *restrict u, const double *restrict v,
            const double *restrict w, ptrdiff_t p)
{
  const ptrdiff_t sx = g->stride[0], sy = g->stride[1], sz = g->stride[2];
  const double ihx = g->inv_h[0], ihy = g->inv_h[1], ihz = g->inv_h[2];
  const double qx = 0.25 * ihx, qy = 0.25 * ihy, qz = 0.25 * ihz;
  gradient L;
  L.xx = diagonal(u, p, sx, ihx);
  L.xy = cross(u, p, sx, sy, qy);
  L.xz = cross(u, p, sx, sz, qz);
  L.yx = cross(v, p, sy, sx, qx);
  L.yy = diagonal(v, p, sy, ihy);
  L.yz = cross(v, p, sy, sz, qz);
  L.zx = cross(w, p, sz, sx, qx);
  L.zy = cross(w, p, sz, sy, qy);
  L.zz = diagonal(w, p, sz, ihz);
  return L;
}

void oldroyd_rate_add(const efsi_grid *g, const double *restrict u, const double *restrict v,
                      const double *restrict w, double *const b[6], double *const out[6])
{
  const double *restrict bxx = b[TXX], *restrict byy = b[TYY], *restrict bzz = b[TZZ],
               *restrict bxy = b[TXY], *restrict bxz = b[TXZ], *restrict byz = b[TYZ];
  double *restrict oxx = out[TXX], *restrict oyy = out[TYY], *restrict ozz = out[TZZ],
         *restrict oxy = out[TXY], *restrict oxz = out[TXZ], *restrict oyz = out[TYZ];
#pragma omp parallel for
  for (int k = 0; k < g->n[2]; k++)
    for (int j = 0; j < g->n[1]; j++) {
      const ptrdiff_t row = grid_index(g, 0, j, k);
#pragma omp simd
      for (int i = 0; i < g->n[0]; i++) {
        const ptrdiff_t p = row + i;
        const gradient L = gradient_at(g, u, v, w, p);
        const double Bxx = bxx[p], Byy = byy[p], Bzz = bzz[p], Bxy = bxy[p], Bxz = bxz[p],
                     Byz = byz[p];
        /* M = L.B; L.B + B.L^T = M + M^T because B is symmetric. */
        const double Mxx = L.xx * Bxx + L.xy * Bxy + L.xz * Bxz;
        const double Mxy = L.xx * Bxy + L.xy * Byy + L.xz * Byz;
        const double Mxz = L.xx * Bxz + L.xy * Byz + L.xz * Bzz;
        const double Myx = L.yx * Bxx + L.yy * Bxy + L.yz * Bxz;
        const double Myy = L.yx * Bxy + L.yy * Byy + L.yz * Byz;
        const double Myz = L.yx * Bxz + L.yy * Byz + L.yz * Bzz;
        const double Mzx = L.zx * Bxx + L.zy * Bxy + L.zz * Bxz;
        const double Mzy = L.zx * Bxy + L.zy * Byy + L.zz * Byz;
        const double Mzz = L.zx * Bxz + L.zy * Byz + L.zz * Bzz;
        oxx[p] += 2.0 * Mxx;
        oyy[p] += 2.0 * Myy;
        ozz[p] += 2.0 * Mzz;
        oxy[p] += Mxy + Myx;
        oxz[p] += Mxz + Mzx;
        oyz[p] += Myz + Mzy;
      }
    }
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
    /* Row buffers: the total solid fraction (summed material by material, as nmat varies
     * from case to case) and the strain rate.  The square root has a loop of its own: sqrt
     * may set errno, so at -O2 a loop calling it is not vectorised, and the long loops
     * around it should be. */
    double phi_buffer[nx], gdot_buffer[nx];
    double *restrict phi_row = phi_buffer, *restrict gdot_row = gdot_buffer;
    for (int j = 0; j < g->n[1]; j++) {
      const ptrdiff_t row = grid_index(g, 0, j, k);
      for (int i = 0; i < nx; i++) phi_row[i] = 0.0;
      for (int m = 0; m < nmat; m++) {
        const double *restrict pm = phi[m] + row;
#pragma omp simd
        for (int i = 0; i < nx; i++) phi_row[i] += pm[i];
      }
      /* Clipped to [0, 1] (WENO5 lets phi over- and undershoot slightly), in a loop of its
       * own: at -O2 GCC does not if-convert a select inside the long loop below. */
#pragma omp simd
      for (int i = 0; i < nx; i++) {
        const double above = phi_row[i] > 0.0 ? phi_row[i] : 0.0;
        phi_row[i] = above < 1.0 ? above : 1.0;
      }
#pragma omp simd
      for (int i = 0; i < nx; i++) {
        const gradient L = gradient_at(g, u, v, w, row + i);
        /* gdot^2 = 2 D:D with 2 D_ab = L_ab + L_ba. */
        const double dxy = L.xy + L.yx, dxz = L.xz + L.zx, dyz = L.yz + L.zy;
        gdot_row[i] = 2.0 * (L.xx * L.xx + L.yy * L.yy + L.zz * L.zz)
                    + (dxy * dxy + dxz * dxz + dyz * dyz);
      }
      for (int i = 0; i < nx; i++) gdot_row[i] = sqrt(gdot_row[i]);
#pragma omp simd
      for (int i = 0; i < nx; i++) {
        const ptrdiff_t p = row + i;
        const double ph = phi_row[i];
        /* f = 1/(1 + dt r) with r = kappa gdot (1 - phi)/phi, multiplied through by phi so
         * that phi = 0 gives f = 0 (not 0/0); DBL_MIN keeps phi = 0 at rest well defined and
         * changes no denominator above 1e-292. */
        const double f = ph / (ph + dt_kappa * gdot_row[i] * (1.0 - ph) + DBL_MIN);
        const double one_minus_f = 1.0 - f;
        /* The convex combination f B + (1 - f) I: f = 1 returns B bitwise, f = 0 returns I
         * exactly, and it keeps B symmetric positive definite. */
        bxx[p] = f * bxx[p] + one_minus_f;
        byy[p] = f * byy[p] + one_minus_f;
        bzz[p] = f * bzz[p] + one_minus_f;
        bxy[p] *= f;
        bxz[p] *= f;
        byz[p] *= f;
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
    /* the row buffers of solid_fluid_treatment: clipped solid fraction, strain rate */
    double phi_buffer[nx], gdot_buffer[nx];
    double *restrict phi_row = phi_buffer, *restrict gdot_row = gdot_buffer;
    for (int j = 0; j < g->n[1]; j++) {
      const ptrdiff_t row = grid_index(g, 0, j, k);
      for (int i = 0; i < nx; i++) phi_row[i] = 0.0;
      for (int m = 0; m < nmat; m++) {
        const double *restrict pm = phi[m] + row;
#pragma omp simd
        for (int i = 0; i < nx; i++) phi_row[i] += pm[i];
      }
#pragma omp simd
      for (int i = 0; i < nx; i++) {
        const double above = phi_row[i] > 0.0 ? phi_row[i] : 0.0;
        phi_row[i] = above < 1.0 ? above : 1.0;
      }
#pragma omp simd
      for (int i = 0; i < nx; i++) {
        const gradient L = gradient_at(&layout, u, v, w, row + i);
        const double dxy = L.xy + L.yx, dxz = L.xz + L.zx, dyz = L.yz + L.zy;
        gdot_row[i] = 2.0 * (L.xx * L.xx + L.yy * L.yy + L.zz * L.zz)
                    + (dxy * dxy + dxz * dxz + dyz * dyz);
      }
      for (int i = 0; i < nx; i++) gdot_row[i] = sqrt(gdot_row[i]);
#pragma omp simd
      for (int i = 0; i < nx; i++) {
        const ptrdiff_t p = row + i;
        const gradient L = gradient_at(&layout, u, v, w, p);
        const double Bxx = bxx[p], Byy = byy[p], Bzz = bzz[p], Bxy = bxy[p], Bxz = bxz[p],
                     Byz = byz[p];
        const double Mxx = L.xx * Bxx + L.xy * Bxy + L.xz * Bxz;
        const double Mxy = L.xx * Bxy + L.xy * Byy + L.xz * Byz;
        const double Mxz = L.xx * Bxz + L.xy * Byz + L.xz * Bzz;
        const double Myx = L.yx * Bxx + L.yy * Bxy + L.yz * Bxz;
        const double Myy = L.yx * Bxy + L.yy * Byy + L.yz * Byz;
        const double Myz = L.yx * Bxz + L.yy * Byz + L.yz * Bzz;
        const double Mzx = L.zx * Bxx + L.zy * Bxy + L.zz * Bxz;
        const double Mzy = L.zx * Bxy + L.zy * Byy + L.zz * Byz;
        const double Mzz = L.zx * Bxz + L.zy * Byz + L.zz * Bzz;
        /* the transport, then the treatment, as the separate kernels do them */
        const double nxx = Bxx + dt * (rxx[p] + 2.0 * Mxx);
        const double nyy = Byy + dt * (ryy[p] + 2.0 * Myy);
        const double nzz = Bzz + dt * (rzz[p] + 2.0 * Mzz);
        const double nxy = Bxy + dt * (rxy[p] + (Mxy + Myx));
        const double nxz = Bxz + dt * (rxz[p] + (Mxz + Mzx));
        const double nyz = Byz + dt * (ryz[p] + (Myz + Mzy));
        const double ph = phi_row[i];
        const double f = ph / (ph + dt_kappa * gdot_row[i] * (1.0 - ph) + DBL_MIN);
        const double one_minus_f = 1.0 - f;
        bxx[p] = f * nxx + one_minus_f;
        byy[p] = f * nyy + one_minus_f;
        bzz[p] = f * nzz + one_minus_f;
        bxy[p] = nxy * f;
        bxz[p] = nxz * f;
        byz[p] = nyz * f;
      }
    }
  }
}
