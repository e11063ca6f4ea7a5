/* One history per output directory (see history.h; docs/output.md, "One history per
 * folder").  The rules, decided on rank 0 from io/history.h's listing of the folder:
 *   - a run continued from a restart file R writes R's run identity; a fresh start, a new one;
 *   - no file of the folder may carry another identity than R's ("--restart latest can never
 *     combine two histories");
 *   - R from outside the folder: the folder is new, or its files name R's run and its
 *     history reaches R's step (no gap);
 *   - a readable restart file after R's step means R is older than the folder's newest
 *     output: refused, or with --discard-newer every file after R's step is moved aside;
 *   - R at the end of the run (history_finished): nothing to do, said so, exit status 0. */
#define _POSIX_C_SOURCE 200809L

#include "src/run/history.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/errors.h"
#include "io/history.h"
#include "io/output.h"
#include "io/restart.h"
#include "src/case/state.h"
#include "src/step/timestep.h"

int history_finished(const efsi_config *c, long step, double time, double dt)
{
  if (c->steps >= 0 && step >= c->steps) return 1;
  /* the step that lands within a small fraction of dt of end_time is the last one */
  if (c->end_time > 0 && time >= c->end_time - 1e-6 * dt) return 1;
  return 0;
}

void history_end_reason(const efsi_config *c, long step, double time, double dt, char *buf,
                        size_t len)
{
  if (c->steps >= 0 && step >= c->steps) snprintf(buf, len, "time.steps = %ld reached", c->steps);
  else if (c->end_time > 0 && time >= c->end_time - 1e-6 * dt)
    snprintf(buf, len, "time.end_time = %.6g reached", c->end_time);
  else snprintf(buf, len, "not at its end");
}

/* ---- the plan ------------------------------------------------------------------------- */

/* A new run identity: the UTC time of the start and 64 random bits. */
static void new_run_id(char *id, size_t len)
{
  unsigned long long bits = 0;
  FILE *random = fopen("/dev/urandom", "rb");
  if (!random || fread(&bits, sizeof bits, 1, random) != 1) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    bits = (unsigned long long)now.tv_nsec * 6364136223846793005ULL
         ^ ((unsigned long long)getpid() << 32) ^ (unsigned long long)now.tv_sec;
  }
  if (random) fclose(random);
  const time_t now = time(NULL);
  struct tm utc;
  gmtime_r(&now, &utc);
  char stamp[32];
  strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &utc);
  snprintf(id, len, "%.15s-%016llx", stamp, bits);
}

/* The directory that holds path, resolved ("." for a bare name); "" when it cannot be. */
static void folder_of(const char *path, char *out)
{
  char dir[EFSI_PATH_LEN + 64];
  snprintf(dir, sizeof dir, "%s", path);
  char *slash = strrchr(dir, '/');
  if (slash == dir) dir[1] = '\0';
  else if (slash) *slash = '\0';
  else snprintf(dir, sizeof dir, ".");
  if (!realpath(dir, out)) out[0] = '\0';
}

/* "a, b, c (and N more)": the names of the files of h selected by pick, at most three. */
static void name_files(const efsi_history *h, long after, const char *other_than, char *out,
                       size_t len)
{
  int n = 0;
  size_t used = 0;
  out[0] = '\0';
  for (int k = 0; k < h->nfiles; k++) {
    const efsi_history_file *f = &h->file[k];
    if (other_than ? !(f->run_id[0] && strcmp(f->run_id, other_than) != 0) : f->step <= after)
      continue;
    if (n++ < 3 && used < len)
      used += (size_t)snprintf(out + used, len - used, "%s%s", n > 1 ? ", " : "", f->name);
  }
  if (n > 3 && used < len) snprintf(out + used, len - used, " and %d more", n - 3);
}

/* Rank 0: may the run continue from restart (step, run_id) in h's folder (h: the headers of
 * the files after step read)?  0, or nonzero with the refusal in err (latest: restart was
 * found by --restart latest, and the refusal gives the command with --discard-newer for
 * case_file).  *later: the folder holds files after step (with discard they are to go
 * aside).  The folder's run is the one run.json names (every start of a run records it) and
 * that of its files after step. */
