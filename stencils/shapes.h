/* Body shapes in their own frame (symmetry axis = body z): one implicit function F per
 * shape (F < 0 inside) for the inside test and a signed-distance estimate, closed-form
 * volumes, bounding radii and half-extents.  RBC: Evans & Fung (1972) biconcave discoid of
 * diameter D = 2R, thickness T(r) = R sqrt(1 - rho^2) (c0 + c1 rho^2 + c2 rho^4), rho = r/R,
 * surface z = +-T/2.  Platelet, sphere, ellipsoid: sum (x_i/a_i)^2 < 1. */
#ifndef EFSI_SHAPES_H
#define EFSI_SHAPES_H

enum { BODY_RBC = 0, BODY_PLATELET, BODY_SPHERE, BODY_ELLIPSOID, BODY_KINDS };

/* Evans & Fung's fit (their mean cell: D = 7.82 um, thickness 0.81 um at the centre,
 * 2.58 um at the rim, 94 um^3). */
#define RBC_C0 0.2072
#define RBC_C1 2.0026
#define RBC_C2 (-1.1228)

/* Size conventions (efsi_body.size): RBC size[0] = D; sphere size[0] = radius; platelet
 * and ellipsoid size = semi-axes (a, b, c) along the body's x, y, z. */

/* "rbc", "platelet", "sphere", "ellipsoid"; NULL for an unknown kind. */
const char *shape_name(int kind);

/* 1 when the sizes the kind uses are positive and finite. */
int shape_size_valid(int kind, const double size[3]);

/* Nonzero when body-frame point x is inside (F(x) < 0). */
int shape_inside(int kind, const double size[3], const double x[3]);

/* Signed distance estimate from x to the surface (negative inside): exact for a sphere,
 * first order in the distance near the surface of the others (docs/bodies.md). */
double shape_distance(int kind, const double size[3], const double x[3]);

double shape_volume(int kind, const double size[3]);

/* Radius of the smallest sphere about the body's centre that holds it (RBC: D/2). */
double shape_bounding_radius(int kind, const double size[3]);

/* Half-extents of the body's bounding box along its own x, y, z axes. */
void shape_half_extents(int kind, const double size[3], double e[3]);

/* RBC half-thickness T/2 at rho = r/R (0 for rho >= 1), and its maximum over rho with the
 * rho where it occurs (closed form: a root of a quadratic in rho^2). */
double rbc_half_thickness(double diameter, double rho);
double rbc_max_half_thickness(double diameter, double *rho_at);

/* The surface as a map of the polar angle theta in [0, pi] (from the body's +z axis) and the
 * azimuth phi, given by their sines and cosines: RBC (R sin th cos ph, R sin th sin ph,
 * (R/2) cos th P(sin^2 th)), whose rho = sin th runs over the upper face and back over the
 * lower one; ellipsoid (a sin th cos ph, b sin th sin ph, c cos th).  Onto the whole surface,
 * smooth, with |dx/dtheta| <= speed[0] and |dx/dphi| <= speed[1] sin(theta)
 * (shape_surface_speed), so every surface point of a parameter rectangle lies within
 * (speed[0] dtheta + speed[1] max sin(theta) dphi) / 2 of the point at its centre. */
void shape_surface_point(int kind, const double size[3], double sin_theta, double cos_theta,
                         double sin_phi, double cos_phi, double x[3]);
void shape_surface_speed(int kind, const double size[3], double speed[2]);

#endif
