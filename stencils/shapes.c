/* Body shapes in their own frame.  RBC (Evans & Fung 1972), with s = rho^2 = (x^2+y^2)/R^2
 * and P(s) = c0 + c1 s + c2 s^2:  F = z^2 - (R^2/4) (1 - s) P(s)^2, a polynomial whose zero
 * set is the cell surface z = +-(R/2) sqrt(1-s) P(s) (P > 0 on [0, 1], F > 0 for s > 1).
 * Ellipsoid: k0 = |x/a|, inside when k0 < 1.  Volumes in closed form:
 * V_rbc = pi R^3 (2 c0/3 + 4 c1/15 + 16 c2/105), V_ellipsoid = 4/3 pi a b c. */
#include "stencils/shapes.h"

#include <math.h>
#include <stddef.h>

#include "base/portable.h"

const char *shape_name(int kind)
{
  static const char *const names[BODY_KINDS] = {"rbc", "platelet", "sphere", "ellipsoid"};
  return kind >= 0 && kind < BODY_KINDS ? names[kind] : NULL;
}

/* Semi-axes a[3] of the ellipsoidal kinds (a sphere has three equal ones). */
static void semi_axes(int kind, const double size[3], double a[3])
{
  for (int d = 0; d < 3; d++) a[d] = kind == BODY_SPHERE ? size[0] : size[d];
}

int shape_size_valid(int kind, const double size[3])
{
  const int used = kind == BODY_RBC || kind == BODY_SPHERE ? 1 : 3;
  if (kind < 0 || kind >= BODY_KINDS) return 0;
  for (int d = 0; d < used; d++)
    if (!(size[d] > 0) || !isfinite(size[d])) return 0;
  return 1;
}

static double rbc_p(double s) { return RBC_C0 + s * (RBC_C1 + s * RBC_C2); }

double rbc_half_thickness(double diameter, double rho)
{
  const double s = rho * rho;
  return s < 1 ? 0.25 * diameter * sqrt(1 - s) * rbc_p(s) : 0.0;
}

/* d/ds [(1-s) P^2] = P (2 (1-s) P' - P) vanishes where
 * -5 c2 s^2 + (4 c2 - 3 c1) s + (2 c1 - c0) = 0; the root in (0, 1) is the thickest ring. */
double rbc_max_half_thickness(double diameter, double *rho_at)
{
  const double a2 = -5 * RBC_C2, a1 = 4 * RBC_C2 - 3 * RBC_C1, a0 = 2 * RBC_C1 - RBC_C0;
  const double q = -0.5 * (a1 + copysign(sqrt(a1 * a1 - 4 * a2 * a0), a1));
  const double s = a0 / q;
  if (rho_at) *rho_at = sqrt(s);
  return rbc_half_thickness(diameter, sqrt(s));
}

/* F and its gradient for the RBC. */
static double rbc_implicit(double diameter, const double x[3], double grad[3])
{
  const double R = 0.5 * diameter, s = (x[0] * x[0] + x[1] * x[1]) / (R * R);
  const double p = rbc_p(s), dp = RBC_C1 + 2 * RBC_C2 * s;
  const double dq = p * (2 * (1 - s) * dp - p);        /* d/ds [(1-s) P^2] */
  grad[0] = -0.5 * dq * x[0];
  grad[1] = -0.5 * dq * x[1];
  grad[2] = 2 * x[2];
  return x[2] * x[2] - 0.25 * R * R * (1 - s) * p * p;
}

int shape_inside(int kind, const double size[3], const double x[3])
{
  if (kind == BODY_RBC) {
    double grad[3];
    return rbc_implicit(size[0], x, grad) < 0;
  }
  double a[3];
  semi_axes(kind, size, a);
  const double k0 = x[0] * x[0] / (a[0] * a[0]) + x[1] * x[1] / (a[1] * a[1]) +
                    x[2] * x[2] / (a[2] * a[2]);
  return k0 < 1;
}

/* RBC: F/|grad F| (first order near the surface: F ~ 2 (T/2) (|z| - T/2) on the faces,
 * ~ R (r - R) at the rim).  Outside the rim cylinder the distance to the rim circle is an
 * upper bound that F/|grad F| may exceed far away.  Everywhere d >= |x| - R holds for the
 * true distance, so the estimate is raised to it.  Ellipsoid: k0 (k0 - 1) / |x/a^2|, exact
 * for a sphere. */
