/* Initial state of the solid (see init_solid.h).  Each rank asks the seeding only for the
 * bodies near its own block (a random packing keeps just those on it), so start-up work
 * does not grow with the total number of bodies; the voxel file is read block by block. */
#include "src/bodies/init_solid.h"
#include "src/case/materials.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "io/voxels.h"

const char *const body_kind_names[BODY_KINDS] = {"rbc", "platelet", "sphere", "ellipsoid"};

/* Index of material `name` in the case's material list, -1 when absent. */
static int material_index(const efsi_case *cs, const char *name)
{
  return materials_index(&cs->materials, name);
}

/* A seeded family of the given kind, when the case asks for a count or a fraction of it
 * (NULL otherwise); its material is the one named after the kind. */
static efsi_body_family *add_family(const efsi_case *cs, efsi_case_bodies *cb, int kind,
                                    long count, double fraction, const double size[3],
                                    int orientation)
{
  if (count <= 0 && fraction <= 0) return NULL;
  efsi_body_family *f = &cb->family[cb->nfam++];
  f->kind = kind;
  f->material = material_index(cs, shape_name(kind));
  f->count = count;
  f->fraction = fraction;
  memcpy(f->size, size, sizeof f->size);
  f->orientation = orientation;
  f->band[1] = 1;
  return f;
}

int case_bodies(const efsi_case *cs, efsi_case_bodies *cb, char *err, size_t errlen)
{
  const efsi_config *c = cs->config;
  memset(cb, 0, sizeof *cb);
  efsi_seeding *sd = &cb->seeding;
  for (int d = 0; d < 3; d++) {
    sd->length[d] = c->length[d];
    sd->cells[d] = c->cells[d];
    sd->periodic[d] = c->boundary[d] == BOUNDARY_PERIODIC;
  }
  sd->seed = c->seed;
  sd->vessel = c->vessel_shape == VESSEL_TUBE;
  sd->vessel_diameter = c->vessel_diameter;
  const double rbc_size[3] = {c->rbc_diameter, 0, 0};
  add_family(cs, cb, BODY_RBC, c->rbc_count, c->rbc_hematocrit, rbc_size, c->rbc_orientation);
  efsi_body_family *platelets = add_family(cs, cb, BODY_PLATELET, c->platelet_count,
                                           c->platelet_fraction, c->platelet_semi_axes,
                                           c->platelet_orientation);
  if (platelets) memcpy(platelets->band, c->platelet_radial_band, sizeof platelets->band);
  /* single bodies keep the lab axes */
  if (c->sphere_radius > 0) {
    efsi_body *b = &cb->single[cb->nsingle++];
    b->kind = BODY_SPHERE;
    b->material = material_index(cs, "sphere");
    memcpy(b->center, c->sphere_center, sizeof b->center);
    b->size[0] = b->size[1] = b->size[2] = c->sphere_radius;
  }
  if (c->ellipsoid_semi_axes[0] > 0) {
    efsi_body *b = &cb->single[cb->nsingle++];
    b->kind = BODY_ELLIPSOID;
    b->material = material_index(cs, "ellipsoid");
    memcpy(b->center, c->ellipsoid_center, sizeof b->center);
    memcpy(b->size, c->ellipsoid_semi_axes, sizeof b->size);
  }
  for (int s = 0; s < cb->nsingle; s++)
    for (int d = 0; d < 3; d++) cb->single[s].frame[d][d] = 1.0;
  /* one RBC at rbc.center, its symmetry axis along rbc.orientation */
  if (!isnan(c->rbc_center[0])) {
    efsi_body *b = &cb->single[cb->nsingle++];
    b->kind = BODY_RBC;
    b->material = material_index(cs, "rbc");
    memcpy(b->center, c->rbc_center, sizeof b->center);
    b->size[0] = c->rbc_diameter;
    body_aligned_frame(c->rbc_orientation, b->frame);
  }
  if (c->voxels_file[0] && voxels_check(c->voxels_file, c->voxels_variable, c->cells, err, errlen))
    return 1;
  if (cb->nfam == 0 && cb->nsingle == 0) return 0;
  char why[1024];
  if (bodies_seed(sd, cb->family, cb->nfam, cb->single, cb->nsingle, &cb->total, &cb->report,
                  why, sizeof why)) {
    snprintf(err, errlen, "%s: %s", c->file, why);
    return 1;
  }
  return 0;
}

