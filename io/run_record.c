/* run.json, the record of the last run in an output folder (see run_record.h): written
 * whole through a temporary file and a rename, and in place when the disk has no room left
 * for a new file, so that a run that fails for want of room still says so. */
#define _POSIX_C_SOURCE 200809L

#include "io/run_record.h"

#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>


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

/* The record r as run.json's text, into a buffer of the caller's to free (NULL: no memory). */
static char *record_text(const efsi_run_record *r, size_t *len)
{
  char *text = NULL;
  FILE *f = open_memstream(&text, len);
  if (!f) return NULL;
  const struct { const char *key, *value; } words[] = {
    {"run_id", r->run_id}, {"case", r->case_name}, {"case_file", r->case_file},
    {"restart", r->restart}, {"state", r->state}, {"why", r->why}, {"started", r->started},
    {"ended", r->ended}, {"host", r->host}};
  fputs("{\n", f);
  for (size_t k = 0; k < sizeof words / sizeof words[0]; k++) {
    fprintf(f, "  \"%s\": ", words[k].key);
    history_json_text(f, words[k].value);
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
  if (fclose(f) != 0) {
    free(text);
    return NULL;
  }
  return text;
}

/* text (len bytes) into the file at path: whole, or nonzero with errno set. */
static int write_all(const char *path, int flags, const char *text, size_t len)
{
  const int fd = open(path, flags, 0666);
  if (fd < 0) return 1;
  size_t done = 0;
  while (done < len) {
    const ssize_t n = write(fd, text + done, len - done);
    if (n <= 0) break;
    done += (size_t)n;
  }
  int failed = done < len || ftruncate(fd, (off_t)len) != 0;
  const int reason = errno;
  if (close(fd) != 0) failed = 1;
  else errno = reason;
  return failed;
}

int history_record_write(const char *dir, const efsi_run_record *r, char *err, size_t errlen)
{
  char path[EFSI_PATH_LEN + 32], temp[EFSI_PATH_LEN + 40];
  snprintf(path, sizeof path, "%s/run.json", dir);
  snprintf(temp, sizeof temp, "%s.tmp", path);
  size_t len = 0;
  char *text = record_text(r, &len);
  if (!text) {
    snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    return 1;
  }
  int failed = write_all(temp, O_WRONLY | O_CREAT | O_TRUNC, text, len)
            || rename(temp, path) != 0;
  /* a full disk has no block for a new file, but run.json's own block (its record is far
   * smaller than one) takes the new record in place: the end of a run that failed for want
   * of room is recorded too */
  if (failed) {
    const int reason = errno;
    remove(temp);
    failed = write_all(path, O_WRONLY, text, len);
    if (failed) errno = reason;
  }
  if (failed) snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
  free(text);
  return failed;
}

/* A claim of this process (state "claimed"), or one whose process is gone from this host? */
static int claim_of(const efsi_run_record *r, int mine)
{
  char host[256] = "";
  if (strcmp(r->state, "claimed") != 0 || r->pid <= 0) return 0;
  if (gethostname(host, sizeof host) != 0 || strcmp(host, r->host) != 0) return 0;
  if (mine) return r->pid == (long)getpid();
  return kill((pid_t)r->pid, 0) != 0 && errno == ESRCH;
}

int history_record_claim(const char *dir, char *err, size_t errlen)
{
  char path[EFSI_PATH_LEN + 32];
  snprintf(path, sizeof path, "%s/run.json", dir);
  efsi_run_record r;
  memset(&r, 0, sizeof r);
  snprintf(r.state, sizeof r.state, "claimed");
  r.exit_status = -1;
  r.steps = -1;
  r.end_time = -1;
  r.pid = (long)getpid();
  if (gethostname(r.host, sizeof r.host) != 0) r.host[0] = '\0';
  r.host[sizeof r.host - 1] = '\0';
  history_utc_now(r.started, sizeof r.started);
  size_t len = 0;
  char *text = record_text(&r, &len);
  if (!text) {
    snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    return -1;
  }
  int status = 0;
  if (write_all(path, O_WRONLY | O_CREAT | O_EXCL, text, len) != 0) {
    status = errno == EEXIST ? 1 : -1;
    if (status < 0) snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
  }
  free(text);
  return status;
}

void history_record_drop_stale(const char *dir)
{
  efsi_run_record r;
  char path[EFSI_PATH_LEN + 32];
  snprintf(path, sizeof path, "%s/run.json", dir);
  if (history_record_read(dir, &r) == 0 && claim_of(&r, 0)) remove(path);
}

void history_record_unclaim(const char *dir)
{
  efsi_run_record r;
  char path[EFSI_PATH_LEN + 32];
  snprintf(path, sizeof path, "%s/run.json", dir);
  if (history_record_read(dir, &r) == 0 && claim_of(&r, 1)) remove(path);
}

int history_record_failure(const char *dir, const char *why)
{
  efsi_run_record r;
  if (history_record_read(dir, &r) || strcmp(r.state, "running") != 0) return 1;
  snprintf(r.state, sizeof r.state, "failed");
  r.exit_status = 1;
  snprintf(r.why, sizeof r.why, "%s", why);
  history_utc_now(r.ended, sizeof r.ended);
  char err[EFSI_PATH_LEN + 128];
  return history_record_write(dir, &r, err, sizeof err);
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
