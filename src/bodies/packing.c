/* Random packing (see packing.h; docs/bodies.md, "Random packing").  The bodies grow from a
 * scale sigma0 to 1: every sweep pushes each overlapping pair apart (half the overlap each,
 * with a turn for the randomly oriented ones) and each body off the walls, and the scale
 * grows after every sweep whose overlaps are small, by a rate that adapts to how often they
 * are; at full size the sweeps go on until one finds nothing.  All bodies move at once
 * (each by the sum of its shares, in the order of the pairs' ids), so a rank moves the
 * bodies of its box from the copies of its neighbours' bodies near it, and one exchange per
 * sweep (src/bodies/packing_ranks.h) and one set of exact reductions keep the ranks in step.
 *
 * The overlap test: body B's surface is a map x(theta, phi) (stencils/shapes.h); every point
 * of a parameter rectangle lies within its covering radius c of the point at its centre.  A
 * constraint g (the distance to body A less the gap, or the room to a wall: 1-Lipschitz in
 * the point) holds on the rectangle when g(centre) >= c; otherwise the rectangle is halved,
 * down to rectangles of covering radius `leaf`, whose shortfall c - g is the overlap.  The
 * distance to A is a lower bound (an RBC's from a table in its meridian plane, an
 * ellipsoid's a_min (|x/a| - 1)), so a sweep that finds nothing certifies the gap. */
#include "src/bodies/packing.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/errors.h"
#include "base/portable.h"
#include "src/bodies/packing_ranks.h"
#include "src/bodies/random.h"
#include "stencils/shapes.h"

/* ---- a lower bound of the distance to an RBC ------------------------------------------ */

/* The RBC is a solid of revolution, so the distance of a point to it is that of (rho, |z|)
 * to its profile in the meridian half-plane.  The table holds that signed distance for
 * R = 1 (the shape is the same at every size) on nodes of spacing MERIDIAN_STEP, computed
 * from MERIDIAN_VERTICES + 1 points of the profile and lowered outside by the most a profile
 * point lies from the nearest of them.  The signed distance is 1-Lipschitz, so
 * d(x) >= table(node) - |x - node| for any node. */
#define MERIDIAN_STEP (1.0 / 200)
#define MERIDIAN_VERTICES 1024
#define MERIDIAN_MARGIN 0.3      /* the table reaches this far beyond the body (units of R) */

typedef struct {
  int n[2];                      /* nodes along rho and along |z| */
  double extent[2];              /* the table covers [0, extent) in each */
  double hmax;                   /* the largest half-thickness, T_max / (2R) */
  double *d;                     /* d[i + n[0] j] at (i, j) MERIDIAN_STEP */
} meridian_table;

static void meridian_build(meridian_table *t)
{
  const double unit[3] = {2, 0, 0};
  double speed[2];
  shape_surface_speed(BODY_RBC, unit, speed);
  t->hmax = rbc_max_half_thickness(2, NULL);
  t->extent[0] = 1 + MERIDIAN_MARGIN;
  t->extent[1] = t->hmax + MERIDIAN_MARGIN;
  for (int a = 0; a < 2; a++) t->n[a] = (int)ceil(t->extent[a] / MERIDIAN_STEP) + 1;
  double (*vertex)[2] = efsi_malloc((MERIDIAN_VERTICES + 1) * sizeof *vertex, "RBC distance table");
  t->d = efsi_malloc((size_t)t->n[0] * t->n[1] * sizeof *t->d, "RBC distance table");
  for (int m = 0; m <= MERIDIAN_VERTICES; m++) {
    double x[3];
    const double th = 0.5 * EFSI_PI * m / MERIDIAN_VERTICES;
    shape_surface_point(BODY_RBC, unit, sin(th), cos(th), 0, 1, x);
    vertex[m][0] = x[0];
    vertex[m][1] = x[2];
  }
  const double between = 0.5 * speed[0] * 0.5 * EFSI_PI / MERIDIAN_VERTICES;
#pragma omp parallel for
  for (int j = 0; j < t->n[1]; j++)
    for (int i = 0; i < t->n[0]; i++) {
      const double rho = i * MERIDIAN_STEP, zeta = j * MERIDIAN_STEP;
      double best = INFINITY;
      for (int m = 0; m <= MERIDIAN_VERTICES; m++) {
        const double a = rho - vertex[m][0], b = zeta - vertex[m][1];
        best = fmin(best, a * a + b * b);
      }
      const double x[3] = {rho, 0, zeta};
      t->d[i + (size_t)t->n[0] * j] =
          shape_inside(BODY_RBC, unit, x) ? -sqrt(best) : sqrt(best) - between;
    }
  free(vertex);
}

/* A lower bound of the signed distance of x (body frame, units of R) to the RBC of R = 1,
 * and the direction in which it grows (body frame, unit). */
static double meridian_bound(const meridian_table *t, const double x[3], double n[3])
{
  const double rho = sqrt(x[0] * x[0] + x[1] * x[1]), zeta = fabs(x[2]), sz = x[2] < 0 ? -1 : 1;
  const double last = MERIDIAN_STEP * 1.5;
  if (rho >= t->extent[0] - last || zeta >= t->extent[1] - last) {
    /* far: the body lies in the unit sphere, the unit cylinder and the slab |z| <= hmax */
    const double r = sqrt(rho * rho + x[2] * x[2]);
    double best = r - 1;
    n[0] = x[0] / r;
    n[1] = x[1] / r;
    n[2] = x[2] / r;
    if (rho - 1 > best) {
      best = rho - 1;
      n[0] = x[0] / rho;
      n[1] = x[1] / rho;
      n[2] = 0;
    }
    if (zeta - t->hmax > best) {
      best = zeta - t->hmax;
      n[0] = n[1] = 0;
      n[2] = sz;
    }
    return best;
  }
  const int i = (int)(rho / MERIDIAN_STEP + 0.5), j = (int)(zeta / MERIDIAN_STEP + 0.5);
  const double *d = t->d + i + (size_t)t->n[0] * j;
  const double di = rho - i * MERIDIAN_STEP, dj = zeta - j * MERIDIAN_STEP;
  const double value = *d - sqrt(di * di + dj * dj);
  const ptrdiff_t up = t->n[0];
  const double g_rho = i > 0 ? 0.5 * (d[1] - d[-1]) : d[1] - d[0];
  const double g_zeta = j > 0 ? 0.5 * (d[up] - d[-up]) : d[up] - d[0];
  if (rho > 1e-12) {
    n[0] = g_rho * x[0] / rho;
    n[1] = g_rho * x[1] / rho;
  } else {
    n[0] = n[1] = 0;
  }
  n[2] = g_zeta * sz;
  const double norm = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  if (norm > 0)
    for (int a = 0; a < 3; a++) n[a] /= norm;
  else
    n[2] = sz;
  return value;
}

