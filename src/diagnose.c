/* Diagnostics of the flow (see diagnose.h).  Sums go through per-plane partials so the
 * result does not depend on the number of threads.
 *   kinetic_energy = sum over faces of rho/2 (u^2 + v^2 + w^2) hx hy hz
 *   flow_rate      = <u> Ly Lz (volume flux through a cross-section x = const)
 *   wall_shear     = mean over wall faces of mu |u_t(first cell) - u_wall| / (h/2)
 *   div_rms, div_max of rho div v on owned cells. */
#include "src/diagnose.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "stencils/operators.h"
#include "base/errors.h"
#include "decomp/reduce.h"
#include "stencils/solid_stress.h"

enum { D_KINETIC = 0, D_DIV2, D_U, D_SHEAR, D_WALL_FACES, D_SUMS };

/* Shear at the walls normal to direction d (1 or 2) on this rank: sum of |tau| over the
 * wall faces and their count.  tau is mu times the tangential velocity relative to the wall
 * (x component at the face, the other component averaged to it) over the half cell. */
static void wall_shear_sums(const efsi_config *c, const efsi_state *s, int d,
                            double *sum, double *count)
{
  const efsi_grid *g = &s->grid;
  double u_wall[3][2];
  solver_wall_velocity(c, s->time, u_wall);
  const int other = 3 - d;                       /* tangential direction other than x */
  const double *tangential = d == 1 ? s->w : s->v;
  const ptrdiff_t along = g->stride[other];
  const double scale = c->viscosity * 2.0 * g->inv_h[d];
  for (int side = 0; side < 2; side++) {
    if (!(side ? g->wall_hi[d] : g->wall_lo[d])) continue;
    for (int b = 0; b < g->n[other]; b++)
      for (int i = 0; i < g->n[0]; i++) {
        int idx[3] = {i, 0, 0};
        idx[d] = side ? g->n[d] - 1 : 0;
        idx[other] = b;
        const ptrdiff_t at = grid_index(g, idx[0], idx[1], idx[2]);
        const double t1 = s->u[at] - u_wall[d][side];
        const double t2 = 0.5 * (tangential[at] + tangential[at + along]);
        *sum += scale * sqrt(t1 * t1 + t2 * t2);
        *count += 1.0;
      }
  }
}

/* The solid's diagnostics on this rank: volume of each material, elastic energy and the
 * extremes of det B over solid cells (sum of phi >= 1/2). */
static void solid_sums(const efsi_solver *sv, const efsi_state *s, double *volume,
                       double *elastic, double det_range[2])
{
  const efsi_grid *g = &s->grid;
  const double dv = g->h[0] * g->h[1] * g->h[2];
  for (int m = 0; m < s->nmat; m++) {
    double sum = 0.0;
    for (int k = 0; k < g->n[2]; k++)
      for (int j = 0; j < g->n[1]; j++)
        for (int i = 0; i < g->n[0]; i++) sum += s->phi[m][grid_index(g, i, j, k)];
    volume[m] = sum * dv;
  }
  *elastic = solid_elastic_energy(g, s->nmat, sv->modulus, (double *const *)s->phi,
                                  (double *const *)s->b);
  solid_det_range(g, s->nmat, (double *const *)s->phi, (double *const *)s->b, 0.5, det_range);
}

