/* Transport of the solid's volume fractions, the membranes' levels and the left
 * Cauchy-Green tensor (see solid.h). */
#include "src/step/solid.h"

#include "decomp/reduce.h"
#include "src/step/exchange.h"

/* The volume fractions of the materials that hold B by their fraction (the elastic solids:
 * the neo-Hookean model), in their order, into phi; how many. */
static int holding_fractions(const efsi_state *s, double *phi[])
{
  int n = 0;
  for (int m = 0; m < s->nmat; m++)
    if (s->model[m] == MATERIAL_MODEL_NEO_HOOKEAN) phi[n++] = s->phi[m];
  return n;
}

int solid_levels(const efsi_state *s, double **level[])
{
  int n = 0;
  for (int m = 0; m < s->nmat; m++)
    if (s->model[m] == MATERIAL_MODEL_MEMBRANE) level[n++] = (double **)&s->own[state_own_first(s, m)];
  return n;
}

int solid_membranes_of(const efsi_solver *sv, const efsi_state *s, ptrdiff_t sh,
                       solid_membranes *mem)
{
  double **level_of[EFSI_MAX_MATERIALS];
  const int n = solid_levels(s, level_of);
  for (int m = 0, k = 0; m < s->nmat && k < n; m++)
    if (s->model[m] == MATERIAL_MODEL_MEMBRANE) {
      mem->level[k] = *level_of[k] + sh;
      for (int q = 0; q < MATERIAL_PARAM_COUNT; q++)
        mem->param[q][k] = sv->cs->materials.param[m][q];
      k++;
    }
  return n;
}

void solid_fractions(efsi_solver *sv, efsi_state *s)
{
  if (s->nmat == 0) return;
  const efsi_grid *g = &s->grid;
  const efsi_config *c = sv->cs->config;
  const double dt = sv->dt, thinc_beta = sv->cs->thinc ? c->thinc_steepness : 0.0;
  /* volume fractions in conservative form: each material's volume is kept to round-off */
  double *const *phi_next = FIELDS(sv, phi_next);
  for (int m = 0; m < s->nmat; m++)
    RUN(sv, phi_advance, g, s->phi[m], s->u, s->v, s->w, thinc_beta, dt, phi_next[m],
        FIELDS(sv, phi_flux));
  double **phi[EFSI_MAX_MATERIALS];
  for (int m = 0; m < s->nmat; m++) phi[m] = &s->phi[m];
  FIELDS_SWAP(sv, phi_next, phi);
  /* the membranes' levels, advected with the same velocity (docs/membrane.md) */
  double **level[EFSI_MAX_MATERIALS];
  const int nlevel = solid_levels(s, level);
  if (nlevel == 0) return;
  double *const *level_next = FIELDS(sv, level_next);
  for (int m = 0; m < nlevel; m++)
    RUN(sv, level_advance, g, *level[m], s->u, s->v, s->w, dt, level_next[m]);
  FIELDS_SWAP(sv, level_next, level);
}

void solid_tensor(efsi_solver *sv, efsi_state *s)
{
  if (s->nmat == 0) return;
  /* B's advection, the Oldroyd rate, the update and the fluid treatment in one pass (the
   * treatment reads the new phi of the elastic solids and the membranes' new levels) */
  double *const *v_n = FIELDS(sv, v_n);
  double *phi[EFSI_MAX_MATERIALS], **level_of[EFSI_MAX_MATERIALS], *level[EFSI_MAX_MATERIALS];
  const int nphi = holding_fractions(s, phi), nlevel = solid_levels(s, level_of);
  for (int m = 0; m < nlevel; m++) level[m] = *level_of[m];
  RUN(sv, b_advance, &s->grid, nphi, phi, nlevel, level, sv->dt, SOLID_INTERFACE_KAPPA, v_n[0],
      v_n[1], v_n[2], s->b, FIELDS(sv, b_next));
  double **b[6];
  for (int t = 0; t < 6; t++) b[t] = &s->b[t];
  FIELDS_SWAP(sv, b_next, b);
  /* in the membranes' bands, B's tilted normal fibres reset with the normals of psi^N */
  if (nlevel > 0) RUN(sv, membrane_reset, &s->grid, nlevel, FIELDS(sv, level_before), s->b);
}

void solid_bands(efsi_solver *sv, efsi_state *s)
{
  double **level_of[EFSI_MAX_MATERIALS], *level[EFSI_MAX_MATERIALS], *phi[EFSI_MAX_MATERIALS];
  const int nlevel = solid_levels(s, level_of);
  if (nlevel == 0) return;
  for (int m = 0, k = 0; m < s->nmat; m++)
    if (s->model[m] == MATERIAL_MODEL_MEMBRANE) phi[k++] = s->phi[m];
  for (int m = 0; m < nlevel; m++) level[m] = *level_of[m];
  const efsi_grid *g = &s->grid;
  /* B^{N+1} and psi^{N+1} on the halos: the foot points' reach (width 3) */
  double *halo[6 + EFSI_MAX_MATERIALS];
  for (int t = 0; t < 6; t++) halo[t] = s->b[t];
  for (int m = 0; m < nlevel; m++) halo[6 + m] = level[m];
  exchange_scalars(sv, g, halo, 6 + nlevel, (int)MEMBRANE_FOOT_REACH + 1);
  /* the band's B from its foot points on psi^{N+1}, into b_next, which changes places with
   * the state's B */
  RUN(sv, membrane_foot, g, nlevel, level, s->b, FIELDS(sv, b_next));
  double **b[6];
  for (int t = 0; t < 6; t++) b[t] = &s->b[t];
  FIELDS_SWAP(sv, b_next, b);
  /* each level's volume to its material's: the shift (V_phi - V_psi) / A, cells; every
   * membrane's sums in one global sum */
  double pairs[EFSI_MAX_MATERIALS][2 * LEVEL_VOLUME_COUNT], shift[EFSI_MAX_MATERIALS];
  for (int m = 0; m < nlevel; m++)
    RUN(sv, level_volume_sums, g, level[m], phi[m], &sv->scratch, pairs[m]);
  timers_switch(&sv->timers, TIMER_ALLREDUCE);
  global_sum_dd(sv->decomp, pairs[0], LEVEL_VOLUME_COUNT * nlevel);
  timers_pause(&sv->timers);
  for (int m = 0; m < nlevel; m++) {
    const double area = pairs[m][2 * LEVEL_AREA];
    shift[m] = area > 0.0
                 ? (pairs[m][2 * LEVEL_VOLUME_PHI] - pairs[m][2 * LEVEL_VOLUME_PSI]) / area
                 : 0.0;
  }
  /* the re-distancing's two Jacobi steps: the first on the owned cells and one ring (the
   * level's halo is valid to width 3), the second in place on the owned cells */
  efsi_grid ring;
  ptrdiff_t sh;
  const int lo[3] = {-1, -1, -1}, hi[3] = {g->n[0] + 1, g->n[1] + 1, g->n[2] + 1};
  grid_view(g, lo, hi, &ring, &sh);
  double *const *iterate = FIELDS(sv, level_iterate);
  double *level_r[EFSI_MAX_MATERIALS], *iterate_r[EFSI_MAX_MATERIALS];
  for (int m = 0; m < nlevel; m++) {
    level_r[m] = level[m] + sh;
    iterate_r[m] = iterate[m] + sh;
  }
  RUN(sv, level_redistance, &ring, nlevel, level_r, shift, level_r, 1, iterate_r);
  RUN(sv, level_redistance, g, nlevel, level, shift, iterate, 0, level);
}