static void cross(const double a[3], const double b[3], double out[3])
{
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

/* ---- shapes and bodies ----------------------------------------------------------------- */

/* The coarse rectangles of every surface search, and the finest covering radius (a
 * fraction of the bounding radius): the overlap test's resolution. */
#define COARSE_THETA 8
#define COARSE_PHI 16
#define LEAF_FRACTION 0.04

typedef struct {
  int kind;
  double size[3];
  double radius;                 /* bounding radius */
  double half_z, radial;         /* the cylinder about the body's z that holds it */
  double speed[2];               /* shape_surface_speed */
  double leaf;                   /* finest covering radius */
  double a[3], amin;             /* semi-axes (ellipsoidal kinds) */
  double volume;
  int rotates, banded;
} shape_info;


/* The sines and cosines of the parameter rectangles' widths, dtheta = pi / (COARSE_THETA
 * 2^k) and dphi = 2 pi / (COARSE_PHI 2^k), and of the coarse rectangles' centres: the search
 * turns angles by these (angle addition), calling no trigonometric function. */
#define LEVELS 48

typedef struct {
  double width[2][LEVELS], sin_w[2][LEVELS], cos_w[2][LEVELS];
  double centre_t[COARSE_THETA][2], centre_p[COARSE_PHI][2];   /* sin, cos */
} angles;

/* What the overlap test and the moves read: the region, the families' shapes, the RBC's
 * distance table, the angles of the surface search, the scale; and this rank's bodies, its
 * own first (nown of them), then the copies of its neighbours' bodies near its box. */
typedef struct {
  const packing_region *r;
  const shape_info *shape;
  const meridian_table *table;
  const angles *ang;
  packing_body *b;
  long n, nown;
  double sigma;
} packer;

typedef struct {
  double depth;                  /* > 0: the constraint is violated by this much */
  double point[3], normal[3];    /* where, and the direction that pushes the body out */
} contact;

enum { CON_PAIR, CON_LUMEN, CON_WALL };

typedef struct {
  int type;
  const packing_body *other;            /* CON_PAIR: the body whose distance is measured */
  double other_c[3];             /* its centre (the image that faces the searched body) */
  int axis, side;                /* CON_WALL */
} constraint;

/* A lower bound of the distance of lab point q to body A (centre cA) at the packer's scale;
 * n: the direction that increases it.  Once the bounding sphere's bound reaches `enough`,
 * that bound is returned. */
static double body_distance(const packer *P, const packing_body *A, const double cA[3],
                            const double q[3], double enough, double n[3])
{
  const shape_info *S = &P->shape[A->family];
  const double sg = P->sigma;
  const double v[3] = {q[0] - cA[0], q[1] - cA[1], q[2] - cA[2]};
  const double r = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  if (r - sg * S->radius >= enough || r == 0) {
    for (int a = 0; a < 3; a++) n[a] = r > 0 ? v[a] / r : (a == 2);
    return r - sg * S->radius;
  }
  double x[3], nb[3], d;
  for (int a = 0; a < 3; a++)
    x[a] = A->frame[a][0] * v[0] + A->frame[a][1] * v[1] + A->frame[a][2] * v[2];
  if (S->kind == BODY_RBC) {
    const double scale = sg * 0.5 * S->size[0];
    const double xu[3] = {x[0] / scale, x[1] / scale, x[2] / scale};
    d = scale * meridian_bound(P->table, xu, nb);
  } else {
    double k0 = 0, norm = 0;
    for (int a = 0; a < 3; a++) {
      const double s = x[a] / (sg * S->a[a]);
      k0 += s * s;
      nb[a] = s / (sg * S->a[a]);
      norm += nb[a] * nb[a];
    }
    d = sg * S->amin * (sqrt(k0) - 1);
    norm = sqrt(norm);
    for (int a = 0; a < 3; a++) nb[a] = norm > 0 ? nb[a] / norm : (a == 2);
  }
  for (int a = 0; a < 3; a++)
    n[a] = A->frame[0][a] * nb[0] + A->frame[1][a] * nb[1] + A->frame[2][a] * nb[2];
  return d;
}

/* The constraint's slack at lab point q (>= 0: kept), exact or a lower bound (at least
 * `enough` when the cheap bound shows that much), and the direction that raises it. */
static double slack(const packer *P, const constraint *k, const double q[3], double enough,
                    double n[3])
{
  const packing_region *r = P->r;
  if (k->type == CON_WALL) {
    n[0] = n[1] = n[2] = 0;
    n[k->axis] = k->side ? -1 : 1;
    return k->side ? r->length[k->axis] - r->wall_margin - q[k->axis]
                   : q[k->axis] - r->wall_margin;
  }
  if (k->type == CON_LUMEN) {
    const double y = q[1] - 0.5 * r->length[1], z = q[2] - 0.5 * r->length[2];
    const double rr = sqrt(y * y + z * z);
    n[0] = 0;
    n[1] = rr > 0 ? -y / rr : 0;
    n[2] = rr > 0 ? -z / rr : 0;
    return r->lumen_radius - r->wall_margin - rr;
  }
  return body_distance(P, k->other, k->other_c, q, enough + r->gap, n) - r->gap;
}

/* A parameter rectangle: the sines and cosines of its centre's theta and phi, and its
 * widths dtheta = angles.width[0][a], dphi = angles.width[1][b]. */
typedef struct {
  double st, ct, sp, cp;
  int a, b;
} rectangle;

/* The sine and cosine of an angle a turned by -w and by +w, from sin a, cos a, sin w, cos w. */
static void turn_both_ways(double sa, double ca, double sw, double cw, double *s_lo, double *c_lo,
                           double *s_hi, double *c_hi)
{
  *s_lo = sa * cw - ca * sw;
  *c_lo = ca * cw + sa * sw;
  *s_hi = sa * cw + ca * sw;
  *c_hi = ca * cw - sa * sw;
}

/* Branch and bound over rectangle z of body B's surface (centre cB): the deepest violation
 * of constraint k at the finest rectangles, into *worst. */
static void search(const packer *P, const packing_body *B, const double cB[3], const constraint *k,
                   rectangle z, contact *worst)
{
  const shape_info *S = &P->shape[B->family];
  const angles *A = P->ang;
  const double sg = P->sigma;
  /* the largest sin(theta) on the rectangle: 1 when it holds pi/2, else at the end nearer */
  const double sh = A->sin_w[0][z.a + 1], ch = A->cos_w[0][z.a + 1], act = fabs(z.ct);
  const double smax = act <= sh ? 1.0 : z.st * ch + act * sh;
  const double dt = S->speed[0] * A->width[0][z.a], dp = S->speed[1] * smax * A->width[1][z.b];
  const double cover = 0.5 * sg * (dt + dp);
  double xb[3], q[3], n[3];
  shape_surface_point(S->kind, S->size, z.st, z.ct, z.sp, z.cp, xb);
  for (int c = 0; c < 3; c++)
    q[c] = cB[c] + sg * (B->frame[0][c] * xb[0] + B->frame[1][c] * xb[1] +
                         B->frame[2][c] * xb[2]);
  const double g = slack(P, k, q, cover, n);
  if (g >= cover) return;                       /* kept on the whole rectangle */
  const double leaf = sg * S->leaf;
  if (cover - g + leaf <= worst->depth) return; /* no deeper than the deepest found */
  /* a finest rectangle, or one violated all over (by -g at its centre): no need to look
   * closer, for the certificate only ever asks for rectangles that are kept */
  const int finest = cover <= leaf || z.a + 3 >= LEVELS || z.b + 3 >= LEVELS;
  if (finest || g + cover <= 0) {
    const double depth = finest ? cover - g : leaf - g;
    if (depth > worst->depth) {
      worst->depth = depth;
      memcpy(worst->point, q, sizeof q);
      memcpy(worst->normal, n, sizeof n);
    }
    return;
  }
  /* the halves' centres lie a quarter width on either side */
  rectangle lo = z, hi = z;
  if (dt >= dp) {
    turn_both_ways(z.st, z.ct, A->sin_w[0][z.a + 2], A->cos_w[0][z.a + 2], &lo.st, &lo.ct,
                   &hi.st, &hi.ct);
    lo.a = hi.a = z.a + 1;
  } else {
    turn_both_ways(z.sp, z.cp, A->sin_w[1][z.b + 2], A->cos_w[1][z.b + 2], &lo.sp, &lo.cp,
                   &hi.sp, &hi.cp);
    lo.b = hi.b = z.b + 1;
  }
  search(P, B, cB, k, lo, worst);
  search(P, B, cB, k, hi, worst);
}

/* The deepest violation of k over the whole surface of B, when deeper than deeper_than
 * (else a contact of that depth): the branch and bound skips what cannot be deeper, and
 * finds the same deepest point whatever the bound. */
static contact surface_search(const packer *P, const packing_body *B, const double cB[3],
                              const constraint *k, double deeper_than)
{
  contact worst = {deeper_than, {0, 0, 0}, {0, 0, 0}};
  const angles *A = P->ang;
  for (int a = 0; a < COARSE_THETA; a++)
    for (int b = 0; b < COARSE_PHI; b++) {
      const rectangle z = {A->centre_t[a][0], A->centre_t[a][1], A->centre_p[b][0],
                           A->centre_p[b][1], 0, 0};
      search(P, B, cB, k, z, &worst);
    }
  return worst;
}

static void angles_setup(angles *A)
{
  for (int k = 0; k < LEVELS; k++) {
    A->width[0][k] = EFSI_PI / (COARSE_THETA * ldexp(1, k));
    A->width[1][k] = 2 * EFSI_PI / (COARSE_PHI * ldexp(1, k));
    for (int d = 0; d < 2; d++) {
      A->sin_w[d][k] = sin(A->width[d][k]);
      A->cos_w[d][k] = cos(A->width[d][k]);
    }
  }
  for (int a = 0; a < COARSE_THETA; a++) {
    A->centre_t[a][0] = sin(EFSI_PI * (a + 0.5) / COARSE_THETA);
    A->centre_t[a][1] = cos(EFSI_PI * (a + 0.5) / COARSE_THETA);
  }
  for (int b = 0; b < COARSE_PHI; b++) {
    A->centre_p[b][0] = sin(2 * EFSI_PI * (b + 0.5) / COARSE_PHI);
    A->centre_p[b][1] = cos(2 * EFSI_PI * (b + 0.5) / COARSE_PHI);
  }
}

/* ---- pairs ----------------------------------------------------------------------------- */

typedef struct {
  long i, j;                     /* the bodies' ids, i <= j */
  long a, b;                     /* their places in the packer's list */
  int image[3];                  /* body j's image: c_j + image . length */
  double shift[3];               /* the same in lengths */
} pair;

/* The order of pairs: i, j, image (a total order on ids: the pair list, and every sum taken
 * in its order, is the same on any process grid and thread count). */
static int pair_order(const pair *a, const pair *b)
{
  if (a->i != b->i) return a->i < b->i ? -1 : 1;
  if (a->j != b->j) return a->j < b->j ? -1 : 1;
  for (int d = 0; d < 3; d++)
    if (a->image[d] != b->image[d]) return a->image[d] < b->image[d] ? -1 : 1;
  return 0;
}

static int pair_compare(const void *a, const void *b) { return pair_order(a, b); }

/* The half-extent along unit u of a body's cylinder (axis a, radius rho, half-height eta):
 * rho sqrt(1 - (u.a)^2) + eta |u.a|. */
static double cylinder_support(const shape_info *S, const double a[3], const double u[3])
{
  const double ua = fabs(u[0] * a[0] + u[1] * a[1] + u[2] * a[2]);
  return S->radial * sqrt(fmax(0, 1 - ua * ua)) + S->half_z * ua;
}

/* Bounding spheres apart, or the bodies' cylinders apart along one of the axes, the line of
 * centres, or the axes' cross product (a separating axis proves them apart). */
static int pair_apart(const packer *P, const packing_body *A, const packing_body *B, const double cB[3])
{
  const shape_info *SA = &P->shape[A->family], *SB = &P->shape[B->family];
  const double sg = P->sigma, gap = P->r->gap;
  const double v[3] = {cB[0] - A->c[0], cB[1] - A->c[1], cB[2] - A->c[2]};
  const double r2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
  const double reach = sg * (SA->radius + SB->radius) + gap;
  if (r2 >= reach * reach) return 1;
  const double *aa = A->frame[2], *ab = B->frame[2];
  double axes[4][3];
  memcpy(axes[0], aa, sizeof axes[0]);
  memcpy(axes[1], ab, sizeof axes[1]);
  const double r = sqrt(r2);
  int count = 2;
  if (r > 0) {
    for (int c = 0; c < 3; c++) axes[count][c] = v[c] / r;
    count++;
  }
  cross(aa, ab, axes[count]);
  const double w = sqrt(axes[count][0] * axes[count][0] + axes[count][1] * axes[count][1] +
                        axes[count][2] * axes[count][2]);
  if (w > 1e-6) {
    for (int c = 0; c < 3; c++) axes[count][c] /= w;
    count++;
  }
  for (int m = 0; m < count; m++) {
    const double *u = axes[m];
    const double apart = fabs(v[0] * u[0] + v[1] * u[1] + v[2] * u[2]) -
                         sg * (cylinder_support(SA, aa, u) + cylinder_support(SB, ab, u));
    if (apart >= gap) return 1;
  }
  return 0;
}

/* The deeper of the two searches (B's surface against A, A's against B), as a contact on
 * pair p whose normal pushes j away from i. */
static contact pair_contact(const packer *P, const pair *p)
{
  const packing_body *A = &P->b[p->a], *B = &P->b[p->b];
  const double cB[3] = {B->c[0] + p->shift[0], B->c[1] + p->shift[1], B->c[2] + p->shift[2]};
  contact none = {0, {0, 0, 0}, {0, 0, 0}};
  if (pair_apart(P, A, B, cB)) return none;
  constraint k = {CON_PAIR, A, {A->c[0], A->c[1], A->c[2]}, 0, 0};
  const contact on_b = surface_search(P, B, cB, &k, 0);
  constraint l = {CON_PAIR, B, {cB[0], cB[1], cB[2]}, 0, 0};
  contact on_a = surface_search(P, A, A->c, &l, on_b.depth);
  if (on_b.depth >= on_a.depth) return on_b;
  for (int a = 0; a < 3; a++) on_a.normal[a] = -on_a.normal[a];
  return on_a;
}

/* The pairs of this rank's own bodies with their neighbours (bounding spheres within reach,
 * every periodic image once), in pair order.  Every body, own or copy, enters bins over this
 * rank's box widened by the reach, once for each of its periodic images that falls there;
 * each own body looks in the 27 bins about it.  A pair is always measured as (lower id,
 * higher id's image), so every rank that holds it computes the same numbers. */
typedef struct {
  pair *p;
  long n, cap;
  long *head, bins;              /* bins: the first image in each, -1 when empty */
  long *next, *body;             /* images: the next in the bin, the body */
  int (*shift)[3];               /* and its periodic shift */
  long images, images_cap;
} pair_list;

static void image_push(pair_list *L, long m, const int s[3])
{
  if (L->images == L->images_cap) {
    L->images_cap = L->images_cap ? 2 * L->images_cap : 256;
    L->next = efsi_realloc(L->next, (size_t)L->images_cap * sizeof *L->next, "packing bins");
    L->body = efsi_realloc(L->body, (size_t)L->images_cap * sizeof *L->body, "packing bins");
    L->shift = efsi_realloc(L->shift, (size_t)L->images_cap * sizeof *L->shift, "packing bins");
  }
  L->body[L->images] = m;
  memcpy(L->shift[L->images], s, sizeof L->shift[0]);
  L->images++;
}

/* Pair (lower id, higher id's image) of bodies u and v, v shifted by s relative to u;
 * appended when their bounding spheres come within the gap. */
static void pair_try(const packer *P, long u, long v, const int s[3], pair_list *L)
{
  const packing_region *r = P->r;
  long a = u, b = v;
  int image[3] = {s[0], s[1], s[2]};
  if (P->b[v].id < P->b[u].id) {
    a = v;
    b = u;
    for (int d = 0; d < 3; d++) image[d] = -s[d];
  } else if (u == v) {           /* an image of itself: once, the positive shift */
    const int first = image[0] ? image[0] : image[1] ? image[1] : image[2];
    if (first <= 0) return;
  }
  const packing_body *A = &P->b[a], *B = &P->b[b];
  const double reach = P->sigma * (P->shape[A->family].radius + P->shape[B->family].radius) + r->gap;
  double shift[3], d2 = 0;
  for (int d = 0; d < 3; d++) {
    shift[d] = image[d] * r->length[d];
    const double e = B->c[d] + shift[d] - A->c[d];
    d2 += e * e;
  }
  if (d2 >= reach * reach) return;
  if (L->n == L->cap) {
    L->cap = L->cap ? 2 * L->cap : 256;
    L->p = efsi_realloc(L->p, (size_t)L->cap * sizeof *L->p, "packing pairs");
  }
  pair *p = &L->p[L->n++];
  p->i = A->id;
  p->j = B->id;
  p->a = a;
  p->b = b;
  memcpy(p->image, image, sizeof image);
  memcpy(p->shift, shift, sizeof shift);
}

static void pairs_find(const packer *P, const double lo[3], const double hi[3], double reach,
                       pair_list *L)
{
  const packing_region *r = P->r;
  double origin[3], width[3];
  int nb[3], range[3];
  for (int d = 0; d < 3; d++) {
    origin[d] = lo[d] - reach;
    const double extent = hi[d] - lo[d] + 2 * reach;
    nb[d] = (int)fmin(fmax(floor(extent / reach), 1), 1 << 10);
    width[d] = extent / nb[d];
    range[d] = r->periodic[d];
  }
  /* every image inside the widened box */
  L->images = 0;
  for (long m = 0; m < P->n; m++)
    for (int sz = -range[2]; sz <= range[2]; sz++)
      for (int sy = -range[1]; sy <= range[1]; sy++)
        for (int sx = -range[0]; sx <= range[0]; sx++) {
          const int s[3] = {sx, sy, sz};
          int inside = 1;
          for (int d = 0; d < 3; d++) {
            const double x = P->b[m].c[d] + s[d] * r->length[d];
            inside &= x >= origin[d] && x <= origin[d] + nb[d] * width[d];
          }
          if (inside) image_push(L, m, s);
        }
  /* no more bins than a few per image */
  while ((double)nb[0] * nb[1] * nb[2] > 4.0 * L->images + 64) {
    const int d = nb[0] >= nb[1] && nb[0] >= nb[2] ? 0 : nb[1] >= nb[2] ? 1 : 2;
    width[d] *= (double)nb[d] / (nb[d] / 2);
    nb[d] /= 2;
  }
  const long bins = (long)nb[0] * nb[1] * nb[2];
  if (bins > L->bins) {
    L->head = efsi_realloc(L->head, (size_t)bins * sizeof *L->head, "packing bins");
    L->bins = bins;
  }
  for (long m = 0; m < bins; m++) L->head[m] = -1;
  for (long e = 0; e < L->images; e++) {
    long at = 0;
    for (int d = 2; d >= 0; d--) {
      const double x = P->b[L->body[e]].c[d] + L->shift[e][d] * r->length[d];
      int c = (int)floor((x - origin[d]) / width[d]);
      c = c < 0 ? 0 : c >= nb[d] ? nb[d] - 1 : c;
      at = at * nb[d] + c;
    }
    L->next[e] = L->head[at];
    L->head[at] = e;
  }
  L->n = 0;
  for (long i = 0; i < P->nown; i++) {
    int where[3];
    for (int d = 0; d < 3; d++) {
      const int c = (int)floor((P->b[i].c[d] - origin[d]) / width[d]);
      where[d] = c < 0 ? 0 : c >= nb[d] ? nb[d] - 1 : c;
    }
    for (int oz = -1; oz <= 1; oz++)
      for (int oy = -1; oy <= 1; oy++)
        for (int ox = -1; ox <= 1; ox++) {
          const int o[3] = {ox, oy, oz};
          long at = 0;
          int skip = 0;
          for (int d = 2; d >= 0; d--) {
            const int c = where[d] + o[d];
            skip |= c < 0 || c >= nb[d];
            at = at * nb[d] + (c < 0 ? 0 : c);
          }
          if (skip) continue;
          for (long e = L->head[at]; e >= 0; e = L->next[e]) {
            const int *s = L->shift[e];
            if (L->body[e] == i && s[0] == 0 && s[1] == 0 && s[2] == 0) continue;
            pair_try(P, i, L->body[e], s, L);
          }
        }
  }
  /* a pair of two own bodies is found from both: keep one */
  if (L->n > 1) qsort(L->p, (size_t)L->n, sizeof *L->p, pair_compare);   /* L->p may be NULL */
  long kept = 0;
  for (long m = 0; m < L->n; m++)
    if (kept == 0 || pair_order(&L->p[kept - 1], &L->p[m]) != 0) L->p[kept++] = L->p[m];
  L->n = kept;
}

static void pair_list_free(pair_list *L)
{
  free(L->p);
  free(L->head);
  free(L->next);
  free(L->body);
  free(L->shift);
}
/* ---- walls, the lumen and the band ----------------------------------------------------- */

/* The deepest violation of each wall constraint body m may touch, up to 4 (2 walls in y
 * and z, or the lumen).  Returns how many were searched. */
static int wall_contacts(const packer *P, long m, contact out[4])
{
  const packing_region *r = P->r;
  const packing_body *B = &P->b[m];
  const double reach = P->sigma * P->shape[B->family].radius;
  int count = 0;
  if (r->lumen) {
    const double rr = hypot(B->c[1] - 0.5 * r->length[1], B->c[2] - 0.5 * r->length[2]);
    if (rr + reach > r->lumen_radius - r->wall_margin) {
      const constraint k = {CON_LUMEN, NULL, {0, 0, 0}, 0, 0};
      out[count++] = surface_search(P, B, B->c, &k, 0);
    }
    return count;
  }
  for (int d = 0; d < 3; d++) {
    if (r->periodic[d]) continue;
    for (int side = 0; side < 2; side++) {
      const double room = side ? r->length[d] - r->wall_margin - B->c[d]
                               : B->c[d] - r->wall_margin;
      if (room >= reach) continue;
      const constraint k = {CON_WALL, NULL, {0, 0, 0}, d, side};
      out[count++] = surface_search(P, B, B->c, &k, 0);
    }
  }
  return count;
}

/* Keep a banded centre's distance from the axis in the band, and every centre in the box
 * along periodic axes. */
static void keep_in_region(const packer *P, packing_body *B)
{
  const packing_region *r = P->r;
  for (int d = 0; d < 3; d++)
    if (r->periodic[d]) {
      B->c[d] = fmod(B->c[d], r->length[d]);
      if (B->c[d] < 0) B->c[d] += r->length[d];
      if (B->c[d] >= r->length[d]) B->c[d] = 0;
    }
  if (!r->lumen || !P->shape[B->family].banded) return;
  const double y = B->c[1] - 0.5 * r->length[1], z = B->c[2] - 0.5 * r->length[2];
  const double rr = hypot(y, z);
  const double want = fmin(fmax(rr, r->band[0]), r->band[1]);
  if (want == rr) return;
  const double uy = rr > 0 ? y / rr : 1, uz = rr > 0 ? z / rr : 0;
  B->c[1] = 0.5 * r->length[1] + want * uy;
  B->c[2] = 0.5 * r->length[2] + want * uz;
}

/* ---- moving the bodies ----------------------------------------------------------------- */

/* Body m's share of a contact: it moves by `push` (a vector), and turns so that the contact
 * point follows the push (half of it, about the centre). */
static void share(const packer *P, long m, const double centre[3], const double point[3],
                  const double push[3], double *dc, double *turn)
{
  for (int a = 0; a < 3; a++) dc[a] += push[a];
  if (!P->shape[P->b[m].family].rotates) return;
  const double arm[3] = {point[0] - centre[0], point[1] - centre[1], point[2] - centre[2]};
  const double arm2 = arm[0] * arm[0] + arm[1] * arm[1] + arm[2] * arm[2];
  if (arm2 <= 0) return;
  double w[3];
  cross(arm, push, w);
  for (int a = 0; a < 3; a++) turn[a] += 0.5 * w[a] / arm2;
}

/* Turn the frame's rows by the rotation vector w (Rodrigues), then make them orthonormal
 * again (Gram-Schmidt). */
static void rotate_frame(double f[3][3], const double w[3])
{
  const double angle = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
  if (angle > 0) {
    const double k[3] = {w[0] / angle, w[1] / angle, w[2] / angle};
    const double c = cos(angle), s = sin(angle);
    for (int row = 0; row < 3; row++) {
      double kx[3];
      cross(k, f[row], kx);
      const double kd = k[0] * f[row][0] + k[1] * f[row][1] + k[2] * f[row][2];
      for (int a = 0; a < 3; a++) f[row][a] = f[row][a] * c + kx[a] * s + k[a] * kd * (1 - c);
    }
  }
  for (int row = 0; row < 3; row++) {
    for (int prev = 0; prev < row; prev++) {
      const double dot = f[row][0] * f[prev][0] + f[row][1] * f[prev][1] + f[row][2] * f[prev][2];
      for (int a = 0; a < 3; a++) f[row][a] -= dot * f[prev][a];
    }
    const double norm = sqrt(f[row][0] * f[row][0] + f[row][1] * f[row][1] + f[row][2] * f[row][2]);
    for (int a = 0; a < 3; a++) f[row][a] /= norm;
  }
}

/* ---- set-up ---------------------------------------------------------------------------- */

static void shape_setup(const packing_family *f, shape_info *S)
{
  memset(S, 0, sizeof *S);
  S->kind = f->kind;
  memcpy(S->size, f->size, sizeof S->size);
  S->radius = shape_bounding_radius(f->kind, f->size);
  double e[3];
  shape_half_extents(f->kind, f->size, e);
  S->half_z = e[2];
  S->radial = fmax(e[0], e[1]);
  shape_surface_speed(f->kind, f->size, S->speed);
  S->leaf = LEAF_FRACTION * S->radius;
  for (int a = 0; a < 3; a++) S->a[a] = f->kind == BODY_SPHERE ? f->size[0] : f->size[a];
  S->amin = fmin(S->a[0], fmin(S->a[1], S->a[2]));
  S->volume = shape_volume(f->kind, f->size);
  S->rotates = f->rotates;
  S->banded = f->banded;
}

/* ---- the start ------------------------------------------------------------------------- */

/* The blocks of family f's start: along each axis the range its centres start in (the box,
 * less the walls' margin and the body at the start scale; in a lumen only x, the
 * cross-section being drawn whole) cut into blocks of about START_BLOCK bounding diameters
 * of the largest body.  Fixed by the region and the families alone: block k (x fastest) of
 * the family's B blocks starts its bodies l in [count k / B, count (k + 1) / B). */
#define START_BLOCK 2

typedef struct {
  long n[3], blocks;
  double lo[3], width[3];
} start_blocks;

static void start_blocks_setup(const packing_region *r, const shape_info *S, double sigma,
                               double rmax, start_blocks *B)
{
  const double side = START_BLOCK * 2 * rmax, reach = sigma * S->radius;
  B->blocks = 1;
  for (int d = 0; d < 3; d++) {
    double lo = 0, hi = r->length[d];
    if (!r->periodic[d] && !r->lumen) {
      lo = r->wall_margin + reach;
      hi = r->length[d] - r->wall_margin - reach;
      if (!(hi > lo)) lo = hi = 0.5 * r->length[d];
    }
    B->n[d] = r->lumen && d > 0 ? 1 : (long)fmax(1, floor((hi - lo) / side));
    B->lo[d] = lo;
    B->width[d] = (hi - lo) / B->n[d];
    B->blocks *= B->n[d];
  }
}

/* Body l of family f, in block (k0, k1, k2) of its start: a uniform random orientation
 * (Shoemake's quaternion, as the lattice seeding draws it) or the family's frame, and a
 * uniform random centre in the block where the body, at scale sigma, stays in the region
 * (in a lumen: uniform over the disc, or the band, of the cross-section). */
static void body_start(const packer *P, const packing_family *fam, int f, long first_id,
                       long l, const start_blocks *B, const long k[3], packing_body *body)
{
  const packing_region *r = P->r;
  const shape_info *S = &P->shape[f];
  uint64_t st = random_stream(r->seed, f, l);
  memset(body, 0, sizeof *body);
  body->id = first_id + l;
  body->family = f;
  body->moved = 1;
  if (fam[f].rotates) {
    random_rotation(&st, body->frame);
  } else {
    memcpy(body->frame, fam[f].frame, sizeof body->frame);
  }
  if (r->lumen) {
    const double reach = P->sigma * S->radius;
    const double most = fmax(r->lumen_radius - r->wall_margin - reach, 0);
    double lo = 0, hi = most;
    if (S->banded) {
      hi = fmin(most, r->band[1]);
      lo = fmin(r->band[0], hi);
    }
    const double rr = sqrt(lo * lo + random_uniform(&st) * (hi * hi - lo * lo));
    const double angle = 2 * EFSI_PI * random_uniform(&st);
    body->c[0] = B->lo[0] + (k[0] + random_uniform(&st)) * B->width[0];
    body->c[1] = 0.5 * r->length[1] + rr * cos(angle);
    body->c[2] = 0.5 * r->length[2] + rr * sin(angle);
  } else {
    for (int d = 0; d < 3; d++) body->c[d] = B->lo[d] + (k[d] + random_uniform(&st)) * B->width[d];
  }
  keep_in_region(P, body);
}

/* This rank's own bodies at the start: those of the blocks that meet its box whose centres
 * it holds. */
static void start_own(const packer *P, const packing_ranks *pr, const packing_family *fam,
                      int nfam, double rmax, packing_list *own)
{
  long first_id = 0;
  for (int f = 0; f < nfam; f++) {
    start_blocks B;
    start_blocks_setup(P->r, &P->shape[f], P->sigma, rmax, &B);
    long k0[3], k1[3];
    for (int d = 0; d < 3; d++) {
      k0[d] = 0;
      k1[d] = B.n[d] - 1;
      if (B.n[d] > 1) {   /* a block more on each side: the rounding of the edges */
        const double lo = pr->coords[d] * pr->width[d], hi = lo + pr->width[d];
        k0[d] = (long)fmax(floor((lo - B.lo[d]) / B.width[d]) - 1, 0);
        k1[d] = (long)fmin(floor((hi - B.lo[d]) / B.width[d]) + 1, B.n[d] - 1);
      }
    }
    for (long z = k0[2]; z <= k1[2]; z++)
      for (long y = k0[1]; y <= k1[1]; y++)
        for (long x = k0[0]; x <= k1[0]; x++) {
          const long k[3] = {x, y, z}, block = x + B.n[0] * (y + B.n[1] * z);
          const long from = fam[f].count * block / B.blocks;
          const long to = fam[f].count * (block + 1) / B.blocks;
          for (long l = from; l < to; l++) {
            packing_body b;
            body_start(P, fam, f, first_id, l, &B, k, &b);
            if (packing_owns(pr, b.c)) packing_list_push(own, &b);
          }
        }
    first_id += fam[f].count;
  }
}

/* ---- exact sums over the ranks --------------------------------------------------------- */

/* A measure as a whole number of 2^-32 units: integer sums are the same in any order, so
 * the sweep's decisions are the same on any process grid. */
static long long fixed_point(double x)
{
  return llround(fmax(fmin(x, 1e6), -1e6) * 4294967296.0);
}

static double from_fixed(long long x) { return (double)x / 4294967296.0; }

/* The largest eigenvalue of the mean of (3 a a - I)/2 over the axes a of the rotating
 * bodies (all ranks): 0 for isotropic axes, 1 for parallel ones. */
static double nematic_order(const packer *P, MPI_Comm comm)
{
  long long sum[7] = {0, 0, 0, 0, 0, 0, 0};   /* the upper triangle, and the count */
  for (long m = 0; m < P->nown; m++) {
    if (!P->shape[P->b[m].family].rotates) continue;
    const double *a = P->b[m].frame[2];
    int e = 0;
    for (int i = 0; i < 3; i++)
      for (int j = i; j < 3; j++) sum[e++] += fixed_point(1.5 * a[i] * a[j] - 0.5 * (i == j));
    sum[6]++;
  }
  MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, sum, 7, MPI_LONG_LONG, MPI_SUM, comm));
  if (sum[6] == 0) return 0;
  double q[3][3];
  int e = 0;
  for (int i = 0; i < 3; i++)
    for (int j = i; j < 3; j++) q[i][j] = q[j][i] = from_fixed(sum[e++]) / (double)sum[6];
  /* the eigenvalues of a symmetric traceless 3 x 3 matrix: 2 sqrt(p/3) cos(.) */
  const double p = q[0][1] * q[0][1] + q[0][2] * q[0][2] + q[1][2] * q[1][2];
  const double p2 = q[0][0] * q[0][0] + q[1][1] * q[1][1] + q[2][2] * q[2][2] + 2 * p;
  const double s = sqrt(p2 / 6);
  if (s == 0) return 0;
  double b[3][3];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) b[i][j] = q[i][j] / s;
  const double det = b[0][0] * (b[1][1] * b[2][2] - b[1][2] * b[2][1])
                   - b[0][1] * (b[1][0] * b[2][2] - b[1][2] * b[2][0])
                   + b[0][2] * (b[1][0] * b[2][1] - b[1][1] * b[2][0]);
  const double phase = acos(fmax(-1, fmin(1, det / 2))) / 3;
  return 2 * s * cos(phase);
}

