/* Body shapes: the closed-form volumes against quadrature and against counting inside
 * points, the Evans-Fung cell's dimensions against the published mean cell, symmetry of the
 * inside test, bounding radius and half-extents holding every inside point, the distance
 * estimate near the surface, the surface map on the surface within its speed bounds, and a
 * cell the drawing takes whole inside an RBC no farther out than the drawing's gap. */
#include <check.h>
#include <math.h>
#include <stdio.h>

#include "tests/test_support.h"
#include "stencils/draw.h"
#include "stencils/shapes.h"

static const double pi = 3.14159265358979323846;

/* Evans & Fung (1972), Table 1, mean cell: D = 7.82, thickness at the centre 0.81 and at
 * the rim 2.58, volume 94 (um, um^3). */
static const double ef_diameter = 7.82, ef_centre = 0.81, ef_rim = 2.58, ef_volume = 94.0;

/* Fraction-free count: volume of {inside} by the midpoint rule on an m^3 grid over the box
 * [-e, e]. */
static double counted_volume(int kind, const double size[3], int m)
{
  double e[3];
  shape_half_extents(kind, size, e);
  long inside = 0;
  for (int k = 0; k < m; k++)
    for (int j = 0; j < m; j++)
      for (int i = 0; i < m; i++) {
        const double x[3] = {e[0] * (2 * (i + 0.5) / m - 1), e[1] * (2 * (j + 0.5) / m - 1),
                             e[2] * (2 * (k + 0.5) / m - 1)};
        inside += shape_inside(kind, size, x);
      }
  return inside * 8 * e[0] * e[1] * e[2] / ((double)m * m * m);
}

START_TEST(rbc_volume_matches_quadrature)
{
  /* V = 2 pi int_0^R r T(r) dr with rho = sin(theta): the integrand is smooth, so Simpson's
   * rule converges fast. */
  const double D = ef_diameter, R = 0.5 * D;
  const int n = 4000;
  double sum = 0;
  for (int m = 0; m <= n; m++) {
    const double th = 0.5 * pi * m / n, rho = sin(th);
    const double f = rho * 2 * rbc_half_thickness(D, rho) * cos(th);
    sum += f * (m == 0 || m == n ? 1 : m % 2 ? 4 : 2);
  }
  const double quadrature = 2 * pi * R * R * sum * (0.5 * pi / n) / 3;
  const double closed = shape_volume(BODY_RBC, (double[3]){D, 0, 0});
  const double counted = counted_volume(BODY_RBC, (double[3]){D, 0, 0}, 240);
  printf("rbc volume: closed form %.12f, Simpson %.12f (rel %.1e), counted %.4f (rel %.1e)\n",
         closed, quadrature, fabs(quadrature / closed - 1), counted, fabs(counted / closed - 1));
  ck_assert(fabs(quadrature / closed - 1) < 1e-10);
  ck_assert(fabs(counted / closed - 1) < 3e-3);
}
END_TEST

START_TEST(rbc_dimensions_match_evans_fung)
{
  const double D = ef_diameter;
  double rho_max = 0;
  const double t_max = 2 * rbc_max_half_thickness(D, &rho_max);
  double scanned = 0;
  for (int m = 0; m <= 200000; m++) scanned = fmax(scanned, 2 * rbc_half_thickness(D, m / 2e5));
  const double t_centre = 2 * rbc_half_thickness(D, 0);
  const double volume = shape_volume(BODY_RBC, (double[3]){D, 0, 0});
  printf("rbc D = %.2f: centre %.4f, max %.4f at r = %.3f (scan %.6f), volume %.3f\n", D,
         t_centre, t_max, rho_max * 0.5 * D, scanned, volume);
  ck_assert(fabs(scanned - t_max) < 1e-9);
  ck_assert(fabs(t_centre / ef_centre - 1) < 0.01);
  ck_assert(fabs(t_max / ef_rim - 1) < 0.01);
  ck_assert(fabs(volume / ef_volume - 1) < 0.01);
  ck_assert(rbc_half_thickness(D, 1.0) == 0 && rbc_half_thickness(D, 1.5) == 0);
  /* The inside test is the thickness formula: just under the surface in, just over out. */
  const double size[3] = {D, 0, 0};
  for (int m = 1; m < 100; m++) {
    const double rho = m / 100.0, r = rho * 0.5 * D, h = rbc_half_thickness(D, rho);
    ck_assert(shape_inside(BODY_RBC, size, (double[3]){r, 0, h * (1 - 1e-9)}));
    ck_assert(!shape_inside(BODY_RBC, size, (double[3]){0, r, h * (1 + 1e-9) + 1e-12}));
    ck_assert(shape_inside(BODY_RBC, size, (double[3]){0, -r, -h * (1 - 1e-9)}));
  }
  ck_assert(!shape_inside(BODY_RBC, size, (double[3]){0.5 * D * 1.000001, 0, 0}));
}
END_TEST