static int check_continuation(const efsi_history *h, const char *restart, long step,
                              const char *run_id, int discard, int latest,
                              const char *case_file, int *later, char *err, size_t errlen)
{
  char names[512], here[EFSI_PATH_LEN], theirs[EFSI_PATH_LEN];
  const char *folder_run = h->recorded && h->record.run_id[0] ? h->record.run_id : "";
  if (run_id[0] && folder_run[0] && strcmp(folder_run, run_id) != 0) {
    snprintf(err, errlen, "%.900s belongs to run %s, but %.900s holds the history of run %s "
             "(run.json): one folder holds one run's history; continue it in its own folder "
             "or in a new one (-o NEWDIR)", restart, run_id, h->dir, folder_run);
    return 1;
  }
  for (int k = 0; run_id[0] && k < h->nfiles; k++) {
    const efsi_history_file *f = &h->file[k];
    if (!f->run_id[0] || strcmp(f->run_id, run_id) == 0) continue;
    name_files(h, 0, run_id, names, sizeof names);
    snprintf(err, errlen, "%.900s belongs to run %s, but %.900s holds files of run %s (%s): "
             "one folder holds one run's history; continue it in its own folder or in a new "
             "one (-o NEWDIR)", restart, run_id, h->dir, f->run_id, names);
    return 1;
  }
  folder_of(restart, theirs);
  if (!realpath(h->dir, here)) here[0] = '\0';
  const int inside = here[0] && strcmp(here, theirs) == 0;
  if (!inside && h->output) {
    long reach = h->diagnostics_last;
    int named = folder_run[0] != '\0';
    for (int k = 0; k < h->nfiles; k++) {
      if (h->file[k].step > reach) reach = h->file[k].step;
      named |= h->file[k].run_id[0] != '\0';
    }
    if (!named || !run_id[0]) {
      snprintf(err, errlen, "%.900s holds efsi output that does not name the run of %.900s "
               "(no run.json, nor a file of its run after its step): it cannot be shown to be "
               "one history; continue in a new folder (-o NEWDIR)", h->dir, restart);
      return 1;
    }
    if (reach < step) {
      snprintf(err, errlen, "%.900s: the history in it ends at step %ld, %.900s is at step "
               "%ld: the steps between would be missing; continue in the restart file's own "
               "folder or in a new one (-o NEWDIR)", h->dir, reach, restart, step);
      return 1;
    }
  }
  /* a restart file after the step, sound or damaged (a restart file is written whole under
   * a temporary name, so a damaged one was damaged afterwards: it still marks a later part
   * of the history), means the run has been further than the restart file */
  int newer_restart = 0;
  const efsi_history_file *damaged = NULL;
  *later = 0;
  for (int k = 0; k < h->nfiles; k++) {
    const efsi_history_file *f = &h->file[k];
    *later |= f->step > step;
    if (f->step <= step || f->kind != HISTORY_RESTART) continue;
    newer_restart = 1;
    if (!f->readable && f->read && !damaged) damaged = f;
  }
  *later |= h->temporaries > 0;   /* a .tmp after the step goes too (history_move_aside) */
  if (!newer_restart || discard) return 0;
  name_files(h, step, NULL, names, sizeof names);
  char rows[64] = "", skipped[600] = "", again[EFSI_PATH_LEN + 160] = "--discard-newer";
  if (h->diagnostics_last > step)
    snprintf(rows, sizeof rows, "; diagnostics.csv to step %ld", h->diagnostics_last);
  if (damaged)
    snprintf(skipped, sizeof skipped, "%s %.200s/%s is not readable (%.300s), ",
             latest ? "the newer" : "the later", h->dir, damaged->name, damaged->problem);
  if (latest)
    snprintf(again, sizeof again, "--discard-newer to the command (efsi -o %.400s --restart "
             "latest --discard-newer ... %.400s)", h->dir, case_file);
  snprintf(err, errlen, "%s%s%.900s is at step %ld, but %.900s holds a later part of its "
           "history (%s%s): continuing from step %ld would mix two histories; %s%s to move the "
           "later files to %.900s/discarded-after-%08ld/ and cut the tables (diagnostics.csv, "
           "bodies.csv, bodies.nc) after step %ld, or continue in a new folder (-o NEWDIR)",
           latest ? "--restart latest: " : "", skipped, restart, step, h->dir, names, rows,
           step, "add ", again, h->dir, step, step);
  return 1;
}