/* ---- the packing ----------------------------------------------------------------------- */

/* Growth: the scale starts where the bodies fill GROW_START of the region and grows by the
 * rate after every sweep whose overlaps, over the smaller body's bounding radius, are at
 * most DEEPEST and, summed and shared out over the bodies, at most MEAN; the rate (between
 * RATE_MIN and RATE_MAX) grows after CALM such sweeps in a row and halves after STUCK sweeps
 * in a row that are not.  At full size the sweeps go on until one finds nothing.  The
 * packing jams when the rate falls below RATE_MIN, or full size does not come free within
 * PATIENCE sweeps; at most SWEEPS_MAX sweeps. */
#define GROW_START 0.05
#define DEEPEST 0.1
#define MEAN 0.002
#define RATE_START 0.01
#define RATE_MIN 1e-3
#define RATE_MAX 0.03
#define CALM 3
#define STUCK 20
#define PATIENCE 400
#define SWEEPS_MAX 20000

/* What a sweep keeps: the pairs and their contacts (this sweep's and the last one's, whose
 * contacts stand while neither body has moved and the scale has not changed), the walls'
 * contacts of each own body (nwalls < 0: to be searched), and the own bodies' moves. */
typedef struct {
  pair_list pairs;
  contact *touch, *old_touch;
  pair *old;
  long old_n, cap;
  long *reuse;
  contact *walls;
  int *nwalls;
  double (*dc)[3], (*turn)[3];
  long own_cap;
} workspace;

