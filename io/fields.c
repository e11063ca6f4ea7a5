/* A fields file: the state at cell centres on the global grid, CF-1.8 style, so that
 * ParaView and xarray open it as it is.  Staggered velocities are averaged to the cell
 * centre, u_c(i,j,k) = (u(i,j,k) + u(i+1,j,k))/2, likewise v along y and w along z; every
 * other field already lives at the centres.  Units are those of the shipped cases: um, us,
 * and density 1 (mass in pg). */
#include "fields.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "nc_check.h"
#include "output.h"

#ifndef PACKAGE_VERSION
#error "PACKAGE_VERSION comes from configure (-DPACKAGE_VERSION in DEFS)"
#endif

static const char *const b_name[6] = {"bxx", "byy", "bzz", "bxy", "bxz", "byz"};

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
  if (f->holds_file) NC_CHECK(nc_put_att_text(f->ncid, id, "axis", 1, axis[dir]));
  return id;
}

void fields_write(const char *path, const efsi_state *s, const efsi_decomp *d,
                  const char *case_name)
{
  const efsi_grid *g = &s->grid;
  efsi_ncfile f;
  int dim[3], axis_id[3];
  ncfile_create(&f, path, d, g, dim);
  for (int dir = 0; dir < 3; dir++) axis_id[dir] = define_axis(&f, dim, dir);

  static const char *const velocity_name[3] = {"u", "v", "w"};
  static const char *const velocity_long[3] = {
    "x velocity at the cell centre (mean of the west and east faces)",
    "y velocity at the cell centre (mean of the south and north faces)",
    "z velocity at the cell centre (mean of the bottom and top faces)"};
  const double *velocity[3] = {s->u, s->v, s->w};
  int velocity_id[3];
  for (int c = 0; c < 3; c++)
    velocity_id[c] = ncfile_define(&f, velocity_name[c], 3, dim, "um us-1", velocity_long[c]);
  int p_id = ncfile_define(&f, "p", 3, dim, "pg um-1 us-2",
                           "pressure deviation from the driving pressure (mean zero)");
  int phi_id[EFSI_MAX_MATERIALS], b_id[6];
  for (int m = 0; m < s->nmat; m++) {
    char name[EFSI_MATERIAL_NAME + 8], long_name[EFSI_MATERIAL_NAME + 32];
    snprintf(name, sizeof name, "phi_%s", s->material[m]);
    snprintf(long_name, sizeof long_name, "volume fraction of %s", s->material[m]);
    phi_id[m] = ncfile_define(&f, name, 3, dim, "1", long_name);
  }
  if (s->nmat > 0)
    for (int c = 0; c < 6; c++) {
      char long_name[96];
      snprintf(long_name, sizeof long_name,
               "modified left Cauchy-Green tensor B, %s component", b_name[c] + 1);
      b_id[c] = ncfile_define(&f, b_name[c], 3, dim, "1", long_name);
    }

  if (f.holds_file) {
    put_text(f.ncid, "Conventions", "CF-1.8");
    put_text(f.ncid, "title", "efsi fields at cell centres");
    put_text(f.ncid, "source", "efsi " PACKAGE_VERSION);
    put_text(f.ncid, "case", case_name);
    long long step = s->step;
    NC_CHECK(nc_put_att_longlong(f.ncid, NC_GLOBAL, "step", NC_INT64, 1, &step));
    NC_CHECK(nc_put_att_double(f.ncid, NC_GLOBAL, "time", NC_DOUBLE, 1, &s->time));
    put_text(f.ncid, "time_units", "us");
  }
  ncfile_enddef(&f);

  for (int dir = 0; dir < 3; dir++) {
    const int n = g->global_n[dir];
    double *centre = malloc((size_t)n * sizeof *centre);
    if (!centre) efsi_abort(EFSI_EXIT_RUNTIME, "out of memory writing %s", path);
    for (int i = 0; i < n; i++) centre[i] = (i + 0.5) * g->h[dir];
    ncfile_put_axis(&f, axis_id[dir], (size_t)n, centre);
    free(centre);
  }
  for (int c = 0; c < 3; c++) ncfile_put(&f, velocity_id[c], velocity[c], c);
  ncfile_put(&f, p_id, s->p, -1);
  for (int m = 0; m < s->nmat; m++) ncfile_put(&f, phi_id[m], s->phi[m], -1);
  if (s->nmat > 0)
    for (int c = 0; c < 6; c++) ncfile_put(&f, b_id[c], s->b[c], -1);
  ncfile_commit(&f);
}
