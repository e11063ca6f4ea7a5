/* libFuzzer target: the voxel-file reader (docs/building.md, "Fuzzing").  The input is
 * written to a file and validated, checked and read as a case's voxels.file would be, as a
 * phi and as a label variable, on a grid of the file's own dimensions where they are small
 * (so that the values are read too) and on a fixed 4 x 4 x 4 grid. */
#include <mpi.h>
#include <netcdf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/grid.h"
#include "io/output.h"
#include "io/voxels.h"

static char path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  MPI_Init(argc, argv);
  snprintf(path, sizeof path, "/tmp/efsi-fuzz-voxels-%ld.nc", (long)getpid());
  return 0;
}

/* The dims (x, y, z order) of variable name when it has three small ones. */
static int small_dims(const char *name, int n[3])
{
  int ncid, varid, ndims = 0, dims[NC_MAX_VAR_DIMS], ok = 0;
  if (nc_open(path, NC_NOWRITE, &ncid) != NC_NOERR) return 0;
  if (nc_inq_varid(ncid, name, &varid) == NC_NOERR
      && nc_inq_varndims(ncid, varid, &ndims) == NC_NOERR && ndims == 3
      && nc_inq_vardimid(ncid, varid, dims) == NC_NOERR) {
    ok = 1;
    for (int d = 0; d < 3; d++) {
      size_t len = 0;
      ok &= nc_inq_dimlen(ncid, dims[d], &len) == NC_NOERR && len >= 1 && len <= 16;
      n[2 - d] = (int)len;
    }
  }
  nc_close(ncid);
  return ok;
}

static void read_as(int variable, const int n[3])
{
  static const int none[3] = {0, 0, 0}, at[3] = {0, 0, 0};
  const double length[3] = {1, 1, 1};
  char err[1024];
  if (voxels_check(path, variable, n, err, sizeof err) != 0) return;
  efsi_grid g;
  grid_init(&g, n, length, n, at, none, none);
  double *phi[3];
  for (int m = 0; m < 3; m++) phi[m] = field_alloc(&g);
  if (phi[0] && phi[1] && phi[2]) voxels_read(path, variable, 3, &g, phi, err, sizeof err);
  for (int m = 0; m < 3; m++) field_free(phi[m]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  FILE *f = fopen(path, "wb");
  if (!f) return 0;
  fwrite(data, 1, size, f);
  fclose(f);
  const int fixed[3] = {4, 4, 4};
  int n[3];
  char err[1024];
  for (int variable = VOXELS_PHI; variable <= VOXELS_LABEL; variable++) {
    /* as efsi reads a voxel file: rank 0 validates it (probing it first), then every rank
     * checks the header and reads its block.  A file that does not open ends efsi's run;
     * the HDF5 library is not fit to open it again in the same process. */
    if (voxels_validate(path, variable, 3, fixed, err, sizeof err) == 0) read_as(variable, fixed);
    else if (strstr(err, "cannot open") || strstr(err, "damaged file")) break;
    if (ncfile_probe(path, err, sizeof err) == 0
        && small_dims(variable == VOXELS_PHI ? "phi" : "label", n)
        && voxels_validate(path, variable, 3, n, err, sizeof err) == 0)
      read_as(variable, n);
  }
  unlink(path);
  return 0;
}
