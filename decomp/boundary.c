/* Wall layers, after the halo exchange, for the walls normal to y and z (x is periodic).
 * Cell-centred along the wall normal:  f(-1-m) = c + s f(m),  f(n+m) = c + s f(n-1-m), m < w;
 * face-centred (the normal velocity):  f(0) = f(n) = 0 on the wall faces,
 * f(-m) = -f(m) (m = 1..w),  f(n+m) = -f(n-m) (m = 1..w-1, so that n+m stays in the halo).
 * Even: s = 1, c = 0.  Tangential velocity: s = -1, c = 2U for u (U the wall's x velocity),
 * c = 0 for the other one.  y is done first, then z over the y halos, so corners are filled. */
#include "decomp/boundary.h"

#include "base/errors.h"

/* The layer `layer` along d over the other directions' range [-w, n + w). */
static void layer_range(const efsi_grid *g, int d, int layer, int w, int lo[3], int hi[3])
{
  for (int e = 0; e < 3; e++) {
    lo[e] = -w;
    hi[e] = g->n[e] + w;
  }
  lo[d] = layer;
  hi[d] = layer + 1;
}

/* The layers of one wall direction, gathered so that they are filled in one call (on a GPU
 * one launch): every layer reads cells of the block, never another layer or a wall face, as
 * long as the block holds EFSI_HALO cells along d (decomp.c sees to it) and more than the
 * layers' width (else the faces are zeroed before, apart). */
typedef struct {
  const efsi_layer_ops *ops;
  const efsi_grid *g;
  int n;
  efsi_reflection layer[EFSI_REFLECT_BATCH];
} batch;

static void flush(batch *b)
{
  if (b->n > 0) b->ops->reflect(b->g, b->layer, b->n);
  b->n = 0;
}

/* The next layer of the batch (filled when the batch is full) */
static efsi_reflection *next_layer(batch *b)
{
  if (b->n == EFSI_REFLECT_BATCH) flush(b);
  return &b->layer[b->n++];
}

/* The w layers beyond the wall on side (0 low, 1 high) of direction d; staggered = 1 for the
 * component normal to d, whose wall face (zeroed before, by the caller) is its own mirror. */
static void reflect_side(batch *b, double *f, int d, int side, int staggered, double sign,
                         double offset, int w)
{
  const efsi_grid *g = b->g;
  const int n = g->n[d];
  for (int layer = 1 + (side && staggered); layer <= w; layer++) {
    const int dst = side ? n - 1 + layer : -layer;
    const int src = side ? n - layer + staggered : layer - 1 + staggered;
    efsi_reflection *r = next_layer(b);
    layer_range(g, d, dst, w, r->lo, r->hi);
    r->f = f;
    r->shift = (ptrdiff_t)(src - dst) * g->stride[d];
    r->sign = sign;
    r->offset = offset;
  }
}

static int at_wall(const efsi_grid *g, int d, int side)
{
  return side ? g->wall_hi[d] : g->wall_lo[d];
}

void boundary_fill(const efsi_layer_ops *ops, const efsi_grid *g, double *const velocity[3],
                   const double u_wall[3][2], double *const *even, int neven, int width)
{
  if (width < 1 || width > EFSI_HALO)
    efsi_abort(EFSI_EXIT_RUNTIME, "boundary: width %d outside 1..%d", width, EFSI_HALO);
  batch b = {.ops = ops, .g = g, .n = 0};
  for (int d = 1; d < 3; d++) {
    if (!at_wall(g, d, 0) && !at_wall(g, d, 1)) continue;
    if (velocity)
      /* Both wall faces first.  A block of n <= w cells along d reads a face when it
       * mirrors (the low side's last layer is f(-w) = -f(n) when n = w): its faces are zeroed
       * before the layers; otherwise no layer reads them, and they go in the batch as layers
       * set to 0 (sign 0). */
      for (int side = 0; side < 2; side++)
        if (at_wall(g, d, side)) {
          const int at = side ? g->n[d] : 0;
          if (g->n[d] <= width) {
            int lo[3], hi[3];
            layer_range(g, d, at, width, lo, hi);
            ops->zero(g, velocity[d], lo, hi);
            continue;
          }
          efsi_reflection *face = next_layer(&b);
          *face = (efsi_reflection){.f = velocity[d], .shift = 0, .sign = 0.0, .offset = 0.0};
          layer_range(g, d, at, width, face->lo, face->hi);
        }
    for (int side = 0; side < 2; side++) {
      if (!at_wall(g, d, side)) continue;
      if (velocity)
        for (int c = 0; c < 3; c++) {
          const double offset = c == 0 ? 2.0 * u_wall[d][side] : 0.0;
          reflect_side(&b, velocity[c], d, side, c == d, -1.0, offset, width);
        }
      for (int f = 0; f < neven; f++) reflect_side(&b, even[f], d, side, 0, 1.0, 0.0, width);
    }
    flush(&b);   /* z's layers read y's: y is done first, so the corners are filled */
  }
}

void boundary_even(const efsi_layer_ops *ops, const efsi_grid *g, double *f, int width)
{
  boundary_fill(ops, g, NULL, NULL, &f, 1, width);
}

void boundary_velocity(const efsi_layer_ops *ops, const efsi_grid *g, double *u, double *v,
                       double *w, const double u_wall[3][2], int width)
{
  double *const velocity[3] = {u, v, w};
  boundary_fill(ops, g, velocity, u_wall, NULL, 0, width);
}
