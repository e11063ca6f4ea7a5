/* Local reductions on the CPU (the contract is in reductions.h): one OpenMP thread per
 * z-plane forms the plane's partial results, rows in j order, each row a SIMD reduction;
 * reduce_planes combines the planes in k order. */
#include "base/dd_contract_off.h"   /* first: the double-double sums (base/dd.h) */
#include "stencils/kernel_list.h"

#include <math.h>
#include <string.h>

#include "base/tensor.h"

/* The rows of plane k in j order: row is the index of the point (0, j, k). */
#define FOR_ROWS_OF_PLANE(g, k, row)                                                      \
  for (int j_ = 0; j_ < (g)->n[1]; j_++)                                                   \
    for (ptrdiff_t row = grid_index(g, 0, j_, k), once_ = 1; once_; once_ = 0)

/* plane[k] = the sum over the owned points p of plane k of the expression (rows in j order,
 * a SIMD reduction along each row). */
#define PLANE_SUMS(g, plane, p, expression)                                               \
  _Pragma("omp parallel for")                                                             \
  for (int k_ = 0; k_ < (g)->n[2]; k_++) {                                                 \
    double sum_ = 0.0;                                                                    \
    FOR_ROWS_OF_PLANE(g, k_, row_)                                                        \
      _Pragma("omp simd reduction(+ : sum_)")                                              \
      for (ptrdiff_t p = row_; p < row_ + (g)->n[0]; p++) sum_ += (expression);           \
    (plane)[k_] = sum_;                                                                   \
  }

void reduce_planes(const double *plane, int planes, int count, const int *combine,
                   double *out)
{
  for (int c = 0; c < count; c++) out[c] = combine && combine[c] ? -INFINITY : 0.0;
  for (int k = 0; k < planes; k++)
    for (int c = 0; c < count; c++) {
      const double x = plane[(size_t)k * count + c];
      out[c] = combine && combine[c] ? fmax(out[c], x) : out[c] + x;
    }
}

void reduce_planes_dd(const double *plane, int planes, int count, double *out)
{
  for (int c = 0; c < count; c++) {
    dd_sum s = {0.0, 0.0};
    for (int k = 0; k < planes; k++) {
      const double *pk = plane + 2 * ((size_t)k * count + c);
      const dd_sum t = {pk[0], pk[1]};
      s = dd_add_dd(s, t);
    }
    out[2 * c] = s.hi;
    out[2 * c + 1] = s.lo;
  }
}

/* Lanes of the SIMD loop of acm_sums: each adds every ACM_LANES-th point of a row into its
 * own double-double accumulators, and the lanes are added in order at the end of the plane
 * (the order does not matter for the rounded result; a fixed one keeps runs bitwise). */
enum { ACM_LANES = 8 };

/* Lane l of the accumulators hi, lo [SUM_COUNT][ACM_LANES] += the terms at point q. */
static inline __attribute__((always_inline)) void
acm_accumulate(double hi[][ACM_LANES], double lo[][ACM_LANES], int l,
               const double *restrict div, const double *restrict lap_div,
               const double *restrict p, const double *restrict lap_p,
               const double *restrict u, ptrdiff_t q)
{
  double t[SUM_COUNT];
  acm_terms(div, lap_div, p, lap_p, u, q, t);
#define ADD(c) do { const dd_sum s_ = dd_add((dd_sum){hi[c][l], lo[c][l]}, t[c]); \
                    hi[c][l] = s_.hi; lo[c][l] = s_.lo; } while (0)
  ADD(0); ADD(1); ADD(2); ADD(3); ADD(4); ADD(5); ADD(6); ADD(7); ADD(8); ADD(9); ADD(10);
#undef ADD
}

