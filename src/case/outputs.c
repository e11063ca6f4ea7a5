/* The fields a run writes (see outputs.h; docs/output.md, "Selective outputs"): the case's
 * keys turned once into the cells of each file (io/fields.h) and the fields it holds, and
 * the running sums of the averages,
 *   sum_f = sum over the samples of f (a velocity at the cell centre, as the fields files
 *           hold it),   average = sum_f / samples,
 * added by the registry's kernel field_accumulate where the state lives (the GPU's memory
 * on a GPU), downloaded only to be written. */
#include "src/case/outputs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "io/fields.h"
#include "io/output.h"
#include "io/restart.h"
#include "stencils/initial.h"

enum { MAX_FIELDS = STATE_MAX_ARRAYS };

/* The numbers of a restart file that describe the averages' window. */
enum { N_SAMPLES, N_FIRST_STEP, N_FIRST_TIME, N_LAST_STEP, N_LAST_TIME, N_EVERY, N_START,
       N_COUNT };
static const char *const number_name[N_COUNT] = {
  "average_samples", "average_first_step", "average_first_time", "average_last_step",
  "average_last_time", "average_sample_every", "average_start"};

struct efsi_outputs {
  const efsi_config *c;
  const efsi_backend *b;
  efsi_grid g;
  efsi_snapshot names;                  /* the fields' names, units, centring (no data) */
  unsigned char use_fields[MAX_FIELDS], use_box[MAX_FIELDS], use_slices[MAX_FIELDS];
  int *whole[3];                        /* every cell index of each direction */
  int *box_index[3];
  efsi_fields_set box;
  int nslices;
  int *plane[3];
  efsi_fields_set slice[3];
  int naverage;
  int average_field[MAX_FIELDS];        /* the averaged fields: indices into names */
  double *sum[MAX_FIELDS];              /* their running sums, the backend's fields */
  double *sum_host[MAX_FIELDS];         /* host copies (the sums themselves on the CPU) */
  long samples, first_step, last_step;
  double first_time, last_time;
  int restart_base, restart_numbers;    /* where outputs_restart_fields put its items */
};

/* use[n] = 1 for the fields of list ("all", or names) among the snapshot's. */
static int pick_fields(const efsi_snapshot *names, const char *list, unsigned char *use)
{
  char copy[CONFIG_TEXT_LEN];
  snprintf(copy, sizeof copy, "%s", list);
  const int all = strcmp(list, "all") == 0;
  int count = 0;
  for (int n = 0; n < names->nfields; n++) use[n] = (unsigned char)all;
  for (char *t = strtok(copy, " \t"); t && !all; t = strtok(NULL, " \t"))
    for (int n = 0; n < names->nfields; n++)
      if (strcmp(names->field[n].name, t) == 0) use[n] = 1;
  for (int n = 0; n < names->nfields; n++) count += use[n];
  return count;
}

int outputs_average_arrays(const efsi_config *c, const efsi_materials *m)
{
  if (c->average_every <= 0) return 0;
  if (strcmp(c->average_fields, "all") == 0) return state_array_count(m);
  int words = 0;
  char copy[CONFIG_TEXT_LEN];
  snprintf(copy, sizeof copy, "%s", c->average_fields);
  for (char *t = strtok(copy, " \t"); t; t = strtok(NULL, " \t")) words++;
  return words;
}

/* The names of the case's fields (as state_snapshot names them). */
static void names_of_case(const efsi_case *cs, efsi_snapshot *names)
{
  efsi_state shell;
  state_shell(&shell, NULL, cs);
  state_snapshot(&shell, 1, names);
}

int outputs_fields_count(const efsi_case *cs)
{
  efsi_snapshot names;
  unsigned char use[MAX_FIELDS];
  names_of_case(cs, &names);
  return pick_fields(&names, cs->config->fields_list, use);
}

/* Files at a cadence every (> 0: each multiple; 0: the end only; < 0: never) over steps
 * steps, at step 0 too when every > 0. */
static double files_at(long every, double steps)
{
  if (every < 0) return 0;
  if (every == 0) return 1;
  return floor(steps / (double)every) + 1 + (fmod(steps, (double)every) != 0 ? 1 : 0);
}

