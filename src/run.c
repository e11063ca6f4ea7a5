/* The time loop (see run.h).  Output cadence: diagnostics every output.diagnostics_every
 * steps, fields and restart every output.fields_every / output.restart_every steps (0: at
 * the end only, -1: never); the last step writes fields and a restart file unless they are
 * never written, and always a diagnostics row.
 * Restart files are never deleted, so a run that blows up keeps its last good one. */
#include "src/run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/bodies_csv.h"
#include "src/diagnose.h"
#include "io/diagnostics.h"
#include "base/errors.h"
#include "io/fields.h"
#include "src/init.h"
#include "io/output.h"
#include "src/report.h"
#include "io/restart.h"
#include "src/solver.h"
#include "src/state.h"
#include "src/tracers.h"

/* True when step/time have reached the end of the run's history. */
static int finished(const efsi_config *c, const efsi_state *s, double dt)
{
  if (c->steps >= 0 && s->step >= c->steps) return 1;
  /* the step that lands within a small fraction of dt of end_time is the last one */
  if (c->end_time > 0 && s->time >= c->end_time - 1e-6 * dt) return 1;
  return 0;
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
} output_state;

/* The host mirror holds the state (a copy from the device on a GPU). */
static void to_host(output_state *o)
{
  if (o->host != o->s) state_transfer(o->s, o->host, o->sv->backend, 0);
}

static void write_fields(output_state *o)
{
  char path[EFSI_PATH_LEN + 64];
  if (output_path(path, sizeof path, o->dir, "fields", o->s->step))
    efsi_abort(EFSI_EXIT_RUNTIME, "output path too long in %s", o->dir);
  timer_start(&o->sv->timers, TIMER_IO);
  to_host(o);
  state_write_fields(path, o->host, o->d, o->c->name);
  timer_stop(&o->sv->timers, TIMER_IO);
  o->fields_step = o->s->step;
}

static void write_restart(output_state *o)
{
  timer_start(&o->sv->timers, TIMER_IO);
  long n = 0;
  efsi_tracer *all = NULL;
  if (o->bodies) tracers_gather(o->tracers, &n, &all);
  to_host(o);
  state_write_restart(o->dir, o->host, o->d, n, all);
  free(all);
  timer_stop(&o->sv->timers, TIMER_IO);
  output_path(o->last_restart, sizeof o->last_restart, o->dir, "restart", o->s->step);
  o->restart_step = o->s->step;
}

/* Returns the advective ratio dt / (advective limit at the measured u_max). */
static double write_diagnostics(output_state *o, double seconds)
{
  efsi_diagnostics row;
  memset(&row, 0, sizeof row);
  diagnose(o->sv, o->s, &row);
  row.wall_seconds = seconds;
  timer_start(&o->sv->timers, TIMER_IO);
  if (o->d->rank == 0) diagnostics_write(&row);
  if (o->bodies) {
    const efsi_grid *g = &o->s->grid;
    tracers_interpolate(o->tracers, o->sv->k, g, o->s->u, o->s->v, o->s->w);
    long n = 0;
    efsi_tracer *all = NULL;
    tracers_gather(o->tracers, &n, &all);
    if (o->d->rank == 0) bodies_csv_write(o->s->step, o->s->time, n, all, body_kind_names);
    free(all);
  }
  timer_stop(&o->sv->timers, TIMER_IO);
  return timestep_advective_ratio(o->c, o->sv->dt, row.u_max);
}

