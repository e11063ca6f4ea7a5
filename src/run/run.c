/* The time loop (see run.h).  Output cadence: diagnostics every output.diagnostics_every
 * steps, fields and restart every output.fields_every / output.restart_every steps (0: at
 * the end only, -1: never); the last step writes fields and a restart file unless they are
 * never written, and always a diagnostics row.
 * Restart files are never deleted, so a run that blows up keeps its last good one.  A run
 * stopped early (a signal, time.wall_limit: src/run/stop.h) writes a restart file and a
 * diagnostics row after the step the ranks agreed on, even with output.restart_every = -1,
 * and returns EFSI_EXIT_STOPPED.  Rank 0 prints a progress line every
 * output.progress_seconds (src/run/progress.h). */
#include "src/run/run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/bodies_csv.h"
#include "io/bodies_nc.h"
#include "src/bodies/body_shapes.h"
#include "src/case/outputs.h"
#include "src/step/diagnose.h"
#include "io/diagnostics.h"
#include "base/errors.h"
#include "io/fields.h"
#include "src/run/history.h"
#include "src/case/init.h"
#include "io/output.h"
#include "src/run/plan_comm.h"
#include "src/run/progress.h"
#include "src/run/report.h"
#include "io/restart.h"
#include "src/step/solver.h"
#include "src/case/state.h"
#include "src/run/stop.h"
#include "src/bodies/tracers.h"

/* True when step/time have reached the end of the run's history. */
static int finished(const efsi_config *c, const efsi_state *s, double dt)
{
  return history_finished(c, s->step, s->time, dt);
}

static int due(long every, long step) { return every > 0 && step % every == 0; }

typedef struct {
  const efsi_config *c;
  efsi_decomp *d;
  efsi_solver *sv;
  efsi_state *s;             /* the state the solver steps (on the device on a GPU) */
  efsi_state *host;          /* its host mirror for output (s itself on the CPU) */
  efsi_tracers *tracers;
  int bodies;                /* the case has body tracers */
  const char *dir;
  char last_restart[EFSI_PATH_LEN + 64];
  long fields_step, restart_step;   /* last step written */
  long host_step;            /* the step the host mirror was last copied at (-1: never) */
  efsi_wall_budget budget;   /* time.wall_limit and what the run measured against it */
  int write_measured;        /* budget.write_seconds is a measured restart write */
  efsi_diagnostics_table diagnostics;   /* rank 0: diagnostics.csv */
  efsi_csv bodies_table;                /* rank 0: bodies.csv */
  int bodies_csv;            /* bodies.csv is written (output.bodies_csv) */
  long bodies_every;         /* output.bodies_every, the diagnostics' when not given */
  efsi_body_shapes *shapes;  /* each body's cells and their shape, for bodies.nc */
  efsi_outputs *outputs;     /* the fields files' fields, box, slices and averages */
  efsi_bodies_file bodies_file;
  long fields_written, restarts_written, rows_written;   /* by this run */
  int began;                 /* run.json holds this run's start (history_begin) */
  char why[512];             /* why the run stopped (run.json, the last line) */
} output_state;

/* The host mirror holds the state (a copy from the device on a GPU, once per step however
 * many files the step writes). */
static void to_host(output_state *o)
{
  if (o->host == o->s || o->host_step == o->s->step) return;
  state_transfer(o->s, o->host, o->sv->backend, 0);
  o->host_step = o->s->step;
}

static void write_fields(output_state *o)
{
  char path[EFSI_PATH_LEN + 64];
  if (output_path(path, sizeof path, o->dir, "fields", o->s->step))
    efsi_abort(EFSI_EXIT_RUNTIME, "output path too long in %s", o->dir);
  timer_start(&o->sv->timers, TIMER_IO);
  to_host(o);
  outputs_write_fields(o->outputs, path, o->host, o->d);
  timer_stop(&o->sv->timers, TIMER_IO);
  o->fields_step = o->s->step;
  o->fields_written++;
}

