/* Initial volume fractions of bodies and of the vessel wall (see draw.h): the fraction of
 * each cell inside a body, from its corners, a distance estimate and sub-cell samples, or a
 * tanh profile of the signed distance. */
#include "stencils/draw.h"

#include <math.h>
#include <stdlib.h>

static double min_spacing(const efsi_grid *g) { return fmin(g->h[0], fmin(g->h[1], g->h[2])); }

double bodies_reach(const efsi_grid *g, double interface_width)
{
  return interface_width > 0 ? 5 * interface_width * min_spacing(g) : 0.0;
}

/* Fraction of a cell inside a body: the 8 corners and a distance estimate at the centre
 * decide cells wholly in or out; cut cells take n^3 midpoint samples.  pb = the cell
 * centre in the body frame, edge[d] = the cell's edge along lab axis d, in the body frame. */
static double cut_fraction(const efsi_body *b, const double pb[3], const double edge[3][3],
                           double half_diagonal)
{
  int inside = 0;
  for (int corner = 0; corner < 8; corner++) {
    double x[3];
    for (int e = 0; e < 3; e++)
      x[e] = pb[e] + ((corner & 1) - 0.5) * edge[0][e] + (((corner >> 1) & 1) - 0.5) * edge[1][e] +
             (((corner >> 2) & 1) - 0.5) * edge[2][e];
    inside += shape_inside(b->kind, b->size, x);
  }
  if ((inside == 0 || inside == 8) && fabs(shape_distance(b->kind, b->size, pb)) >= half_diagonal)
    return inside == 8;
  const int n = BODIES_SUBCELL;
  long count = 0;
  for (int c = 0; c < n; c++)
    for (int bb = 0; bb < n; bb++)
      for (int a = 0; a < n; a++) {
        const double t[3] = {(a + 0.5) / n - 0.5, (bb + 0.5) / n - 0.5, (c + 0.5) / n - 0.5};
        double x[3];
        for (int e = 0; e < 3; e++)
          x[e] = pb[e] + t[0] * edge[0][e] + t[1] * edge[1][e] + t[2] * edge[2][e];
        count += shape_inside(b->kind, b->size, x);
      }
  return (double)count / ((double)n * n * n);
}

/* The owned cells within `reach` of the body's centre along each axis, first..last
 * inclusive; nonzero when there are none. */
static int owned_cells_near(const efsi_grid *g, const efsi_body *body, double reach,
                            int first[3], int last[3])
{
  int empty = 0;
  for (int d = 0; d < 3; d++) {
    const double lo = (body->center[d] - reach) * g->inv_h[d] - g->offset[d];
    const double hi = (body->center[d] + reach) * g->inv_h[d] - g->offset[d];
    first[d] = lo < 0 ? 0 : (int)fmin(floor(lo), g->n[d]);
    last[d] = hi >= g->n[d] ? g->n[d] - 1 : (int)fmax(floor(hi), -1);
    empty |= first[d] > last[d];
  }
  return empty;
}

/* The centre of cell (i, j, k) in the body's frame, into pb; its distance from the body's
 * centre returned. */
static double cell_in_body_frame(const efsi_grid *g, const efsi_body *body, int i, int j, int k,
                                 double pb[3])
{
  const int at[3] = {i, j, k};
  double p[3];
  for (int d = 0; d < 3; d++) p[d] = (g->offset[d] + at[d] + 0.5) * g->h[d] - body->center[d];
  for (int e = 0; e < 3; e++)
    pb[e] = body->frame[e][0] * p[0] + body->frame[e][1] * p[1] + body->frame[e][2] * p[2];
  return sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
}

static int by_id(const void *pa, const void *pb)
{
  const efsi_body *a = *(const efsi_body *const *)pa, *b = *(const efsi_body *const *)pb;
  if (a->id != b->id) return a->id < b->id ? -1 : 1;
  for (int d = 0; d < 3; d++)
    if (a->center[d] != b->center[d]) return a->center[d] < b->center[d] ? -1 : 1;
  return 0;
}

int bodies_volume_fraction(const efsi_grid *g, const efsi_body *b, long n,
                           double interface_width, double *const phi[])
{
  const efsi_body **order = malloc((size_t)(n > 0 ? n : 1) * sizeof *order);
  if (!order) return 1;
  for (long m = 0; m < n; m++) order[m] = &b[m];
  qsort(order, (size_t)n, sizeof *order, by_id);
  const double eps = 0.5 * interface_width * min_spacing(g);
  const double reach = bodies_reach(g, interface_width);
  const double half_diagonal = 0.5 * sqrt(g->h[0] * g->h[0] + g->h[1] * g->h[1] +
                                          g->h[2] * g->h[2]);
  for (long m = 0; m < n; m++) {
    const efsi_body *body = order[m];
    const double r = shape_bounding_radius(body->kind, body->size);
    int first[3], last[3];
    if (owned_cells_near(g, body, r + reach, first, last)) continue;
    double edge[3][3];                 /* edge[d] = frame . (h_d e_d) */
    for (int d = 0; d < 3; d++)
      for (int e = 0; e < 3; e++) edge[d][e] = body->frame[e][d] * g->h[d];
    double *restrict ph = phi[body->material];
#pragma omp parallel for
    for (int k = first[2]; k <= last[2]; k++)
      for (int j = first[1]; j <= last[1]; j++)
        for (int i = first[0]; i <= last[0]; i++) {
          double pb[3];
          if (cell_in_body_frame(g, body, i, j, k, pb) > r + reach + half_diagonal) continue;
          const double value = interface_width > 0
              ? 0.5 * (1 - tanh(shape_distance(body->kind, body->size, pb) / eps))
              : cut_fraction(body, pb, edge, half_diagonal);
          if (value > 0) {
            const ptrdiff_t idx = grid_index(g, i, j, k);
            ph[idx] = fmin(1.0, ph[idx] + value);
          }
        }
  }
  free(order);
  return 0;
}