static void workspace_grow(workspace *w, long nown)
{
  if (w->pairs.n > w->cap) {
    w->cap = w->pairs.cap;
    w->touch = efsi_realloc(w->touch, (size_t)w->cap * sizeof *w->touch, "packing contacts");
    w->old_touch = efsi_realloc(w->old_touch, (size_t)w->cap * sizeof *w->old_touch, "packing contacts");
    w->old = efsi_realloc(w->old, (size_t)w->cap * sizeof *w->old, "packing contacts");
    w->reuse = efsi_realloc(w->reuse, (size_t)w->cap * sizeof *w->reuse, "packing contacts");
  }
  if (nown > w->own_cap) {
    const long cap = 2 * nown;
    w->walls = efsi_realloc(w->walls, (size_t)cap * 4 * sizeof *w->walls, "packing walls");
    w->nwalls = efsi_realloc(w->nwalls, (size_t)cap * sizeof *w->nwalls, "packing walls");
    w->dc = efsi_realloc(w->dc, (size_t)cap * sizeof *w->dc, "packing moves");
    w->turn = efsi_realloc(w->turn, (size_t)cap * sizeof *w->turn, "packing moves");
    w->own_cap = cap;
  }
}

static void workspace_free(workspace *w)
{
  pair_list_free(&w->pairs);
  free(w->touch);
  free(w->old_touch);
  free(w->old);
  free(w->reuse);
  free(w->walls);
  free(w->nwalls);
  free(w->dc);
  free(w->turn);
}

