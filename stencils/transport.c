/* The conservative transport of a volume fraction on the CPU, out = -div(a f) (formulas in
 * weno5.h: WENO5 face values, THINC ones in interface cells), and the step's update of the
 * volume fraction with it, phi_advance.  The GPU's version (stencils/cuda/transport.cu) is
 * another algorithm: each face's flux once, and THINC only in a list of interface cells,
 * where the CPU forms a cell's two faces in its vectorised loop and corrects the few
 * interface faces afterwards. */
#include "stencils/kernel_list.h"
#include "stencils/loop.h"

/* What THINC face values (thinc_face) change in out = -div(a f): on every face normal to d
 * whose upwind cell is an interface cell, the flux's change (thinc_flux_change), taken
 * from the owned cell below the face and given to the owned cell above, each face once.
 * The faces of a line along d go in order on one thread (d = 0: the (k, j) rows; d = 1:
 * threads over k; d = 2: threads over j), so no two threads write one cell and every cell
 * gets its changes in the same order on any process grid or thread count. */
static void thinc_correct(const efsi_grid *g, const weno5_stencil_t *st, int d,
                          const double *restrict f, const double *restrict a, double beta,
                          double dt, double *restrict out)
{
  const ptrdiff_t s = st->s[d];
  const double inv_h = st->inv_h[d];
  const int n0 = g->n[0], n1 = g->n[1], n2 = g->n[2];
  const int outer = d == 2 ? n1 : n2, middle = d == 0 ? n1 : d == 1 ? n1 + 1 : n2 + 1;
  const int inner = d == 0 ? n0 + 1 : n0;
#pragma omp parallel for schedule(static)
  for (int o = 0; o < outer; o++)
    for (int m = 0; m < middle; m++)
      for (int i = 0; i < inner; i++) {
        /* the face q between cells q - s and q, and its index along d */
        const int j = d == 2 ? o : m, k = d == 2 ? m : o, along = d == 0 ? i : m;
        const ptrdiff_t q = grid_index(g, i, j, k);
        const double change = thinc_flux_change(st, f, q, d, a[q], beta, dt) * inv_h;
        if (change == 0) continue;
        if (along > 0) out[q - s] -= change;
        if (along < g->n[d]) out[q] += change;
      }
}

void advection_weno5_conservative(const efsi_grid *g, const double *restrict f,
                                  const double *restrict u, const double *restrict v,
                                  const double *restrict w, double thinc_beta, double dt,
                                  double *restrict out)
{
  int lo[3], hi[3];
  box_owned(g, 0, lo, hi);
  const weno5_stencil_t st = weno5_stencil(g, LOC_CENTRE);
  /* THINC: the vectorised WENO5 loop everywhere, then the faces whose upwind cell is an
   * interface cell corrected (elsewhere THINC's face values are WENO5's) */
  FOR_BOX(g, lo, hi, p, out[p] = advection_conservative_at(&st, f, u, v, w, p));
  if (thinc_beta > 0) {
    const double *const a[3] = {u, v, w};
    for (int d = 0; d < 3; d++) thinc_correct(g, &st, d, f, a[d], thinc_beta, dt, out);
  }
}

void phi_advance(const efsi_grid *g, const double *restrict f, const double *restrict u,
                 const double *restrict v, const double *restrict w, double thinc_beta,
                 double dt, double *restrict next, double *const work[4])
{
  (void)work;   /* the CPU's cell loop needs no face arrays */
  int lo[3], hi[3];
  box_owned(g, 0, lo, hi);
  if (thinc_beta > 0) {
    /* the rate with THINC's corrections in next, then the update in place */
    advection_weno5_conservative(g, f, u, v, w, thinc_beta, dt, next);
    FOR_BOX(g, lo, hi, p, next[p] = axpy_at(f[p], dt, next[p]));
    return;
  }
  const weno5_stencil_t st = weno5_stencil(g, LOC_CENTRE);
  FOR_BOX(g, lo, hi, p, next[p] = axpy_at(f[p], dt, advection_conservative_at(&st, f, u, v, w, p)));
}