void diagnose(efsi_solver *sv, const efsi_state *s, efsi_diagnostics *row)
{
  const efsi_grid *g = &s->grid;
  const efsi_config *c = sv->cfg;
  double *plane = sv->plane_sums;   /* n[2] * (SUM_COUNT + 2) >= 3 n[2] doubles */
  divergence(g, s->u, s->v, s->w, sv->div);
#pragma omp parallel for
  for (int k = 0; k < g->n[2]; k++) {
    double ke = 0, d2 = 0, us = 0, umax = 0, dmax = 0;
    for (int j = 0; j < g->n[1]; j++) {
      const ptrdiff_t row0 = grid_index(g, 0, j, k);
#pragma omp simd reduction(+ : ke, d2, us) reduction(max : umax, dmax)
      for (int i = 0; i < g->n[0]; i++) {
        const double u = s->u[row0 + i], v = s->v[row0 + i], w = s->w[row0 + i];
        const double dv = c->density * sv->div[row0 + i];
        ke += u * u + v * v + w * w;
        d2 += dv * dv;
        us += u;
        umax = fmax(umax, fmax(fabs(u), fmax(fabs(v), fabs(w))));
        dmax = fmax(dmax, fabs(dv));
      }
    }
    double *p = plane + 5 * (size_t)k;
    p[0] = ke;
    p[1] = d2;
    p[2] = us;
    p[3] = umax;
    p[4] = dmax;
  }
  double sums[D_SUMS + EFSI_MAX_MATERIALS + 1] = {0}, maxima[4] = {0};
  for (int k = 0; k < g->n[2]; k++) {
    const double *p = plane + 5 * (size_t)k;
    sums[D_KINETIC] += p[0];
    sums[D_DIV2] += p[1];
    sums[D_U] += p[2];
    maxima[0] = fmax(maxima[0], p[3]);
    maxima[1] = fmax(maxima[1], p[4]);
  }
  for (int d = 1; d < 3; d++) wall_shear_sums(c, s, d, &sums[D_SHEAR], &sums[D_WALL_FACES]);
  if (s->nmat > 0) {
    double det[2];
    solid_sums(sv, s, &sums[D_SUMS + 1], &sums[D_SUMS], det);
    maxima[2] = -det[0];
    maxima[3] = det[1];
  }
  global_sum(sv->decomp, sums, D_SUMS + 1 + s->nmat);
  global_max(sv->decomp, maxima, s->nmat > 0 ? 4 : 2);

  const double cells = (double)g->global_n[0] * g->global_n[1] * g->global_n[2];
  const double volume = g->h[0] * g->h[1] * g->h[2];
  row->step = s->step;
  row->time = s->time;
  row->dt = sv->dt;
  row->beta = sv->info.beta;
  row->gamma = sv->info.gamma;
  row->kinetic_energy = 0.5 * c->density * sums[D_KINETIC] * volume;
  row->div_rms = sqrt(sums[D_DIV2] / cells);
  row->div_max = maxima[1];
  row->flow_rate = sums[D_U] / cells * g->length[1] * g->length[2];
  row->wall_shear = sums[D_WALL_FACES] > 0 ? sums[D_SHEAR] / sums[D_WALL_FACES] : 0.0;
  row->u_max = maxima[0];
  row->mach = row->beta > 0 ? row->u_max / row->beta : 0.0;
  row->elastic_energy = sums[D_SUMS];
  row->solid_volume = 0.0;
  for (int m = 0; m < s->nmat; m++) {
    row->material_volume[m] = sums[D_SUMS + 1 + m];
    row->solid_volume += sums[D_SUMS + 1 + m];
  }
  /* no solid cell anywhere: the extremes stay infinite; report 0 as for a fluid-only case */
  row->detB_min = isfinite(maxima[2]) ? -maxima[2] : 0.0;
  row->detB_max = isfinite(maxima[3]) ? maxima[3] : 0.0;
}

int locate_point(const efsi_decomp *d, const efsi_state *s, int find_max,
                 char field[8], int index[3])
{
  const efsi_grid *g = &s->grid;
  const double *fields[4] = {s->u, s->v, s->w, s->p};
  static const char *const names[4] = {"u", "v", "w", "p"};
  /* candidate on this rank: (score, field, i, j, k); score = |value| or 1 for non-finite */
  double best = -1.0;
  int found[4] = {-1, 0, 0, 0};
  for (int f = 0; f < 4 && !(found[0] >= 0 && !find_max); f++)
    for (int k = 0; k < g->n[2]; k++)
      for (int j = 0; j < g->n[1]; j++)
        for (int i = 0; i < g->n[0]; i++) {
          const double v = fields[f][grid_index(g, i, j, k)];
          const int hit = find_max ? (f < 3 && fabs(v) > best) : !isfinite(v);
          if (hit && (find_max || found[0] < 0)) {
            best = find_max ? fabs(v) : 1.0;
            found[0] = f;
            found[1] = g->offset[0] + i;
            found[2] = g->offset[1] + j;
            found[3] = g->offset[2] + k;
          }
        }
  /* the rank with the largest score (lowest rank on ties) reports */
  struct { double score; int rank; } mine = {best, d->rank}, top;
  MPI_CHECK(MPI_Allreduce(&mine, &top, 1, MPI_DOUBLE_INT, MPI_MAXLOC, d->comm));
  if (top.score < 0) return 0;
  MPI_CHECK(MPI_Bcast(found, 4, MPI_INT, top.rank, d->comm));
  snprintf(field, 8, "%s", names[found[0]]);
  for (int c = 0; c < 3; c++) index[c] = found[1 + c];
  return 1;
}
