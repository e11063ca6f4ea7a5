/* The output directory's history (see history.h): a listing of its restart and fields files
 * with what their headers say, the extent of its tables, the move of later files aside, and
 * the run record run.json (one "key": value pair per line, so that efsi reads it back
 * without a JSON library and any JSON reader reads it too). */
#define _POSIX_C_SOURCE 200809L

#include "io/history.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/errors.h"
#include "io/bodies_csv.h"
#include "io/bodies_nc.h"
#include "io/csv.h"
#include "io/nc_check.h"
#include "io/output.h"
#include "io/restart.h"

/* The step of NAME = <kind>_<digits>.nc (exactly: suffix is ".nc"), or -1. */
static long name_step(const char *name, const char *kind, const char *suffix)
{
  const size_t k = strlen(kind);
  if (strncmp(name, kind, k) != 0 || name[k] != '_') return -1;
  const char *digits = name + k + 1;
  const size_t n = strspn(digits, "0123456789");
  if (n == 0 || n > 18 || strcmp(digits + n, suffix) != 0) return -1;
  return strtol(digits, NULL, 10);
}

/* Step, time and run identity of a fields file (efsi's own: its header is read directly). */
static void read_fields_header(const char *path, efsi_history_file *f)
{
  int ncid;
  if (nc_open(path, NC_NOWRITE, &ncid) != NC_NOERR) {
    snprintf(f->problem, sizeof f->problem, "cannot be opened");
    return;
  }
  long long step = -1;
  size_t n = 0;
  if (nc_get_att_longlong(ncid, NC_GLOBAL, "step", &step) != NC_NOERR
      || nc_get_att_double(ncid, NC_GLOBAL, "time", &f->time) != NC_NOERR)
    snprintf(f->problem, sizeof f->problem, "no step or time attribute");
  else if (step != f->step && f->step >= 0)
    snprintf(f->problem, sizeof f->problem, "holds step %lld", step);
  else
    f->readable = 1;
  if (f->step < 0) f->step = (long)step;   /* average.nc: its name holds no step */
  if (nc_inq_attlen(ncid, NC_GLOBAL, "run_id", &n) == NC_NOERR && n < sizeof f->run_id
      && nc_get_att_text(ncid, NC_GLOBAL, "run_id", f->run_id) == NC_NOERR)
    f->run_id[n] = '\0';
  else
    f->run_id[0] = '\0';
  nc_close(ncid);
}

static int by_step(const void *a, const void *b)
{
  const efsi_history_file *x = a, *y = b;
  if (x->step != y->step) return x->step < y->step ? -1 : 1;
  return x->kind - y->kind;
}

