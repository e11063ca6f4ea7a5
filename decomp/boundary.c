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

/* The w layers beyond the wall on side (0 low, 1 high) of direction d; staggered = 1 for the
 * component normal to d, whose wall face (zeroed before, by the caller) is its own mirror. */
static void reflect_side(const efsi_layer_ops *ops, const efsi_grid *g, double *f, int d,
                         int side, int staggered, double sign, double offset, int w)
{
  const int n = g->n[d];
  for (int layer = 1 + (side && staggered); layer <= w; layer++) {
    const int dst = side ? n - 1 + layer : -layer;
    const int src = side ? n - layer + staggered : layer - 1 + staggered;
    int lo[3], hi[3];
    layer_range(g, d, dst, w, lo, hi);
    ops->reflect(g, f, lo, hi, (ptrdiff_t)(src - dst) * g->stride[d], sign, offset);
  }
}

static int at_wall(const efsi_grid *g, int d, int side)
{
  return side ? g->wall_hi[d] : g->wall_lo[d];
}

static void check_width(int width)
{
  if (width < 1 || width > EFSI_HALO)
    efsi_abort(EFSI_EXIT_RUNTIME, "boundary: width %d outside 1..%d", width, EFSI_HALO);
}

void boundary_even(const efsi_layer_ops *ops, const efsi_grid *g, double *f, int width)
{
  check_width(width);
  for (int d = 1; d < 3; d++)
    for (int side = 0; side < 2; side++)
      if (at_wall(g, d, side)) reflect_side(ops, g, f, d, side, 0, 1.0, 0.0, width);
}

void boundary_velocity(const efsi_layer_ops *ops, const efsi_grid *g, double *u, double *v,
                       double *w, const double u_wall[3][2], int width)
{
  check_width(width);
  double *velocity[3] = {u, v, w};
  for (int d = 1; d < 3; d++) {
    /* Both wall faces first: with one rank along d the low side's last layer reads the
     * high wall face (f(-w) = -f(n) when n = w). */
    for (int side = 0; side < 2; side++)
      if (at_wall(g, d, side)) {
        int lo[3], hi[3];
        layer_range(g, d, side ? g->n[d] : 0, width, lo, hi);
        ops->zero(g, velocity[d], lo, hi);
      }
    for (int side = 0; side < 2; side++) {
      if (!at_wall(g, d, side)) continue;
      for (int c = 0; c < 3; c++) {
        const double offset = c == 0 ? 2.0 * u_wall[d][side] : 0.0;
        reflect_side(ops, g, velocity[c], d, side, c == d, -1.0, offset, width);
      }
    }
  }
}