/* What a sweep found: the violations and the sum of their depths over the smaller
 * bounding radius (in 2^-32 units), and the deepest. */
typedef struct {
  long long count[2];
  double deepest;
} sweep_measure;

/* One sweep's search on this rank: the contacts of every pair of its own bodies (kept from
 * the last sweep while neither body has moved and the scale has not changed) and of its own
 * bodies' walls, and their measures.  A pair counts on the rank that owns its lower id, so
 * each counts once over the ranks. */
static sweep_measure sweep_contacts(const packer *P, const packing_ranks *pr, workspace *w,
                                    int rescaled, double reach)
{
  double lo[3], hi[3];
  for (int d = 0; d < 3; d++) {
    lo[d] = pr->coords[d] * pr->width[d];
    hi[d] = lo[d] + pr->width[d];
  }
  pair_list *L = &w->pairs;
  pairs_find(P, lo, hi, reach, L);
  workspace_grow(w, P->nown);
  for (long p = 0, o = 0; p < L->n; p++) {
    w->reuse[p] = -1;
    if (rescaled) continue;
    while (o < w->old_n && pair_order(&w->old[o], &L->p[p]) < 0) o++;
    if (o < w->old_n && pair_order(&w->old[o], &L->p[p]) == 0 && !P->b[L->p[p].a].moved &&
        !P->b[L->p[p].b].moved)
      w->reuse[p] = o;
  }
#pragma omp parallel for schedule(dynamic, 8)
  for (long p = 0; p < L->n; p++)
    w->touch[p] = w->reuse[p] >= 0 ? w->old_touch[w->reuse[p]] : pair_contact(P, &L->p[p]);
#pragma omp parallel for schedule(dynamic, 8)
  for (long m = 0; m < P->nown; m++)
    if (rescaled || P->b[m].moved || w->nwalls[m] < 0) w->nwalls[m] = wall_contacts(P, m, &w->walls[4 * m]);
  long long count[2] = {0, 0};   /* violations, the sum of depths (fixed point) */
  double worst = 0;
  for (long p = 0; p < L->n; p++) {
    if (!(w->touch[p].depth > 0)) continue;
    const pair *pp = &L->p[p];
    const double depth = w->touch[p].depth /
        (P->sigma * fmin(P->shape[P->b[pp->a].family].radius, P->shape[P->b[pp->b].family].radius));
    worst = fmax(worst, depth);
    if (pp->a < P->nown) {
      count[0]++;
      count[1] += fixed_point(depth);
    }
  }
  for (long m = 0; m < P->nown; m++)
    for (int k = 0; k < w->nwalls[m]; k++) {
      if (!(w->walls[4 * m + k].depth > 0)) continue;
      const double depth = w->walls[4 * m + k].depth /
                           (P->sigma * P->shape[P->b[m].family].radius);
      worst = fmax(worst, depth);
      count[0]++;
      count[1] += fixed_point(depth);
    }
  if (L->n > 0) {   /* (no pair: the lists may be NULL) */
    memcpy(w->old, L->p, (size_t)L->n * sizeof *L->p);
    memcpy(w->old_touch, w->touch, (size_t)L->n * sizeof *w->touch);
  }
  w->old_n = L->n;
  const sweep_measure m = {{count[0], count[1]}, worst};
  return m;
}