double outputs_plan_bytes(const efsi_case *cs, double steps, long bodies, long *files)
{
  const efsi_config *c = cs->config;
  efsi_snapshot names;
  unsigned char use[MAX_FIELDS];
  names_of_case(cs, &names);
  const double n[3] = {c->cells[0], c->cells[1], c->cells[2]};
  double box_cells = 1, slice_cells = 0;
  for (int d = 0; d < 3; d++) {
    const double h = c->length[d] / c->cells[d];
    const double hi = isnan(c->box_hi[d]) ? c->length[d] : c->box_hi[d];
    const double across = floor(hi / h - 0.5) - ceil(c->box_lo[d] / h - 0.5) + 1;
    box_cells *= fmax(ceil(across / c->box_stride[d]), 0);
    slice_cells += c->slice_at[d].n * n[0] * n[1] * n[2] / n[d];
  }
  const double header = 16384.0;
  const double box = files_at(c->box.every, steps), slices =
    c->slice_at[0].n + c->slice_at[1].n + c->slice_at[2].n > 0 ? files_at(c->slices.every, steps) : 0;
  double bytes = box * (8.0 * box_cells * pick_fields(&names, c->box.fields, use) + header)
               + slices * (8.0 * slice_cells * pick_fields(&names, c->slices.fields, use) + header);
  *files = (long)fmin(box + slices, 1e18);
  if (c->average_every > 0) {
    bytes += 8.0 * n[0] * n[1] * n[2] * outputs_average_arrays(c, &cs->materials) + header;
    ++*files;
  }
  const long every = c->bodies_every == BODIES_EVERY_DIAGNOSTICS ? c->diagnostics_every
                                                                 : c->bodies_every;
  /* a record per output step, step 0's too (at every = 0 only when it follows the
   * diagnostics, as src/run/run.c writes them) */
  const int step0 = every == 0 && c->bodies_every == BODIES_EVERY_DIAGNOSTICS;
  if (bodies > 0 && every >= 0)
    bytes += (files_at(every, steps) + step0) * 16.0 * 8.0 * (double)bodies + header;
  return bytes;
}

/* The cell index of position x along d: the cell that holds it (the last for x = L). */
static int cell_of(const efsi_grid *g, int d, double x)
{
  const int i = (int)floor(x * g->inv_h[d]);
  return i < 0 ? 0 : i >= g->global_n[d] ? g->global_n[d] - 1 : i;
}

