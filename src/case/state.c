/* Allocation of the solver state: every field on the same aligned grid layout. */
#include "src/case/state.h"

#include <stdio.h>
#include <string.h>

#include "io/fields.h"
#include "stencils/initial.h"
#include "io/restart.h"

/* The k-th field of the models' own (state_arrays' order) and its row of
 * MATERIAL_FIELDS; its material through *material. */
static int own_field(const efsi_state *s, int k, int *material)
{
  for (int m = 0; m < s->nmat; m++) {
    const int n = material_own_fields(s->model[m]);
    if (k < n) {
      *material = m;
      return material_own_field(s->model[m], k);
    }
    k -= n;
  }
  return -1;
}

static int own_count(const efsi_state *s) { return models_own_fields(s->model, s->nmat); }

static int alloc_with(efsi_state *s, const efsi_grid *g, int nmat, const char *const *names,
                      const int *models)
{
  memset(s, 0, sizeof *s);
  s->grid = *g;
  if (nmat < 0 || nmat > EFSI_MAX_MATERIALS) return 1;
  s->nmat = nmat;
  for (int m = 0; m < nmat; m++) {
    strncpy(s->material[m], names[m], EFSI_MATERIAL_NAME - 1);
    s->model[m] = models ? models[m] : MATERIAL_MODEL_NEO_HOOKEAN;
  }
  double **list[STATE_MAX_ARRAYS];
  const int n = state_arrays(s, list);
  for (int f = 0; f < n; f++) *list[f] = field_alloc(g);
  if (nmat > 0)
    for (int c = TXX; c <= TZZ; c++) field_fill(g, 1.0, s->b[c]);
  for (int k = 0, m = 0; k < own_count(s); k++)
    field_fill(g, material_fields[own_field(s, k, &m)].rest, s->own[k]);
  return 0;
}

void state_shell(efsi_state *s, const efsi_grid *g, const efsi_case *cs)
{
  memset(s, 0, sizeof *s);
  if (g) s->grid = *g;
  s->nmat = cs->nmat;
  for (int m = 0; m < cs->nmat; m++) {
    snprintf(s->material[m], EFSI_MATERIAL_NAME, "%s", cs->materials.name[m]);
    s->model[m] = cs->materials.model[m];
  }
}

int state_alloc(efsi_state *s, const efsi_grid *g, int nmat, const char *const *names)
{
  return alloc_with(s, g, nmat, names, NULL);
}

int state_alloc_case(efsi_state *s, const efsi_grid *g, const efsi_case *cs)
{
  const char *list[EFSI_MAX_MATERIALS];
  for (int m = 0; m < cs->nmat; m++) list[m] = cs->materials.name[m];
  return alloc_with(s, g, cs->nmat, list, cs->materials.model);
}

void state_free(efsi_state *s)
{
  double **list[STATE_MAX_ARRAYS];
  const int n = state_arrays(s, list);
  for (int f = 0; f < n; f++) field_free(*list[f]);
  memset(s, 0, sizeof *s);
}

void state_snapshot(efsi_state *s, int centred, efsi_snapshot *out)
{
  static const char *const b_name[6] = {"bxx", "byy", "bzz", "bxy", "bxz", "byz"};
  static const char *const velocity_name[3] = {"u", "v", "w"};
  static const char *const stored[3] = {"x velocity on the west face x = i hx",
                                        "y velocity on the south face y = j hy",
                                        "z velocity on the bottom face z = k hz"};
  static const char *const at_centre[3] = {
    "x velocity at the cell centre (mean of the west and east faces)",
    "y velocity at the cell centre (mean of the south and north faces)",
    "z velocity at the cell centre (mean of the bottom and top faces)"};
  memset(out, 0, sizeof *out);
  out->grid = &s->grid;
  out->step = s->step;
  out->time = s->time;
  out->drive_force = s->drive_force;
  snprintf(out->run_id, sizeof out->run_id, "%s", s->run_id);
  for (int m = 0; m < s->nmat; m++) {
    size_t used = strlen(out->materials);
    snprintf(out->materials + used, sizeof out->materials - used, "%s%s", m ? " " : "",
             s->material[m]);
  }
  double *velocity[3] = {s->u, s->v, s->w};
  int n = 0;
  for (int c = 0; c < 3; c++, n++) {
    efsi_named_field *f = &out->field[n];
    snprintf(f->name, sizeof f->name, "%s", velocity_name[c]);
    if (centred) snprintf(f->long_name, sizeof f->long_name, "%s", at_centre[c]);
    else snprintf(f->long_name, sizeof f->long_name, "%s (staggered, as stored)", stored[c]);
    f->units = "um us-1";
    f->data = velocity[c];
    f->centre_dir = centred ? c : -1;
  }
  efsi_named_field *p = &out->field[n++];
  snprintf(p->name, sizeof p->name, "p");
  snprintf(p->long_name, sizeof p->long_name, "%s", centred
           ? "pressure deviation from the driving pressure (mean zero)"
           : "pressure deviation (mean zero)");
  p->units = "pg um-1 us-2";
  p->data = s->p;
  p->centre_dir = -1;
  for (int m = 0; m < s->nmat; m++, n++) {
    efsi_named_field *f = &out->field[n];
    snprintf(f->name, sizeof f->name, "phi_%s", s->material[m]);
    snprintf(f->long_name, sizeof f->long_name, "volume fraction of %s", s->material[m]);
    f->units = "1";
    f->data = s->phi[m];
    f->centre_dir = -1;
  }
  for (int c = 0; s->nmat > 0 && c < 6; c++, n++) {
    efsi_named_field *f = &out->field[n];
    snprintf(f->name, sizeof f->name, "%s", b_name[c]);
    snprintf(f->long_name, sizeof f->long_name,
             "modified left Cauchy-Green tensor B, %s component", b_name[c] + 1);
    f->units = "1";
    f->data = s->b[c];
    f->centre_dir = -1;
  }
  for (int k = 0, m = 0; k < own_count(s); k++, n++) {
    const material_field *row = &material_fields[own_field(s, k, &m)];
    efsi_named_field *f = &out->field[n];
    snprintf(f->name, sizeof f->name, "%s_%s", row->name, s->material[m]);
    snprintf(f->long_name, sizeof f->long_name, "%s of %s", row->long_name, s->material[m]);
    f->units = "1";
    f->data = s->own[k];
    f->centre_dir = -1;
  }
  out->nfields = n;
}