/* The box and slices files of the step, when due (docs/output.md, "Selective outputs"). */
static void write_selective(output_state *o, int last)
{
  const int box = outputs_box_due(o->outputs, o->s->step, last);
  const int slices = outputs_slices_due(o->outputs, o->s->step, last);
  if (!box && !slices) return;
  timer_start(&o->sv->timers, TIMER_IO);
  to_host(o);
  if (box) outputs_write_box(o->outputs, o->dir, o->host, o->d);
  if (slices) outputs_write_slices(o->outputs, o->dir, o->host, o->d);
  timer_stop(&o->sv->timers, TIMER_IO);
}

/* average.nc: at every restart file, and at the end with the last step in it
 * (outputs_sample_end). */
static void write_average(output_state *o, int end)
{
  timer_start(&o->sv->timers, TIMER_IO);
  if (end) outputs_sample_end(o->outputs, o->s, o->sv->k);
  outputs_write_average(o->outputs, o->dir, o->d, o->c->name, o->host->run_id);
  timer_stop(&o->sv->timers, TIMER_IO);
}

static void write_restart(output_state *o)
{
  const double begin = MPI_Wtime();
  timer_start(&o->sv->timers, TIMER_IO);
  long n = 0;
  efsi_tracer *all = NULL;
  if (o->bodies) tracers_gather(o->tracers, &n, &all);
  to_host(o);
  outputs_write_restart(o->outputs, o->dir, o->host, o->d, n, all);
  free(all);
  timer_stop(&o->sv->timers, TIMER_IO);
  output_path(o->last_restart, sizeof o->last_restart, o->dir, "restart", o->s->step);
  o->restart_step = o->s->step;
  o->restarts_written++;
  const double seconds = MPI_Wtime() - begin;
  if (!o->write_measured || seconds > o->budget.write_seconds) o->budget.write_seconds = seconds;
  o->write_measured = 1;
}

/* Rank 0: the progress line over the last interval (seconds, steps); div_rms is the one the
 * step's reduction predicts after the ACM update, mach rank 0's largest speed over beta. */
static void print_progress(const output_state *o, double seconds, long steps)
{
  const efsi_grid *g = &o->s->grid;
  const efsi_config *c = o->c;
  const double cells = (double)g->global_n[0] * g->global_n[1] * g->global_n[2];
  efsi_progress_values v = {.step = o->s->step, .steps = c->steps, .time = o->s->time,
                            .end_time = c->end_time, .dt = o->sv->dt, .div_rms = -1,
                            .mach = -1, .seconds_per_step = -1};
  if (steps > 0 && seconds > 0) {
    v.mcups = cells * (double)steps / seconds / 1e6;
    v.seconds_per_step = seconds / (double)steps;
  }
  const efsi_step_info *info = &o->sv->info;
  if (c->pressure_method == PRESSURE_ACM) {
    v.div_rms = sqrt(fmax(info->div2_predicted, 0.0));
    if (info->beta > 0) {
      double flow[FLOW_COUNT];
      o->sv->k->flow_norms(g, 1.0, o->s->u, o->s->v, o->s->w, FIELD(o->sv, div_v),
                           &o->sv->scratch, flow);
      v.mach = flow[FLOW_SPEED_MAX] / info->beta;
    }
  }
  char line[256];
  progress_line(&v, line, sizeof line);
  printf("%s\n", line);
  fflush(stdout);
}

/* Returns the advective ratio dt / (advective limit at the measured u_max). */
static double write_diagnostics(output_state *o, double seconds)
{
  efsi_diagnostics row;
  memset(&row, 0, sizeof row);
  diagnose(o->sv, o->s, &row);
  row.wall_seconds = seconds;
  timer_start(&o->sv->timers, TIMER_IO);
  if (o->d->rank == 0) diagnostics_write(&o->diagnostics, &row);
  o->rows_written++;
  timer_stop(&o->sv->timers, TIMER_IO);
  return timestep_advective_ratio(o->c, o->sv->dt, row.u_max);
}

/* The bodies' output: bodies.nc (each body's tracer and the shape of its cells, in
 * parallel), and bodies.csv (the tracers, through rank 0) for small runs.  The volume
 * fractions are read on the host: on a GPU those of the body materials are copied down
 * first (docs/tracers.md, "Body shapes"). */
