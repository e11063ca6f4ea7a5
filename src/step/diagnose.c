/* Diagnostics of the flow (see diagnose.h): the kernels' local reductions (fixed order,
 * stencils/reductions.h), then one global sum and one global maximum.
 *   kinetic_energy = sum over faces of rho/2 (u^2 + v^2 + w^2) hx hy hz
 *   flow_rate      = <u> Ly Lz (volume flux through a cross-section x = const)
 *   wall_shear     = mean over wall faces of mu |u_t(first cell) - u_wall| / (h/2)
 *   div_rms, div_max of rho div v on owned cells;
 * with a vessel, the lumen's (docs/output.md, "Lumen quantities"):
 *   lumen_flow_rate      = sum over x faces of u (1 - phi_wall) hy hz / Nx
 *   tube_hematocrit      = volume_rbc / (box volume - volume_wall)
 *   discharge_hematocrit = sum u phi_rbc / sum u (1 - phi_wall) over the x faces
 *   lumen_wall_shear_*   = mean and largest wall shear over the crossings of phi_wall = 1/2. */
#include "src/step/diagnose.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "stencils/kernel_list.h"
#include "stencils/operators.h"
#include "base/errors.h"
#include "decomp/reduce.h"
#include "src/step/exchange.h"
#include "src/step/solid.h"
#include "stencils/solid_stress.h"

/* The centroid and the second moments about it, per volume, from the sums of phi_moments
 * (coordinates from the centre of the box); zeros where the material has no volume. */
static void shape_of_moments(const double sum[MOMENT_COUNT], const double length[3],
                             double shape[SHAPE_COUNT])
{
  for (int c = 0; c < SHAPE_COUNT; c++) shape[c] = 0.0;
  if (!(sum[MOMENT_1] > 0.0)) return;
  const double c[3] = {sum[MOMENT_X] / sum[MOMENT_1], sum[MOMENT_Y] / sum[MOMENT_1],
                       sum[MOMENT_Z] / sum[MOMENT_1]};
  for (int d = 0; d < 3; d++) shape[SHAPE_CENTROID_X + d] = c[d] + 0.5 * length[d];
  shape[SHAPE_MOMENT_XX] = sum[MOMENT_XX] / sum[MOMENT_1] - c[0] * c[0];
  shape[SHAPE_MOMENT_YY] = sum[MOMENT_YY] / sum[MOMENT_1] - c[1] * c[1];
  shape[SHAPE_MOMENT_ZZ] = sum[MOMENT_ZZ] / sum[MOMENT_1] - c[2] * c[2];
  shape[SHAPE_MOMENT_XY] = sum[MOMENT_XY] / sum[MOMENT_1] - c[0] * c[1];
  shape[SHAPE_MOMENT_XZ] = sum[MOMENT_XZ] / sum[MOMENT_1] - c[0] * c[2];
  shape[SHAPE_MOMENT_YZ] = sum[MOMENT_YZ] / sum[MOMENT_1] - c[1] * c[2];
}

