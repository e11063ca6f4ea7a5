/* Non-conservative advection -(a . grad f) by fifth-order Hamilton-Jacobi WENO (Jiang & Peng
 * 2000; Osher & Fedkiw ch. 3), per direction upwind by the sign of the advecting velocity
 * interpolated to the point.  From five one-sided differences q1..q5 (q1 farthest upwind):
 *   candidates  (2q1 - 7q2 + 11q3)/6,  (-q2 + 5q3 + 2q4)/6,  (2q3 + 5q4 - q5)/6
 *   weights     alpha_k = c_k / (S_k + eps)^2, c = (0.1, 0.6, 0.3), eps = 1e-6 max q_k^2 + 1e-99. */
#ifndef EFSI_WENO5_H
#define EFSI_WENO5_H

#include "base/grid.h"
#include "stencils/location.h"

/* The per-point WENO5 functions must be inlined into the point loop, or the call stops its
 * vectorisation: at -O2 GCC declines to inline a body of this size used three times. */
#if defined(__GNUC__)
#define WENO5_INLINE static inline __attribute__((always_inline))
#else
#define WENO5_INLINE static inline
/* out = -div(a f) at owned cell centres, the conservative form of the transport of a
 * volume fraction: per direction the flux a f on each face, a the face's own velocity
 * component (exactly the staggered unknown) and f the WENO5 (Jiang-Shu) value on the face
 * reconstructed from the five cells on its upwind side.  The fluxes telescope, so the sum
 * of f over a periodic or walled box changes only by round-off, whatever div a is.
 * Halos needed valid: f width 3; u, v, w width 1 (the high faces). */
void advection_weno5_conservative(const efsi_grid *g, const double *restrict f,
                                  const double *restrict u, const double *restrict v,
                                  const double *restrict w, double *restrict out);

#endif

/* The WENO5 combination of five one-sided differences q1..q5 (divided or undivided: the
 * weights do not change when all q are scaled together, eps being relative).  The three
 * weights share one denominator: alpha_k (S1+eps)^2 (S2+eps)^2 (S3+eps)^2 is a product of the
 * other two factors, so the normalisation costs one division; a second reciprocal, of eps,
 * scales the factors 1 + S_k/eps into [1, ~3e7] so that the products cannot overflow or
 * underflow in any units. */
WENO5_INLINE double weno5_derivative(double q1, double q2, double q3, double q4, double q5)
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
  const double inv_eps = 1.0 / (1e-6 * m + 1e-99);

  /* t_k = ((S_k + eps)/eps)^2; alpha_k is proportional to c_k / t_k. */
  double t1 = 1.0 + s1 * inv_eps, t2 = 1.0 + s2 * inv_eps, t3 = 1.0 + s3 * inv_eps;
  t1 *= t1;
  t2 *= t2;
  t3 *= t3;
  const double w1 = 0.1 * t2 * t3, w2 = 0.6 * t1 * t3, w3 = 0.3 * t1 * t2;

  const double c1 = 2.0 * q1 - 7.0 * q2 + 11.0 * q3;
  const double c2 = -q2 + 5.0 * q3 + 2.0 * q4;
  const double c3 = 2.0 * q3 + 5.0 * q4 - q5;
  return (w1 * c1 + w2 * c2 + w3 * c3) / (6.0 * (w1 + w2 + w3));
}

/* out = -(a . grad f) at every updated point of location loc (location.h), a = (u, v, w)
 * interpolated to the point: at a centre the mean of the two faces, at a face of another
 * direction the mean of the four surrounding faces, along its own direction the value itself.
 * Halos needed valid: f width 3; u, v, w width 1.  Other points of out are left untouched. */
void advection_weno5(const efsi_grid *g, int loc, const double *restrict f,
                     const double *restrict u, const double *restrict v,
                     const double *restrict w, double *restrict out);

/* out = -div(a f) at owned cell centres, the conservative form of the transport of a
 * volume fraction: per direction the flux a f on each face, a the face's own velocity
 * component (exactly the staggered unknown) and f the WENO5 (Jiang-Shu) value on the face
 * reconstructed from the five cells on its upwind side.  The fluxes telescope, so the sum
 * of f over a periodic or walled box changes only by round-off, whatever div a is.
 * Halos needed valid: f width 3; u, v, w width 1 (the high faces). */
void advection_weno5_conservative(const efsi_grid *g, const double *restrict f,
                                  const double *restrict u, const double *restrict v,
                                  const double *restrict w, double *restrict out);

#endif