START_TEST(inside_is_symmetric)
{
  const double size[3] = {ef_diameter, 0, 0}, R = 0.5 * ef_diameter;
  long tested = 0;
  for (int m = 0; m < 20000; m++) {
    /* Deterministic scatter over the bounding box. */
    const double x = R * (2 * fmod(m * 0.7548776662, 1) - 1);
    const double y = R * (2 * fmod(m * 0.5698402910, 1) - 1);
    const double z = 1.4 * (2 * fmod(m * 0.3141592653, 1) - 1);
    if (fabs(shape_distance(BODY_RBC, size, (double[3]){x, y, z})) < 1e-6) continue;
    const int in = shape_inside(BODY_RBC, size, (double[3]){x, y, z});
    ck_assert_int_eq(in, shape_inside(BODY_RBC, size, (double[3]){-x, y, z}));
    ck_assert_int_eq(in, shape_inside(BODY_RBC, size, (double[3]){x, -y, z}));
    ck_assert_int_eq(in, shape_inside(BODY_RBC, size, (double[3]){x, y, -z}));
    ck_assert_int_eq(in, shape_inside(BODY_RBC, size, (double[3]){y, x, z}));
    const double r = hypot(x, y), a = 2 * pi * fmod(m * 0.1234567, 1);
    ck_assert_int_eq(in, shape_inside(BODY_RBC, size, (double[3]){r * cos(a), r * sin(a), z}));
    tested++;
  }
  ck_assert(tested > 19000);
}
END_TEST

static const struct {
  int kind;
  double size[3];
} shapes[] = {{BODY_RBC, {7.82, 0, 0}},
              {BODY_PLATELET, {1, 1, 0.8}},
              {BODY_SPHERE, {2.5, 0, 0}},
              {BODY_ELLIPSOID, {3, 2, 1.2}}};
enum { NSHAPES = sizeof shapes / sizeof shapes[0] };

START_TEST(bounds_hold_every_inside_point)
{
  for (int s = 0; s < NSHAPES; s++) {
    const int kind = shapes[s].kind;
    const double *size = shapes[s].size;
    const double rb = shape_bounding_radius(kind, size);
    double e[3], farthest = 0, reach[3] = {0, 0, 0};
    shape_half_extents(kind, size, e);
    const int m = 120;
    for (int k = 0; k < m; k++)
      for (int j = 0; j < m; j++)
        for (int i = 0; i < m; i++) {
          const double x[3] = {1.1 * rb * (2 * (i + 0.5) / m - 1),
                               1.1 * rb * (2 * (j + 0.5) / m - 1),
                               1.1 * rb * (2 * (k + 0.5) / m - 1)};
          if (!shape_inside(kind, size, x)) continue;
          farthest = fmax(farthest, sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]));
          for (int d = 0; d < 3; d++) reach[d] = fmax(reach[d], fabs(x[d]));
        }
    printf("%s: bounding radius %.4f, farthest inside sample %.4f; half-extents %.4f %.4f "
           "%.4f, reached %.4f %.4f %.4f\n", shape_name(kind), rb, farthest, e[0], e[1], e[2],
           reach[0], reach[1], reach[2]);
    ck_assert(farthest <= rb && farthest > 0.97 * rb);
    for (int d = 0; d < 3; d++) ck_assert(reach[d] <= e[d] && reach[d] > 0.95 * e[d]);
  }
}
END_TEST

START_TEST(ellipsoid_volumes)
{
  for (int s = 1; s < NSHAPES; s++) {
    const double v = shape_volume(shapes[s].kind, shapes[s].size);
    const double *a = shapes[s].size;
    const double exact = shapes[s].kind == BODY_SPHERE ? 4.0 / 3.0 * pi * a[0] * a[0] * a[0]
                                                       : 4.0 / 3.0 * pi * a[0] * a[1] * a[2];
    const double counted = counted_volume(shapes[s].kind, shapes[s].size, 200);
    printf("%s volume %.6f, counted %.6f (rel %.1e)\n", shape_name(shapes[s].kind), v, counted,
           fabs(counted / v - 1));
    ck_assert(fabs(v / exact - 1) < 1e-14);
    ck_assert(fabs(counted / v - 1) < 3e-3);
  }
}
END_TEST

/* A point at signed distance t along the outward normal from a surface point: the estimate
 * returns t to first order. */
