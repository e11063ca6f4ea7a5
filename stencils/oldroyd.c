/* The Oldroyd rate L.B + B.L^T and the fluid treatment of B as separate kernels on the CPU
 * (formulas in oldroyd.h, reasoning in docs/solid.md): the reference of the step's fused
 * b_advance (stencils/b_advance.c), which the tests hold it to.  The kernels form the nine
 * entries of L at the cell centre inside the point loop from the face velocities, so no
 * gradient arrays exist.  The treatment works row by row: the total solid fraction (a sum
 * over a case-dependent number of materials) and the strain rate with its square root each
 * have a loop of their own into a row buffer, so that the long loops around them
 * vectorise. */
#include "stencils/kernel_list.h"

#include <math.h>
#include <stddef.h>

#include "stencils/location.h"
#include "stencils/loop.h"

/* dst[c] += src[c] for the six components at p. */
static inline __attribute__((always_inline)) void sym_add_to(double *const dst[6], ptrdiff_t p,
                                                             sym_tensor_t r)
{
  dst[TXX][p] += r.xx;
  dst[TYY][p] += r.yy;
  dst[TZZ][p] += r.zz;
  dst[TXY][p] += r.xy;
  dst[TXZ][p] += r.xz;
  dst[TYZ][p] += r.yz;
}

void oldroyd_rate_add(const efsi_grid *g, const double *restrict u, const double *restrict v,
                      const double *restrict w, double *const b[6], double *const out[6])
{
  int lo[3], hi[3];
  box_owned(g, 0, lo, hi);
  const ptrdiff_t *s = g->stride;
  const double *ih = g->inv_h;
  FOR_BOX(g, lo, hi, p, const velocity_gradient_t L = velocity_gradient_at(u, v, w, p, s, ih);
          sym_add_to(out, p, oldroyd_rate_at(&L, sym_load(b, p))));
}

/* The row buffers of the treatment at row (j, k): the clipped total solid fraction and the
 * strain rate gdot.  layout: the thread's own copy of the grid (see oldroyd_update). */
static inline __attribute__((always_inline)) void
treatment_row(const efsi_grid *layout, int nmat, double *const phi[], const double *restrict u,
              const double *restrict v, const double *restrict w, ptrdiff_t row,
              double *restrict phi_row, double *restrict gdot_row)
{
  const int nx = layout->n[0];
  for (int i = 0; i < nx; i++) phi_row[i] = 0.0;
  for (int m = 0; m < nmat; m++) {
    const double *restrict pm = phi[m] + row;
#pragma omp simd
    for (int i = 0; i < nx; i++) phi_row[i] += pm[i];
  }
#pragma omp simd
  for (int i = 0; i < nx; i++) phi_row[i] = clip_unit(phi_row[i]);
#pragma omp simd
  for (int i = 0; i < nx; i++) {
    const velocity_gradient_t L = velocity_gradient_at(u, v, w, row + i, layout->stride,
                                                       layout->inv_h);
    gdot_row[i] = strain_rate_squared(&L);
  }
  for (int i = 0; i < nx; i++) gdot_row[i] = sqrt(gdot_row[i]);
}

/* What a row update of the treatment reads and writes (see treatment_rows). */
typedef struct {
  double dt, dt_kappa;
  double *const *rate;       /* -v.grad B (NULL: the treatment alone) */
  double *const *b;
} row_update;

/* The treatment alone on row `row`: B <- f B + (1 - f) I. */
static void treat_row(const row_update *r, const efsi_grid *layout, const double *u,
                      const double *v, const double *w, ptrdiff_t row,
                      const double *restrict phi_row, const double *restrict gdot_row)
{
  (void)u, (void)v, (void)w;
  double *const *b = r->b;
  const double dt_kappa = r->dt_kappa;
  const int nx = layout->n[0];
#pragma omp simd
  for (int i = 0; i < nx; i++) {
    const double f = treatment_weight(phi_row[i], dt_kappa, gdot_row[i]);
    sym_store(b, row + i, treatment_apply(f, sym_load(b, row + i)));
  }
}

/* The fused update on row `row`: B <- f (B + dt (rate + L.B + B.L^T)) + (1 - f) I, the
 * transport, then the treatment, as the separate kernels do them. */
static void update_row(const row_update *r, const efsi_grid *layout, const double *u,
                       const double *v, const double *w, ptrdiff_t row,
                       const double *restrict phi_row, const double *restrict gdot_row)
{
  double *const *b = r->b, *const *rate = r->rate;
  const double dt = r->dt, dt_kappa = r->dt_kappa;
  /* the layout in locals: the stores to B cannot alias them */
  const ptrdiff_t s3[3] = {layout->stride[0], layout->stride[1], layout->stride[2]};
  const double ih[3] = {layout->inv_h[0], layout->inv_h[1], layout->inv_h[2]};
  const int nx = layout->n[0];
#pragma omp simd
  for (int i = 0; i < nx; i++) {
    const ptrdiff_t p = row + i;
    const velocity_gradient_t L = velocity_gradient_at(u, v, w, p, s3, ih);
    const sym_tensor_t B = sym_load(b, p), R = sym_load(rate, p);
    const sym_tensor_t s = oldroyd_rate_at(&L, B);
    const sym_tensor_t moved = transported_at(B, dt, R, s);
    const double f = treatment_weight(phi_row[i], dt_kappa, gdot_row[i]);
    sym_store(b, p, treatment_apply(f, moved));
  }
}

typedef void (*row_function)(const row_update *r, const efsi_grid *layout, const double *u,
                             const double *v, const double *w, ptrdiff_t row,
                             const double *restrict phi_row, const double *restrict gdot_row);

/* Every owned row: the row buffers (treatment_row), then `update` on the row.  Each thread
 * works on its own copy of the layout, and the updates copy strides and spacings into
 * locals: the stores to B cannot alias them, so they stay in registers and the point loops
 * vectorise (through g GCC reloads them after every store: "latch block not empty"). */
static void treatment_rows(const efsi_grid *g, int nmat, double *const phi[],
                           const double *restrict u, const double *restrict v,
                           const double *restrict w, const row_update *r,
                           row_function update)
{
  const int nx = g->n[0];
#pragma omp parallel for
  for (int k = 0; k < g->n[2]; k++) {
    const efsi_grid layout = *g;
    double phi_buffer[nx], gdot_buffer[nx];
    for (int j = 0; j < g->n[1]; j++) {
      const ptrdiff_t row = grid_index(g, 0, j, k);
      treatment_row(&layout, nmat, phi, u, v, w, row, phi_buffer, gdot_buffer);
      update(r, &layout, u, v, w, row, phi_buffer, gdot_buffer);
    }
  }
}

void solid_fluid_treatment(const efsi_grid *g, int nmat, double *const phi[], double dt,
                           double kappa, const double *restrict u, const double *restrict v,
                           const double *restrict w, double *const b[6])
{
  const row_update r = {dt, dt * kappa, NULL, b};
  treatment_rows(g, nmat, phi, u, v, w, &r, treat_row);
}

void oldroyd_update(const efsi_grid *g, int nmat, double *const phi[], double dt, double kappa,
                    const double *restrict u, const double *restrict v,
                    const double *restrict w, double *const rate[6], double *const b[6])
{
  const row_update r = {dt, dt * kappa, rate, b};
  treatment_rows(g, nmat, phi, u, v, w, &r, update_row);
}