void bodies_level(const efsi_grid *g, const efsi_body *b, long n, int material, double cap,
                  double *level)
{
  const double h = min_spacing(g), reach = cap * h;
  for (long m = 0; m < n; m++) {
    const efsi_body *body = &b[m];
    if (body->material != material) continue;
    const double r = shape_bounding_radius(body->kind, body->size);
    int first[3], last[3];
    if (owned_cells_near(g, body, r + reach, first, last)) continue;
#pragma omp parallel for
    for (int k = first[2]; k <= last[2]; k++)
      for (int j = first[1]; j <= last[1]; j++)
        for (int i = first[0]; i <= last[0]; i++) {
          double pb[3];
          cell_in_body_frame(g, body, i, j, k, pb);
          const double d = fmax(-cap, fmin(cap, shape_distance(body->kind, body->size, pb) / h));
          const ptrdiff_t idx = grid_index(g, i, j, k);
          level[idx] = fmin(level[idx], d);
        }
  }
}

/* The RBC's faces z = +-H(r), H = (R/2) u(s), u = sqrt(1 - s) P(s), s = r^2/R^2: the
 * Hessian of H(|x|) has the eigenvalues H'' = (4 s u'' + 2 u') / (2R) and
 * H'/r = 2 u' / (2R) (with the factor R/2 of H), positive only in the dimple. */
static double rbc_face_curvature(double diameter)
{
  const double R = 0.5 * diameter;
  double most = 0;
  for (int m = 0; m < 4096; m++) {
    const double s = 0.99 * m / 4096, w = sqrt(1 - s);
    const double p = RBC_C0 + s * (RBC_C1 + s * RBC_C2), dp = RBC_C1 + 2 * RBC_C2 * s;
    const double du = -p / (2 * w) + w * dp;
    const double ddu = -p / (4 * w * w * w) - dp / w + 2 * RBC_C2 * w;
    most = fmax(most, fmax(4 * s * ddu + 2 * du, 2 * du) / (2 * R));
  }
  return 1.01 * most;
}

double bodies_draw_gap(const double h[3], int kind, const double size[3])
{
  if (kind != BODY_RBC) return 0.0;
  const double d2 = h[0] * h[0] + h[1] * h[1] + h[2] * h[2];
  return rbc_face_curvature(size[0]) * d2 / 8;
}

/* Fraction of the y-z square [y0, y1] x [z0, z1] (relative to the axis) outside radius R:
 * exact when the square is wholly in or out (the disc is convex), else n^2 samples. */
static double outside_fraction(double y0, double y1, double z0, double z1, double R)
{
  const double ny = y0 > 0 ? y0 : y1 < 0 ? y1 : 0, nz = z0 > 0 ? z0 : z1 < 0 ? z1 : 0;
  const double fy = fmax(fabs(y0), fabs(y1)), fz = fmax(fabs(z0), fabs(z1));
  if (fy * fy + fz * fz <= R * R) return 0;
  if (ny * ny + nz * nz >= R * R) return 1;
  const int n = VESSEL_SUBCELL;
  long count = 0;
  for (int b = 0; b < n; b++)
    for (int a = 0; a < n; a++) {
      const double y = y0 + (a + 0.5) / n * (y1 - y0), z = z0 + (b + 0.5) / n * (z1 - z0);
      count += y * y + z * z > R * R;
    }
  return (double)count / ((double)n * n);
}

void vessel_volume_fraction(const efsi_grid *g, double diameter, double interface_width,
                            double *phi)
{
  const double R = 0.5 * diameter, eps = 0.5 * interface_width * min_spacing(g);
  const double yc = 0.5 * g->length[1], zc = 0.5 * g->length[2];
#pragma omp parallel for
  for (int k = 0; k < g->n[2]; k++)
    for (int j = 0; j < g->n[1]; j++) {
      const double y0 = (g->offset[1] + j) * g->h[1] - yc, z0 = (g->offset[2] + k) * g->h[2] - zc;
      const double y1 = y0 + g->h[1], z1 = z0 + g->h[2];
      const double value = interface_width > 0
          ? 0.5 * (1 + tanh((hypot(0.5 * (y0 + y1), 0.5 * (z0 + z1)) - R) / eps))
          : outside_fraction(y0, y1, z0, z1, R);
      double *restrict row = phi + grid_index(g, 0, j, k);
      for (int i = 0; i < g->n[0]; i++) row[i] = value;
    }
}
