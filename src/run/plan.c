/* The cost of a run before it starts (see plan.h).  The time step costs about the same per
 * cell whatever the flow, so a few steps of the case's solver on a block of its size, on
 * this machine, give the rate; the output's size follows from the cadences of the case. */
#define _POSIX_C_SOURCE 200809L

#include "src/run/plan.h"
#include "src/case/outputs.h"

#include "decomp/halo_path.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/device.h"
#include "base/errors.h"
#include "stencils/shapes.h"
#include "src/case/init.h"
#include "src/case/materials.h"
#include "src/step/solver.h"
#include "src/case/state.h"
#include "src/run/stop.h"

double plan_steps(const efsi_config *c, double dt)
{
  double steps = c->steps >= 0 ? (double)c->steps : INFINITY;
  /* the run stops at the first step with time >= end_time - 1e-6 dt */
  if (c->end_time > 0 && dt > 0) steps = fmin(steps, ceil((c->end_time - 1e-6 * dt) / dt));
  return steps;
}

/* The files written at a cadence every (> 0: at each multiple of it; 0: at the end only;
 * < 0: never) over steps steps, at step 0 too when first. */
static double files_at(long every, double steps, int first)
{
  if (every < 0) return 0;
  if (every == 0) return 1;
  const double multiples = floor(steps / (double)every);
  return multiples + (first ? 1 : 0) + (fmod(steps, (double)every) != 0 ? 1 : 0);
}

double plan_output_bytes(const efsi_case *cs, double steps, long bodies, long *fields_files,
                         long *restart_files)
{
  const efsi_config *c = cs->config;
  const int nmat = cs->nmat;
  const double cells = (double)c->cells[0] * c->cells[1] * (double)c->cells[2];
  const double arrays = cs->state_arrays, listed = outputs_fields_count(cs);
  /* a file: its arrays, the coordinates and about 2 KiB of header per variable; a fields
   * file the fields output.fields names (uncompressed) */
  const double coordinates = 8.0 * (c->cells[0] + c->cells[1] + c->cells[2]) + 16384.0;
  const double file = arrays * 8.0 * cells + coordinates + 2048.0 * arrays;
  const double fields_file = listed * 8.0 * cells + coordinates + 2048.0 * listed;
  const double fields = files_at(c->fields_every, steps, c->fields_every > 0);
  const double restarts = files_at(c->restart_every, steps, 0);
  /* rows of %.17g numbers (about 24 bytes each): the fixed, lumen and material columns */
  const double rows = c->diagnostics_every > 0 ? floor(steps / c->diagnostics_every) + 2 : 2;
  const double row_bytes = 24.0 * (17 + 5 + 10 * nmat);
  const double body_rows = rows * (double)bodies;
  *fields_files = (long)fmin(fields, 1e18);
  *restart_files = (long)fmin(restarts, 1e18);
  long selective = 0;
  const double outputs = outputs_plan_bytes(cs, steps, bodies, &selective);
  const double csv = bodies <= BODIES_CSV_AUTO_LIMIT || c->bodies_csv == BODIES_CSV_YES
                   ? body_rows * 240.0 : 0.0;
  return fields * fields_file + restarts * file + rows * row_bytes + csv + outputs;
}

/* Wall seconds of n steps of sv on s. */
static double time_steps(efsi_solver *sv, efsi_state *s, const efsi_backend *b, int n)
{
  backend_wait(b);
  const double begin = MPI_Wtime();
  for (int k = 0; k < n; k++) solver_step(sv, s);
  solver_sync(sv, s);
  backend_wait(b);
  return MPI_Wtime() - begin;
}

/* Probes of the step that the estimate takes the median of: one probe can meet a moment
 * when other work holds a core (on the 2-core development machine five calls of --check
 * of the quick start said 0:01:14 to 15:32 from one probe each). */
enum { PLAN_PROBES = 5 };

/* The rate of the step as --check measured it, M cell-updates per second of the slowest
 * rank: the median of the probes, and the slowest and fastest probe. */
typedef struct {
  double median, slowest, fastest;
  int probes, steps;   /* probes of steps each */
} plan_rate;

