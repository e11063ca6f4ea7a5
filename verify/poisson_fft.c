/* lap(x) = rhs - <rhs>, <x> = 0, with lap the compact 7-point Laplacian on cell centres.
 * Each periodic direction is diagonalised by the real-to-halfcomplex DFT (index m has
 * eigenvalue -(4/h^2) sin^2(pi m / N) for its cos and its sin part alike), a z wall by the
 * DCT-II (eigenvalue -(4/h^2) sin^2(pi m / (2N))).  Order: x, then z, then along y either
 * the DFT and a division by lambda_x + lambda_y + lambda_z, or at a y wall the Neumann
 * tridiagonal system (1/h^2)(x[j-1] - 2 x[j] + x[j+1]) + (lambda_x + lambda_z) x[j] = r[j]
 * per (m_x, m_z); then the inverse transforms in z and x. */
#include "verify/poisson_fft.h"

#include <fftw3.h>
#include <math.h>
#include <stdlib.h>

#include "base/errors.h"
#include "decomp/transpose.h"

struct efsi_poisson {
  efsi_grid g;
  efsi_transpose *t;
  int periodic[3];
  ptrdiff_t packed_stride[3];    /* strides of the packed work block */
  double *block;                 /* packed block n0 n1 n2, between the transforms */
  double *pencil;                /* the pencil every plan transforms in place */
  double *sweep;                 /* Thomas coefficients, y-pencil sized (y wall only) */
  fftw_plan forward[3], backward[3]; /* NULL for a y wall and on ranks with no lines */
  double *eigen[3];              /* eigenvalue of transform index m along d (not y wall) */
  double scale;                  /* 1 / product of the transforms' normalisations */
};

static double *poisson_alloc(size_t doubles)
{
  double *p = fftw_malloc(sizeof(double) * (doubles > 0 ? doubles : 1));
  if (!p) efsi_abort(EFSI_EXIT_RUNTIME, "poisson: out of memory (%zu doubles)", doubles);
  return p;
}

/* In-place plan for all lines of the d-pencil; FFTW_ESTIMATE chooses from the sizes
 * alone, so the plan, and the round-off, are the same on every run. */
static fftw_plan plan_lines(double *pencil, int len, int lines, fftw_r2r_kind kind)
{
  if (lines == 0) return NULL;
  fftw_plan p = fftw_plan_many_r2r(1, &len, lines, pencil, NULL, 1, len, pencil, NULL, 1, len,
                                   &kind, FFTW_ESTIMATE);
  if (!p) efsi_abort(EFSI_EXIT_RUNTIME, "poisson: FFTW could not plan %d transforms of length %d",
                     lines, len);
  return p;
}

efsi_poisson *poisson_create(const efsi_grid *g, const efsi_decomp *d)
{
  efsi_poisson *ps = efsi_calloc(1, sizeof *ps, "the Poisson solver");
  ps->g = *g;
  ps->t = transpose_create(g, d);
  ps->packed_stride[0] = 1;
  ps->packed_stride[1] = g->n[0];
  ps->packed_stride[2] = (ptrdiff_t)g->n[0] * g->n[1];
  ps->block = poisson_alloc(grid_cells(g));
  size_t largest = 0;
  for (int dd = 0; dd < 3; dd++) {
    const size_t size = (size_t)transpose_lines(ps->t, dd) * g->global_n[dd];
    if (size > largest) largest = size;
  }
  ps->pencil = poisson_alloc(largest);
  ps->scale = 1.0;
  const double pi = acos(-1.0);
  for (int dd = 0; dd < 3; dd++) {
    const int n = g->global_n[dd], lines = transpose_lines(ps->t, dd);
    ps->periodic[dd] = dd == 0 || d->periodic[dd];
    /* A periodic line of N points is a DFT of period N, a wall line a DCT of period 2N. */
    const int period = ps->periodic[dd] ? n : 2 * n;
    if (dd == 1 && !ps->periodic[dd]) {
      ps->sweep = poisson_alloc((size_t)lines * n);
      continue;
    }
    ps->eigen[dd] = poisson_alloc(n);
    for (int m = 0; m < n; m++) {
      const double s = sin(pi * m / period);
      ps->eigen[dd][m] = -4.0 * g->inv_h[dd] * g->inv_h[dd] * s * s;
    }
    ps->forward[dd] = plan_lines(ps->pencil, n, lines, ps->periodic[dd] ? FFTW_R2HC : FFTW_REDFT10);
    ps->backward[dd] = plan_lines(ps->pencil, n, lines, ps->periodic[dd] ? FFTW_HC2R : FFTW_REDFT01);
    ps->scale /= period;
  }
  return ps;
}

void poisson_free(efsi_poisson *ps)
{
  if (!ps) return;
  for (int dd = 0; dd < 3; dd++) {
    if (ps->forward[dd]) fftw_destroy_plan(ps->forward[dd]);
    if (ps->backward[dd]) fftw_destroy_plan(ps->backward[dd]);
    fftw_free(ps->eigen[dd]);
  }
  fftw_free(ps->sweep);
  fftw_free(ps->pencil);
  fftw_free(ps->block);
  transpose_free(ps->t);
  free(ps);
}