void acm_sums(const efsi_grid *g, const double *restrict div, const double *restrict lap_div,
              const double *restrict p, const double *restrict lap_p, const double *restrict u,
              efsi_scratch *scratch, double sums[2 * SUM_COUNT])
{
  double *restrict plane = scratch_work(scratch, (size_t)g->n[2] * 2 * SUM_COUNT * sizeof(double));
  _Static_assert(SUM_COUNT == 11, "acm_accumulate adds eleven sums");
  const int n0 = g->n[0], whole = n0 / ACM_LANES * ACM_LANES;
#pragma omp parallel for
  for (int k = 0; k < g->n[2]; k++) {
    double hi[SUM_COUNT][ACM_LANES], lo[SUM_COUNT][ACM_LANES];
    for (int c = 0; c < SUM_COUNT; c++)
      for (int l = 0; l < ACM_LANES; l++) hi[c][l] = lo[c][l] = 0.0;
    FOR_ROWS_OF_PLANE(g, k, row) {
      for (int i0 = 0; i0 < whole; i0 += ACM_LANES) {
#pragma omp simd
        for (int l = 0; l < ACM_LANES; l++)
          acm_accumulate(hi, lo, l, div, lap_div, p, lap_p, u, row + i0 + l);
      }
      for (int i = whole; i < n0; i++)
        acm_accumulate(hi, lo, i - whole, div, lap_div, p, lap_p, u, row + i);
    }
    double *pk = plane + 2 * (size_t)k * SUM_COUNT;
    for (int c = 0; c < SUM_COUNT; c++) {
      dd_sum s = {0.0, 0.0};
      for (int l = 0; l < ACM_LANES; l++) s = dd_add_dd(s, (dd_sum){hi[c][l], lo[c][l]});
      pk[2 * c] = s.hi;
      pk[2 * c + 1] = s.lo;
    }
  }
  reduce_planes_dd(plane, g->n[2], SUM_COUNT, sums);
}

void flow_norms(const efsi_grid *g, double scale, const double *restrict u,
                const double *restrict v, const double *restrict w,
                const double *restrict div, efsi_scratch *scratch, double out[FLOW_COUNT])
{
  double *restrict plane = scratch_work(scratch, (size_t)g->n[2] * FLOW_COUNT * sizeof(double));
#pragma omp parallel for
  for (int k = 0; k < g->n[2]; k++) {
    double ke = 0, d2 = 0, us = 0, umax = 0, dmax = 0;
    FOR_ROWS_OF_PLANE(g, k, row) {
#pragma omp simd reduction(+ : ke, d2, us) reduction(max : umax, dmax)
      for (int i = 0; i < g->n[0]; i++) {
        double x[FLOW_COUNT];
        flow_terms(u, v, w, div, scale, row + i, x);
        ke += x[FLOW_KINETIC];
        d2 += x[FLOW_DIV2];
        us += x[FLOW_U];
        umax = fmax(umax, x[FLOW_SPEED_MAX]);
        dmax = fmax(dmax, x[FLOW_DIV_MAX]);
      }
    }
    const double partial[FLOW_COUNT] = {ke, d2, us, umax, dmax};   /* the FLOW_ order */
    memcpy(plane + (size_t)k * FLOW_COUNT, partial, sizeof partial);
  }
  static const int combine[FLOW_COUNT] = {0, 0, 0, 1, 1};
  reduce_planes(plane, g->n[2], FLOW_COUNT, combine, out);
}

void phi_moments(const efsi_grid *g, const double *restrict phi, efsi_scratch *scratch,
                 double out[MOMENT_COUNT])
{
  double *restrict plane = scratch_work(scratch, (size_t)g->n[2] * MOMENT_COUNT * sizeof(double));
  const double hx = g->h[0], hy = g->h[1], hz = g->h[2];
  const double x0 = first_centre(g, 0), y0 = first_centre(g, 1), z0 = first_centre(g, 2);
#pragma omp parallel for
  for (int k = 0; k < g->n[2]; k++) {
    const double z = z0 + k * hz;
    double s1 = 0, sx = 0, sxx = 0, sy = 0, syy = 0, sxy = 0;
    for (int j = 0; j < g->n[1]; j++) {
      const ptrdiff_t row = grid_index(g, 0, j, k);
      const double y = y0 + j * hy;
      double r1 = 0, rx = 0, rxx = 0;
#pragma omp simd reduction(+ : r1, rx, rxx)
      for (int i = 0; i < g->n[0]; i++) {
        const double f = phi[row + i], x = x0 + i * hx;
        r1 += f;
        rx += f * x;
        rxx += f * x * x;
      }
      s1 += r1;
      sx += rx;
      sxx += rxx;
      sy += y * r1;
      syy += y * y * r1;
      sxy += y * rx;
    }
    /* in the order of the MOMENT_ names */
    const double partial[MOMENT_COUNT] = {s1, sx, sy, z * s1, sxx, syy, z * z * s1, sxy,
                                          z * sx, z * sy};
    memcpy(plane + (size_t)k * MOMENT_COUNT, partial, sizeof partial);
  }
  reduce_planes(plane, g->n[2], MOMENT_COUNT, NULL, out);
}

double elastic_energy(const efsi_grid *g, int nmat, const double *modulus,
                      double *const phi[], double *const b[6], efsi_scratch *scratch)
{
  if (nmat == 0) return 0.0;
  double *restrict plane = scratch_work(scratch, (size_t)g->n[2] * sizeof(double));
  const double *restrict bxx = b[TXX], *restrict byy = b[TYY], *restrict bzz = b[TZZ];
  PLANE_SUMS(g, plane, p, elastic_density_at(nmat, modulus, phi, bxx, byy, bzz, p));
  double total;
  reduce_planes(plane, g->n[2], 1, NULL, &total);
  return 0.5 * total * g->h[0] * g->h[1] * g->h[2];
}

