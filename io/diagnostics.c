/* diagnostics.csv on rank 0.  Every number is printed with %.17g, which round-trips a
 * double exactly, so a restarted run's rows can be compared bitwise with the uninterrupted
 * run's.  On restart the rows after the restart step (written by the run that went on past
 * it) are dropped, so the file reads as one uninterrupted history. */
#include "io/diagnostics.h"

#include <stdio.h>
#include <string.h>

const char diagnostics_header[] =
  "step,time,dt,beta,gamma,mach,div_rms,div_max,kinetic_energy,elastic_energy,"
  "solid_volume,flow_rate,wall_shear,u_max,detB_min,detB_max,wall_seconds";
const char diagnostics_lumen_header[] =
  "lumen_flow_rate,tube_hematocrit,discharge_hematocrit,lumen_wall_shear_mean,"
  "lumen_wall_shear_max";

const char *const diagnostics_shape_columns[SHAPE_COUNT] = {
  "centroid_x", "centroid_y", "centroid_z", "moment_xx", "moment_yy", "moment_zz",
  "moment_xy", "moment_xz", "moment_yz"};

_Static_assert(sizeof diagnostics_header + sizeof diagnostics_lumen_header <= 256,
               "efsi_diagnostics_table.header has room for the fixed and lumen columns");

void diagnostics_table(efsi_diagnostics_table *t, int nmat,
                       const char names[][EFSI_MATERIAL_NAME])
{
  t->csv.file = NULL;
  t->n_materials = nmat;
  t->lumen = 0;
  for (int m = 0; m < nmat; m++) t->lumen |= strcmp(names[m], "wall") == 0;
  char *header = t->header;
  const size_t len = sizeof t->header;
  snprintf(header, len, "%s%s%s", diagnostics_header, t->lumen ? "," : "",
           t->lumen ? diagnostics_lumen_header : "");
  for (int m = 0; m < nmat; m++) {
    size_t used = strlen(header);
    snprintf(header + used, len - used, ",volume_%s", names[m]);
  }
  for (int m = 0; m < nmat; m++)
    for (int c = 0; c < SHAPE_COUNT; c++) {
      size_t used = strlen(header);
      snprintf(header + used, len - used, ",%s_%s", diagnostics_shape_columns[c], names[m]);
    }
}

int diagnostics_open(efsi_diagnostics_table *t, const char *dir, long restart_step,
                     char *err, size_t errlen)
{
  return csv_open(&t->csv, dir, "diagnostics.csv", t->header, 0, restart_step, err, errlen);
}

void diagnostics_write(efsi_diagnostics_table *t, const efsi_diagnostics *r)
{
  FILE *csv = t->csv.file;
  int n = fprintf(csv, "%ld,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,"
                  "%.17g,%.17g,%.17g,%.17g,%.17g",
                  r->step, r->time, r->dt, r->beta, r->gamma, r->mach, r->div_rms, r->div_max,
                  r->kinetic_energy, r->elastic_energy, r->solid_volume, r->flow_rate,
                  r->wall_shear, r->u_max, r->detB_min, r->detB_max, r->wall_seconds);
  if (t->lumen && n >= 0)
    n = fprintf(csv, ",%.17g,%.17g,%.17g,%.17g,%.17g", r->lumen_flow_rate, r->tube_hematocrit,
                r->discharge_hematocrit, r->lumen_wall_shear_mean, r->lumen_wall_shear_max);
  for (int m = 0; m < t->n_materials && n >= 0; m++)
    n = fprintf(csv, ",%.17g", r->material_volume[m]);
  for (int m = 0; m < t->n_materials && n >= 0; m++)
    for (int c = 0; c < SHAPE_COUNT && n >= 0; c++)
      n = fprintf(csv, ",%.17g", r->material_shape[m][c]);
  if (n >= 0) n = fputc('\n', csv) == EOF ? -1 : 1;
  csv_row_done(&t->csv, n);
}

void diagnostics_close(efsi_diagnostics_table *t) { csv_close(&t->csv); }