int history_scan(efsi_history *h, const char *dir, long headers_after, char *err,
                 size_t errlen)
{
  memset(h, 0, sizeof *h);
  snprintf(h->dir, sizeof h->dir, "%s", dir);
  h->diagnostics_last = h->bodies_last = h->bodies_nc_last = -1;
  DIR *listing = opendir(dir);
  if (!listing) {
    if (errno == ENOENT || errno == ENOTDIR) return 0;
    snprintf(err, errlen, "cannot read the output directory %s: %s", dir, strerror(errno));
    return 1;
  }
  h->exists = 1;
  int capacity = 0;
  for (struct dirent *e = readdir(listing); e; e = readdir(listing)) {
    h->output |= output_is_efsi_file(e->d_name);
    h->diagnostics |= strcmp(e->d_name, "diagnostics.csv") == 0;
    h->bodies |= strcmp(e->d_name, "bodies.csv") == 0;
    h->bodies_nc |= strcmp(e->d_name, "bodies.nc") == 0;
    const long restart = name_step(e->d_name, "restart", ".nc");
    const long fields = name_step(e->d_name, "fields", ".nc");
    long output = name_step(e->d_name, "box", ".nc");
    if (output < 0) output = name_step(e->d_name, "slices", ".nc");
    const int average = strcmp(e->d_name, "average.nc") == 0;
    static const char *const series[4] = {"restart", "fields", "box", "slices"};
    for (int k = 0; k < 4; k++) h->temporaries += name_step(e->d_name, series[k], ".nc.tmp") >= 0;
    h->temporaries += strcmp(e->d_name, "average.nc.tmp") == 0
                   || strcmp(e->d_name, "bodies.nc.tmp") == 0;
    if ((restart < 0 && fields < 0 && output < 0 && !average)
        || strlen(e->d_name) >= sizeof h->file->name)
      continue;
    if (h->nfiles == capacity) {
      capacity = capacity ? 2 * capacity : 64;
      h->file = efsi_realloc(h->file, (size_t)capacity * sizeof *h->file, "the output files");
    }
    efsi_history_file *f = &h->file[h->nfiles++];
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "%s", e->d_name);
    f->kind = restart >= 0 ? HISTORY_RESTART : fields >= 0 ? HISTORY_FIELDS : HISTORY_OUTPUT;
    f->step = restart >= 0 ? restart : fields >= 0 ? fields : output;
    if (average) {   /* its step is in its header: read now, whatever headers_after */
      char path[EFSI_PATH_LEN + 80];
      snprintf(path, sizeof path, "%s/%s", dir, f->name);
      f->step = -1;
      f->read = 1;
      read_fields_header(path, f);
    }
  }
  closedir(listing);
  if (h->nfiles > 1) qsort(h->file, (size_t)h->nfiles, sizeof *h->file, by_step);
  for (int k = 0; k < h->nfiles; k++) {
    efsi_history_file *f = &h->file[k];
    if (f->step <= headers_after || f->read) continue;
    char path[EFSI_PATH_LEN + 80];
    snprintf(path, sizeof path, "%s/%s", dir, f->name);
    f->read = 1;
    if (f->kind != HISTORY_RESTART) {
      read_fields_header(path, f);
      continue;
    }
    long step = -1;
    char why[512];
    if (restart_peek(path, &step, &f->time, f->run_id, why, sizeof why) == 0) {
      if (step == f->step) f->readable = 1;
      else snprintf(f->problem, sizeof f->problem, "holds step %ld", step);
    } else {
      const char *reason = strncmp(why, path, strlen(path)) == 0 ? why + strlen(path) : why;
      snprintf(f->problem, sizeof f->problem, "%s", reason + strspn(reason, ": "));
    }
  }
  char path[EFSI_PATH_LEN + 32];
  double time = 0;
  snprintf(path, sizeof path, "%s/diagnostics.csv", dir);
  h->diagnostics_last = csv_last_step(path, 0, &h->diagnostics_last_time);
  snprintf(path, sizeof path, "%s/bodies.csv", dir);
  h->bodies_last = csv_last_step(path, BODIES_CSV_STEP_COLUMN, &time);
  snprintf(path, sizeof path, "%s/bodies.nc", dir);
  h->bodies_nc_last = h->bodies_nc ? bodies_nc_last_step(path, &time) : -1;
  h->recorded = history_record_read(dir, &h->record) == 0;
  return 0;
}

void history_free(efsi_history *h)
{
  free(h->file);
  h->file = NULL;
  h->nfiles = 0;
}

const efsi_history_file *history_newest_restart(const efsi_history *h)
{
  for (int k = h->nfiles - 1; k >= 0; k--)
    if (h->file[k].kind == HISTORY_RESTART && h->file[k].readable) return &h->file[k];
  return NULL;
}

/* Copy the file from to to (a missing from is no error). */
static int copy_file(const char *from, const char *to, char *err, size_t errlen)
{
  FILE *in = fopen(from, "rb");
  if (!in) return errno == ENOENT ? 0 : (snprintf(err, errlen, "cannot read %s: %s", from,
                                                  strerror(errno)), 1);
  FILE *out = fopen(to, "wb");
  int failed = !out;
  char buf[65536];
  size_t n;
  while (!failed && (n = fread(buf, 1, sizeof buf, in)) > 0) failed = fwrite(buf, 1, n, out) != n;
  failed |= ferror(in) != 0;
  if (out && fclose(out) != 0) failed = 1;
  fclose(in);
  if (failed) snprintf(err, errlen, "cannot copy %s to %s: %s", from, to, strerror(errno));
  return failed;
}