void det_range(const efsi_grid *g, int nmat, double *const phi[], double *const b[6],
               double phi_min, efsi_scratch *scratch, double range[2])
{
  double *restrict plane = scratch_work(scratch, (size_t)g->n[2] * 2 * sizeof(double));
  const double *restrict bxx = b[TXX], *restrict byy = b[TYY], *restrict bzz = b[TZZ],
               *restrict bxy = b[TXY], *restrict bxz = b[TXZ], *restrict byz = b[TYZ];
#pragma omp parallel for
  for (int k = 0; k < g->n[2]; k++) {
    double lo = INFINITY, hi = -INFINITY;
    FOR_ROWS_OF_PLANE(g, k, row) {
      for (int i = 0; i < g->n[0]; i++) {
        const ptrdiff_t p = row + i;
        if (solid_fraction_at(nmat, phi, p) < phi_min) continue;
        const double det = symmetric_det(bxx[p], byy[p], bzz[p], bxy[p], bxz[p], byz[p]);
        lo = fmin(lo, det);
        hi = fmax(hi, det);
      }
    }
    plane[2 * (size_t)k] = -lo;
    plane[2 * (size_t)k + 1] = hi;
  }
  static const int combine[2] = {1, 1};
  double extremes[2];
  reduce_planes(plane, g->n[2], 2, combine, extremes);
  range[0] = -extremes[0];
  range[1] = extremes[1];
}

void wall_shear_sums(const efsi_grid *g, int d, double mu, const double *restrict u,
                     const double *restrict tangential, const double u_wall[2],
                     efsi_scratch *scratch, double sum_count[2])
{
  (void)scratch;   /* the faces are added as they are formed */
  const int other = 3 - d;                       /* tangential direction other than x */
  const ptrdiff_t along = g->stride[other];
  const double scale = mu * 2.0 * g->inv_h[d];
  for (int side = 0; side < 2; side++) {
    if (!(side ? g->wall_hi[d] : g->wall_lo[d])) continue;
    for (int b = 0; b < g->n[other]; b++)
      for (int i = 0; i < g->n[0]; i++) {
        int idx[3] = {i, 0, 0};
        idx[d] = side ? g->n[d] - 1 : 0;
        idx[other] = b;
        const ptrdiff_t at = grid_index(g, idx[0], idx[1], idx[2]);
        const double t1 = u[at] - u_wall[side];
        const double t2 = 0.5 * (tangential[at] + tangential[at + along]);
        sum_count[0] += scale * sqrt(t1 * t1 + t2 * t2);
        sum_count[1] += 1.0;
      }
  }
}

void lumen_sums(const efsi_grid *g, double mu, const double *restrict phi_wall,
                const double *restrict phi_rbc, const double *restrict u,
                const double *restrict v, const double *restrict w, efsi_scratch *scratch,
                double out[LUMEN_COUNT])
{
  double *restrict plane = scratch_work(scratch, (size_t)g->n[2] * LUMEN_COUNT * sizeof(double));
  const ptrdiff_t s[3] = {1, g->stride[1], g->stride[2]};
  const double h[3] = {g->h[0], g->h[1], g->h[2]};
  /* cell (j, k) lies at (y0 + j h1, z0 + k h2) from the axis */
  const double y0 = lumen_first_centre(g, 1), z0 = lumen_first_centre(g, 2);
#pragma omp parallel for
  for (int k = 0; k < g->n[2]; k++) {
    double partial[LUMEN_COUNT] = {0};
    for (int j = 0; j < g->n[1]; j++) {
      const ptrdiff_t row = grid_index(g, 0, j, k);
      for (int i = 0; i < g->n[0]; i++) {
        double x[LUMEN_COUNT];
        lumen_at(phi_wall, phi_rbc, u, v, w, row + i, y0 + j * h[1], z0 + k * h[2], s, h, mu,
                 x);
        for (int c = 0; c < LUMEN_COUNT; c++)
          partial[c] = c == LUMEN_SHEAR_MAX ? fmax(partial[c], x[c]) : partial[c] + x[c];
      }
    }
    memcpy(plane + (size_t)k * LUMEN_COUNT, partial, sizeof partial);
  }
  static const int combine[LUMEN_COUNT] = {0, 0, 0, 0, 1};
  reduce_planes(plane, g->n[2], LUMEN_COUNT, combine, out);
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