static int ascending(const void *a, const void *b)
{
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Collective over comm: the rate (see plan_report); what gets how it was measured. */
static plan_rate measure_rate(const efsi_case *cs, const int n[3], const efsi_timestep *ts,
                              const efsi_backend *b, MPI_Comm comm, char *what, size_t len)
{
  const efsi_config *c = cs->config;
  /* the case on a block of its own: the same spacing, materials and method, one rank; a
   * small Taylor-Green flow so that no step takes the short way of a flow at rest */
  efsi_config *m = efsi_malloc(sizeof *m, "the time step's measurement");
  memcpy(m, c, sizeof *m);
  for (int e = 0; e < 3; e++) {
    m->cells[e] = n[e] < PLAN_BLOCK ? n[e] : PLAN_BLOCK;
    m->length[e] = c->length[e] / c->cells[e] * m->cells[e];
    m->ranks[e] = 1;
  }
  m->init_flow = INIT_TAYLOR_GREEN;
  m->flow_amplitude = 1e-3 * fmax(ts->velocity_scale, 1e-300);
  m->overlap = 0;
  efsi_case mcs;   /* the measured block's case: the run's, resolved for its copy */
  case_resolve(m, &mcs);
  efsi_decomp d;
  efsi_grid g;
  efsi_state host, on_device, *s = &host;
  efsi_solver sv;
  char err[512];
  double rate[PLAN_PROBES] = {0};
  int steps = 0;
  if (decomp_create(&d, MPI_COMM_SELF, m->cells, m->ranks, mcs.periodic, err, sizeof err) == 0) {
    decomp_grid(&d, m->cells, m->length, &g);
    /* the measured block is one rank's alone: its halos stay on it, whatever path the
     * run's faces take (the backend's plan is the run's process grid's) */
    efsi_backend alone = *b;
    halo_plan_host(&d, &alone.halo_plan);
    state_alloc_case(&host, &g, &mcs);
    if (b->gpu) state_alloc_like(s = &on_device, &host, &alone);
    solver_create(&sv, &mcs, &d, &g, ts->dt, &alone);
    init_flow(m, &host);
    if (s != &host) state_transfer(s, &host, b, 1);
    solver_fill_halos(&sv, s);
    time_steps(&sv, s, &alone, 1);   /* the first step touches the memory */
    /* a probe: as many steps as take about 0.05 s (1 to 16); then the probes */
    double seconds = 0;
    for (steps = 1; (seconds = time_steps(&sv, s, b, steps)) < 0.05 && steps < 16;) steps *= 2;
    for (int k = 0; k < PLAN_PROBES; k++) {
      seconds = time_steps(&sv, s, b, steps);
      rate[k] = seconds > 0 ? (double)grid_cells(&g) * steps / seconds / 1e6 : 0;
    }
    solver_free(&sv);
    if (s != &host) state_free_on(s, b);
    state_free(&host);
    decomp_free(&d);
  }
  qsort(rate, PLAN_PROBES, sizeof rate[0], ascending);
  plan_rate r = {rate[PLAN_PROBES / 2], rate[0], rate[PLAN_PROBES - 1], PLAN_PROBES, steps};
  /* the slowest rank's, each */
  MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &r, 3, MPI_DOUBLE, MPI_MIN, comm));
  snprintf(what, len, "%d steps of a %d x %d x %d block", steps, m->cells[0], m->cells[1],
           m->cells[2]);
  free(m);
  return r;
}

/* "1.23 GiB", "45.6 MiB", "789 KiB". */
static void format_bytes(double bytes, char *buf, size_t len)
{
  if (bytes >= 1073741824.0) snprintf(buf, len, "%.3g GiB", bytes / 1073741824.0);
  else if (bytes >= 1048576.0) snprintf(buf, len, "%.3g MiB", bytes / 1048576.0);
  else snprintf(buf, len, "%.0f KiB", ceil(bytes / 1024.0));
}

/* Rank 0: the lines of plan_report. */
static void print_plan(const efsi_case *cs, const efsi_timestep *ts, int ranks,
                       double block_cells, double global_cells, long bodies,
                       const plan_rate *rate, const char *measured)
{
  const efsi_config *c = cs->config;
  const double steps = plan_steps(c, ts->dt);
  char why[160];
  if (c->steps >= 0 && steps == (double)c->steps) snprintf(why, sizeof why, "time.steps");
  else snprintf(why, sizeof why, "time.end_time = %.6g at dt = %.6g", c->end_time, ts->dt);
  printf("  plan: %.15g steps (%s), %.4g cell-updates\n", steps, why, steps * global_cells);
  if (rate->median > 0 && rate->slowest > 0) {
    char left[32], shortest[32], longest[32];
    const double seconds = steps * block_cells / (rate->median * 1e6);
    stop_format_duration(seconds, left, sizeof left);
    stop_format_duration(steps * block_cells / (rate->fastest * 1e6), shortest, sizeof shortest);
    stop_format_duration(steps * block_cells / (rate->slowest * 1e6), longest, sizeof longest);
    /* the spread of the probes: how far the machine's load moved the rate while measured */
    const double spread = rate->fastest / rate->slowest - 1;
    printf("  time: about %s on this machine for %d rank%s like this one's (%.3g M "
           "cell-updates/s per rank, measured with %s, the median of %d probes; the probes "
           "gave %s to %s, a spread of %.0f %%%s; the halo exchanges between ranks and the "
           "output come on top)\n", seconds > 1e9 ? "forever" : left, ranks,
           ranks == 1 ? "" : "s", rate->median, measured, rate->probes,
           seconds > 1e9 ? "forever" : shortest, seconds > 1e9 ? "forever" : longest,
           100 * spread, spread > 0.5 ? ": the machine is busy, the estimate is rough" : "");
  } else if (cs->config->device == DEVICE_GPU) {
    printf("  time: not estimated: no GPU is visible here to measure the step on\n");
  }
  long fields = 0, restarts = 0;
  const double bytes = plan_output_bytes(cs, steps, bodies, &fields, &restarts);
  char total[32], file[32];
  format_bytes(bytes, total, sizeof total);
  const double one = cs->state_arrays * 8.0 * global_cells;
  format_bytes(one, file, sizeof file);
  long selective = 0;
  outputs_plan_bytes(cs, steps, bodies, &selective);
  char others[64] = "";
  if (selective > 0)
    snprintf(others, sizeof others, ", %ld box, slices and average file%s", selective,
             selective == 1 ? "" : "s");
  printf("  disk: about %s of output: %ld fields file%s and %ld restart file%s of %s each, "
         "diagnostics.csv%s%s\n", total, fields, fields == 1 ? "" : "s", restarts,
         restarts == 1 ? "" : "s", file, bodies > 0 ? ", bodies.nc" : "", others);
}

