/* A fields file: named arrays at cell centres on the global grid, CF-1.8 style, so that
 * ParaView and xarray open it as it is.  A face-centred array is averaged to the cell
 * centre, u_c(i,j,k) = (u(i,j,k) + u(i+1,j,k))/2, likewise along y and z; every other one
 * already lives at the centres.  Lengths in um, time in us (the shipped cases' units). */
#include "io/fields.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "io/nc_check.h"
#include "io/output.h"

#ifndef PACKAGE_VERSION
#error "PACKAGE_VERSION comes from configure (-DPACKAGE_VERSION in DEFS)"
#endif

static void put_text(int ncid, const char *name, const char *value)
{
  NC_CHECK(nc_put_att_text(ncid, NC_GLOBAL, name, strlen(value), value));
}

/* Coordinate variable of direction dir: cell centres (i + 1/2) h. */
static int define_axis(efsi_ncfile *f, const int dim[3], int dir)
{
  static const char *const name[3] = {"x", "y", "z"}, *const axis[3] = {"X", "Y", "Z"};
  static const char *const long_name[3] = {"x of the cell centre (streamwise, periodic)",
                                           "y of the cell centre", "z of the cell centre"};
  const int dim_of_dir = dim[2 - dir];
  int id = ncfile_define(f, name[dir], 1, &dim_of_dir, "um", long_name[dir]);
  if (f->holds_file) NCFILE_CHECK(f, nc_put_att_text(f->ncid, id, "axis", 1, axis[dir]));
  return id;
}

void fields_write(const char *path, const efsi_snapshot *s, const efsi_decomp *d,
                  const char *case_name)
{
  const efsi_grid *g = s->grid;
  efsi_ncfile f;
  int dim[3], axis_id[3], id[SNAPSHOT_MAX_FIELDS];
  ncfile_create(&f, path, d, g, dim, s->nfields, &s->time);
  for (int dir = 0; dir < 3; dir++) axis_id[dir] = define_axis(&f, dim, dir);
  for (int n = 0; n < s->nfields; n++)
    id[n] = ncfile_define(&f, s->field[n].name, 3, dim, s->field[n].units,
                          s->field[n].long_name);
  if (f.holds_file) {
    put_text(f.ncid, "Conventions", "CF-1.8");
    put_text(f.ncid, "title", "efsi fields at cell centres");
    put_text(f.ncid, "source", "efsi " PACKAGE_VERSION);
    put_text(f.ncid, "case", case_name);
    long long step = s->step;
    NCFILE_CHECK(&f, nc_put_att_longlong(f.ncid, NC_GLOBAL, "step", NC_INT64, 1, &step));
    NCFILE_CHECK(&f, nc_put_att_double(f.ncid, NC_GLOBAL, "time", NC_DOUBLE, 1, &s->time));
    put_text(f.ncid, "time_units", "us");
    if (s->run_id[0]) put_text(f.ncid, "run_id", s->run_id);
    /* what a picture needs to know of the box: which sides are walls */
    put_text(f.ncid, "boundary_y", d->periodic[1] ? "periodic" : "wall");
    put_text(f.ncid, "boundary_z", d->periodic[2] ? "periodic" : "wall");
  }
  ncfile_enddef(&f);

  for (int dir = 0; dir < 3; dir++) {
    const int n = g->global_n[dir];
    double *centre = efsi_malloc((size_t)n * sizeof *centre, "a coordinate axis");
    for (int i = 0; i < n; i++) centre[i] = (i + 0.5) * g->h[dir];
    ncfile_put_axis(&f, axis_id[dir], (size_t)n, centre);
    free(centre);
  }
  for (int n = 0; n < s->nfields; n++)
    ncfile_put(&f, id[n], s->field[n].data, s->field[n].centre_dir);
  ncfile_commit(&f);
}