/* The measures over all ranks, exact: integer sums and a maximum. */
static void sweep_reduce(sweep_measure *m, MPI_Comm comm)
{
  MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, m->count, 2, MPI_LONG_LONG, MPI_SUM, comm));
  MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &m->deepest, 1, MPI_DOUBLE, MPI_MAX, comm));
}

/* The direction in which a pair's contact pushes body J (centre cj) away from body I
 * (centre ci): the contact's normal, unless that points towards I's centre (a negative
 * component along cj - ci), which happens when two bodies lie nearly on top of each other
 * (two RBCs a fraction of a micrometre apart, their discs nearly parallel): the deepest
 * point of J's surface then lies on I's far side, each push carries J through I, and the
 * pair swaps places sweep after sweep without ever coming apart (one such pair in some
 * 10^5 stopped the growth of a packing of 266,705 bodies).  Such a pair is pushed apart
 * along the line of its centres instead (along z if they coincide).  A pure function of
 * the pair, so the packing stays the same on any process grid. */
static void push_direction(const double normal[3], const double ci[3], const double cj[3],
                           double out[3])
{
  double along = 0, d2 = 0, d[3];
  for (int a = 0; a < 3; a++) {
    d[a] = cj[a] - ci[a];
    along += normal[a] * d[a];
    d2 += d[a] * d[a];
  }
  const double dist = sqrt(d2);
  for (int a = 0; a < 3; a++)
    out[a] = along >= 0 ? normal[a] : dist > 0 ? d[a] / dist : (a == 2);
}

