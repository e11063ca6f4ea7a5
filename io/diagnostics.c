/* diagnostics.csv on rank 0.  Every number is printed with %.17g, which round-trips a
 * double exactly, so a restarted run's rows can be compared bitwise with the uninterrupted
 * run's.  On restart the rows after the restart step (written by the run that went on past
 * it) are dropped, so the file reads as one uninterrupted history. */
#define _POSIX_C_SOURCE 200809L

#include "io/diagnostics.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/limits.h"
#include "io/csv.h"
#include "base/errors.h"

const char diagnostics_header[] =
  "step,time,dt,beta,gamma,mach,div_rms,div_max,kinetic_energy,elastic_energy,"
  "solid_volume,flow_rate,wall_shear,u_max,detB_min,detB_max,wall_seconds";
const char diagnostics_lumen_header[] =
  "lumen_flow_rate,tube_hematocrit,discharge_hematocrit,lumen_wall_shear_mean,"
  "lumen_wall_shear_max";

const char *const diagnostics_shape_columns[SHAPE_COUNT] = {
  "centroid_x", "centroid_y", "centroid_z", "moment_xx", "moment_yy", "moment_zz",
  "moment_xy", "moment_xz", "moment_yz"};

static FILE *csv;
static char csv_path[EFSI_PATH_LEN];
static int n_materials, lumen;
/* The fixed columns, the lumen's, then volume_<material> for each material, then the shape
 * columns of each material. */
static char header[sizeof diagnostics_header + sizeof diagnostics_lumen_header
                   + EFSI_MAX_MATERIALS * (1 + SHAPE_COUNT) * (EFSI_MATERIAL_NAME + 13)];

void diagnostics_materials(int nmat, const char names[][EFSI_MATERIAL_NAME])
{
  n_materials = nmat;
  lumen = 0;
  for (int m = 0; m < nmat; m++) lumen |= strcmp(names[m], "wall") == 0;
  snprintf(header, sizeof header, "%s%s%s", diagnostics_header, lumen ? "," : "",
           lumen ? diagnostics_lumen_header : "");
  for (int m = 0; m < nmat; m++) {
    size_t used = strlen(header);
    snprintf(header + used, sizeof header - used, ",volume_%s", names[m]);
  }
  for (int m = 0; m < nmat; m++)
    for (int c = 0; c < SHAPE_COUNT; c++) {
      size_t used = strlen(header);
      snprintf(header + used, sizeof header - used, ",%s_%s", diagnostics_shape_columns[c],
               names[m]);
    }
}

int diagnostics_open(const char *dir, long restart_step, char *err, size_t errlen)
{
  int n = snprintf(csv_path, sizeof csv_path, "%s/diagnostics.csv", dir);
  if (n < 0 || (size_t)n >= sizeof csv_path) {
    snprintf(err, errlen, "output directory name too long: %s", dir);
    return 1;
  }
  if (!header[0]) diagnostics_materials(0, NULL);
  return csv_open(csv_path, header, 0, restart_step, &csv, err, errlen);
}

void diagnostics_write(const efsi_diagnostics *r)
{
  int n = fprintf(csv, "%ld,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,"
                  "%.17g,%.17g,%.17g,%.17g,%.17g",
                  r->step, r->time, r->dt, r->beta, r->gamma, r->mach, r->div_rms, r->div_max,
                  r->kinetic_energy, r->elastic_energy, r->solid_volume, r->flow_rate,
                  r->wall_shear, r->u_max, r->detB_min, r->detB_max, r->wall_seconds);
  if (lumen && n >= 0)
    n = fprintf(csv, ",%.17g,%.17g,%.17g,%.17g,%.17g", r->lumen_flow_rate, r->tube_hematocrit,
                r->discharge_hematocrit, r->lumen_wall_shear_mean, r->lumen_wall_shear_max);
  for (int m = 0; m < n_materials && n >= 0; m++)
    n = fprintf(csv, ",%.17g", r->material_volume[m]);
  for (int m = 0; m < n_materials && n >= 0; m++)
    for (int c = 0; c < SHAPE_COUNT && n >= 0; c++)
      n = fprintf(csv, ",%.17g", r->material_shape[m][c]);
  if (n < 0 || fputc('\n', csv) == EOF || fflush(csv) != 0)
    efsi_abort(EFSI_EXIT_RUNTIME, "cannot write %s: %s", csv_path, strerror(errno));
}

void diagnostics_close(void)
{
  if (csv && fclose(csv) != 0)
    efsi_abort(EFSI_EXIT_RUNTIME, "cannot write %s: %s", csv_path, strerror(errno));
  csv = NULL;
}