static void write_bodies(output_state *o)
{
  const efsi_grid *g = &o->s->grid;
  timer_start(&o->sv->timers, TIMER_IO);
  tracers_interpolate(o->tracers, o->sv->k, g, o->s->u, o->s->v, o->s->w);
  if (o->bodies_csv) {
    long n = 0;
    efsi_tracer *all = NULL;
    tracers_gather(o->tracers, &n, &all);
    if (o->d->rank == 0)
      bodies_csv_write(&o->bodies_table, o->s->step, o->s->time, n, all, body_kind_names);
    free(all);
  }
  if (o->host != o->s && o->host_step != o->s->step)
    for (int k = 0; k < BODY_KINDS; k++) {
      const int m = body_shapes_material(o->shapes, k);
      if (m >= 0) backend_download(o->sv->backend, o->host->phi[m], o->s->phi[m], g);
    }
  const efsi_body_record *record = body_shapes_compute(o->shapes, tracers_local(o->tracers),
                                                       tracers_local_count(o->tracers),
                                                       o->host->phi);
  long first, count;
  body_shapes_share(o->shapes, o->d->rank, &first, &count);
  bodies_nc_append(&o->bodies_file, o->d, o->s->step, o->s->time, first, count, record);
  timer_stop(&o->sv->timers, TIMER_IO);
}

/* Collective: stop with a diagnosis of where the state went wrong. */
static int blow_up(output_state *o, const char *why)
{
  char field[8] = "";
  int at[3] = {0, 0, 0};
  snprintf(o->why, sizeof o->why, "blew up: %s", why);
  o->host_step = -1;   /* a step that failed part way changed the state, not its step */
  to_host(o);
  const int nonfinite = locate_point(o->d, o->host, 0, field, at);
  if (!nonfinite) locate_point(o->d, o->host, 1, field, at);
  if (o->d->rank == 0) {
    const efsi_grid *g = &o->s->grid;
    fprintf(stderr, "efsi: error: the run blew up after step %ld (t = %.6g): %s\n", o->s->step,
            o->s->time, why);
    fprintf(stderr, "efsi: error: %s %s at cell (%d, %d, %d), near (%.4g, %.4g, %.4g)\n",
            nonfinite ? "first non-finite value:" : "largest speed:", field, at[0], at[1],
            at[2], (at[0] + 0.5) * g->h[0], (at[1] + 0.5) * g->h[1], (at[2] + 0.5) * g->h[2]);
    if (o->last_restart[0])
      fprintf(stderr, "efsi: error: last good restart file: %s\n", o->last_restart);
    else
      fprintf(stderr, "efsi: error: no restart file was written before (set output.restart_every)\n");
  }
  return EFSI_EXIT_BLOWUP;
}

/* Rank 0 opens diagnostics.csv (and bodies.csv); the verdict is shared. */
static int open_tables(output_state *o, const efsi_state *s, long restart_step)
{
  const efsi_decomp *d = o->d;
  char err[1024] = "";
  int failed = 0;
  diagnostics_table(&o->diagnostics, s->nmat, s->material);
  o->bodies_table.file = NULL;
  if (d->rank == 0)
    failed = diagnostics_open(&o->diagnostics, o->dir, restart_step, err, sizeof err)
          || (o->bodies_csv && bodies_csv_open(&o->bodies_table, o->dir, restart_step, err,
                                               sizeof err))
          || (o->bodies && restart_step >= 0 && bodies_nc_cut(&o->bodies_file, restart_step,
                                                               err, sizeof err));
  MPI_CHECK(MPI_Bcast(&failed, 1, MPI_INT, 0, d->comm));
  if (failed && d->rank == 0) fprintf(stderr, "efsi: error: %s\n", err);
  return failed;
}

/* Collective: the state and tracers of a restart file; nonzero (message on rank 0 printed)
 * when it is refused. */