double shape_distance(int kind, const double size[3], const double x[3])
{
  const double r = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
  if (kind == BODY_SPHERE) return r - size[0];
  if (kind == BODY_RBC) {
    const double R = 0.5 * size[0];
    double grad[3];
    const double f = rbc_implicit(size[0], x, grad);
    const double g = sqrt(grad[0] * grad[0] + grad[1] * grad[1] + grad[2] * grad[2]);
    double d = g > 0 ? f / g : (f < 0 ? -R : R);
    const double rc = sqrt(x[0] * x[0] + x[1] * x[1]);
    if (rc >= R) d = fmin(d, sqrt((rc - R) * (rc - R) + x[2] * x[2]));
    return fmax(d, r - R);
  }
  double a[3], k0 = 0, k1 = 0;
  semi_axes(kind, size, a);
  for (int d = 0; d < 3; d++) {
    k0 += x[d] * x[d] / (a[d] * a[d]);
    k1 += x[d] * x[d] / (a[d] * a[d] * a[d] * a[d]);
  }
  if (k1 == 0) return -fmin(a[0], fmin(a[1], a[2]));
  k0 = sqrt(k0);
  return k0 * (k0 - 1) / sqrt(k1);
}

double shape_volume(int kind, const double size[3])
{
  if (kind == BODY_RBC) {
    const double R = 0.5 * size[0];
    return EFSI_PI * R * R * R * (2 * RBC_C0 / 3 + 4 * RBC_C1 / 15 + 16 * RBC_C2 / 105);
  }
  double a[3];
  semi_axes(kind, size, a);
  return 4.0 / 3.0 * EFSI_PI * a[0] * a[1] * a[2];
}

/* RBC: r^2 + z^2 = R^2 (s + (1-s) P^2/4) <= R^2 because P <= 2 on [0, 1]; equality at the
 * rim. */
double shape_bounding_radius(int kind, const double size[3])
{
  if (kind == BODY_RBC) return 0.5 * size[0];
  double a[3];
  semi_axes(kind, size, a);
  return fmax(a[0], fmax(a[1], a[2]));
}

void shape_half_extents(int kind, const double size[3], double e[3])
{
  if (kind == BODY_RBC) {
    e[0] = e[1] = 0.5 * size[0];
    e[2] = rbc_max_half_thickness(size[0], NULL);
    return;
  }
  semi_axes(kind, size, e);
}

void shape_surface_point(int kind, const double size[3], double sin_theta, double cos_theta,
                         double sin_phi, double cos_phi, double x[3])
{
  if (kind == BODY_RBC) {
    const double R = 0.5 * size[0];
    x[0] = R * sin_theta * cos_phi;
    x[1] = R * sin_theta * sin_phi;
    x[2] = 0.5 * R * cos_theta * rbc_p(sin_theta * sin_theta);
    return;
  }
  double a[3];
  semi_axes(kind, size, a);
  x[0] = a[0] * sin_theta * cos_phi;
  x[1] = a[1] * sin_theta * sin_phi;
  x[2] = a[2] * cos_theta;
}

/* Ellipsoid: |dx/dth|^2 = cos^2 th (a^2 cos^2 ph + b^2 sin^2 ph) + c^2 sin^2 th <= max a_i^2,
 * |dx/dph| = sin th (a^2 sin^2 ph + b^2 cos^2 ph)^(1/2).  RBC: |dx/dph| = R sin th, and
 * dx/dth = (R cos th cos ph, R cos th sin ph, (R/2)(-sin th P + 2 sin th cos^2 th P')),
 * whose largest length (a smooth function of th alone) is taken over 4096 angles and raised
 * by 1 % for what lies between them. */
void shape_surface_speed(int kind, const double size[3], double speed[2])
{
  if (kind == BODY_RBC) {
    const double R = 0.5 * size[0];
    double most = 0;
    for (int m = 0; m <= 4096; m++) {
      const double th = EFSI_PI * m / 4096, st = sin(th), ct = cos(th), s = st * st;
      const double dz = 0.5 * (-st * rbc_p(s) + 2 * st * ct * ct * (RBC_C1 + 2 * RBC_C2 * s));
      most = fmax(most, ct * ct + dz * dz);
    }
    speed[0] = 1.01 * R * sqrt(most);
    speed[1] = R;
    return;
  }
  double a[3];
  semi_axes(kind, size, a);
  speed[0] = fmax(a[0], fmax(a[1], a[2]));
  speed[1] = fmax(a[0], a[1]);
}