/* Rank 0: the restart file of --restart FILE, latest or latest-or-new into p->restart
 * ("" to start afresh).  Nonzero with err when --restart latest finds none. */
static int resolve_restart(const efsi_cli *cli, efsi_output_plan *p, char *err, size_t errlen)
{
  const char *how = cli->restart_file;
  if (!how) return 0;
  if (strcmp(how, "latest") != 0 && strcmp(how, "latest-or-new") != 0) {
    snprintf(p->restart, sizeof p->restart, "%s", how);
    return 0;
  }
  /* a file skipped is after the one taken: the history check names it (decide) */
  if (restart_latest(p->dir, p->restart, sizeof p->restart, NULL, err, errlen) == 0) return 0;
  p->restart[0] = '\0';
  if (strcmp(how, "latest") == 0) return 1;
  printf("efsi: no restart file in %s: starting afresh (--restart latest-or-new)\n", p->dir);
  return 0;
}

/* Rank 0: the run's start in run.json. */
static void record_start(const efsi_config *c, const efsi_output_plan *p, long step,
                         double time)
{
  efsi_run_record r;
  memset(&r, 0, sizeof r);
  snprintf(r.run_id, sizeof r.run_id, "%s", p->run_id);
  snprintf(r.case_name, sizeof r.case_name, "%s", c->name);
  snprintf(r.case_file, sizeof r.case_file, "%s", c->file);
  snprintf(r.restart, sizeof r.restart, "%s", p->restart);
  snprintf(r.state, sizeof r.state, "running");
  r.exit_status = -1;
  r.first_step = r.step = step;
  r.time = time;
  r.steps = c->steps;
  r.end_time = c->end_time;
  history_utc_now(r.started, sizeof r.started);
  r.pid = (long)getpid();
  if (gethostname(r.host, sizeof r.host) != 0) r.host[0] = '\0';
  r.host[sizeof r.host - 1] = '\0';
  char why[1024];
  if (history_record_write(p->dir, &r, why, sizeof why))
    fprintf(stderr, "efsi: warning: %s\n", why);
}

/* Rank 0, once the restart file is known to fit the case: the verdict of history_plan
 * (0 run, 1 finished, 2 refused with err). */
static int decide(const efsi_config *c, const efsi_cli *cli, double dt, efsi_output_plan *p,
                  char *err, size_t errlen)
{
  long step = 0;
  double time = 0;
  char run_id[SNAPSHOT_RUN_ID_LEN] = "";
  if (p->restart[0]) {
    /* probed by restart_latest or state_check_restart already */
    if (restart_stamp(p->restart, &step, &time, run_id, err, errlen)) return 2;
    if (history_finished(c, step, time, dt)) {
      char why[128];
      history_end_reason(c, step, time, dt, why, sizeof why);
      printf("efsi: %s is at the end of the run (step %ld, t = %.6g: %s): nothing to do; "
             "raise time.steps or time.end_time to go on\n", p->restart, step, time, why);
      return 1;
    }
    efsi_history h;
    int later = 0;
    if (history_scan(&h, p->dir, step, err, errlen)) return 2;
    const int latest = strcmp(cli->restart_file, "latest") == 0
                    || strcmp(cli->restart_file, "latest-or-new") == 0;
    const int refused = check_continuation(&h, p->restart, step, run_id, cli->discard_newer,
                                           latest, c->file, &later, err, errlen);
    history_free(&h);
    if (refused) return 2;
    if (cli->discard_newer && later) p->discard_after = step;
    else if (cli->discard_newer)
      printf("efsi: --discard-newer: %s holds nothing after step %ld\n", p->dir, step);
  }
  if (output_prepare(p->dir, p->restart[0] != '\0', err, errlen)) return 2;
  if (run_id[0]) snprintf(p->run_id, sizeof p->run_id, "%s", run_id);
  else new_run_id(p->run_id, sizeof p->run_id);
  return 0;
}

/* Collective: rank 0's verdict (0, 1 or 2, the message with 2) on every rank. */
static int share_verdict(int verdict, const efsi_decomp *d, char *err, size_t errlen)
{
  fflush(stdout);
  MPI_CHECK(MPI_Bcast(&verdict, 1, MPI_INT, 0, d->comm));
  if (verdict == 2) MPI_CHECK(MPI_Bcast(err, (int)errlen, MPI_CHAR, 0, d->comm));
  return verdict;
}