START_TEST(distance_estimate_near_surface)
{
  double worst = 0;
  for (int s = 0; s < NSHAPES; s++) {
    const int kind = shapes[s].kind;
    const double *size = shapes[s].size;
    double e[3];
    shape_half_extents(kind, size, e);
    for (int m = 1; m < 60; m++) {
      double x[3], n[3];
      const double u = m / 60.0, phi = 2 * pi * fmod(m * 0.618034, 1);
      if (kind == BODY_RBC) {
        /* Surface point z = T/2 at rho, normal from the gradient of |z| - T/2(rho). */
        const double R = 0.5 * size[0], rho = 0.98 * u, dr = 1e-7;
        const double h = rbc_half_thickness(size[0], rho);
        const double dh = (rbc_half_thickness(size[0], rho + dr) -
                           rbc_half_thickness(size[0], rho - dr)) / (2 * dr * R);
        const double len = sqrt(1 + dh * dh);
        x[0] = rho * R * cos(phi);
        x[1] = rho * R * sin(phi);
        x[2] = h;
        n[0] = -dh * cos(phi) / len;
        n[1] = -dh * sin(phi) / len;
        n[2] = 1 / len;
      } else {
        const double th = pi * u, sx = sin(th) * cos(phi), sy = sin(th) * sin(phi), sz = cos(th);
        x[0] = e[0] * sx;
        x[1] = e[1] * sy;
        x[2] = e[2] * sz;
        const double g[3] = {sx / e[0], sy / e[1], sz / e[2]};
        const double len = sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
        for (int d = 0; d < 3; d++) n[d] = g[d] / len;
      }
      for (int sign = -1; sign <= 1; sign += 2) {
        const double t = sign * 0.01;
        const double p[3] = {x[0] + t * n[0], x[1] + t * n[1], x[2] + t * n[2]};
        const double d = shape_distance(kind, size, p);
        worst = fmax(worst, fabs(d - t) / 0.01);
        ck_assert_int_eq(d < 0, shape_inside(kind, size, p));
      }
    }
  }
  printf("distance estimate at 0.01 from the surface: worst relative error %.2e\n", worst);
  ck_assert(worst < 0.05);
  /* Exact for a sphere far away too. */
  ck_assert(fabs(shape_distance(BODY_SPHERE, (double[3]){2, 0, 0}, (double[3]){3, 4, 0}) - 3) <
            1e-14);
}
END_TEST

/* The surface map: every point lies on the surface (the distance estimate vanishes, to the
 * rounding of F's zero), and the speed bounds hold between neighbouring parameters (the
 * chord over the step is at most the speed). */
START_TEST(surface_map_lies_on_the_surface)
{
  double off = 0, speed_ratio[2] = {0, 0};
  for (int s = 0; s < NSHAPES; s++) {
    const int kind = shapes[s].kind;
    const double *size = shapes[s].size;
    double speed[2];
    shape_surface_speed(kind, size, speed);
    const double step = 1e-3;
    for (int a = 0; a <= 200; a++)
      for (int b = 0; b < 16; b++) {
        const double th = pi * a / 200, ph = 2 * pi * (b + 0.3) / 16;
        double x[3], xt[3], xp[3];
        shape_surface_point(kind, size, sin(th), cos(th), sin(ph), cos(ph), x);
        shape_surface_point(kind, size, sin(th + step), cos(th + step), sin(ph), cos(ph), xt);
        shape_surface_point(kind, size, sin(th), cos(th), sin(ph + step), cos(ph + step), xp);
        off = fmax(off, fabs(shape_distance(kind, size, x)) / shape_bounding_radius(kind, size));
        const double dt = sqrt(pow(xt[0] - x[0], 2) + pow(xt[1] - x[1], 2) + pow(xt[2] - x[2], 2));
        const double dp = sqrt(pow(xp[0] - x[0], 2) + pow(xp[1] - x[1], 2) + pow(xp[2] - x[2], 2));
        speed_ratio[0] = fmax(speed_ratio[0], dt / step / speed[0]);
        if (sin(th) > 0.01) speed_ratio[1] = fmax(speed_ratio[1], dp / step / (speed[1] * sin(th)));
      }
  }
  printf("surface map: largest distance estimate %.1e of the radius; chord / speed bound "
         "%.4f along theta, %.4f along phi\n", off, speed_ratio[0], speed_ratio[1]);
  ck_assert(off < 1e-6 && speed_ratio[0] <= 1 && speed_ratio[1] <= 1);
}
END_TEST

