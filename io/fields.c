/* Fields files and the selective outputs: named arrays at cell centres on sets of cells of
 * the global grid, CF-1.8 style, so that ParaView and xarray open them as they are.  A
 * face-centred array is averaged to the cell centre, u_c(i,j,k) = (u(i,j,k) + u(i+1,j,k))/2,
 * likewise along y and z; every other one already lives at the centres.  Each set is a
 * grid of its own (its cells along x, y and z; dimensions of the same name are shared, so
 * the families of planes of a slices file share the whole directions).  Lengths in um,
 * time in us (the shipped cases' units). */
#include "io/fields.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "io/nc_check.h"

#ifndef PACKAGE_VERSION
#error "PACKAGE_VERSION comes from configure (-DPACKAGE_VERSION in DEFS)"
#endif

static void put_text(efsi_ncfile *f, int var, const char *name, const char *value)
{
  NCFILE_CHECK(f, nc_put_att_text(f->ncid, var, name, strlen(value), value));
}

/* The file's dimensions by name: its id, the set and direction that define it. */
enum { MAX_DIMS = 12 };
typedef struct {
  int n;
  const char *name[MAX_DIMS];
  int id[MAX_DIMS], coordinate[MAX_DIMS], set[MAX_DIMS], dir[MAX_DIMS];
} dimensions;

/* The id of the dimension of set s along dir, defined at its first use. */
static int dimension(efsi_ncfile *f, dimensions *dm, const efsi_fields_set *set, int s, int dir)
{
  const char *name = set[s].dim[dir];
  for (int k = 0; k < dm->n; k++)
    if (strcmp(dm->name[k], name) == 0) {
      if (set[dm->set[k]].cells.count[dm->dir[k]] != set[s].cells.count[dir])
        efsi_abort(EFSI_EXIT_RUNTIME, "%s: dimension %s given two lengths", f->path, name);
      return dm->id[k];
    }
  if (dm->n == MAX_DIMS) efsi_abort(EFSI_EXIT_RUNTIME, "%s: too many dimensions", f->path);
  const int k = dm->n++;
  dm->name[k] = name;
  dm->set[k] = s;
  dm->dir[k] = dir;
  dm->id[k] = -1;
  if (f->holds_file)
    NCFILE_CHECK(f, nc_def_dim(f->ncid, name, (size_t)set[s].cells.count[dir], &dm->id[k]));
  return dm->id[k];
}

/* The coordinate variable of dimension k: the centres of its cells. */
static void define_coordinate(efsi_ncfile *f, dimensions *dm, int k)
{
  static const char *const axis[3] = {"X", "Y", "Z"};
  static const char *const whole[3] = {"x of the cell centre (streamwise, periodic)",
                                       "y of the cell centre", "z of the cell centre"};
  static const char *const planes[3] = {"x of the planes x = const (cell centres)",
                                        "y of the planes y = const (cell centres)",
                                        "z of the planes z = const (cell centres)"};
  const int dir = dm->dir[k];
  const int plain = strlen(dm->name[k]) == 1;
  dm->coordinate[k] = ncfile_define(f, dm->name[k], 1, &dm->id[k], "um",
                                    plain ? whole[dir] : planes[dir]);
  if (f->holds_file && plain) put_text(f, dm->coordinate[k], "axis", axis[dir]);
}