static int ascending(const void *a, const void *b)
{
  const int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

efsi_outputs *outputs_create(const efsi_case *cs, const efsi_grid *g, const efsi_backend *b)
{
  const efsi_config *c = cs->config;
  efsi_outputs *o = efsi_calloc(1, sizeof *o, "the outputs");
  o->c = c;
  o->b = b;
  o->g = *g;
  names_of_case(cs, &o->names);
  o->names.grid = &o->g;
  pick_fields(&o->names, c->fields_list, o->use_fields);
  pick_fields(&o->names, c->box.fields, o->use_box);
  pick_fields(&o->names, c->slices.fields, o->use_slices);
  for (int d = 0; d < 3; d++) {
    o->whole[d] = efsi_malloc((size_t)g->global_n[d] * sizeof(int), "a cell list");
    for (int i = 0; i < g->global_n[d]; i++) o->whole[d][i] = i;
  }
  /* the box: the cells whose centres lie in [lo, hi], every stride-th from the first */
  static const char *const axis[3] = {"x", "y", "z"};
  o->box.suffix = "";
  for (int d = 0; d < 3; d++) {
    const double hi = isnan(c->box_hi[d]) ? g->length[d] : c->box_hi[d];
    int first = (int)ceil(c->box_lo[d] * g->inv_h[d] - 0.5), last = (int)floor(hi * g->inv_h[d] - 0.5);
    if (first < 0) first = 0;
    if (last > g->global_n[d] - 1) last = g->global_n[d] - 1;
    const int count = last >= first ? (last - first) / c->box_stride[d] + 1 : 0;
    o->box_index[d] = efsi_malloc((size_t)(count > 0 ? count : 1) * sizeof(int), "the box");
    for (int i = 0; i < count; i++) o->box_index[d][i] = first + i * c->box_stride[d];
    o->box.cells.count[d] = count;
    o->box.cells.index[d] = o->box_index[d];
    o->box.dim[d] = axis[d];
  }
  /* the slices: a family per direction with planes, the whole grid across them */
  static const char *const plane_dim[3] = {"x_yz", "y_xz", "z_xy"};
  static const char *const plane_suffix[3] = {"_yz", "_xz", "_xy"};
  for (int d = 0; d < 3; d++) {
    const efsi_numbers *at = &c->slice_at[d];
    if (at->n == 0) continue;
    o->plane[d] = efsi_malloc((size_t)at->n * sizeof(int), "the planes");
    int count = 0;
    for (int k = 0; k < at->n; k++) o->plane[d][count++] = cell_of(g, d, at->value[k]);
    qsort(o->plane[d], (size_t)count, sizeof(int), ascending);
    int unique = 0;
    for (int k = 0; k < count; k++)
      if (k == 0 || o->plane[d][k] != o->plane[d][unique - 1]) o->plane[d][unique++] = o->plane[d][k];
    efsi_fields_set *set = &o->slice[o->nslices++];
    set->suffix = plane_suffix[d];
    for (int e = 0; e < 3; e++) {
      set->dim[e] = e == d ? plane_dim[d] : axis[e];
      set->cells.count[e] = e == d ? unique : g->global_n[e];
      set->cells.index[e] = e == d ? o->plane[d] : o->whole[e];
    }
  }
  /* the averages: a sum per field, zero, where the kernels run */
  if (c->average_every > 0) {
    unsigned char use[MAX_FIELDS];
    pick_fields(&o->names, c->average_fields, use);
    for (int n = 0; n < o->names.nfields; n++) {
      if (!use[n]) continue;
      const int a = o->naverage++;
      o->average_field[a] = n;
      o->sum_host[a] = field_alloc(g);
      o->sum[a] = b->gpu ? backend_field_alloc(b, g) : o->sum_host[a];
      if (b->gpu) backend_upload(b, o->sum[a], o->sum_host[a], g);
    }
  }
  return o;
}

void outputs_free(efsi_outputs *o)
{
  if (!o) return;
  for (int d = 0; d < 3; d++) {
    free(o->whole[d]);
    free(o->box_index[d]);
    free(o->plane[d]);
  }
  for (int a = 0; a < o->naverage; a++) {
    if (o->b->gpu) backend_field_free(o->b, o->sum[a]);
    field_free(o->sum_host[a]);
  }
  free(o);
}

static int due(long every, long step, int last)
{
  return (every > 0 && step % every == 0) || (last && every >= 0);
}

int outputs_box_due(const efsi_outputs *o, long step, int last)
{
  return due(o->c->box.every, step, last);
}

int outputs_slices_due(const efsi_outputs *o, long step, int last)
{
  return o->nslices > 0 && due(o->c->slices.every, step, last);
}

/* Collective: the sets of host state s with the fields of use into path. */
static void write_sets(efsi_outputs *o, const char *path, efsi_state *s, const unsigned char *use,
                       const efsi_fields_set *set, int nsets, const efsi_output_keys *keys,
                       const char *title, const efsi_decomp *d)
{
  efsi_snapshot snap;
  state_snapshot(s, 1, &snap);
  efsi_fields_options options = {.title = title, .deflate = keys->deflate,
                                 .quantize = keys->quantize, .nnumbers = 2,
                                 .number = {{"density", o->c->density, 0},
                                            {"viscosity", o->c->viscosity, 0}}};
  fields_write_sets(path, &snap, use, set, nsets, &options, d, o->c->name);
}

void outputs_write_fields(efsi_outputs *o, const char *path, efsi_state *s, const efsi_decomp *d)
{
  const efsi_fields_set whole = {.cells = {.count = {o->g.global_n[0], o->g.global_n[1],
                                                     o->g.global_n[2]},
                                           .index = {o->whole[0], o->whole[1], o->whole[2]}},
                                 .dim = {"x", "y", "z"}, .suffix = ""};
  const efsi_output_keys keys = {.deflate = o->c->fields_deflate,
                                 .quantize = o->c->fields_quantize};
  write_sets(o, path, s, o->use_fields, &whole, 1, &keys, "efsi fields at cell centres", d);
}

static void series_path(char *path, size_t len, const char *dir, const char *kind, long step)
{
  if (output_path(path, len, dir, kind, step))
    efsi_abort(EFSI_EXIT_RUNTIME, "output path too long in %s", dir);
}

void outputs_write_box(efsi_outputs *o, const char *dir, efsi_state *s, const efsi_decomp *d)
{
  char path[EFSI_PATH_LEN + 64];
  series_path(path, sizeof path, dir, "box", s->step);
  write_sets(o, path, s, o->use_box, &o->box, 1, &o->c->box,
             "efsi fields on a box of cells (box.lo, box.hi, box.stride)", d);
}

void outputs_write_slices(efsi_outputs *o, const char *dir, efsi_state *s, const efsi_decomp *d)
{
  char path[EFSI_PATH_LEN + 64];
  series_path(path, sizeof path, dir, "slices", s->step);
  write_sets(o, path, s, o->use_slices, o->slice, o->nslices, &o->c->slices,
             "efsi fields on planes of cells (slices.x, slices.y, slices.z)", d);
}

/* At average.start or later, and not in the sums already. */
static int may_sample(const efsi_outputs *o, const efsi_state *s)
{
  const efsi_config *c = o->c;
  /* the analyses' tolerance on a window's start (studies/hematocrit_analysis.py) */
  if (!(s->time >= c->average_start - 1e-9 * fmax(c->average_start, 1.0))) return 0;
  return !(o->samples > 0 && o->last_step == s->step);
}

int outputs_sample_due(const efsi_outputs *o, const efsi_state *s)
{
  return o->naverage > 0 && s->step % o->c->average_every == 0 && may_sample(o, s);
}

/* Adds s to the sums. */
static void add_sample(efsi_outputs *o, const efsi_state *s, const efsi_kernels *k)
{
  efsi_snapshot snap;
  state_snapshot((efsi_state *)s, 1, &snap);
  for (int a = 0; a < o->naverage; a++) {
    const efsi_named_field *f = &snap.field[o->average_field[a]];
    k->field_accumulate(&s->grid, f->centre_dir, f->data, o->sum[a]);
  }
  if (o->samples == 0) {
    o->first_step = s->step;
    o->first_time = s->time;
  }
  o->samples++;
  o->last_step = s->step;
  o->last_time = s->time;
}

int outputs_sample(efsi_outputs *o, const efsi_state *s, const efsi_kernels *k)
{
  if (!outputs_sample_due(o, s)) return 0;
  add_sample(o, s, k);
  return 1;
}

void outputs_sample_end(efsi_outputs *o, const efsi_state *s, const efsi_kernels *k)
{
  if (o->naverage > 0 && may_sample(o, s)) add_sample(o, s, k);
}

/* The host copies of the sums hold the sums. */
static void sums_to_host(efsi_outputs *o)
{
  if (!o->b->gpu) return;
  for (int a = 0; a < o->naverage; a++) backend_download(o->b, o->sum_host[a], o->sum[a], &o->g);
}

void outputs_write_average(efsi_outputs *o, const char *dir, const efsi_decomp *d,
                           const char *case_name, const char *run_id)
{
  if (o->samples == 0) return;
  sums_to_host(o);
  efsi_snapshot snap;
  memset(&snap, 0, sizeof snap);
  snap.grid = &o->g;
  snap.step = o->last_step;
  snap.time = o->last_time;
  snprintf(snap.run_id, sizeof snap.run_id, "%s", run_id);
  for (int a = 0; a < o->naverage; a++) {
    const efsi_named_field *from = &o->names.field[o->average_field[a]];
    efsi_named_field *f = &snap.field[snap.nfields++];
    snprintf(f->name, sizeof f->name, "%s", from->name);
    snprintf(f->long_name, sizeof f->long_name, "time mean of the %.100s", from->long_name);
    f->units = from->units;
    f->data = o->sum_host[a];
    f->centre_dir = -1;   /* the sums hold cell-centre values already */
    f->divide_by = (double)o->samples;
  }
  const double window[2] = {o->first_time, o->last_time};
  efsi_fields_options options = {
    .title = "efsi time averages (average.fields over [average.start, the last sample])",
    .deflate = o->c->average_deflate, .time_bounds = window, .cell_methods = "time: mean",
    .nnumbers = 7,
    .number = {{"density", o->c->density, 0}, {"viscosity", o->c->viscosity, 0},
               {"average_samples", (double)o->samples, 1},
               {"average_first_step", (double)o->first_step, 1},
               {"average_last_step", (double)o->last_step, 1},
               {"average_sample_every", (double)o->c->average_every, 1},
               {"average_start", o->c->average_start, 0}}};
  const efsi_fields_set whole = {.cells = {.count = {o->g.global_n[0], o->g.global_n[1],
                                                     o->g.global_n[2]},
                                           .index = {o->whole[0], o->whole[1], o->whole[2]}},
                                 .dim = {"x", "y", "z"}, .suffix = ""};
  char path[EFSI_PATH_LEN + 32];
  snprintf(path, sizeof path, "%s/average.nc", dir);
  fields_write_sets(path, &snap, NULL, &whole, 1, &options, d, case_name);
}

void outputs_restart_fields(efsi_outputs *o, efsi_snapshot *snap)
{
  o->restart_base = snap->nfields;
  o->restart_numbers = snap->nnumbers;
  if (o->naverage == 0) return;
  sums_to_host(o);
  for (int a = 0; a < o->naverage && snap->nfields < SNAPSHOT_MAX_FIELDS; a++) {
    const efsi_named_field *from = &o->names.field[o->average_field[a]];
    efsi_named_field *f = &snap->field[snap->nfields++];
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "average_sum_%.27s", from->name);
    snprintf(f->long_name, sizeof f->long_name, "running sum of the samples of %.40s (docs/"
             "output.md, Averages)", from->name);
    f->units = from->units;
    f->data = o->sum_host[a];
    f->centre_dir = -1;
    f->optional = 1;
  }
  const double value[N_COUNT] = {(double)o->samples, (double)o->first_step, o->first_time,
                                 (double)o->last_step, o->last_time,
                                 (double)o->c->average_every, o->c->average_start};
  for (int k = 0; k < N_COUNT && snap->nnumbers < SNAPSHOT_MAX_NUMBERS; k++) {
    snprintf(snap->number[snap->nnumbers].name, sizeof snap->number[0].name, "%s",
             number_name[k]);
    snap->number[snap->nnumbers++].value = value[k];
  }
}