static int restart_state(const char *path, efsi_state *s, efsi_tracers *t, const efsi_decomp *d,
                         efsi_outputs *outputs)
{
  char err[1024] = "";
  int bad = outputs_read_restart(outputs, path, s, d, err, sizeof err);
  long n = 0;
  efsi_tracer *all = NULL;
  if (!bad && d->rank == 0)
    bad = restart_read_tracers(path, BODY_KINDS, s->grid.length, &n, &all, err, sizeof err);
  MPI_CHECK(MPI_Bcast(&bad, 1, MPI_INT, 0, d->comm));
  if (bad) {
    if (d->rank == 0) fprintf(stderr, "efsi: error: %s\n", err[0] ? err : path);
    return 1;
  }
  tracers_scatter(t, n, all);
  free(all);
  return 0;
}

/* Bytes of a restart file of s: every array of the global grid. */
static double restart_bytes(const efsi_state *s)
{
  const efsi_grid *g = &s->grid;
  const double arrays = state_held_arrays(s);
  return arrays * 8.0 * g->global_n[0] * (double)g->global_n[1] * g->global_n[2];
}

/* Rank 0: the run's last line (a run that reached its end; the others have theirs) and
 * the end of its record in run.json. */
static void say_the_end(const output_state *o, const efsi_output_plan *out, int status)
{
  const efsi_state *s = o->s;
  if (status == 0) {
    printf("efsi: finished at step %ld (t = %.6g): %s; wrote %ld fields file%s, %ld restart "
           "file%s and %ld diagnostics row%s in %s", s->step, s->time, o->why,
           o->fields_written, o->fields_written == 1 ? "" : "s", o->restarts_written,
           o->restarts_written == 1 ? "" : "s", o->rows_written,
           o->rows_written == 1 ? "" : "s", out->dir);
    if (o->last_restart[0]) printf(" (continue from %s)", o->last_restart);
    printf("\n");
    fflush(stdout);
  }
  if (o->began)   /* a run refused before it began leaves the folder's record alone */
    history_record_end(out, status, s->step, s->time, o->why, o->fields_written,
                       o->restarts_written, o->rows_written);
}