void state_write_fields(const char *path, efsi_state *s, const efsi_decomp *d,
                        const char *case_name)
{
  efsi_snapshot snap;
  state_snapshot(s, 1, &snap);
  fields_write(path, &snap, d, case_name);
}

void state_write_restart(const char *dir, efsi_state *s, const efsi_decomp *d, long n_tracers,
                         const efsi_tracer *tracers)
{
  efsi_snapshot snap;
  state_snapshot(s, 0, &snap);
  restart_write(dir, &snap, d, n_tracers, tracers);
}

int state_check_restart(const char *path, const efsi_case *cs, const efsi_grid *g,
                        const efsi_decomp *d, char *err, size_t errlen)
{
  efsi_state shell;   /* the grid and the names of the case's arrays, no fields */
  state_shell(&shell, g, cs);
  efsi_snapshot snap;
  state_snapshot(&shell, 0, &snap);
  return restart_check(path, &snap, d, err, errlen);
}

void state_from_restart(efsi_state *s, const efsi_snapshot *snap)
{
  s->step = snap->step;
  s->time = snap->time;
  s->drive_force = snap->drive_force;
  snprintf(s->run_id, sizeof s->run_id, "%s", snap->run_id);
}

int state_read_restart(const char *path, efsi_state *s, const efsi_decomp *d, char *err,
                       size_t errlen)
{
  efsi_snapshot snap;
  state_snapshot(s, 0, &snap);
  if (restart_read(path, &snap, d, err, errlen)) return 1;
  state_from_restart(s, &snap);
  return 0;
}

int state_arrays(efsi_state *s, double **list[STATE_MAX_ARRAYS])
{
  int n = 0;
  list[n++] = &s->u;
  list[n++] = &s->v;
  list[n++] = &s->w;
  list[n++] = &s->p;
  for (int m = 0; m < s->nmat; m++) list[n++] = &s->phi[m];
  for (int c = 0; s->nmat > 0 && c < 6; c++) list[n++] = &s->b[c];
  for (int k = 0; k < own_count(s); k++) list[n++] = &s->own[k];
  return n;
}

int state_held_arrays(const efsi_state *s)
{
  return state_count(s->nmat, own_count(s));
}

int state_exchanged(efsi_state *s, double *fields[STATE_MAX_ARRAYS])
{
  double **list[STATE_MAX_ARRAYS];
  const int n = state_arrays(s, list);
  int e = 0;
  for (int f = 0; f < n; f++)
    if (list[f] != &s->p) fields[e++] = *list[f];
  return e;
}

int state_alloc_like(efsi_state *s, const efsi_state *host, const efsi_backend *b)
{
  *s = *host;
  double **list[STATE_MAX_ARRAYS];
  const int n = state_arrays(s, list);
  for (int f = 0; f < n; f++) *list[f] = backend_field_alloc(b, &s->grid);
  return 0;
}

void state_free_on(efsi_state *s, const efsi_backend *b)
{
  double **list[STATE_MAX_ARRAYS];
  const int n = state_arrays(s, list);
  for (int f = 0; f < n; f++)
    if (*list[f]) backend_field_free(b, *list[f]);
  memset(s, 0, sizeof *s);
}

void state_transfer(efsi_state *backend_state, efsi_state *host, const efsi_backend *b,
                    int upload)
{
  double **to[STATE_MAX_ARRAYS], **from[STATE_MAX_ARRAYS];
  const int n = state_arrays(upload ? backend_state : host, to);
  state_arrays(upload ? host : backend_state, from);
  for (int f = 0; f < n; f++) {
    if (upload) backend_upload(b, *to[f], *from[f], &host->grid);
    else backend_download(b, *to[f], *from[f], &host->grid);
  }
  efsi_state *dst = upload ? backend_state : host;
  const efsi_state *src = upload ? host : backend_state;
  dst->step = src->step;
  dst->time = src->time;
  dst->drive_force = src->drive_force;
}