/* Pack on d's process grid, keeping the bodies that reach this rank's block through
 * bodies_reach (the drawing's reach). */
static int pack(const efsi_config *c, const efsi_case_bodies *cb, const efsi_decomp *d,
                efsi_packed *packed, efsi_seeding_report *report, char *err, size_t errlen)
{
  efsi_grid g;
  decomp_grid(d, c->cells, c->length, &g);
  char why[1024];
  if (bodies_pack(&cb->seeding, cb->family, cb->nfam, cb->single, cb->nsingle, d,
                  bodies_reach(&g, c->interface_width), packed, report, why, sizeof why)) {
    snprintf(err, errlen, "%s: %s", c->file, why);
    return 1;
  }
  return 0;
}

int case_bodies_place(const efsi_config *c, efsi_case_bodies *cb, const efsi_decomp *d,
                      char *err, size_t errlen)
{
  if (!cb->report.packed || cb->packed.done) return 0;
  return pack(c, cb, d, &cb->packed, &cb->report, err, errlen);
}

void case_bodies_free(efsi_case_bodies *cb) { packed_free(&cb->packed); }

/* The same verdict on every rank: the message of the lowest rank that refused. */
static int agree(const efsi_decomp *d, int bad, char *err, size_t errlen)
{
  int first = bad ? d->rank : d->size;
  MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, d->comm));
  if (first == d->size) return 0;
  MPI_CHECK(MPI_Bcast(err, (int)errlen, MPI_CHAR, first, d->comm));
  return 1;
}

int init_solid(const efsi_case *cs, const efsi_case_bodies *cb, const efsi_decomp *d,
               efsi_state *s, efsi_tracers *t, char *err, size_t errlen)
{
  const efsi_config *c = cs->config;
  const efsi_grid *g = &s->grid;
  if (cb->nfam > 0 || cb->nsingle > 0) {
    /* the bodies whose volume fractions or membranes' levels reach the block */
    const double reach = fmax(bodies_reach(g, c->interface_width),
                              cs->membranes > 0 ? MEMBRANE_LEVEL_CAP * fmin(g->h[0], fmin(g->h[1], g->h[2])) : 0.0);
    double lo[3], hi[3];
    for (int k = 0; k < 3; k++) {
      lo[k] = g->offset[k] * g->h[k] - reach;
      hi[k] = (g->offset[k] + g->n[k]) * g->h[k] + reach;
    }
    efsi_packed here = cb->packed;   /* a packing not placed before is made for this call */
    if (cb->report.packed && !here.done && pack(c, cb, d, &here, NULL, err, errlen)) return 1;
    efsi_body *near = NULL;
    long n = 0;
    if (bodies_near(&cb->seeding, cb->family, cb->nfam, cb->single, cb->nsingle, &here, lo, hi,
                    &near, &n))
      efsi_abort(EFSI_EXIT_RUNTIME, "the bodies near rank %d's block are not at hand", d->rank);
    if (bodies_volume_fraction(g, near, n, c->interface_width, s->phi))
      efsi_abort(EFSI_EXIT_RUNTIME, "out of memory placing the bodies");
    for (int m = 0; m < s->nmat; m++)   /* each membrane's level (docs/membrane.md) */
      if (s->model[m] == MATERIAL_MODEL_MEMBRANE)
        bodies_level(g, near, n, m, MEMBRANE_LEVEL_CAP, s->own[state_own_first(s, m)]);
    if (here.body != cb->packed.body) packed_free(&here);
    /* one tracer per body: its image whose centre lies in the box, on the rank owning it */
    for (long b = 0; b < n; b++) {
      int in_box = 1;
      for (int k = 0; k < 3; k++)
        in_box &= near[b].center[k] >= 0.0 && near[b].center[k] < g->length[k];
      if (in_box && tracers_owns(g, near[b].center))
        tracers_add(t, near[b].id, near[b].kind, near[b].center);
    }
    free(near);
  }
  if (c->vessel_shape == VESSEL_TUBE)
    vessel_volume_fraction(g, c->vessel_diameter, c->interface_width,
                           s->phi[cs->wall_material]);
  int bad = 0;
  if (c->voxels_file[0]) {
    const int first = material_index(cs, c->voxels_variable == VOXELS_PHI ? "voxels" : "voxels1");
    bad = voxels_read(c->voxels_file, c->voxels_variable, voxels_labels(c), g, s->phi + first,
                      err, errlen);
  }
  return agree(d, bad, err, errlen);
}
