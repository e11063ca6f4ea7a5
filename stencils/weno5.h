/* WENO5 advection (docs/discretisation.md, "Advection"):
 * - non-conservative, of Hamilton-Jacobi type (Jiang & Peng 2000; Osher & Fedkiw ch. 3):
 *   out = -(a . grad f), per direction upwind by the sign of the advecting velocity
 *   interpolated to the point, from five one-sided differences q1..q5 (q1 farthest upwind):
 *     candidates  (2q1 - 7q2 + 11q3)/6,  (-q2 + 5q3 + 2q4)/6,  (2q3 + 5q4 - q5)/6
 *     weights     alpha_k = c_k / (S_k + eps)^2, c = (0.1, 0.6, 0.3), eps = 1e-6 max q_k^2 + 1e-99;
 * - conservative, for the volume fractions: out = -div(a f), the flux a f on each face with a
 *   the face's own velocity and f the Jiang-Shu WENO5 value reconstructed on the upwind side.
 * The per-point formulas below are shared by the CPU kernels (weno5.c) and the GPU's. */
#ifndef EFSI_WENO5_H
#define EFSI_WENO5_H

#include <math.h>
#include <stdint.h>

#include "base/grid.h"
#include "base/portable.h"
#include "stencils/location.h"

/* 2^-e for x = f 2^e, 1 <= f < 2, DBL_MIN <= x < 2^1023 (2^-e then a normal double): the
 * power of two that scales x into [1, 2), exactly, from x's exponent field alone (the biased
 * exponents of x and 2^-e add to 2 x 1023).  No division, no branch, the same bits on every
 * backend.  weno5_derivative's eps lies in [1e-99, 1e-6 max q^2 + 1e-99], inside that range
 * for every |q| below 1e154, past which q^2 overflows anyway. */
EFSI_POINT double eps_scale(double x)
{
  const uint64_t exponent = double_bits(x) & UINT64_C(0x7ff0000000000000);
  return bits_double((UINT64_C(2046) << 52) - exponent);
}

/* The WENO5 combination of five one-sided differences q1..q5 (divided or undivided: the
 * weights do not change when all q are scaled together, eps being relative).  The three
 * weights share one denominator: alpha_k (S1+eps)^2 (S2+eps)^2 (S3+eps)^2 is a product of the
 * other two factors, so the normalisation costs the one division.  The factors S_k + eps are
 * scaled by sigma = 2^-e, e the binary exponent of eps (eps_scale: exact, a few integer
 * operations on eps's bits where a reciprocal of eps cost a second division), into
 * [1, ~7e7], so that the products cannot overflow or underflow in any units; sigma cancels
 * from the ratio. */
EFSI_POINT double weno5_derivative(double q1, double q2, double q3, double q4, double q5)
{
  const double a1 = q1 - 2.0 * q2 + q3, b1 = q1 - 4.0 * q2 + 3.0 * q3;
  const double a2 = q2 - 2.0 * q3 + q4, b2 = q2 - q4;
  const double a3 = q3 - 2.0 * q4 + q5, b3 = 3.0 * q3 - 4.0 * q4 + q5;
  const double s1 = (13.0 / 12.0) * a1 * a1 + 0.25 * b1 * b1;
  const double s2 = (13.0 / 12.0) * a2 * a2 + 0.25 * b2 * b2;
  const double s3 = (13.0 / 12.0) * a3 * a3 + 0.25 * b3 * b3;

  double m = q1 * q1;
  m = q2 * q2 > m ? q2 * q2 : m;
  m = q3 * q3 > m ? q3 * q3 : m;
  m = q4 * q4 > m ? q4 * q4 : m;
  m = q5 * q5 > m ? q5 * q5 : m;
  const double eps = 1e-6 * m + 1e-99, sigma = eps_scale(eps);

  /* t_k = ((S_k + eps) sigma)^2, sigma eps in [1, 2); alpha_k is proportional to c_k / t_k. */
  double t1 = (s1 + eps) * sigma, t2 = (s2 + eps) * sigma, t3 = (s3 + eps) * sigma;
  t1 *= t1;
  t2 *= t2;
  t3 *= t3;
  const double w1 = 0.1 * t2 * t3, w2 = 0.6 * t1 * t3, w3 = 0.3 * t1 * t2;

  const double c1 = 2.0 * q1 - 7.0 * q2 + 11.0 * q3;
  const double c2 = -q2 + 5.0 * q3 + 2.0 * q4;
  const double c3 = 2.0 * q3 + 5.0 * q4 - q5;
  return (w1 * c1 + w2 * c2 + w3 * c3) / (6.0 * (w1 + w2 + w3));
}