int history_plan(const efsi_case *cs, const efsi_cli *cli, const efsi_grid *g,
                 const efsi_decomp *d, double dt, efsi_output_plan *p, int *finished,
                 char *err, size_t errlen)
{
  const efsi_config *c = cs->config;
  memset(p, 0, sizeof *p);
  p->discard_after = -1;
  *finished = 0;
  if (cli->output_dir) snprintf(p->dir, sizeof p->dir, "%s", cli->output_dir);
  else snprintf(p->dir, sizeof p->dir, "out/%s", c->name);
  int verdict = d->rank == 0 && resolve_restart(cli, p, err, errlen) ? 2 : 0;
  if (share_verdict(verdict, d, err, errlen)) return 1;
  MPI_CHECK(MPI_Bcast(p->restart, (int)sizeof p->restart, MPI_CHAR, 0, d->comm));
  /* a restart file that does not fit the case is refused before anything is allocated or
   * moved */
  if (p->restart[0] && state_check_restart(p->restart, cs, g, d, err, errlen)) return 1;
  verdict = d->rank == 0 ? decide(c, cli, dt, p, err, errlen) : 0;
  if ((verdict = share_verdict(verdict, d, err, errlen)) == 2) return 1;
  *finished = verdict == 1;
  MPI_CHECK(MPI_Bcast(p, (int)sizeof *p, MPI_BYTE, 0, d->comm));
  return 0;
}

int history_begin(const efsi_config *c, const efsi_output_plan *p, long step, double time,
                  char *err, size_t errlen)
{
  if (p->discard_after >= 0) {
    efsi_history h;
    char aside[EFSI_PATH_LEN + 64], names[512];
    int moved = 0;
    if (history_scan(&h, p->dir, LONG_MAX, err, errlen)) return 1;
    name_files(&h, p->discard_after, NULL, names, sizeof names);
    const int failed = history_move_aside(&h, p->discard_after, aside, sizeof aside, &moved,
                                          err, errlen);
    history_free(&h);
    if (failed) return 1;
    printf("efsi: --discard-newer: moved %d file%s after step %ld (%s) to %s; the tables "
           "(diagnostics.csv, bodies.csv, bodies.nc) are cut after step %ld (their whole "
           "copies are there too)\n", moved,
           moved == 1 ? "" : "s", p->discard_after, names, aside, p->discard_after);
    fflush(stdout);
  }
  record_start(c, p, step, time);
  return 0;
}

void history_record_end(const efsi_output_plan *p, int status, long step, double time,
                        const char *why, long fields, long restarts, long rows)
{
  efsi_run_record r;
  if (history_record_read(p->dir, &r)) {
    memset(&r, 0, sizeof r);
    snprintf(r.run_id, sizeof r.run_id, "%s", p->run_id);
  }
  static const char *const state[] = {"finished", "failed", "refused", "blew-up", "stopped"};
  snprintf(r.state, sizeof r.state, "%s", status >= 0 && status <= 4 ? state[status] : "failed");
  r.exit_status = status;
  snprintf(r.why, sizeof r.why, "%s", why);
  r.step = step;
  r.time = time;
  r.fields_written = fields;
  r.restarts_written = restarts;
  r.rows_written = rows;
  history_utc_now(r.ended, sizeof r.ended);
  char err[1024];
  if (history_record_write(p->dir, &r, err, sizeof err))
    fprintf(stderr, "efsi: warning: %s\n", err);
}

/* ---- efsi --status ---------------------------------------------------------------------- */

static const char *exit_meaning(int status)
{
  switch (status) {
  case 0: return "the run reached time.steps or time.end_time";
  case EFSI_EXIT_RUNTIME: return "a library call or a write failed";
  case EFSI_EXIT_INPUT: return "bad input";
  case EFSI_EXIT_BLOWUP: return "the run blew up; its last good restart file is kept";
  case EFSI_EXIT_STOPPED: return "stopped early with a restart file (a signal or "
                                 "time.wall_limit): continue with --restart latest";
  }
  return "unknown";
}

/* Is the run of record r still running (its process alive on this host)? */
static int still_running(const efsi_run_record *r)
{
  char host[256] = "";
  if (strcmp(r->state, "running") != 0 || r->pid <= 0) return 0;
  if (gethostname(host, sizeof host) != 0 || strcmp(host, r->host) != 0) return 0;
  return kill((pid_t)r->pid, 0) == 0 || errno == EPERM;
}