int run(const efsi_case *cs, efsi_decomp *d, const efsi_timestep *ts,
        const efsi_output_plan *out, const efsi_case_bodies *cb, const efsi_backend *b)
{
  const efsi_config *c = cs->config;
  const char *dir = out->dir, *restart_file = out->restart[0] ? out->restart : NULL;
  efsi_grid g;
  decomp_grid(d, c->cells, c->length, &g);
  efsi_state host, on_device, *state = &host;   /* the solver's state: host or device */
  efsi_solver sv;
  state_alloc_case(&host, &g, cs);
  if (b->gpu) state_alloc_like(state = &on_device, &host, b);
  solver_create(&sv, cs, d, &g, ts->dt, b);
  efsi_state *const sp = state;
  if (b->gpu && d->size > 1) comm_print_paths(sv.halo, d, c);

  efsi_tracers *tracers = tracers_create(d, &g, b->gpu);
  output_state o = {.c = c, .d = d, .sv = &sv, .s = sp, .host = &host, .tracers = tracers,
                    .bodies = cb->total > 0, .dir = dir,
                    .fields_step = -1, .restart_step = -1, .host_step = -1};
  o.outputs = outputs_create(cs, &g, b);
  if (o.bodies) {   /* docs/output.md, "bodies.nc"; bodies.csv for small runs */
    o.bodies_every = c->bodies_every == BODIES_EVERY_DIAGNOSTICS ? c->diagnostics_every
                                                                  : c->bodies_every;
    o.bodies_csv = c->bodies_csv == BODIES_CSV_YES
                || (c->bodies_csv == BODIES_CSV_AUTO && cb->total <= BODIES_CSV_AUTO_LIMIT);
    o.shapes = body_shapes_create(cs, d, &g, cb->total);
    o.bodies_file = (efsi_bodies_file){.dir = dir, .case_name = c->name, .run_id = out->run_id,
                                       .kind_names = body_kind_names, .kinds = BODY_KINDS,
                                       .total = cb->total,
                                       .serial_up_to = BODIES_NC_SERIAL_BODIES};
  }
  int status = 0;
  /* the initial state or the restart file's, drawn on the host, then uploaded once */
  if (restart_file) {
    if (restart_state(restart_file, &host, tracers, d, o.outputs)) {
      status = EFSI_EXIT_INPUT;
      snprintf(o.why, sizeof o.why, "refused the restart file");
      goto done;
    }
    snprintf(o.last_restart, sizeof o.last_restart, "%s", restart_file);
    o.restart_step = host.step;
  } else {
    init_flow(c, &host);
    char err[1024] = "";
    if (host.nmat > 0 && init_solid(cs, cb, d, &host, tracers, err, sizeof err)) {
      if (d->rank == 0) fprintf(stderr, "efsi: error: %s\n", err);
      status = EFSI_EXIT_INPUT;
      snprintf(o.why, sizeof o.why, "refused the bodies: %.400s", err);
      goto done;
    }
  }
  snprintf(host.run_id, sizeof host.run_id, "%s", out->run_id);   /* docs/output.md */
  {   /* the state is sound: now the folder may change (files aside, run.json) */
    char err[2048] = "";
    int failed = d->rank == 0 && history_begin(c, out, host.step, host.time, err, sizeof err);
    MPI_CHECK(MPI_Bcast(&failed, 1, MPI_INT, 0, d->comm));
    if (failed) {
      if (d->rank == 0) fprintf(stderr, "efsi: error: %s\n", err);
      status = EFSI_EXIT_RUNTIME;
      snprintf(o.why, sizeof o.why, "%.500s", err);
      goto done;
    }
    o.began = 1;
  }
  if (sp != &host) state_transfer(sp, &host, b, 1);
  solver_fill_halos(&sv, sp);
  if (o.bodies) solver_move_tracers(&sv, tracers);
  if (open_tables(&o, sp, restart_file ? sp->step : -1)) {
    status = EFSI_EXIT_RUNTIME;
    snprintf(o.why, sizeof o.why, "could not open diagnostics.csv, bodies.csv or bodies.nc");
    goto done;
  }
  const long first_step = sp->step;
  if (!restart_file) {
    write_diagnostics(&o, 0.0);
    if (o.bodies && (c->bodies_every == BODIES_EVERY_DIAGNOSTICS || o.bodies_every > 0))
      write_bodies(&o);
    if (c->fields_every > 0) write_fields(&o);
    write_selective(&o, 0);
    outputs_sample(o.outputs, sp, sv.k);
  }

  o.budget.limit = c->wall_limit;
  o.budget.write_seconds = stop_write_estimate(restart_bytes(sp));
  timers_zero_clocks(&sv.timers);
  const double start = MPI_Wtime();
  double progress_wall = start;
  long progress_step = sp->step;
  int stop = 0;
  while (!finished(c, sp, sv.dt)) {
    /* this rank's vote, counted in the step's one reduction */
    sv.stop_vote = stop_signal() || stop_wall_due(&o.budget, stop_elapsed()) ? 1.0 : 0.0;
    const double step_begin = MPI_Wtime();
    if (solver_step(&sv, sp)) {
      status = blow_up(&o, "the sums of the next pressure step overflowed or are not finite");
      break;
    }
    o.budget.longest_step = fmax(o.budget.longest_step, MPI_Wtime() - step_begin);
    const int last = finished(c, sp, sv.dt);
    stop = sv.stop_agreed && !last;
    const int diagnostics = due(c->diagnostics_every, sp->step) || last || stop;
    const int fields = due(c->fields_every, sp->step) || (last && c->fields_every >= 0);
    const int restart = due(c->restart_every, sp->step) || (last && c->restart_every >= 0) || stop;
    const int bodies = o.bodies && (c->bodies_every == BODIES_EVERY_DIAGNOSTICS ? diagnostics
                       : o.bodies_every >= 0 && (due(o.bodies_every, sp->step) || last || stop));
    const int selective = outputs_box_due(o.outputs, sp->step, last)
                       || outputs_slices_due(o.outputs, sp->step, last);
    const int sample = outputs_sample_due(o.outputs, sp);
    /* the exchange of the new state stays in flight into the next step unless it is read
     * (an average's sample reads it too) */
    if (diagnostics || fields || restart || bodies || selective || sample || last)
      solver_sync(&sv, sp);
    if (diagnostics) {
      const double ratio = write_diagnostics(&o, MPI_Wtime() - start);
      if (!isfinite(ratio)) {
        status = blow_up(&o, "non-finite velocity");
        break;
      }
      if (ratio > 1.0 && !c->unsafe) {
        char why[256];
        snprintf(why, sizeof why, "the speed has left the stable range of dt = %.4g "
                 "(dt is %.3g times the advective limit; lower time.dt or time.safety)",
                 sv.dt, ratio);
        status = blow_up(&o, why);
        break;
      }
    }
    if (bodies) write_bodies(&o);
    if (sample) outputs_sample(o.outputs, sp, sv.k);
    if (fields) write_fields(&o);
    if (selective) write_selective(&o, last);
    if (restart) write_restart(&o);
    if (restart || last) write_average(&o, last);
    if (d->rank == 0 && c->progress_seconds > 0) {
      const double now = MPI_Wtime();
      if (now - progress_wall >= c->progress_seconds) {
        print_progress(&o, now - progress_wall, sp->step - progress_step);
        progress_wall = now;
        progress_step = sp->step;
      }
    }
    if (stop) {
      status = EFSI_EXIT_STOPPED;
      break;
    }
  }
  solver_sync(&sv, sp);
  backend_wait(b);
  const double seconds = MPI_Wtime() - start;
  timers_collect(&sv.timers);
  if (status == 0 && first_step == sp->step) {   /* a run that took no step (time.steps = 0) */
    if (o.fields_step != sp->step && c->fields_every >= 0) write_fields(&o);
    if (o.restart_step != sp->step && c->restart_every >= 0) write_restart(&o);
    write_average(&o, 1);
  }
  diagnostics_close(&o.diagnostics);
  csv_close(&o.bodies_table);
  if (status == 0 || status == EFSI_EXIT_STOPPED)
    report_performance(c, d, &g, &sv.timers, sp->step - first_step, seconds, dir);
  if (status == 0) history_end_reason(c, sp->step, sp->time, sv.dt, o.why, sizeof o.why);
  if (status == EFSI_EXIT_STOPPED && d->rank == 0) {
    const int sig = stop_signal();
    char why[96], limit[32];
    stop_format_duration(c->wall_limit, limit, sizeof limit);
    if (sig) snprintf(why, sizeof why, "on %s", stop_signal_name(sig));
    else if (stop_wall_due(&o.budget, stop_elapsed()))
      snprintf(why, sizeof why, "before time.wall_limit = %s", limit);
    else snprintf(why, sizeof why, "on another rank's signal or wall-clock limit");
    snprintf(o.why, sizeof o.why, "stopped early %s", why);
    printf("efsi: stopped early %s after step %ld (t = %.6g): restart file %s written; "
           "continue with --restart latest (exit status %d)\n", why, sp->step, sp->time,
           o.last_restart, EFSI_EXIT_STOPPED);
    fflush(stdout);
  }
  /* mpirun ends the job at the first rank that exits with a status other than 0: no rank
   * leaves before rank 0 has written and printed everything */
  if (d->rank == 0) say_the_end(&o, out, status);
  if (status == EFSI_EXIT_STOPPED) MPI_CHECK(MPI_Barrier(d->comm));
done:
  /* the ends before the time loop (a refused restart file or bodies, the tables) */
  if ((status == EFSI_EXIT_INPUT || status == EFSI_EXIT_RUNTIME) && d->rank == 0)
    say_the_end(&o, out, status);
  if (!o.began && d->rank == 0) output_release(out->dir);   /* the claim of a fresh start */
  body_shapes_free(o.shapes);
  outputs_free(o.outputs);
  tracers_free(tracers);
  solver_free(&sv);
  if (sp != &host) state_free_on(sp, b);
  state_free(&host);
  return status;
}
