/* Voxel geometry input (see voxels.h).  Every rank opens the file read-only and reads its
 * hyperslab with nc_get_vara_double, which converts any numeric type; labels must be of an
 * integer type and whole, volume fractions in [0, 1]. */
#include "io/voxels.h"

#include <math.h>
#include <netcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "io/nc_check.h"
#include "io/output.h"

static int is_integer_type(nc_type t)
{
  return t == NC_BYTE || t == NC_UBYTE || t == NC_SHORT || t == NC_USHORT || t == NC_INT
      || t == NC_UINT || t == NC_INT64 || t == NC_UINT64;
}

/* The header checks: variable, type, dimensions; *varid on success. */
static int check_header(int ncid, const char *path, int variable, const int *N, int *varid_out,
                        char *err, size_t errlen)
{
  const char *name = variable == VOXELS_PHI ? "phi" : "label";
  int varid, ndims = 0, dimids[NC_MAX_VAR_DIMS];
  nc_type type;
  if (nc_inq_varid(ncid, name, &varid) != NC_NOERR) {
    snprintf(err, errlen, "%s: voxels.variable: the file has no variable '%s'", path, name);
    return 1;
  }
  /* the number of dimensions first: a damaged file may claim more than dimids holds */
  NC_TRY(nc_inq_varndims(ncid, varid, &ndims), path, name, err, errlen);
  NC_TRY(nc_inq_vartype(ncid, varid, &type), path, name, err, errlen);
  if (ndims == 3) NC_TRY(nc_inq_vardimid(ncid, varid, dimids), path, name, err, errlen);
  if (variable == VOXELS_LABEL && !is_integer_type(type)) {
    snprintf(err, errlen, "%s: variable label must be of an integer type", path);
    return 1;
  }
  if (variable == VOXELS_PHI && type != NC_DOUBLE && type != NC_FLOAT) {
    snprintf(err, errlen, "%s: variable phi must be floating point (a volume fraction)", path);
    return 1;
  }
  if (ndims != 3) {
    snprintf(err, errlen, "%s: variable %s has %d dimensions, expected 3 (z, y, x)", path,
             name, ndims);
    return 1;
  }
  size_t len[3];
  for (int d = 0; d < 3; d++)
    NC_TRY(nc_inq_dimlen(ncid, dimids[d], &len[d]), path, name, err, errlen);
  if (len[0] != (size_t)N[2] || len[1] != (size_t)N[1] || len[2] != (size_t)N[0]) {
    snprintf(err, errlen, "%s: variable %s is %zu x %zu x %zu (z, y, x), the case grid is "
             "%d x %d x %d (Nz, Ny, Nx)", path, name, len[0], len[1], len[2], N[2], N[1], N[0]);
    return 1;
  }
  *varid_out = varid;
  return 0;
}

static int check_values(const char *path, int variable, int nlabels, const double *x, size_t n,
                        char *err, size_t errlen);

static int check_and_read(int ncid, const char *path, int variable, int nlabels,
                          const efsi_grid *g, double *block, char *err, size_t errlen)
{
  const char *name = variable == VOXELS_PHI ? "phi" : "label";
  int varid;
  if (check_header(ncid, path, variable, g->global_n, &varid, err, errlen)) return 1;
  const size_t start[3] = {(size_t)g->offset[2], (size_t)g->offset[1], (size_t)g->offset[0]};
  const size_t count[3] = {(size_t)g->n[2], (size_t)g->n[1], (size_t)g->n[0]};
  NC_TRY(nc_get_vara_double(ncid, varid, start, count, block), path, name, err, errlen);
  return check_values(path, variable, nlabels, block, grid_cells(g), err, errlen);
}

int voxels_check(const char *path, int variable, const int global_n[3], char *err,
                 size_t errlen)
{
  int ncid, varid;
  int rc = nc_open(path, NC_NOWRITE, &ncid);
  if (rc != NC_NOERR) {
    snprintf(err, errlen, "%s: voxels.file: cannot open: %s", path, nc_strerror(rc));
    return 1;
  }
  const int bad = check_header(ncid, path, variable, global_n, &varid, err, errlen);
  nc_close(ncid);
  return bad;
}