void plan_report(const efsi_case *cs, const efsi_grid *g, const efsi_timestep *ts,
                 const efsi_backend *b, MPI_Comm comm, int ranks, long bodies)
{
  const efsi_config *c = cs->config;
  char measured[128] = "";
  /* a GPU run is not timed where no GPU is visible (efsi --check --ranks N on a cluster's
   * login node) */
  plan_rate rate = {0, 0, 0, 0, 0};
  if (!b->gpu || device_count() > 0)
    rate = measure_rate(cs, g->n, ts, b, comm, measured, sizeof measured);
  int rank = 0;
  MPI_CHECK(MPI_Comm_rank(comm, &rank));
  if (rank == 0)
    print_plan(cs, ts, ranks, (double)grid_cells(g),
               (double)c->cells[0] * c->cells[1] * (double)c->cells[2], bodies, &rate, measured);
  fflush(stdout);
}

/* The smallest cell spacing of the case. */
static double spacing(const efsi_config *c)
{
  double h = INFINITY;
  for (int e = 0; e < 3; e++) h = fmin(h, c->length[e] / c->cells[e]);
  return h;
}

void plan_warnings(const efsi_config *c)
{
  const double h = spacing(c);
  const int rbc = c->rbc_count > 0 || c->rbc_hematocrit > 0 || !isnan(c->rbc_center[0]);
  /* the Evans-Fung disc is about a fifth of its diameter thick at the rim, a tenth at the
   * centre: below 12 cells across, the thin centre spans about one cell */
  if (rbc && c->rbc_diameter / h < 12)
    printf("efsi: warning: rbc.diameter = %g spans %.1f cells (h = %.4g): the RBC's thin "
           "centre (about 0.1 of its diameter) is under one or two cells; at least 16 cells "
           "across resolve its shape (the paper uses 24; docs/bodies.md)\n", c->rbc_diameter,
           c->rbc_diameter / h, h);
  /* a membrane RBC: its faces' bands (MEMBRANE_DELTA_WIDTH cells each side) meet where the
   * disc is thinner than two of them, and the level's gradient vanishes on its mid-plane */
  const double centre = 2.0 * rbc_half_thickness(c->rbc_diameter, 0.0) / h;
  if (rbc && c->material[BODY_FAMILY_RBC].model == MATERIAL_MODEL_MEMBRANE &&
      centre < 2.0 * MEMBRANE_DELTA_WIDTH)
    printf("efsi: warning: rbc.model = membrane: the RBC's centre is %.1f cells thick (h = "
           "%.4g), thinner than its two faces' bands (%g cells): their forces overlap there; "
           "about %.0f cells across keep them apart (docs/membrane.md, \"What is not yet\")\n",
           centre, h, 2.0 * MEMBRANE_DELTA_WIDTH,
           ceil(2.0 * MEMBRANE_DELTA_WIDTH * c->rbc_diameter / (centre * h)));
  const int platelets = c->platelet_count > 0 || c->platelet_fraction > 0;
  const double thin = fmin(c->platelet_semi_axes[0], fmin(c->platelet_semi_axes[1],
                                                          c->platelet_semi_axes[2]));
  if (platelets && 2 * thin / h < 3)
    printf("efsi: warning: a platelet is %.2g cells thick (platelet.semi_axes, h = %.4g): "
           "it is barely resolved\n", 2 * thin / h, h);
}