/* Upwind WENO5 first difference of f at p along stride s (undivided: times 1/h gives df/dx).
 * The six differences f(m) - f(m-1), m = -2..3, are formed once; the sign of a picks the
 * five that make the left-biased (a > 0) or right-biased derivative by the blend l x + r y
 * with (l, r) = (1, 0) or (0, 1), exact and free of branches: GCC turns a ternary into a
 * branch, sinks the loads of the unused side into it, and without masked loads (SSE2, AVX
 * without AVX2) can then not vectorise the loop. */
EFSI_POINT double weno5_upwind(const double *restrict f, ptrdiff_t p, ptrdiff_t s, double a)
{
  const double dm2 = f[p - 2 * s] - f[p - 3 * s];
  const double dm1 = f[p - s] - f[p - 2 * s];
  const double d0 = f[p] - f[p - s];
  const double d1 = f[p + s] - f[p];
  const double d2 = f[p + 2 * s] - f[p + s];
  const double d3 = f[p + 3 * s] - f[p + 2 * s];
  const double l = 0.5 + copysign(0.5, a), r = 0.5 - copysign(0.5, a);
  return weno5_derivative(l * dm2 + r * d3, l * dm1 + r * d2, l * d0 + r * d1,
                          l * d1 + r * d0, l * d2 + r * dm1);
}

/* weno5_upwind, bit for bit, without its arithmetic where the seven values along the line are
 * equal (a region where f is constant: the diagonal of B = I in the plasma, where the fluid
 * treatment sets it exactly).  The six differences are then +0 (all bits zero); the blend of
 * +0s is +0 whatever the sign of a, and weno5_derivative of five +0s is +0 (S_k = 0, so
 * t_k = 1 and the weights are c_k; the candidates are +0).  A -0 among the differences (f
 * holding both zeros) takes the full formula, whose result may then be -0.  Worth its test
 * on the GPU, where a warp whose 32 points all lie in such a region skips the formula
 * (tests/test_weno5.c: the same bits on every input; tests/test_gpu_kernels.c: b_advance in
 * a plasma region); the CPU's SIMD loops would compute both sides, so they keep
 * weno5_upwind.  The differences are formed for the test and again by weno5_upwind, in the
 * same order, which the compiler merges. */
EFSI_POINT double weno5_upwind_sparse(const double *restrict f, ptrdiff_t p, ptrdiff_t s,
                                      double a)
{
  uint64_t bits = 0;
  EFSI_UNROLL(6)
  for (int m = -2; m <= 3; m++) bits |= double_bits(f[p + m * s] - f[p + (m - 1) * s]);
  if (bits == 0) return 0.0;
  return weno5_upwind(f, p, s, a);
}

/* WENO5 value of f on the face between the points p - s and p, from the five values on the
 * upwind side of the face velocity a (the same blend as weno5_upwind: exact, branch-free).
 * weno5_derivative's combination of five values is the Jiang-Shu reconstruction. */
EFSI_POINT double weno5_face(const double *restrict f, ptrdiff_t p, ptrdiff_t s, double a)
{
  const double l = 0.5 + copysign(0.5, a), r = 0.5 - copysign(0.5, a);
  const double fm3 = f[p - 3 * s], fm2 = f[p - 2 * s], fm1 = f[p - s];
  const double f0 = f[p], f1 = f[p + s], f2 = f[p + 2 * s];
  return weno5_derivative(l * fm3 + r * f2, l * fm2 + r * f1, l * fm1 + r * f0,
                          l * f0 + r * fm1, l * f1 + r * fm2);
}

/* What the advection of one location needs of the grid: strides, inverse spacings, and for
 * each velocity component d the offsets o[d][0..3] from a point to the four faces of that
 * component whose mean is the advecting velocity there (weno5_stencil). */