/* The names of the files of one kind, as a JSON list. */
static void json_files(FILE *out, const efsi_history *h, int kind, int readable)
{
  int n = 0;
  fputc('[', out);
  for (int k = 0; k < h->nfiles; k++) {
    const efsi_history_file *f = &h->file[k];
    if (f->kind != kind || f->readable != readable) continue;
    fputs(n++ ? ", " : "", out);
    history_json_text(out, f->name);
  }
  fputc(']', out);
}

int history_status(const char *dir, const efsi_config *c, double dt, FILE *out, char *err,
                   size_t errlen)
{
  efsi_history h;
  if (history_scan(&h, dir, -1, err, errlen)) return EFSI_EXIT_INPUT;
  const efsi_run_record r = h.record;
  const int recorded = h.recorded;
  /* the identities found, and where the run is: the newest restart file, else the
   * furthest the files and the table reach */
  char ids[4][SNAPSHOT_RUN_ID_LEN];
  int nids = 0;
  if (recorded && r.run_id[0]) snprintf(ids[nids++], sizeof ids[0], "%s", r.run_id);
  long last_step = h.diagnostics_last;
  double last_time = h.diagnostics_last >= 0 ? h.diagnostics_last_time : NAN;
  for (int k = 0; k < h.nfiles; k++) {
    const efsi_history_file *f = &h.file[k];
    int known = !f->run_id[0];
    for (int m = 0; m < nids && !known; m++) known = strcmp(ids[m], f->run_id) == 0;
    if (!known && nids < 4) snprintf(ids[nids++], sizeof ids[0], "%s", f->run_id);
    if (f->readable && f->step >= last_step) {
      last_step = f->step;
      last_time = f->time;
    }
  }
  const efsi_history_file *restart = history_newest_restart(&h);
  /* the end compared with: the case given, else the last run's own */
  efsi_config ends;
  int have_end = c != NULL;
  if (!c && recorded && (r.steps >= 0 || r.end_time > 0)) {
    memset(&ends, 0, sizeof ends);
    ends.steps = r.steps;
    ends.end_time = r.end_time;
    have_end = 1;
    c = &ends;
  }
  const long at_step = restart ? restart->step : last_step;
  const double at_time = restart ? restart->time : last_time;
  /* without a case the last dt is not known: the rule's 1e-6 dt shrinks to nothing */
  const int finished = have_end && at_step >= 0 && history_finished(c, at_step, at_time, dt);
  const int running = recorded && still_running(&r);
  const char *next = !h.output ? "new" : nids > 1 ? "mixed" : running ? "running"
                   : finished ? "finished" : restart ? "continue" : "stale";
  fputs("{\n  \"directory\": ", out);
  history_json_text(out, dir);
  fprintf(out, ",\n  \"exists\": %s,\n  \"efsi_output\": %s,\n  \"next\": \"%s\",\n",
          h.exists ? "true" : "false", h.output ? "true" : "false", next);
  fputs("  \"run_id\": ", out);
  history_json_text(out, nids == 1 ? ids[0] : NULL);
  fputs(",\n  \"run_ids\": [", out);
  for (int m = 0; m < nids; m++) {
    fputs(m ? ", " : "", out);
    history_json_text(out, ids[m]);
  }
  fputs("],\n  \"case\": ", out);
  history_json_text(out, recorded && r.case_name[0] ? r.case_name : NULL);
  fprintf(out, ",\n  \"last_step\": %ld,\n  \"last_time\": ", last_step);
  history_json_number(out, last_time);
  fputs(",\n  \"finished\": ", out);
  fputs(!have_end ? "null" : finished ? "true" : "false", out);
  if (have_end) {
    char why[128] = "";
    if (finished) history_end_reason(c, at_step, at_time, dt, why, sizeof why);
    fputs(",\n  \"end\": {\"steps\": ", out);
    if (c->steps >= 0) fprintf(out, "%ld", c->steps);
    else fputs("null", out);
    fputs(", \"end_time\": ", out);
    history_json_number(out, c->end_time > 0 ? c->end_time : NAN);
    fputs(", \"from\": ", out);
    history_json_text(out, c == &ends ? "the last run (run.json)" : c->file);
    fputs(", \"reached\": ", out);
    history_json_text(out, finished ? why : NULL);
    fputc('}', out);
  }
  fputs(",\n  \"restart\": ", out);
  if (restart) {
    char path[EFSI_PATH_LEN + 80];
    snprintf(path, sizeof path, "%s/%s", dir, restart->name);
    fputs("{\"file\": ", out);
    history_json_text(out, path);
    fprintf(out, ", \"step\": %ld, \"time\": ", restart->step);
    history_json_number(out, restart->time);
    fputc('}', out);
  } else {
    fputs("null", out);
  }
  fputs(",\n  \"last_run\": ", out);
  if (recorded) {
    fputs("{\"state\": ", out);
    history_json_text(out, running ? "running" : strcmp(r.state, "running") == 0 ? "ended without a record"
                                                                         : r.state);
    fputs(", \"exit_status\": ", out);
    if (r.exit_status >= 0) fprintf(out, "%d", r.exit_status);
    else fputs("null", out);
    fputs(", \"meaning\": ", out);
    history_json_text(out, r.exit_status >= 0 ? exit_meaning(r.exit_status) : running ? "running"
                   : "killed, or stopped by a failure that ends every rank (exit status 1)");
    fputs(", \"why\": ", out);
    history_json_text(out, r.why[0] ? r.why : NULL);
    fprintf(out, ", \"first_step\": %ld, \"step\": %ld, \"time\": ", r.first_step, r.step);
    history_json_number(out, r.time);
    fputs(", \"restart\": ", out);
    history_json_text(out, r.restart[0] ? r.restart : NULL);
    fputs(", \"started\": ", out);
    history_json_text(out, r.started[0] ? r.started : NULL);
    fputs(", \"ended\": ", out);
    history_json_text(out, r.ended[0] ? r.ended : NULL);
    fputc('}', out);
  } else {
    fputs("null", out);
  }
  fputs(",\n  \"files\": {\"restart\": ", out);
  json_files(out, &h, HISTORY_RESTART, 1);
  fputs(", \"fields\": ", out);
  json_files(out, &h, HISTORY_FIELDS, 1);
  fputs(", \"outputs\": ", out);
  json_files(out, &h, HISTORY_OUTPUT, 1);
  fputs(", \"unreadable\": [", out);
  for (int k = 0, n = 0; k < h.nfiles; k++)
    if (!h.file[k].readable) {
      fputs(n++ ? ", " : "", out);
      fputs("{\"name\": ", out);
      history_json_text(out, h.file[k].name);
      fputs(", \"problem\": ", out);
      history_json_text(out, h.file[k].problem);
      fputc('}', out);
    }
  fputs("], \"diagnostics_last_step\": ", out);
  if (h.diagnostics) fprintf(out, "%ld", h.diagnostics_last);
  else fputs("null", out);
  /* bodies.nc's last record, else bodies.csv's last row */
  fputs(", \"bodies_last_step\": ", out);
  if (h.bodies_nc) fprintf(out, "%ld", h.bodies_nc_last);
  else if (h.bodies) fprintf(out, "%ld", h.bodies_last);
  else fputs("null", out);
  fprintf(out, ", \"temporaries\": %d}\n}\n", h.temporaries);
  history_free(&h);
  return 0;
}

int history_status_command(const efsi_cli *cli, int rank)
{
  char err[2048] = "";
  int status = 0;
  if (rank == 0) {
    efsi_config *c = efsi_calloc(1, sizeof *c, "the case's configuration");
    efsi_case cs;
    efsi_timestep ts = {.dt = 0};
    char *text = NULL;
    const int with_case = cli->case_file != NULL;
    if (with_case
        && (read_text_file(cli->case_file, &text, err, sizeof err)
            || config_parse(c, cli->case_file, text, cli->overrides, cli->n_overrides, err,
                            sizeof err)
            || (cli->steps > 0 && (c->steps = cli->steps, 0))
            || (case_resolve(c, &cs), timestep_choose(&cs, &ts, err, sizeof err))))
      status = EFSI_EXIT_INPUT;
    free(text);
    if (!status) status = history_status(cli->status_dir, with_case ? c : NULL, ts.dt, stdout,
                                         err, sizeof err);
    if (status) fprintf(stderr, "efsi: error: %s\n", err);
    fflush(stdout);
    free(c);
  }
  MPI_CHECK(MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD));
  return status;
}