/* Are the values x[0..n-1] of the variable allowed (phi in [0, 1], whole labels 0..nlabels)?
 * Nonzero with the message naming the first that is not. */
static int check_values(const char *path, int variable, int nlabels, const double *x, size_t n,
                        char *err, size_t errlen)
{
  const char *name = variable == VOXELS_PHI ? "phi" : "label";
  for (size_t c = 0; c < n; c++) {
    /* isfinite first: an ordered comparison with a NaN raises the invalid-operation flag,
     * which the --enable-debug build traps */
    const int bad = !isfinite(x[c])
                 || (variable == VOXELS_PHI ? !(x[c] >= 0.0 && x[c] <= 1.0)
                                            : !(x[c] >= 0.0 && x[c] <= nlabels && x[c] == floor(x[c])));
    if (bad && (x[c] == NC_FILL_DOUBLE || x[c] == (double)NC_FILL_FLOAT)) {
      snprintf(err, errlen, "%s: variable %s holds the NetCDF fill value: values were never "
               "written (a truncated or unfinished file?)", path, name);
      return 1;
    }
    if (bad) {
      snprintf(err, errlen, "%s: variable %s has the value %g, allowed %s", path, name, x[c],
               variable == VOXELS_PHI ? "[0, 1]" : "0 (fluid) to the number of voxels.modulus entries");
      return 1;
    }
  }
  return 0;
}

int voxels_validate(const char *path, int variable, int nlabels, const int global_n[3],
                    char *err, size_t errlen)
{
  int ncid, varid;
  if (ncfile_probe(path, err, errlen)) return 1;
  int rc = nc_open(path, NC_NOWRITE, &ncid);
  if (rc != NC_NOERR) {
    snprintf(err, errlen, "%s: voxels.file: cannot open: %s", path, nc_strerror(rc));
    return 1;
  }
  int bad = check_header(ncid, path, variable, global_n, &varid, err, errlen);
  const size_t plane = (size_t)global_n[0] * (size_t)global_n[1];
  double *values = bad ? NULL : malloc(plane * sizeof(double));
  if (!bad && !values) efsi_abort(EFSI_EXIT_RUNTIME, "out of memory reading %s", path);
  for (int k = 0; !bad && k < global_n[2]; k++) {
    const size_t start[3] = {(size_t)k, 0, 0};
    const size_t count[3] = {1, (size_t)global_n[1], (size_t)global_n[0]};
    rc = nc_get_vara_double(ncid, varid, start, count, values);
    if (rc != NC_NOERR) {
      snprintf(err, errlen, "%s: reading variable %s (plane z = %d): %s (a damaged file?)",
               path, variable == VOXELS_PHI ? "phi" : "label", k, nc_strerror(rc));
      bad = 1;
    } else {
      bad = check_values(path, variable, nlabels, values, plane, err, errlen);
    }
  }
  free(values);
  nc_close(ncid);
  return bad;
}

int voxels_read(const char *path, int variable, int nlabels, const efsi_grid *g,
                double *const phi[], char *err, size_t errlen)
{
  int ncid;
  int rc = nc_open(path, NC_NOWRITE, &ncid);
  if (rc != NC_NOERR) {
    snprintf(err, errlen, "%s: voxels.file: cannot open: %s", path, nc_strerror(rc));
    return 1;
  }
  double *block = malloc(grid_cells(g) * sizeof(double));
  if (!block) efsi_abort(EFSI_EXIT_RUNTIME, "out of memory reading %s", path);
  const int bad = check_and_read(ncid, path, variable, nlabels, g, block, err, errlen);
  nc_close(ncid);
  if (!bad) {
    size_t c = 0;
    for (int k = 0; k < g->n[2]; k++)
      for (int j = 0; j < g->n[1]; j++)
        for (int i = 0; i < g->n[0]; i++, c++) {
          const ptrdiff_t at = grid_index(g, i, j, k);
          if (variable == VOXELS_PHI) {
            phi[0][at] = block[c];
          } else {
            for (int m = 0; m < nlabels; m++) phi[m][at] = block[c] == m + 1 ? 1.0 : 0.0;
          }
        }
  }
  free(block);
  return bad;
}