/* The drawing's gap (bodies_draw_gap): a cell the drawing takes whole inside an RBC (its 8
 * corners inside, the distance estimate at its centre beyond the half-diagonal) reaches
 * out of the cell's faces by at most lambda d^2 / 8.  Random cells of random orientation
 * and size 0.25, 0.5 and 1 um over the cell, half of them over the dimple, sampled at 16^3
 * points: the largest |z| - T(rho)/2. */
START_TEST(whole_cells_keep_within_the_draw_gap)
{
  const double D = 8, R = 4;
  unsigned state = 2024u;
  for (int hh = 0; hh < 3; hh++) {
    const double h = 0.25 * (1 << hh), hs[3] = {h, h, h};
    const double gap = bodies_draw_gap(hs, BODY_RBC, (double[3]){D, 0, 0});
    const double half_diagonal = 0.5 * sqrt(3) * h;
    double worst = -1;
    long whole = 0, beyond_rim = 0;
    for (int trial = 0; trial < 20000; trial++) {
      double u[7];
      for (int c = 0; c < 7; c++) {
        state = state * 1664525u + 1013904223u;
        u[c] = (state >> 8) / 16777216.0;
      }
      /* a rotation from a random unit quaternion; the cell's centre in the body frame */
      const double q0 = sqrt(1 - u[0]) * sin(2 * pi * u[1]), q1 = sqrt(1 - u[0]) * cos(2 * pi * u[1]),
                   q2 = sqrt(u[0]) * sin(2 * pi * u[2]), q3 = sqrt(u[0]) * cos(2 * pi * u[2]);
      const double e[3][3] = {
          {1 - 2 * (q1 * q1 + q2 * q2), 2 * (q0 * q1 - q2 * q3), 2 * (q0 * q2 + q1 * q3)},
          {2 * (q0 * q1 + q2 * q3), 1 - 2 * (q0 * q0 + q2 * q2), 2 * (q1 * q2 - q0 * q3)},
          {2 * (q0 * q2 - q1 * q3), 2 * (q1 * q2 + q0 * q3), 1 - 2 * (q0 * q0 + q1 * q1)}};
      /* half of them over the dimple, where the faces curve away from the cell */
      const double reach = trial % 2 ? R : 0.4 * R;
      const double c[3] = {reach * (2 * u[3] - 1), reach * (2 * u[4] - 1) * u[6],
                           1.4 * (2 * u[5] - 1)};
      int inside = 0;
      for (int corner = 0; corner < 8; corner++) {
        double x[3];
        for (int a = 0; a < 3; a++)
          x[a] = c[a] + h * (((corner & 1) - 0.5) * e[0][a] + (((corner >> 1) & 1) - 0.5) * e[1][a] +
                             (((corner >> 2) & 1) - 0.5) * e[2][a]);
        inside += shape_inside(BODY_RBC, (double[3]){D, 0, 0}, x);
      }
      if (inside < 8 || fabs(shape_distance(BODY_RBC, (double[3]){D, 0, 0}, c)) < half_diagonal)
        continue;
      whole++;
      const int n = 16;
      for (int k = 0; k < n; k++)
        for (int j = 0; j < n; j++)
          for (int i = 0; i < n; i++) {
            const double t[3] = {(i + 0.5) / n - 0.5, (j + 0.5) / n - 0.5, (k + 0.5) / n - 0.5};
            double x[3];
            for (int a = 0; a < 3; a++)
              x[a] = c[a] + h * (t[0] * e[0][a] + t[1] * e[1][a] + t[2] * e[2][a]);
            const double rho = hypot(x[0], x[1]) / R;
            if (rho >= 1) {
              beyond_rim++;
              continue;
            }
            worst = fmax(worst, fabs(x[2]) - rbc_half_thickness(D, rho));
          }
    }
    printf("h = %g: %ld cells taken whole; the most they reach out %.2e, the gap %.2e\n", h,
           whole, worst, gap);
    ck_assert(whole > 100 && beyond_rim == 0 && worst <= gap);
  }
}
END_TEST

static Suite *shapes_suite(void)
{
  Suite *s = suite_create("shapes");
  TCase *tc = tcase_create("shapes");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, rbc_volume_matches_quadrature);
  tcase_add_test(tc, rbc_dimensions_match_evans_fung);
  tcase_add_test(tc, inside_is_symmetric);
  tcase_add_test(tc, bounds_hold_every_inside_point);
  tcase_add_test(tc, ellipsoid_volumes);
  tcase_add_test(tc, distance_estimate_near_surface);
  tcase_add_test(tc, surface_map_lies_on_the_surface);
  tcase_add_test(tc, whole_cells_keep_within_the_draw_gap);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) { return mpi_check_main(argc, argv, shapes_suite); }
