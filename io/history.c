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
  const int rc = nc_open(path, NC_NOWRITE, &ncid);
  if (rc != NC_NOERR) {
    char why[EFSI_PATH_LEN + 320];
    ncfile_unreadable(path, rc, why, sizeof why);
    snprintf(f->problem, sizeof f->problem, "%s", why + strlen(path) + strspn(why + strlen(path), ": "));
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
    memcpy(f->name, e->d_name, strlen(e->d_name) + 1);   /* its length checked above */
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