void diagnose(efsi_solver *sv, const efsi_state *s, efsi_diagnostics *row)
{
  const efsi_grid *g = &s->grid;
  const efsi_config *c = sv->cs->config;
  const efsi_kernels *k = sv->k;
  efsi_scratch *plane = &sv->scratch;   /* the reductions' per-plane partials */
  double *const div_v = FIELD(sv, div_v);
  k->divergence(g, 1.0, s->u, s->v, s->w, div_v);
  double flow[FLOW_COUNT];
  k->flow_norms(g, c->density, s->u, s->v, s->w, div_v, plane, flow);

  /* one global sum: kinetic energy, div^2, u, the wall shear and its faces, the elastic
   * energy, the lumen's fluxes and wall shear, and the moments of each material's phi (the
   * first, sum phi, times a cell's volume is the material's volume); one global maximum: speed, |div|, -min and
   * max det B, the lumen's largest wall shear */
  enum { KINETIC, DIV2, U, SHEAR, FACES, ELASTIC, LUMEN, MOMENTS = LUMEN + LUMEN_SHEAR_MAX };
  double sums[MOMENTS + EFSI_MAX_MATERIALS * MOMENT_COUNT] = {0}, maxima[5] = {0};
  double *const moments = &sums[MOMENTS];   /* material m's from moments + m MOMENT_COUNT */
  sums[KINETIC] = flow[FLOW_KINETIC];
  sums[DIV2] = flow[FLOW_DIV2];
  sums[U] = flow[FLOW_U];
  maxima[0] = flow[FLOW_SPEED_MAX];
  maxima[1] = flow[FLOW_DIV_MAX];
  double u_wall[3][2];
  wall_velocity(c, s->time, u_wall);
  for (int d = 1; d < 3; d++)
    k->wall_shear_sums(g, d, c->viscosity, s->u, d == 1 ? s->w : s->v, u_wall[d], plane,
                       &sums[SHEAR]);
  if (s->nmat > 0) {
    /* the extremes of det B over solid cells (sum of phi >= 1/2) */
    double det[2];
    double *const *phi = (double *const *)s->phi, *const *b = (double *const *)s->b;
    for (int m = 0; m < s->nmat; m++)
      k->phi_moments(g, s->phi[m], plane, moments + m * MOMENT_COUNT);
    sums[ELASTIC] = k->elastic_energy(g, s->nmat, sv->cs->materials.modulus, phi, b, plane);
    solid_membranes mem;   /* and the membranes' (docs/membrane.md) */
    const int nmem = solid_membranes_of(sv, s, 0, &mem);
    if (nmem > 0)
      sums[ELASTIC] += k->membrane_energy(g, nmem, mem.level,
                                          mem.param[MATERIAL_PARAM_SURFACE_MODULUS],
                                          mem.param[MATERIAL_PARAM_DILATATION],
                                          mem.param[MATERIAL_PARAM_LAW], b, plane);
    k->det_range(g, s->nmat, phi, b, 0.5, plane, det);
    maxima[2] = -det[0];
    maxima[3] = det[1];
  }
  const int wall = c->vessel_shape == VESSEL_TUBE ? sv->cs->wall_material : -1;
  const int rbc = sv->cs->rbc_material;
  if (wall >= 0) {
    double lumen[LUMEN_COUNT];
    k->lumen_sums(g, c->viscosity, s->phi[wall], rbc >= 0 ? s->phi[rbc] : NULL, s->u, s->v,
                  s->w, plane, lumen);
    for (int q = 0; q < LUMEN_SHEAR_MAX; q++) sums[LUMEN + q] = lumen[q];
    maxima[4] = lumen[LUMEN_SHEAR_MAX];
  }
  global_sum(sv->decomp, sums, MOMENTS + s->nmat * MOMENT_COUNT);
  global_max(sv->decomp, maxima, wall >= 0 ? 5 : s->nmat > 0 ? 4 : 2);

  const double cells = (double)g->global_n[0] * g->global_n[1] * g->global_n[2];
  const double volume = g->h[0] * g->h[1] * g->h[2];   /* of a cell */
  double material_volume[EFSI_MAX_MATERIALS];
  for (int m = 0; m < s->nmat; m++)
    material_volume[m] = moments[m * MOMENT_COUNT + MOMENT_1] * volume;
  row->step = s->step;
  row->time = s->time;
  row->dt = sv->dt;
  row->beta = sv->info.beta;
  row->gamma = sv->info.gamma;
  row->kinetic_energy = 0.5 * c->density * sums[KINETIC] * volume;
  row->div_rms = sqrt(sums[DIV2] / cells);
  row->div_max = maxima[1];
  row->flow_rate = sums[U] / cells * g->length[1] * g->length[2];
  row->wall_shear = sums[FACES] > 0 ? sums[SHEAR] / sums[FACES] : 0.0;
  row->u_max = maxima[0];
  row->mach = row->beta > 0 ? row->u_max / row->beta : 0.0;
  row->elastic_energy = sums[ELASTIC];
  row->solid_volume = 0.0;
  for (int m = 0; m < s->nmat; m++) {
    row->material_volume[m] = material_volume[m];
    row->solid_volume += material_volume[m];
    shape_of_moments(moments + m * MOMENT_COUNT, g->length, row->material_shape[m]);
  }
  row->lumen_flow_rate = row->tube_hematocrit = row->discharge_hematocrit = 0.0;
  row->lumen_wall_shear_mean = row->lumen_wall_shear_max = 0.0;
  if (wall >= 0) {
    const double box = g->length[0] * g->length[1] * g->length[2];
    const double lumen_volume = box - material_volume[wall];
    const double flux = sums[LUMEN + LUMEN_FLUX];
    row->lumen_flow_rate = flux * g->h[1] * g->h[2] / g->global_n[0];
    row->tube_hematocrit = rbc >= 0 && lumen_volume > 0 ? material_volume[rbc] / lumen_volume : 0.0;
    row->discharge_hematocrit = flux != 0.0 ? sums[LUMEN + LUMEN_RBC_FLUX] / flux : 0.0;
    const double crossings = sums[LUMEN + LUMEN_CROSSINGS];
    row->lumen_wall_shear_mean = crossings > 0 ? sums[LUMEN + LUMEN_SHEAR] / crossings : 0.0;
    row->lumen_wall_shear_max = maxima[4];
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
  /* candidate on this rank: (score, field, i, j, k); score = |value| or 1 for non-finite;
   * the largest speed is looked for in u, v, w only */
  double best = -1.0;
  int found[4] = {-1, 0, 0, 0};
  for (int f = 0; f < (find_max ? 3 : 4) && !(found[0] >= 0 && !find_max); f++) {
    int at[3];
    if (field_locate(g, fields[f], find_max, &best, at)) {
      found[0] = f;
      for (int c = 0; c < 3; c++) found[1 + c] = g->offset[c] + at[c];
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