int history_move_aside(const efsi_history *h, long step, char *aside, size_t len, int *moved,
                       char *err, size_t errlen)
{
  *moved = 0;
  for (int n = 1;; n++) {
    if (n == 1) snprintf(aside, len, "%s/discarded-after-%08ld", h->dir, step);
    else snprintf(aside, len, "%s/discarded-after-%08ld-%d", h->dir, step, n);
    if (mkdir(aside, 0777) == 0) break;
    if (errno != EEXIST || n > 1000) {
      snprintf(err, errlen, "cannot create %s: %s", aside, strerror(errno));
      return 1;
    }
  }
  static const char *const tables[] = {"diagnostics.csv", "bodies.csv", "bodies.nc",
                                       "performance.json", "run.json"};
  char from[EFSI_PATH_LEN + 200], to[EFSI_PATH_LEN + 400];
  for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) {
    snprintf(from, sizeof from, "%s/%s", h->dir, tables[t]);
    snprintf(to, sizeof to, "%.4000s/%s", aside, tables[t]);
    if (copy_file(from, to, err, errlen)) return 1;
  }
  /* the listing again: the .tmp files of writes after step go too */
  DIR *listing = opendir(h->dir);
  if (!listing) {
    snprintf(err, errlen, "cannot read %s: %s", h->dir, strerror(errno));
    return 1;
  }
  int failed = 0;
  for (struct dirent *e = readdir(listing); e && !failed; e = readdir(listing)) {
    long s = -1;
    static const char *const kinds[4] = {"restart", "fields", "box", "slices"};
    static const char *const suffix[2] = {".nc", ".nc.tmp"};
    for (int k = 0; k < 4 && s < 0; k++)
      for (int x = 0; x < 2 && s < 0; x++) s = name_step(e->d_name, kinds[k], suffix[x]);
    for (int k = 0; k < h->nfiles && s < 0; k++)   /* average.nc: the step of its header */
      if (strcmp(e->d_name, h->file[k].name) == 0 && h->file[k].kind == HISTORY_OUTPUT)
        s = h->file[k].step;
    if (strcmp(e->d_name, "average.nc.tmp") == 0) s = LONG_MAX;
    if (s <= step) continue;
    snprintf(from, sizeof from, "%.4000s/%.80s", h->dir, e->d_name);
    snprintf(to, sizeof to, "%.4000s/%.255s", aside, e->d_name);
    if (rename(from, to) != 0) {
      snprintf(err, errlen, "cannot move %s to %s: %s", from, aside, strerror(errno));
      failed = 1;
    } else {
      ++*moved;
    }
  }
  closedir(listing);
  return failed;
}

/* ---- run.json -------------------------------------------------------------------------- */

void history_json_text(FILE *f, const char *text)
{
  if (!text) {
    fputs("null", f);
    return;
  }
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
    if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
    else if (*p < 0x20) fprintf(f, "\\u%04x", *p);
    else fputc(*p, f);
  }
  fputc('"', f);
}

void history_json_number(FILE *f, double x)
{
  if (isfinite(x)) fprintf(f, "%.17g", x);
  else fputs("null", f);
}

int history_record_write(const char *dir, const efsi_run_record *r, char *err, size_t errlen)
{
  char path[EFSI_PATH_LEN + 32], temp[EFSI_PATH_LEN + 40];
  snprintf(path, sizeof path, "%s/run.json", dir);
  snprintf(temp, sizeof temp, "%s.tmp", path);
  FILE *f = fopen(temp, "w");
  if (!f) {
    snprintf(err, errlen, "cannot write %s: %s", temp, strerror(errno));
    return 1;
  }
  const struct { const char *key, *value; } text[] = {
    {"run_id", r->run_id}, {"case", r->case_name}, {"case_file", r->case_file},
    {"restart", r->restart}, {"state", r->state}, {"why", r->why}, {"started", r->started},
    {"ended", r->ended}, {"host", r->host}};
  fputs("{\n", f);
  for (size_t k = 0; k < sizeof text / sizeof text[0]; k++) {
    fprintf(f, "  \"%s\": ", text[k].key);
    history_json_text(f, text[k].value);
    fputs(",\n", f);
  }
  const struct { const char *key; long value; } whole[] = {
    {"exit_status", r->exit_status}, {"first_step", r->first_step}, {"step", r->step},
    {"steps", r->steps}, {"pid", r->pid}, {"fields_written", r->fields_written},
    {"restarts_written", r->restarts_written}, {"rows_written", r->rows_written}};
  for (size_t k = 0; k < sizeof whole / sizeof whole[0]; k++)
    fprintf(f, "  \"%s\": %ld,\n", whole[k].key, whole[k].value);
  fputs("  \"time\": ", f);
  history_json_number(f, r->time);
  fputs(",\n  \"end_time\": ", f);
  history_json_number(f, r->end_time);
  fputs("\n}\n", f);
  int failed = ferror(f) != 0;
  if (fclose(f) != 0) failed = 1;
  if (!failed && rename(temp, path) != 0) failed = 1;
  if (failed) {
    snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    remove(temp);
  }
  return failed;
}