typedef struct {
  ptrdiff_t s[3];
  double inv_h[3];
  ptrdiff_t o[3][4];
} weno5_stencil_t;

/* The stencil of location loc: at a centre the mean of the two faces, at a face of another
 * direction the mean of the four surrounding faces, along its own direction the value. */
static inline weno5_stencil_t weno5_stencil(const efsi_grid *g, int loc)
{
  weno5_stencil_t st;
  const int e = location_direction(loc);
  for (int d = 0; d < 3; d++) {
    const ptrdiff_t sd = g->stride[d];
    ptrdiff_t *o = st.o[d];
    st.s[d] = sd;
    st.inv_h[d] = g->inv_h[d];
    if (e == d) {
      o[0] = o[1] = o[2] = o[3] = 0;
    } else if (e < 0) {
      o[0] = o[2] = 0;
      o[1] = o[3] = sd;
    } else {
      const ptrdiff_t se = g->stride[e];
      o[0] = 0;
      o[1] = sd;
      o[2] = -se;
      o[3] = sd - se;
    }
  }
  return st;
}

/* Advecting component at p: the mean of four face values at offsets o[0..3] (pairs summed
 * first, so four equal offsets return the value exactly). */
EFSI_POINT double weno5_interpolate(const double *restrict a, ptrdiff_t p, const ptrdiff_t o[4])
{
  return 0.25 * ((a[p + o[0]] + a[p + o[1]]) + (a[p + o[2]] + a[p + o[3]]));
}

/* The advecting velocity at p divided by the spacings, (u/hx, v/hy, w/hz) interpolated to the
 * point: what advection_with needs, the same for every field advected at that location. */
typedef struct { double x, y, z; } advecting_t;

EFSI_POINT advecting_t advecting_velocity(const weno5_stencil_t *st, const double *restrict u,
                                          const double *restrict v, const double *restrict w,
                                          ptrdiff_t p)
{
  advecting_t a = {weno5_interpolate(u, p, st->o[0]) * st->inv_h[0],
                   weno5_interpolate(v, p, st->o[1]) * st->inv_h[1],
                   weno5_interpolate(w, p, st->o[2]) * st->inv_h[2]};
  return a;
}

/* -(a . grad f) at point p with the advecting velocity a of advecting_velocity. */
EFSI_POINT double advection_with(const weno5_stencil_t *st, const double *restrict f,
                                 advecting_t a, ptrdiff_t p)
{
  return -(a.x * weno5_upwind(f, p, st->s[0], a.x) + a.y * weno5_upwind(f, p, st->s[1], a.y)
           + a.z * weno5_upwind(f, p, st->s[2], a.z));
}

/* The same bits through weno5_upwind_sparse: for a field that is constant over regions. */
EFSI_POINT double advection_with_sparse(const weno5_stencil_t *st, const double *restrict f,
                                        advecting_t a, ptrdiff_t p)
{
  return -(a.x * weno5_upwind_sparse(f, p, st->s[0], a.x)
           + a.y * weno5_upwind_sparse(f, p, st->s[1], a.y)
           + a.z * weno5_upwind_sparse(f, p, st->s[2], a.z));
}

/* -(a . grad f) at point p. */
EFSI_POINT double advection_at(const weno5_stencil_t *st, const double *restrict f,
                               const double *restrict u, const double *restrict v,
                               const double *restrict w, ptrdiff_t p)
{
  return advection_with(st, f, advecting_velocity(st, u, v, w, p), p);
}