void fields_write_sets(const char *path, const efsi_snapshot *s, const unsigned char *use,
                       const efsi_fields_set *set, int nsets, const efsi_fields_options *o,
                       const efsi_decomp *d, const char *case_name)
{
  const efsi_grid *g = s->grid;
  efsi_ncfile f;
  double values = 0;
  int nvars = 0;
  for (int k = 0; k < nsets; k++)
    for (int n = 0; n < s->nfields; n++)
      if (!use || use[n]) {
        values += (double)set[k].cells.count[0] * set[k].cells.count[1] * set[k].cells.count[2];
        nvars++;
      }
  ncfile_begin(&f, path, d, g, values, nvars, &s->time);
  dimensions dm = {0};
  int bounds_dim = -1, bounds_var = -1;
  for (int k = 0; k < nsets; k++)
    for (int dir = 2; dir >= 0; dir--) dimension(&f, &dm, set, k, dir);
  if (o->time_bounds && f.holds_file) NCFILE_CHECK(&f, nc_def_dim(f.ncid, "nv", 2, &bounds_dim));
  ncfile_begin_done(&f);
  if (o->time_bounds) {
    const int dims[2] = {f.time_dim, bounds_dim};
    bounds_var = ncfile_define(&f, "time_bnds", 2, dims, "us", "the averaging window: its "
                               "first and last sample");
    if (f.holds_file) put_text(&f, f.time_var, "bounds", "time_bnds");
  }
  for (int dir = 0; dir < 3; dir++)   /* x, y, z, as the axes are read */
    for (int k = 0; k < dm.n; k++)
      if (dm.dir[k] == dir) define_coordinate(&f, &dm, k);
  int *id = efsi_malloc((size_t)(nsets * s->nfields + 1) * sizeof *id, "the variables");
  for (int k = 0; k < nsets; k++) {
    int dims[3];
    for (int dir = 0; dir < 3; dir++) dims[2 - dir] = dimension(&f, &dm, set, k, dir);
    size_t chunk[4] = {1, 0, 0, 0};
    ncfile_cells_per_block(&f, &set[k].cells, chunk + 1);
    const size_t swap = chunk[1];   /* (x, y, z) counts to the (z, y, x) order */
    chunk[1] = chunk[3];
    chunk[3] = swap;
    for (int n = 0; n < s->nfields; n++) {
      int *v = &id[k * s->nfields + n];
      *v = -1;
      if (use && !use[n]) continue;
      char name[64];
      snprintf(name, sizeof name, "%s%s", s->field[n].name, set[k].suffix);
      *v = ncfile_define(&f, name, 3, dims, s->field[n].units, s->field[n].long_name);
      if (!f.holds_file) continue;
      if (o->deflate > 0) {
        NCFILE_CHECK(&f, nc_def_var_chunking(f.ncid, *v, NC_CHUNKED, chunk));
        NCFILE_CHECK(&f, nc_def_var_deflate(f.ncid, *v, 1, 1, o->deflate));
      }
#if defined(NC_QUANTIZE_GRANULARBR)
      if (o->quantize > 0)
        NCFILE_CHECK(&f, nc_def_var_quantize(f.ncid, *v, NC_QUANTIZE_GRANULARBR, o->quantize));
#endif
      if (o->cell_methods) put_text(&f, *v, "cell_methods", o->cell_methods);
    }
  }
  if (f.holds_file) {
    put_text(&f, NC_GLOBAL, "Conventions", "CF-1.8");
    put_text(&f, NC_GLOBAL, "title", o->title);
    put_text(&f, NC_GLOBAL, "source", "efsi " PACKAGE_VERSION);
    put_text(&f, NC_GLOBAL, "case", case_name);
    long long step = s->step;
    NCFILE_CHECK(&f, nc_put_att_longlong(f.ncid, NC_GLOBAL, "step", NC_INT64, 1, &step));
    NCFILE_CHECK(&f, nc_put_att_double(f.ncid, NC_GLOBAL, "time", NC_DOUBLE, 1, &s->time));
    put_text(&f, NC_GLOBAL, "time_units", "us");
    if (s->run_id[0]) put_text(&f, NC_GLOBAL, "run_id", s->run_id);
    /* what a picture needs to know of the box: which sides are walls */
    put_text(&f, NC_GLOBAL, "boundary_y", d->periodic[1] ? "periodic" : "wall");
    put_text(&f, NC_GLOBAL, "boundary_z", d->periodic[2] ? "periodic" : "wall");
    for (int k = 0; k < o->nnumbers; k++) {
      if (o->number[k].integer) {
        const long long v = (long long)o->number[k].value;
        NCFILE_CHECK(&f, nc_put_att_longlong(f.ncid, NC_GLOBAL, o->number[k].name, NC_INT64, 1, &v));
      } else {
        NCFILE_CHECK(&f, nc_put_att_double(f.ncid, NC_GLOBAL, o->number[k].name, NC_DOUBLE, 1,
                                           &o->number[k].value));
      }
    }
  }
  ncfile_enddef(&f);
  if (o->time_bounds && f.holds_file) {
    /* collective: rank 0 writes the two values */
    const size_t start[2] = {0, 0}, count[2] = {d->rank == 0, d->rank == 0 ? 2 : 0};
    NCFILE_CHECK(&f, nc_put_vara_double(f.ncid, bounds_var, start, count, o->time_bounds));
  }
  for (int k = 0; k < dm.n; k++) {
    const efsi_cell_set *c = &set[dm.set[k]].cells;
    const int dir = dm.dir[k];
    double *centre = efsi_malloc((size_t)c->count[dir] * sizeof *centre + 1, "a coordinate axis");
    for (int i = 0; i < c->count[dir]; i++) centre[i] = (c->index[dir][i] + 0.5) * g->h[dir];
    ncfile_put_axis(&f, dm.coordinate[k], (size_t)c->count[dir], centre);
    free(centre);
  }
  for (int k = 0; k < nsets; k++)
    for (int n = 0; n < s->nfields; n++)
      if (!use || use[n])
        ncfile_put_cells(&f, id[k * s->nfields + n], s->field[n].data, s->field[n].centre_dir,
                         s->field[n].divide_by, &set[k].cells);
  free(id);
  ncfile_commit(&f);
}

void fields_write(const char *path, const efsi_snapshot *s, const efsi_decomp *d,
                  const char *case_name)
{
  const efsi_grid *g = s->grid;
  int *every[3];
  efsi_fields_set whole = {.dim = {"x", "y", "z"}, .suffix = ""};
  for (int dir = 0; dir < 3; dir++) {
    every[dir] = efsi_malloc((size_t)g->global_n[dir] * sizeof(int), "a cell list");
    for (int i = 0; i < g->global_n[dir]; i++) every[dir][i] = i;
    whole.cells.count[dir] = g->global_n[dir];
    whole.cells.index[dir] = every[dir];
  }
  const efsi_fields_options plain = {.title = "efsi fields at cell centres"};
  fields_write_sets(path, s, NULL, &whole, 1, &plain, d, case_name);
  for (int dir = 0; dir < 3; dir++) free(every[dir]);
}