void outputs_restart_read(efsi_outputs *o, const efsi_snapshot *snap, int rank)
{
  if (o->naverage == 0) return;
  double number[N_COUNT];
  for (int k = 0; k < N_COUNT; k++) number[k] = snap->number[o->restart_numbers + k].value;
  int whole = 1;
  for (int a = 0; a < o->naverage; a++) whole &= !snap->field[o->restart_base + a].missing;
  const int same = whole && number[N_SAMPLES] >= 1 && number[N_EVERY] == o->c->average_every
                && number[N_START] == o->c->average_start;
  if (same) {
    o->samples = (long)number[N_SAMPLES];
    o->first_step = (long)number[N_FIRST_STEP];
    o->first_time = number[N_FIRST_TIME];
    o->last_step = (long)number[N_LAST_STEP];
    o->last_time = number[N_LAST_TIME];
  } else {
    o->samples = 0;
    for (int a = 0; a < o->naverage; a++) field_fill(&o->g, 0.0, o->sum_host[a]);
    if (rank == 0)
      fprintf(stderr, "efsi: warning: the restart file holds no running sums of these "
              "averages (average.fields, average.sample_every, average.start as now): "
              "average.nc starts a new window at step %ld\n", snap->step);
  }
  if (o->b->gpu)
    for (int a = 0; a < o->naverage; a++) backend_upload(o->b, o->sum[a], o->sum_host[a], &o->g);
}

void outputs_write_restart(efsi_outputs *o, const char *dir, efsi_state *s,
                           const efsi_decomp *d, long n_tracers, const efsi_tracer *tracers)
{
  efsi_snapshot snap;
  state_snapshot(s, 0, &snap);
  if (o) outputs_restart_fields(o, &snap);
  restart_write(dir, &snap, d, n_tracers, tracers);
}

int outputs_read_restart(efsi_outputs *o, const char *path, efsi_state *s,
                         const efsi_decomp *d, char *err, size_t errlen)
{
  efsi_snapshot snap;
  state_snapshot(s, 0, &snap);
  if (o) outputs_restart_fields(o, &snap);
  if (restart_read(path, &snap, d, err, errlen)) return 1;
  state_from_restart(s, &snap);
  if (o) outputs_restart_read(o, &snap, d->rank);
  return 0;
}