/* Move every own body by its share of its contacts, in a fixed order (pairs, then walls):
 * each pair's bodies half the overlap apart, a body the whole of its overlap off a wall, one
 * leaf further; steps limited to a quarter of the body's radius and 0.2 rad. */
static void sweep_move(packer *P, workspace *w)
{
  const long n = P->nown;
  const double sigma = P->sigma;
  memset(w->dc, 0, (size_t)n * sizeof *w->dc);
  memset(w->turn, 0, (size_t)n * sizeof *w->turn);
  for (long p = 0; p < w->pairs.n; p++) {
    const contact *c = &w->touch[p];
    if (c->depth <= 0) continue;
    const pair *pp = &w->pairs.p[p];
    const packing_body *I = &P->b[pp->a], *J = &P->b[pp->b];
    const double amount = 0.5 * (c->depth + sigma * P->shape[J->family].leaf);
    const double cj[3] = {J->c[0] + pp->shift[0], J->c[1] + pp->shift[1], J->c[2] + pp->shift[2]};
    double out[3];
    push_direction(c->normal, I->c, cj, out);
    const double push[3] = {amount * out[0], amount * out[1], amount * out[2]};
    const double back[3] = {-push[0], -push[1], -push[2]};
    if (pp->b < n) share(P, pp->b, cj, c->point, push, w->dc[pp->b], w->turn[pp->b]);
    if (pp->a < n) share(P, pp->a, I->c, c->point, back, w->dc[pp->a], w->turn[pp->a]);
  }
  for (long m = 0; m < n; m++)
    for (int k = 0; k < w->nwalls[m]; k++) {
      const contact *c = &w->walls[4 * m + k];
      if (c->depth <= 0) continue;
      const double amount = c->depth + sigma * P->shape[P->b[m].family].leaf;
      const double push[3] = {amount * c->normal[0], amount * c->normal[1], amount * c->normal[2]};
      share(P, m, P->b[m].c, c->point, push, w->dc[m], w->turn[m]);
    }
  for (long m = 0; m < n; m++) {
    packing_body *B = &P->b[m];
    double before[12];
    memcpy(before, B->c, sizeof B->c);
    memcpy(before + 3, B->frame, sizeof B->frame);
    const double step = sqrt(w->dc[m][0] * w->dc[m][0] + w->dc[m][1] * w->dc[m][1] +
                             w->dc[m][2] * w->dc[m][2]);
    const double most = 0.25 * sigma * P->shape[B->family].radius;
    const double cut = step > most ? most / step : 1;
    for (int a = 0; a < 3; a++) B->c[a] += cut * w->dc[m][a];
    const double angle = sqrt(w->turn[m][0] * w->turn[m][0] + w->turn[m][1] * w->turn[m][1] +
                              w->turn[m][2] * w->turn[m][2]);
    if (angle > 0) {
      const double t = angle > 0.2 ? 0.2 / angle : 1;
      const double turn[3] = {t * w->turn[m][0], t * w->turn[m][1], t * w->turn[m][2]};
      rotate_frame(B->frame, turn);
    }
    keep_in_region(P, B);
    B->moved = memcmp(before, B->c, sizeof B->c) != 0 ||
               memcmp(before + 3, B->frame, sizeof B->frame) != 0;
  }
}

/* The exchange before a sweep: own bodies that left this rank's box go to their new rank,
 * copies of every own body near a neighbour's box go to it; the packer's list becomes the
 * own bodies (those that stayed, then those that arrived, whose walls are to be searched)
 * and the copies.  The walls' contacts follow the own bodies that stay. */
static void exchange(packer *P, const packing_ranks *pr, workspace *w, double reach,
                     packing_list *lists)
{
  packing_list *leave = &lists[0], *arrived = &lists[1], *copies = &lists[2];
  leave->n = 0;
  long stay = 0;
  for (long m = 0; m < P->nown; m++) {
    if (!packing_owns(pr, P->b[m].c)) {
      packing_list_push(leave, &P->b[m]);
      continue;
    }
    P->b[stay] = P->b[m];
    memmove(&w->walls[4 * stay], &w->walls[4 * m], 4 * sizeof *w->walls);
    w->nwalls[stay] = w->nwalls[m];
    stay++;
  }
  packing_exchange(pr, P->b, stay, leave->b, leave->n, reach, arrived, copies);
  P->nown = stay + arrived->n;
  P->n = P->nown + copies->n;
  P->b = efsi_realloc(P->b, (size_t)(P->n > 0 ? P->n : 1) * sizeof *P->b, "packed bodies");
  if (arrived->n > 0) memcpy(P->b + stay, arrived->b, (size_t)arrived->n * sizeof *P->b);
  if (copies->n > 0) memcpy(P->b + P->nown, copies->b, (size_t)copies->n * sizeof *P->b);
  workspace_grow(w, P->nown);
  for (long m = stay; m < P->nown; m++) w->nwalls[m] = -1;
}

static int by_id(const void *a, const void *b)
{
  const efsi_body *x = a, *y = b;
  return (x->id > y->id) - (x->id < y->id);
}

/* The bodies kept on this rank: its own and the copies of every body that comes within
 * margin of its box, as placed bodies in id order. */
