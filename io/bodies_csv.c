/* bodies.csv on rank 0, with the contract of diagnostics.csv: %.17g numbers (exact round
 * trip of a double), and on restart the rows after the restart step (written by the run
 * that went on past it) are dropped, so the file reads as one uninterrupted history.  The
 * step is the third column here, so the trim looks it up by column. */
#define _POSIX_C_SOURCE 200809L

#include "bodies_csv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"

const char bodies_csv_header[] = "id,kind,step,time,x,y,z,u,v,w";

enum { STEP_COLUMN = 2 };              /* 0-based: id, kind, step */

static FILE *csv;
static char csv_path[4096];

/* The number in column `column` of a row; nonzero when there is none. */
static int column_long(const char *line, int column, long *value)
{
  for (int c = 0; c < column; c++) {
    line = strchr(line, ',');
    if (!line) return 1;
    line++;
  }
  char *end;
  *value = strtol(line, &end, 10);
  return end == line || *end != ',';
}

/* Copy the header and the whole rows with step <= restart_step from in to out. */
static int keep_rows(FILE *in, FILE *out, const char *path, const char *header,
                     int step_column, long restart_step, char *err, size_t errlen)
{
  const size_t header_len = strlen(header);
  char *line = NULL;
  size_t cap = 0;
  ssize_t len = getline(&line, &cap, in);
  int failed = 0;
  if (len < 0 || strncmp(line, header, header_len) != 0
      || (line[header_len] != '\n' && line[header_len])) {
    snprintf(err, errlen, "%s: the first line is not the header of this efsi: %s", path,
             header);
    failed = 1;
  }
  if (!failed) fprintf(out, "%s\n", header);
  while (!failed && (len = getline(&line, &cap, in)) > 0) {
    long step;
    if (column_long(line, step_column, &step)) {
      /* A row cut short by a crash before its step: it is the last one. */
      if (line[len - 1] != '\n') break;
      snprintf(err, errlen, "%s: a row has no step number in column %d: %.40s", path,
               step_column + 1, line);
      failed = 1;
    } else if (step <= restart_step) {
      if (line[len - 1] != '\n') break;  /* cut short by a crash: keep only whole rows */
      fputs(line, out);
    }
  }
  free(line);
  return failed;
}

/* Rewrite the CSV file path (first line header, step in column step_column counted from 0)
 * through path.tmp keeping only the rows with step <= restart_step.  A missing file is
 * not an error (nothing to continue).  Independent of this file's state: diagnostics.c's
 * trim is the same with step_column = 0, so the two could share it. */
static int csv_trim(const char *path, const char *header, int step_column, long restart_step,
                    char *err, size_t errlen)
{
  FILE *in = fopen(path, "r");
  if (!in) {
    if (errno == ENOENT) return 0;
    snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
    return 1;
  }
  char temp[4096 + 8];
  snprintf(temp, sizeof temp, "%s.tmp", path);
  FILE *out = fopen(temp, "w");
  if (!out) {
    snprintf(err, errlen, "cannot write %s: %s", temp, strerror(errno));
    fclose(in);
    return 1;
  }
  int failed = keep_rows(in, out, path, header, step_column, restart_step, err, errlen);
  fclose(in);
  if (fclose(out) != 0 && !failed) {
    snprintf(err, errlen, "cannot write %s: %s", temp, strerror(errno));
    failed = 1;
  }
  if (!failed && rename(temp, path) != 0) {
    snprintf(err, errlen, "cannot rename %s to %s: %s", temp, path, strerror(errno));
    failed = 1;
  }
  if (failed) remove(temp);
  return failed;
}

int bodies_csv_open(const char *dir, long restart_step, char *err, size_t errlen)
{
  int n = snprintf(csv_path, sizeof csv_path, "%s/bodies.csv", dir);
  if (n < 0 || (size_t)n >= sizeof csv_path) {
    snprintf(err, errlen, "output directory name too long: %s", dir);
    return 1;
  }
  if (restart_step >= 0
      && csv_trim(csv_path, bodies_csv_header, STEP_COLUMN, restart_step, err, errlen))
    return 1;
  /* After a trim the file exists with its header; otherwise start it. */
  FILE *existing = restart_step >= 0 ? fopen(csv_path, "r") : NULL;
  csv = fopen(csv_path, existing ? "a" : "w");
  if (existing) fclose(existing);
  if (!csv || (!existing && fprintf(csv, "%s\n", bodies_csv_header) < 0) || fflush(csv)) {
    snprintf(err, errlen, "cannot write %s: %s", csv_path, strerror(errno));
    if (csv) fclose(csv);
    csv = NULL;
    return 1;
  }
  return 0;
}

void bodies_csv_write(long step, double time, long n, const efsi_tracer *sorted,
                      const char *const *kind_names)
{
  int failed = 0;
  for (long m = 0; m < n && !failed; m++) {
    const efsi_tracer *p = &sorted[m];
    failed = fprintf(csv, "%ld,%s,%ld,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", p->id,
                     kind_names[p->kind], step, time, p->x[0], p->x[1], p->x[2], p->v[0],
                     p->v[1], p->v[2]) < 0;
  }
  if (failed || fflush(csv) != 0)
    efsi_abort(EFSI_EXIT_RUNTIME, "cannot write %s: %s", csv_path, strerror(errno));
}

void bodies_csv_close(void)
{
  if (csv && fclose(csv) != 0)
    efsi_abort(EFSI_EXIT_RUNTIME, "cannot write %s: %s", csv_path, strerror(errno));
  csv = NULL;
}