/* Collective: stop with a diagnosis of where the state went wrong. */
static int blow_up(output_state *o, const char *why)
{
  char field[8] = "";
  int at[3] = {0, 0, 0};
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
static int open_tables(const efsi_decomp *d, const efsi_state *s, int bodies, const char *dir,
                       long restart_step)
{
  char err[1024] = "";
  int failed = 0;
  if (d->rank == 0) {
    diagnostics_materials(s->nmat, s->material);
    failed = diagnostics_open(dir, restart_step, err, sizeof err)
          || (bodies && bodies_csv_open(dir, restart_step, err, sizeof err));
  }
  MPI_CHECK(MPI_Bcast(&failed, 1, MPI_INT, 0, d->comm));
  if (failed && d->rank == 0) fprintf(stderr, "efsi: error: %s\n", err);
  return failed;
}

/* Collective: the state and tracers of a restart file; nonzero (message on rank 0 printed)
 * when it is refused. */
static int restart_state(const char *path, efsi_state *s, efsi_tracers *t, const efsi_decomp *d)
{
  char err[1024] = "";
  int bad = state_read_restart(path, s, d, err, sizeof err);
  long n = 0;
  efsi_tracer *all = NULL;
  if (!bad && d->rank == 0) bad = restart_read_tracers(path, &n, &all, err, sizeof err);
  MPI_CHECK(MPI_Bcast(&bad, 1, MPI_INT, 0, d->comm));
  if (bad) {
    if (d->rank == 0) fprintf(stderr, "efsi: error: %s\n", err[0] ? err : path);
    return 1;
  }
  tracers_scatter(t, n, all);
  free(all);
  return 0;
}

int run(const efsi_config *c, efsi_decomp *d, const efsi_timestep *ts, const char *dir,
        const char *restart_file, const efsi_case_bodies *cb, const efsi_backend *b)
{
  efsi_grid g;
  decomp_grid(d, c->cells, c->length, &g);
  efsi_state host, on_device, *state = &host;   /* the solver's state: host or device */
  efsi_solver sv;
  if (state_alloc_case(&host, &g, c)
      || (b->gpu && state_alloc_like(state = &on_device, &host, b))
      || solver_create(&sv, c, d, &g, ts->dt, b))
    efsi_abort(EFSI_EXIT_RUNTIME, "out of memory allocating the fields (efsi --check gives the estimate)");
  efsi_state *const sp = state;
  if (b->gpu && d->size > 1) {
    int faces[2] = {halo_faces(sv.halo), halo_gpu_to_gpu_faces(sv.halo)};
    MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, faces, 2, MPI_INT, MPI_SUM, d->comm));
    if (d->rank == 0)
      printf("  halos: %d of %d faces between ranks GPU to GPU on a node (performance.peer_halos)\n",
             faces[1], faces[0]);
  }

  efsi_tracers *tracers = tracers_create(d, &g);
  if (!tracers) efsi_abort(EFSI_EXIT_RUNTIME, "out of memory allocating the tracers");
  output_state o = {.c = c, .d = d, .sv = &sv, .s = sp, .host = &host, .tracers = tracers,
                    .bodies = cb->total > 0, .dir = dir,
                    .fields_step = -1, .restart_step = -1};
  int status = 0;
  /* the initial state or the restart file's, drawn on the host, then uploaded once */
  if (restart_file) {
    if (restart_state(restart_file, &host, tracers, d)) {
      status = EFSI_EXIT_INPUT;
      goto done;
    }
    snprintf(o.last_restart, sizeof o.last_restart, "%s", restart_file);
    o.restart_step = host.step;
  } else {
    init_flow(c, &host);
    char err[1024] = "";
    if (host.nmat > 0 && init_solid(c, cb, d, &host, tracers, err, sizeof err)) {
      if (d->rank == 0) fprintf(stderr, "efsi: error: %s\n", err);
      status = EFSI_EXIT_INPUT;
      goto done;
    }
  }
  if (sp != &host) state_transfer(sp, &host, b, 1);
  solver_fill_halos(&sv, sp);
  if (o.bodies) solver_move_tracers(&sv, tracers);
  if (open_tables(d, sp, o.bodies, dir, restart_file ? sp->step : -1)) {
    status = EFSI_EXIT_RUNTIME;
    goto done;
  }
  const long first_step = sp->step;
  if (!restart_file) {
    write_diagnostics(&o, 0.0);
    if (c->fields_every > 0) write_fields(&o);
  }

  timers_zero_clocks(&sv.timers);
  const double start = MPI_Wtime();
  while (!finished(c, sp, sv.dt)) {
    if (solver_step(&sv, sp)) {
      status = blow_up(&o, "the sums of the next pressure step overflowed or are not finite");
      break;
    }
    const int last = finished(c, sp, sv.dt);
    const int diagnostics = due(c->diagnostics_every, sp->step) || last;
    const int fields = due(c->fields_every, sp->step) || (last && c->fields_every >= 0);
    const int restart = due(c->restart_every, sp->step) || (last && c->restart_every >= 0);
    /* the exchange of the new state stays in flight into the next step unless it is read */
    if (diagnostics || fields || restart) solver_sync(&sv, sp);
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
    if (fields) write_fields(&o);
    if (restart) write_restart(&o);
  }
  solver_sync(&sv, sp);
  backend_wait(b);
  const double seconds = MPI_Wtime() - start;
  if (status == 0) {   /* a run that took no step (time.steps = 0, or restarted at its end) */
    if (o.fields_step != sp->step && c->fields_every >= 0) write_fields(&o);
    if (o.restart_step != sp->step && c->restart_every >= 0) write_restart(&o);
  }
  if (d->rank == 0) {
    diagnostics_close();
    if (o.bodies) bodies_csv_close();
  }
  if (status == 0) report_performance(c, d, &g, &sv.timers, sp->step - first_step, seconds, dir);
done:
  tracers_free(tracers);
  solver_free(&sv);
  if (sp != &host) state_free_on(sp, b);
  state_free(&host);
  return status;
}
