/* diagnostics.csv on rank 0.  Every number is printed with %.17g, which round-trips a
 * double exactly, so a restarted run's rows can be compared bitwise with the uninterrupted
 * run's.  On restart the rows after the restart step (written by the run that went on past
 * it) are dropped, so the file reads as one uninterrupted history. */
#define _POSIX_C_SOURCE 200809L

#include "diagnostics.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"

const char diagnostics_header[] =
  "step,time,dt,beta,gamma,mach,div_rms,div_max,kinetic_energy,elastic_energy,"
  "solid_volume,flow_rate,wall_shear,u_max,detB_min,detB_max,wall_seconds";

static FILE *csv;
static char csv_path[4096];
static int n_materials;
/* The fixed columns, then volume_<material> for each material. */
static char header[sizeof diagnostics_header + EFSI_MAX_MATERIALS * (EFSI_MATERIAL_NAME + 8)];

void diagnostics_materials(int nmat, const char names[][EFSI_MATERIAL_NAME])
{
  n_materials = nmat;
  snprintf(header, sizeof header, "%s", diagnostics_header);
  for (int m = 0; m < nmat; m++) {
    size_t used = strlen(header);
    snprintf(header + used, sizeof header - used, ",volume_%s", names[m]);
  }
}

/* Copy the header and the rows with step <= restart_step from in to out. */
static int keep_rows(FILE *in, FILE *out, long restart_step, char *err, size_t errlen)
{
  char *line = NULL;
  size_t cap = 0;
  ssize_t len = getline(&line, &cap, in);
  int failed = 0;
  const size_t header_len = strlen(header);
  if (len < 0 || strncmp(line, header, header_len) != 0
      || (line[header_len] != '\n' && line[header_len] != '\0')) {
    snprintf(err, errlen, "%s: the first line is not the diagnostics header of this efsi "
             "and case (columns or materials differ)", csv_path);
    failed = 1;
  }
  if (!failed) fprintf(out, "%s\n", header);
  while (!failed && (len = getline(&line, &cap, in)) > 0) {
    char *end;
    long step = strtol(line, &end, 10);
    if (end == line || *end != ',') {
      snprintf(err, errlen, "%s: a row does not start with a step number: %.40s", csv_path,
               line);
      failed = 1;
    } else if (step <= restart_step) {
      /* A row cut short by a crash has no newline: only whole rows are kept. */
      if (line[len - 1] != '\n') break;
      fputs(line, out);
    }
  }
  free(line);
  return failed;
}

static int trim_to_restart(long restart_step, char *err, size_t errlen)
{
  FILE *in = fopen(csv_path, "r");
  if (!in) {
    if (errno == ENOENT) return 0;     /* nothing to continue: start a new file */
    snprintf(err, errlen, "cannot read %s: %s", csv_path, strerror(errno));
    return 1;
  }
  char temp[sizeof csv_path + 8];
  snprintf(temp, sizeof temp, "%s.tmp", csv_path);
  FILE *out = fopen(temp, "w");
  if (!out) {
    snprintf(err, errlen, "cannot write %s: %s", temp, strerror(errno));
    fclose(in);
    return 1;
  }
  int failed = keep_rows(in, out, restart_step, err, errlen);
  fclose(in);
  if (fclose(out) != 0 && !failed) {
    snprintf(err, errlen, "cannot write %s: %s", temp, strerror(errno));
    failed = 1;
  }
  if (!failed && rename(temp, csv_path) != 0) {
    snprintf(err, errlen, "cannot rename %s to %s: %s", temp, csv_path, strerror(errno));
    failed = 1;
  }
  if (failed) remove(temp);
  return failed;
}

int diagnostics_open(const char *dir, long restart_step, char *err, size_t errlen)
{
  int n = snprintf(csv_path, sizeof csv_path, "%s/diagnostics.csv", dir);
  if (n < 0 || (size_t)n >= sizeof csv_path) {
    snprintf(err, errlen, "output directory name too long: %s", dir);
    return 1;
  }
  if (!header[0]) diagnostics_materials(0, NULL);
  if (restart_step >= 0 && trim_to_restart(restart_step, err, errlen)) return 1;
  /* After a trim the file exists with its header; otherwise start it. */
  FILE *existing = restart_step >= 0 ? fopen(csv_path, "r") : NULL;
  csv = fopen(csv_path, existing ? "a" : "w");
  if (existing) fclose(existing);
  if (!csv || (!existing && fprintf(csv, "%s\n", header) < 0) || fflush(csv)) {
    snprintf(err, errlen, "cannot write %s: %s", csv_path, strerror(errno));
    if (csv) fclose(csv);
    csv = NULL;
    return 1;
  }
  return 0;
}

void diagnostics_write(const efsi_diagnostics *r)
{
  int n = fprintf(csv, "%ld,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,"
                  "%.17g,%.17g,%.17g,%.17g,%.17g",
                  r->step, r->time, r->dt, r->beta, r->gamma, r->mach, r->div_rms, r->div_max,
                  r->kinetic_energy, r->elastic_energy, r->solid_volume, r->flow_rate,
                  r->wall_shear, r->u_max, r->detB_min, r->detB_max, r->wall_seconds);
  for (int m = 0; m < n_materials && n >= 0; m++)
    n = fprintf(csv, ",%.17g", r->material_volume[m]);
  if (n < 0 || fputc('\n', csv) == EOF || fflush(csv) != 0)
    efsi_abort(EFSI_EXIT_RUNTIME, "cannot write %s: %s", csv_path, strerror(errno));
}

void diagnostics_close(void)
{
  if (csv && fclose(csv) != 0)
    efsi_abort(EFSI_EXIT_RUNTIME, "cannot write %s: %s", csv_path, strerror(errno));
  csv = NULL;
}