/* One 1-D transform step along d: block -> d-pencil, transform every line, -> block. */
static void transform_along(efsi_poisson *ps, int d, fftw_plan plan, const double *in,
                            const ptrdiff_t in_stride[3], double *out, const ptrdiff_t out_stride[3])
{
  transpose_to_pencil(ps->t, d, in, in_stride, ps->pencil);
  if (plan) fftw_execute(plan);
  transpose_to_block(ps->t, d, ps->pencil, out, out_stride);
}

/* Periodic y: coefficient / (lambda_x + lambda_y + lambda_z); the zero mode is set to 0,
 * which is <x> = 0. */
static void divide_by_eigenvalues(efsi_poisson *ps)
{
  const int n = ps->g.global_n[1], lines = transpose_lines(ps->t, 1);
  const double *restrict ey = ps->eigen[1];
  const double scale = ps->scale;
#pragma omp parallel for
  for (int l = 0; l < lines; l++) {
    int m[3];
    transpose_line_origin(ps->t, 1, l, m);
    const double exz = ps->eigen[0][m[0]] + ps->eigen[2][m[2]];
    double *restrict line = ps->pencil + (ptrdiff_t)l * n;
    const int zero_mode = m[0] == 0 && m[2] == 0;
    if (zero_mode) line[0] = 0.0;
    for (int j = zero_mode; j < n; j++) line[j] *= scale / (exz + ey[j]);
  }
}

/* Solves x[j-1] + (diag + [j = 0] + [j = n-1]) x[j] + x[j+1] = r[j] in place of r (the
 * ends are Neumann: the ghost equals the first interior cell).  pinned: the singular
 * (0, 0) system, whose first equation is replaced by x[0] = 0.  c: n doubles of scratch.
 * Diagonally dominant (diag <= -2), so no pivoting. */
static void thomas_neumann(int n, double diag, int pinned, double *restrict r, double *restrict c)
{
  const double b0 = pinned ? 1.0 : diag + 1.0 + (n == 1);
  if (pinned) r[0] = 0.0;
  c[0] = (pinned ? 0.0 : 1.0) / b0;
  r[0] /= b0;
  for (int j = 1; j < n; j++) {
    const double inv = 1.0 / (diag + (j == n - 1) - c[j - 1]);
    c[j] = inv;
    r[j] = (r[j] - r[j - 1]) * inv;
  }
  for (int j = n - 2; j >= 0; j--) r[j] -= c[j] * r[j + 1];
}

static double line_mean(const double *restrict v, int n)
{
  double sum = 0.0;
  for (int j = 0; j < n; j++) sum += v[j];
  return sum / n;
}

/* Wall in y: one tridiagonal system per (m_x, m_z), scaled by h_y^2.  In the (0, 0) line
 * the mean of r is the mean of rhs and the mean of x that of the solution: the first is
 * removed so the pinned system is consistent, the second so <x> = 0. */
static void solve_tridiagonal_y(efsi_poisson *ps)
{
  const int n = ps->g.global_n[1], lines = transpose_lines(ps->t, 1);
  const double hh = ps->g.h[1] * ps->g.h[1], r_scale = hh * ps->scale;
#pragma omp parallel for
  for (int l = 0; l < lines; l++) {
    int m[3];
    transpose_line_origin(ps->t, 1, l, m);
    double *restrict line = ps->pencil + (ptrdiff_t)l * n;
    const int zero_mode = m[0] == 0 && m[2] == 0;
    const double r_mean = zero_mode ? line_mean(line, n) : 0.0;
    for (int j = 0; j < n; j++) line[j] = (line[j] - r_mean) * r_scale;
    const double diag = -2.0 + hh * (ps->eigen[0][m[0]] + ps->eigen[2][m[2]]);
    thomas_neumann(n, diag, zero_mode, line, ps->sweep + (ptrdiff_t)l * n);
    if (zero_mode) {
      const double x_mean = line_mean(line, n);
      for (int j = 0; j < n; j++) line[j] -= x_mean;
    }
  }
}

void poisson_solve(efsi_poisson *ps, const double *rhs, double *x)
{
  const efsi_grid *g = &ps->g;
  const ptrdiff_t origin = grid_index(g, 0, 0, 0);
  const ptrdiff_t *packed = ps->packed_stride;
  transform_along(ps, 0, ps->forward[0], rhs + origin, g->stride, ps->block, packed);
  transform_along(ps, 2, ps->forward[2], ps->block, packed, ps->block, packed);
  transpose_to_pencil(ps->t, 1, ps->block, packed, ps->pencil);
  if (ps->periodic[1]) {
    if (ps->forward[1]) fftw_execute(ps->forward[1]);
    divide_by_eigenvalues(ps);
    if (ps->backward[1]) fftw_execute(ps->backward[1]);
  } else {
    solve_tridiagonal_y(ps);
  }
  transpose_to_block(ps->t, 1, ps->pencil, ps->block, packed);
  transform_along(ps, 2, ps->backward[2], ps->block, packed, ps->block, packed);
  transform_along(ps, 0, ps->backward[0], ps->block, packed, x + origin, g->stride);
}

double poisson_host_bytes(const efsi_grid *g) { return 6.0 * (double)grid_cells(g) * sizeof(double); }