static void keep_near(const packer *P, const packing_family *fam, const efsi_decomp *d,
                      double margin, double rmax, efsi_body **kept, long *nkept)
{
  const double *L = P->r->length;
  const double reach = margin + rmax + 1e-9 * fmax(L[0], fmax(L[1], L[2]));   /* and rounding */
  packing_ranks near;
  packing_list arrived = {NULL, 0, 0}, copies = {NULL, 0, 0};
  packing_ranks_create(&near, d, L, P->r->periodic, reach);
  packing_exchange(&near, P->b, P->nown, NULL, 0, reach, &arrived, &copies);
  const long n = P->nown + copies.n;
  efsi_body *out = efsi_malloc((size_t)(n > 0 ? n : 1) * sizeof *out, "packed bodies");
  for (long m = 0; m < n; m++) {
    const packing_body *b = m < P->nown ? &P->b[m] : &copies.b[m - P->nown];
    const packing_family *f = &fam[b->family];
    efsi_body *o = &out[m];
    memset(o, 0, sizeof *o);
    o->id = b->id;
    o->kind = f->kind;
    o->material = f->material;
    memcpy(o->center, b->c, sizeof o->center);
    memcpy(o->frame, b->frame, sizeof o->frame);
    memcpy(o->size, f->size, sizeof o->size);
  }
  qsort(out, (size_t)n, sizeof *out, by_id);
  *kept = out;
  *nkept = n;
  packing_list_free(&arrived);
  packing_list_free(&copies);
  packing_ranks_free(&near);
}

/* Wall-clock seconds, and the process's CPU seconds (all its threads). */
static double seconds_now(clockid_t clock)
{
  struct timespec t;
  clock_gettime(clock, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* What a packing's sweeps use besides its bodies: the families' shapes, the RBC's
 * meridian table, the angles, the largest radius and a pair's reach, the neighbour ranks,
 * the sweep's workspace and the lists the exchanges fill.  packing_run opens one; so does a
 * test that replays a few sweeps (tests/test_packing_mpi). */
typedef struct {
  shape_info *shape;
  meridian_table table;
  angles ang;
  double rmax, reach;
  packing_ranks pr;
  workspace w;
  packing_list lists[3];
} sweeper;

static void sweeper_open(sweeper *s, const packing_region *r, const packing_family *fam,
                         int nfam, const efsi_decomp *d)
{
  memset(s, 0, sizeof *s);
  s->shape = efsi_malloc((size_t)(nfam > 0 ? nfam : 1) * sizeof *s->shape, "packing shapes");
  int rbc = 0;
  for (int f = 0; f < nfam; f++) {
    shape_setup(&fam[f], &s->shape[f]);
    rbc |= fam[f].kind == BODY_RBC && fam[f].count > 0;
    if (fam[f].count > 0) s->rmax = fmax(s->rmax, s->shape[f].radius);
  }
  if (rbc) meridian_build(&s->table);
  angles_setup(&s->ang);
  /* a pair's reach (and the rounding of the boxes' edges); the neighbours: the ranks within
   * it, with room for a sweep's steps (a quarter radius, and as much again when a banded
   * centre is put back into its band) */
  s->reach = 2 * s->rmax + r->gap + 1e-9 * fmax(r->length[0], fmax(r->length[1], r->length[2]));
  packing_ranks_create(&s->pr, d, r->length, r->periodic, s->reach + s->rmax);
}

/* The workspace for nown own bodies, their walls' contacts still to be searched. */
static void sweeper_start(sweeper *s, long nown)
{
  workspace_grow(&s->w, nown);
  for (long m = 0; m < nown; m++) s->w.nwalls[m] = -1;
}

static void sweeper_close(sweeper *s)
{
  workspace_free(&s->w);
  for (int k = 0; k < 3; k++) packing_list_free(&s->lists[k]);
  free(s->table.d);
  free(s->shape);
  packing_ranks_free(&s->pr);
}

int packing_run(const packing_region *r, const packing_family *fam, int nfam,
                const efsi_decomp *d, double keep_margin, efsi_body **kept, long *nkept,
                packing_result *result)
{
  const double start = seconds_now(CLOCK_MONOTONIC);
  double cpu = seconds_now(CLOCK_PROCESS_CPUTIME_ID);   /* less the exchanges and reductions */
  memset(result, 0, sizeof *result);
  *kept = NULL;
  *nkept = 0;
  sweeper s;
  sweeper_open(&s, r, fam, nfam, d);
  const double reach = s.reach, rmax = s.rmax;
  long total = 0;
  double filled = 0;
  for (int f = 0; f < nfam; f++) {
    total += fam[f].count;
    filled += fam[f].count * s.shape[f].volume;
  }
  const double region = r->lumen ? EFSI_PI * r->lumen_radius * r->lumen_radius * r->length[0]
                                 : r->length[0] * r->length[1] * r->length[2];
  double sigma = fmin(1, cbrt(GROW_START * region / fmax(filled, 1e-300)));
  packer P = {r, s.shape, &s.table, &s.ang, NULL, 0, 0, sigma};
  packing_list own = {NULL, 0, 0};
  start_own(&P, &s.pr, fam, nfam, rmax, &own);
  P.b = own.b;
  P.n = P.nown = own.n;
  sweeper_start(&s, P.nown);
  double rate = RATE_START, last_sigma = -1;
  long calm = 0, stuck = 0, at_full = 0, most = 0;
  int rc = 1;
  for (long sweep = 0; sweep < SWEEPS_MAX; sweep++) {
    double at = seconds_now(CLOCK_PROCESS_CPUTIME_ID);
    result->cpu_seconds += at - cpu;
    exchange(&P, &s.pr, &s.w, reach, s.lists);
    most = P.n > most ? P.n : most;
    P.sigma = sigma;
    cpu = seconds_now(CLOCK_PROCESS_CPUTIME_ID);
    sweep_measure m = sweep_contacts(&P, &s.pr, &s.w, sigma != last_sigma, reach);
    at = seconds_now(CLOCK_PROCESS_CPUTIME_ID);
    result->cpu_seconds += at - cpu;
    sweep_reduce(&m, s.pr.comm);
    cpu = seconds_now(CLOCK_PROCESS_CPUTIME_ID);
    const long violated = (long)m.count[0];
    const double mean = total > 0 ? from_fixed(m.count[1]) / total : 0;
    last_sigma = sigma;
    result->iterations = sweep + 1;
    if (violated == 0 && sigma >= 1) {
      rc = 0;
      break;
    }
    if (sigma >= 1) {
      if (++at_full > PATIENCE) break;
    } else if (m.deepest <= DEEPEST && mean <= MEAN) {
      result->scale = sigma;
      sigma = fmin(1, sigma * (1 + rate));
      stuck = 0;
      if (++calm >= CALM) {
        rate = fmin(rate * 1.25, RATE_MAX);
        calm = 0;
      }
    } else {
      calm = 0;
      if (++stuck >= STUCK) {
        rate *= 0.5;
        stuck = 0;
        if (rate < RATE_MIN) break;
      }
    }
    sweep_move(&P, &s.w);
  }
  if (rc == 0) result->scale = 1.0;
  result->order = nematic_order(&P, s.pr.comm);
  if (rc == 0) keep_near(&P, fam, d, keep_margin, rmax, kept, nkept);
  MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &most, 1, MPI_LONG, MPI_MAX, s.pr.comm));
  result->most_bodies = most;
  free(P.b);
  sweeper_close(&s);
  result->seconds = seconds_now(CLOCK_MONOTONIC) - start;
  MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &result->seconds, 1, MPI_DOUBLE, MPI_MAX, d->comm));
  MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &result->cpu_seconds, 1, MPI_DOUBLE, MPI_MAX, d->comm));
  return rc;
}