/* THINC value of a volume fraction f on the face between p - s_d and p (docs/method.md,
 * "The solid in the step"), for a face whose upwind cell c (of the face velocity a) is an
 * interface cell (thinc_interface: the callers test it, thinc_flux_change on the CPU and
 * the GPU's list of interface cells).  Where c, of mean fbar, is a peak or a plateau along
 * d the value is fbar; where it lies between its neighbours along d (monotone) its
 * profile is taken as the hyperbolic tangent 1/2 (1 + g tanh(beta_d (x - x0))), x in
 * [0, 1] across c, g the sign of the neighbours' difference, x0 such that the profile's
 * mean is fbar, and the face value is the profile's mean over the part of c that crosses the face in the step dt: the interval
 * [1 - nu, 1] (a >= 0) or [0, nu] (a < 0), nu = |a| dt / h_d the face's Courant number
 * (the flux of the semi-Lagrangian THINC scheme, so that a forward Euler step cannot move
 * more of c across the face than c holds; nu -> 0 gives the profile's value at the face).
 * beta_d = beta |n_d| + 0.01 with n the unit normal of f at c by central differences: the
 * steepness follows the interface's direction, so a tilted interface is not pulled towards
 * the grid axes.  In closed form, with Q = exp(beta_d g (2 fbar - 1)) and
 * Y = exp(2 beta_d x0) = (e^beta_d - Q)/(Q - e^-beta_d), A = beta_d (x_a - x0) at the
 * interval's start x_a and delta = beta_d nu, the mean is
 * 1/2 + g log(cosh(A + delta)/cosh(A)) / (2 delta), the logarithm written as
 * log1p(cosh(delta) - 1 + tanh(A) sinh(delta)) through expm1, exact to round-off for every
 * nu > 0; tanh(A) comes from e^2A = e^(2 beta_d x_a) / Y, so four exponentials or
 * logarithms in all.  Reads f at c +- s_e for every e: edges of the halo. */
#define THINC_EPS 1e-8
/* Whether a cell of volume fraction fc is an interface cell, where THINC applies. */
EFSI_POINT int thinc_interface(double fc) { return fc > THINC_EPS && fc < 1 - THINC_EPS; }

EFSI_POINT double thinc_face(const weno5_stencil_t *st, const double *restrict f, ptrdiff_t p,
                             int d, double a, double beta, double dt)
{
  const ptrdiff_t s = st->s[d];
  const ptrdiff_t c = a >= 0 ? p - s : p;
  const double fc = f[c], fm = f[c - s], fp = f[c + s];
  if (!((fp - fc) * (fc - fm) > 0)) return fc;   /* a peak or a plateau: the donor's value */
  double n2 = 0, nd = 0;
  EFSI_UNROLL(3)
  for (int e = 0; e < 3; e++) {
    const double ne = (f[c + st->s[e]] - f[c - st->s[e]]) * st->inv_h[e];
    n2 += ne * ne;
    if (e == d) nd = ne;
  }
  const double bd = beta * fabs(nd) / sqrt(n2) + 0.01;   /* n2 > 0: f differs along d */
  const double g = fp > fm ? 1.0 : -1.0;
  const double q = exp(bd * g * (2 * fc - 1)), eb = exp(bd), emb = 1 / eb;
  const double y = (eb - q) / (q - emb);
  const double nu = fmin(fabs(a) * dt * st->inv_h[d], 1.0), delta = bd * nu;
  const double ep = expm1(delta), em = -ep / (1 + ep);   /* e^delta - 1, e^-delta - 1 */
  /* e^2A with x_a = 1 - nu (a >= 0: e^(2 beta_d) e^(-2 delta) / Y) or 0 (1 / Y) */
  const double e2a = a >= 0 ? eb * eb * ((1 + em) * (1 + em)) / y : 1 / y;
  const double ta = (e2a - 1) / (e2a + 1);   /* tanh(A) */
  if (!(delta > 0)) return 0.5 * (1 + g * ta);   /* a = 0: no flux; the value at the face */
  return 0.5 * (1 + g * log1p(0.5 * (ep + em) + 0.5 * ta * (ep - em)) / delta);
}

/* The flux a f through the face between q - s_d and q (face velocity a = a_d[q]) with
 * WENO5's face value. */
EFSI_POINT double weno5_flux(const double *restrict f, const double *restrict a, ptrdiff_t q,
                             ptrdiff_t s)
{
  return a[q] * weno5_face(f, q, s, a[q]);
}

/* The same with THINC's face value, the face's upwind cell an interface cell. */
EFSI_POINT double thinc_flux(const weno5_stencil_t *st, const double *restrict f, ptrdiff_t q,
                             int d, double a, double beta, double dt)
{
  return a * thinc_face(st, f, q, d, a, beta, dt);
}

