/* libFuzzer target: the restart-file readers (docs/building.md, "Fuzzing").  The input is
 * written to a file, which is then read as --restart latest and --restart FILE would: the
 * stamp (restart_peek), the body tracers, and, on a case built to match the file's own
 * grid, boundaries and materials where they are small and valid, the header checks and
 * every field.  One MPI rank (MPI_Init once, in LLVMFuzzerInitialize). */
#include <mpi.h>
#include <netcdf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "decomp/decomp.h"
#include "io/output.h"
#include "io/restart.h"
#include "src/case/state.h"

static char path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  MPI_Init(argc, argv);
  snprintf(path, sizeof path, "/tmp/efsi-fuzz-restart-%ld.nc", (long)getpid());
  return 0;
}

/* The case the file describes, when it is small and its names are valid: cells, the
 * periodic flags and the material names into the arguments; 0 when usable. */
static int case_of_file(int cells[3], int periodic[3], int *nmat,
                        char names[EFSI_MAX_MATERIALS][EFSI_MATERIAL_NAME])
{
  int ncid, ok = 0;
  if (nc_open(path, NC_NOWRITE, &ncid) != NC_NOERR) return 1;
  size_t len = 0;
  char text[256] = "";
  if (nc_inq_attlen(ncid, NC_GLOBAL, "grid_cells", &len) == NC_NOERR && len == 3
      && nc_get_att_int(ncid, NC_GLOBAL, "grid_cells", cells) == NC_NOERR)
    ok = cells[0] >= 3 && cells[0] <= 12 && cells[1] >= 3 && cells[1] <= 12 && cells[2] >= 3
      && cells[2] <= 12;
  periodic[0] = 1;
  for (int d = 1; d < 3; d++) {
    char type[16] = "";
    const char *key = d == 1 ? "boundary_y" : "boundary_z";
    if (nc_inq_attlen(ncid, NC_GLOBAL, key, &len) == NC_NOERR && len < sizeof type)
      nc_get_att_text(ncid, NC_GLOBAL, key, type);
    periodic[d] = strcmp(type, "periodic") == 0;
  }
  *nmat = 0;
  if (nc_inq_attlen(ncid, NC_GLOBAL, "materials", &len) == NC_NOERR && len < sizeof text
      && nc_get_att_text(ncid, NC_GLOBAL, "materials", text) == NC_NOERR) {
    text[len] = '\0';
    for (char *w = strtok(text, " "); w && *nmat < EFSI_MAX_MATERIALS; w = strtok(NULL, " "))
      if (strlen(w) < EFSI_MATERIAL_NAME) snprintf(names[(*nmat)++], EFSI_MATERIAL_NAME, "%s", w);
  }
  nc_close(ncid);
  return !ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  FILE *f = fopen(path, "wb");
  if (!f) return 0;
  fwrite(data, 1, size, f);
  fclose(f);
  char err[1024];
  long step;
  double time;
  /* a file that does not open ends efsi's run: the HDF5 library is not fit to open it again
   * in the same process */
  if (restart_peek(path, &step, &time, NULL, err, sizeof err)
      && (strstr(err, "cannot open") || strstr(err, "damaged file")
          || strstr(err, "truncated file") || strstr(err, "an empty file")
          || strstr(err, "not a NetCDF file"))) {
    unlink(path);
    return 0;
  }
  const double length[3] = {1, 1, 1};
  long n = 0;
  efsi_tracer *tracers = NULL;
  if (restart_read_tracers(path, 4, length, &n, &tracers, err, sizeof err) == 0) free(tracers);
  int cells[3], periodic[3], nmat = 0;
  char names[EFSI_MAX_MATERIALS][EFSI_MATERIAL_NAME];
  /* the harness's own look into the file goes through efsi's probe too */
  if (ncfile_probe(path, err, sizeof err) == 0 && case_of_file(cells, periodic, &nmat, names) == 0) {
    efsi_decomp d;
    const int ranks[3] = {0, 0, 0};
    if (decomp_create(&d, MPI_COMM_WORLD, cells, ranks, periodic, err, sizeof err) == 0) {
      efsi_grid g;
      double box[3];
      int ncid;
      for (int e = 0; e < 3; e++) box[e] = 1;
      if (nc_open(path, NC_NOWRITE, &ncid) == NC_NOERR) {   /* the file's own lengths */
        size_t len = 0;
        double stored[3];
        if (nc_inq_attlen(ncid, NC_GLOBAL, "grid_length", &len) == NC_NOERR && len == 3
            && nc_get_att_double(ncid, NC_GLOBAL, "grid_length", stored) == NC_NOERR
            && stored[0] > 0 && stored[1] > 0 && stored[2] > 0 && stored[0] < 1e300
            && stored[1] < 1e300 && stored[2] < 1e300)
          memcpy(box, stored, sizeof box);
        nc_close(ncid);
      }
      decomp_grid(&d, cells, box, &g);
      const char *list[EFSI_MAX_MATERIALS];
      for (int m = 0; m < nmat; m++) list[m] = names[m];
      efsi_state s;
      if (state_alloc(&s, &g, nmat, list) == 0) {
        state_read_restart(path, &s, &d, err, sizeof err);
        state_free(&s);
      }
      decomp_free(&d);
    }
  }
  unlink(path);
  return 0;
}
