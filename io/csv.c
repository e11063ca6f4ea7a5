/* The output directory's CSV tables (see csv.h). */
#define _POSIX_C_SOURCE 200809L

#include "io/csv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "base/errors.h"
#include "io/output.h"

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
  return end == line || (*end != ',' && *end != '\n' && *end != '\0');
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
 * not an error (nothing to continue). */
static int csv_trim(const char *path, const char *header, int step_column, long restart_step,
                    char *err, size_t errlen)
{
  FILE *in = fopen(path, "r");
  if (!in) {
    if (errno == ENOENT) return 0;
    snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
    return 1;
  }
  char temp[EFSI_PATH_LEN + 40];
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

int csv_open(efsi_csv *t, const char *dir, const char *name, const char *header,
             int step_column, long restart_step, char *err, size_t errlen)
{
  t->file = NULL;
  const int n = snprintf(t->path, sizeof t->path, "%s/%s", dir, name);
  if (n < 0 || (size_t)n >= sizeof t->path) {
    snprintf(err, errlen, "output directory name too long: %s", dir);
    return 1;
  }
  const char *path = t->path;
  if (restart_step >= 0 && csv_trim(path, header, step_column, restart_step, err, errlen))
    return 1;
  /* After a trim the file exists with its header; otherwise start it. */
  FILE *existing = restart_step >= 0 ? fopen(path, "r") : NULL;
  FILE *f = fopen(path, existing ? "a" : "w");
  if (existing) fclose(existing);
  if (!f || (!existing && fprintf(f, "%s\n", header) < 0) || fflush(f)) {
    snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    if (f) fclose(f);
    return 1;
  }
  t->file = f;
  return 0;
}

void csv_row_done(efsi_csv *t, int printed)
{
  if (printed < 0 || fflush(t->file) != 0)
    output_failed(t->path, "cannot write %s: %s", t->path, strerror(errno));
}

void csv_close(efsi_csv *t)
{
  if (t->file && fclose(t->file) != 0)
    output_failed(t->path, "cannot write %s: %s", t->path, strerror(errno));
  t->file = NULL;
}

long csv_last_step(const char *path, int step_column, double *time)
{
  enum { TAIL = 65536 };
  *time = 0;
  FILE *in = fopen(path, "rb");
  if (!in) return -1;
  char *buf = efsi_malloc(TAIL + 1, "the end of a table");
  long last = -1;
  if (fseek(in, 0, SEEK_END) == 0) {
    const long size = ftell(in);
    const long from = size > TAIL ? size - TAIL : 0;
    const size_t n = fseek(in, from, SEEK_SET) == 0 ? fread(buf, 1, TAIL, in) : 0;
    buf[n] = '\0';
    /* the whole lines, last first: the first whose step reads (the header's does not) */
    char *end = strrchr(buf, '\n');
    while (end && last < 0) {
      *end = '\0';
      char *line = strrchr(buf, '\n');
      line = line ? line + 1 : (from == 0 ? buf : NULL);
      if (!line) break;   /* the first line of the tail may be cut */
      if (column_long(line, step_column, &last)) last = -1;
      else {
        const char *next = line;
        for (int c = 0; c <= step_column && next; c++) next = strchr(next, ',') ? strchr(next, ',') + 1 : NULL;
        *time = next ? strtod(next, NULL) : 0;
      }
      end = line > buf ? line - 1 : NULL;
    }
  }
  free(buf);
  fclose(in);
  return last;
}