/* The change of that flux when the face value is THINC's instead of WENO5's: zero unless
 * the upwind cell is an interface cell.  The CPU adds it face by face to WENO5's rate
 * (stencils/transport.c); the GPU stores every face's flux and overwrites the THINC faces'
 * (stencils/cuda/transport.cu). */
EFSI_POINT double thinc_flux_change(const weno5_stencil_t *st, const double *restrict f,
                                    ptrdiff_t q, int d, double a, double beta, double dt)
{
  const ptrdiff_t s = st->s[d];
  if (!thinc_interface(f[a >= 0 ? q - s : q])) return 0;
  return a * (thinc_face(st, f, q, d, a, beta, dt) - weno5_face(f, q, s, a));
}

/* -div(a f) at the cell centre p from the fluxes through its faces: flux_d[q] through the
 * face between q - s_d and q.  The same sum, in the same order, as
 * advection_conservative_at, so WENO5's stored fluxes give its bits. */
EFSI_POINT double flux_divergence_at(const weno5_stencil_t *st, const double *restrict flux_x,
                                     const double *restrict flux_y,
                                     const double *restrict flux_z, ptrdiff_t p)
{
  const double *const flux[3] = {flux_x, flux_y, flux_z};
  double change[3];   /* high face's flux less the low face's, per direction */
  EFSI_UNROLL(3)
  for (int d = 0; d < 3; d++) change[d] = flux[d][p + st->s[d]] - flux[d][p];
  return -(change[0] * st->inv_h[0] + change[1] * st->inv_h[1] + change[2] * st->inv_h[2]);
}

/* -div(a f) at the cell centre p: the difference of the face fluxes along each direction
 * (WENO5 face values; the CPU adds THINC's changes face by face afterwards). */
EFSI_POINT double advection_conservative_at(const weno5_stencil_t *st,
                                            const double *restrict f,
                                            const double *restrict u,
                                            const double *restrict v,
                                            const double *restrict w, ptrdiff_t p)
{
  const double *const a[3] = {u, v, w};
  double flux[3];   /* high face's flux less the low face's, per direction */
  EFSI_UNROLL(3)
  for (int d = 0; d < 3; d++) {
    const ptrdiff_t s = st->s[d];
    flux[d] = weno5_flux(f, a[d], p + s, s) - weno5_flux(f, a[d], p, s);
  }
  return -(flux[0] * st->inv_h[0] + flux[1] * st->inv_h[1] + flux[2] * st->inv_h[2]);
}

/* Floating-point operations (add, mul = 1, FMA = 2) per point, counted from the formulas
 * above: advecting_velocity 15 (three directions x interpolation 5); advection_with three
 * directions x (six differences 6, upwind blend 17, weno5_derivative 81) + the sum 5 = 317;
 * advection_at both, 332; the conservative form three directions x (two faces x (face value
 * 98: blend 17 and weno5_derivative 81, times the face velocity 1) + their difference 1)
 * + 5 = 602.  weno5_derivative's 81: the differences 18, the smoothness indicators 15, the
 * largest square 9 (five products, four max), eps 2, the factors t_k 9, the weights 6, the
 * candidates 13, the combination 9 with its division (eps_scale's integer operations are
 * not counted). */
#define ADVECTING_FLOPS 15.0
#define ADVECTION_WITH_FLOPS 317.0
#define ADVECTION_FLOPS (ADVECTING_FLOPS + ADVECTION_WITH_FLOPS)
#define ADVECTION_CONSERVATIVE_FLOPS 602.0

/* The CPU's conservative transport (stencils/transport.c): out = -div(a f) at owned cell
 * centres, WENO5 face values (thinc_beta = 0) or THINC ones in interface cells
 * (thinc_beta > 0, the steepness; thinc_face: their fluxes are those of a forward Euler step
 * of dt).  The fluxes telescope, so the sum of f over a periodic or walled box changes only
 * by round-off, whatever div a is.  Halos needed valid: f width 3 (with THINC its edges
 * too); u, v, w width 1 (the high faces).  The step runs it inside phi_advance
 * (kernel_list.h); the tests on their own. */
void advection_weno5_conservative(const efsi_grid *g, const double *restrict f,
                                  const double *restrict u, const double *restrict v,
                                  const double *restrict w, double thinc_beta, double dt,
                                  double *restrict out);

#endif