/* The JSON string at *p (after its opening quote) into out. */
static void json_unquote(const char *p, char *out, size_t len)
{
  size_t n = 0;
  for (; *p && *p != '"' && n + 1 < len; p++) {
    if (*p == '\\' && p[1] == 'u' && strlen(p) >= 6) {
      out[n++] = (char)strtol((char[]){p[2], p[3], p[4], p[5], 0}, NULL, 16);
      p += 5;
    } else {
      if (*p == '\\' && p[1]) p++;
      out[n++] = *p;
    }
  }
  out[n] = '\0';
}

int history_record_read(const char *dir, efsi_run_record *r)
{
  memset(r, 0, sizeof *r);
  r->exit_status = -1;
  r->steps = -1;
  r->end_time = -1;
  char path[EFSI_PATH_LEN + 32], line[2 * EFSI_PATH_LEN], key[64];
  snprintf(path, sizeof path, "%s/run.json", dir);
  FILE *f = fopen(path, "r");
  if (!f) return 1;
  struct { const char *key; char *value; size_t len; } text[] = {
    {"run_id", r->run_id, sizeof r->run_id}, {"case", r->case_name, sizeof r->case_name},
    {"case_file", r->case_file, sizeof r->case_file}, {"restart", r->restart, sizeof r->restart},
    {"state", r->state, sizeof r->state}, {"why", r->why, sizeof r->why},
    {"started", r->started, sizeof r->started}, {"ended", r->ended, sizeof r->ended},
    {"host", r->host, sizeof r->host}};
  struct { const char *key; long *value; } whole[] = {
    {"exit_status", NULL}, {"first_step", &r->first_step}, {"step", &r->step},
    {"steps", &r->steps}, {"pid", &r->pid}, {"fields_written", &r->fields_written},
    {"restarts_written", &r->restarts_written}, {"rows_written", &r->rows_written}};
  int found = 0;
  while (fgets(line, sizeof line, f)) {
    const char *p = line + strspn(line, " \t");
    if (sscanf(p, "\"%63[^\"]\":", key) != 1) continue;
    const char *value = strchr(p + strlen(key) + 2, ':');
    if (!value) continue;
    value += 1 + strspn(value + 1, " ");
    found++;
    for (size_t k = 0; k < sizeof text / sizeof text[0]; k++)
      if (strcmp(key, text[k].key) == 0 && *value == '"') json_unquote(value + 1, text[k].value, text[k].len);
    for (size_t k = 0; k < sizeof whole / sizeof whole[0]; k++)
      if (strcmp(key, whole[k].key) == 0) {
        const long v = strtol(value, NULL, 10);
        if (whole[k].value) *whole[k].value = v;
        else r->exit_status = (int)v;
      }
    if (strcmp(key, "time") == 0) r->time = strncmp(value, "null", 4) ? strtod(value, NULL) : NAN;
    if (strcmp(key, "end_time") == 0) r->end_time = strtod(value, NULL);
  }
  fclose(f);
  return found == 0;
}

void history_utc_now(char *buf, size_t len)
{
  const time_t now = time(NULL);
  struct tm utc;
  gmtime_r(&now, &utc);
  strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &utc);
}
