/* Decomposition invariance and reproducibility with bodies (docs/parallel.md): a sphere
 * and an ellipsoid that straddle the block boundaries of every tested process grid (the
 * ellipsoid also the periodic x boundary), in a sheared, driven channel with a Taylor-Green
 * perturbation.  After 60 steps velocity, p, every phi_m and B are the bits of one rank
 * (MPI_COMM_SELF on rank 0), and so are the gathered tracers' positions;
 * the same run twice is bitwise identical, and so is the run without the overlapped
 * exchanges (performance.overlap = false), on every process grid, whether the blocks are deep
 * enough in y and z for the interior-first momentum (asserted taken) or not, with x split
 * (its messages completed first) or not (copied in place). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fluid_case.h"
#include "tests/test_support.h"

enum { NX = 24, NY = 16, NZ = 16, STEPS = 60 };
#define NFIELDS 12           /* u, v, w, p, phi_sphere, phi_ellipsoid, Bxx .. Byz */

/* The sphere's centre sits on the block corners of the 2 x 2 x 2 and 8 x 1 x 1 grids (x = 12,
 * y = 8, z = 8), where the flow crosses it; the ellipsoid wraps across x = 0. */
static const char *case_text =
  "[grid]\ncells = 24 16 16\nlength = 24 16 16\n"
  "[boundary]\ny = wall\nz = periodic\ny_lo_u = -0.05\ny_hi_u = 0.05\nwall_omega = 0.3\n"
  "[drive]\npressure_gradient = 0.02\n"
  "[init]\nflow = taylor-green\nflow_amplitude = 0.1\n"
  "[sphere]\ncenter = 11.9 8.1 7.8\nradius = 3.5\nmodulus = 0.05\n"
  "[ellipsoid]\ncenter = 23.6 7.6 3.2\nsemi_axes = 3.5 2.5 2\nmodulus = 0.1\n"
  "[time]\nsteps = 60\n";

typedef struct {
  double *field[NFIELDS];    /* global arrays on rank 0 */
  long ntracers;
  efsi_tracer *tracers;      /* sorted by id, rank 0 */
} snapshot;

static size_t global_cells(void) { return (size_t)NX * NY * NZ; }

static void snapshot_alloc(snapshot *s)
{
  for (int f = 0; f < NFIELDS; f++) s->field[f] = calloc(global_cells(), sizeof(double));
  s->ntracers = 0;
  s->tracers = NULL;
}

static void snapshot_free(snapshot *s)
{
  for (int f = 0; f < NFIELDS; f++) free(s->field[f]);
  free(s->tracers);
}

/* tracers_gather sorts by id; equal ids (which one_tracer_per_body refuses) are put in a
 * fixed order too, so that the comparison below sees the same set in the same order */
static int by_id_then_position(const void *pa, const void *pb)
{
  const efsi_tracer *a = pa, *b = pb;
  if (a->id != b->id) return a->id < b->id ? -1 : 1;
  for (int c = 0; c < 3; c++)
    if (a->x[c] != b->x[c]) return a->x[c] < b->x[c] ? -1 : 1;
  return 0;
}

/* Returns, with performance.overlap, whether every step after the first formed v* on the
 * interior first while the state's exchange was in flight (every rank). */
static int run_case_with(MPI_Comm comm, const int *ranks, int overlap, int thinc, snapshot *out)
{
  fluid_case fc;
  const char *overrides[2] = {overlap ? "performance.overlap=true" : "performance.overlap=false",
                              thinc ? "solid.phi_transport=thinc" : "solid.phi_transport=weno5"};
  fluid_case_open(&fc, comm, case_text, overrides, 2, ranks);
  ck_assert_int_eq(fc.state.nmat, 2);
  fluid_case_steps(&fc, STEPS);
  int interior_first = fc.solver.interior_first == STEPS - 1;
  MPI_Allreduce(MPI_IN_PLACE, &interior_first, 1, MPI_INT, MPI_LAND, comm);
  const double *fields[NFIELDS] = {fc.state.u, fc.state.v, fc.state.w, fc.state.p,
                                   fc.state.phi[0], fc.state.phi[1]};
  for (int c = 0; c < 6; c++) fields[6 + c] = fc.state.b[c];
  for (int f = 0; f < NFIELDS; f++) fluid_case_gather(&fc, fields[f], out->field[f]);
  free(out->tracers);
  tracers_gather(fc.tracers, &out->ntracers, &out->tracers);
  if (out->tracers) qsort(out->tracers, (size_t)out->ntracers, sizeof(efsi_tracer), by_id_then_position);
  fluid_case_close(&fc);
  return interior_first;
}

static int run_case(MPI_Comm comm, const int *ranks, int overlap, snapshot *out)
{
  return run_case_with(comm, ranks, overlap, 0, out);
}

/* rel[f] = max|a - b| / max|a| of each field */
static void field_difference(const snapshot *a, const snapshot *b, double rel[NFIELDS])
{
  for (int f = 0; f < NFIELDS; f++) {
    double diff = 0.0, scale = 0.0;
    for (size_t n = 0; n < global_cells(); n++) {
      diff = fmax(diff, fabs(a->field[f][n] - b->field[f][n]));
      scale = fmax(scale, fabs(a->field[f][n]));
    }
    rel[f] = diff / scale;
  }
}

/* max of rel[first .. first + n - 1] */
static double group_max(const double *rel, int first, int n)
{
  double m = 0.0;
  for (int f = first; f < first + n; f++) m = fmax(m, rel[f]);
  return m;
}

/* max distance between the tracers of a and b (same ids in the same order), infinity when
 * the sets differ */
static double tracer_difference(const snapshot *a, const snapshot *b)
{
  if (a->ntracers != b->ntracers) return INFINITY;
  double d = 0.0;
  for (long t = 0; t < a->ntracers; t++) {
    if (a->tracers[t].id != b->tracers[t].id) return INFINITY;
    for (int c = 0; c < 3; c++) d = fmax(d, fabs(a->tracers[t].x[c] - b->tracers[t].x[c]));
  }
  return d;
}

static int identical(const snapshot *a, const snapshot *b)
{
  int same = a->ntracers == b->ntracers
             && memcmp(a->tracers, b->tracers, (size_t)a->ntracers * sizeof(efsi_tracer)) == 0;
  for (int f = 0; f < NFIELDS; f++)
    same &= memcmp(a->field[f], b->field[f], global_cells() * sizeof(double)) == 0;
  return same;
}

/* docs/tracers.md: one tracer per body, started at its centroid, inside the box; here
 * on the world's default process grid, where the ellipsoid has periodic images in x and z. */
START_TEST(one_tracer_per_body)
{
  fluid_case fc;
  fluid_case_open(&fc, MPI_COMM_WORLD, case_text, NULL, 0, NULL);
  long n = 0;
  efsi_tracer *all = NULL;
  tracers_gather(fc.tracers, &n, &all);
  int ok = 1, rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    printf("at the start: %ld tracers for %ld bodies\n", n, fc.bodies.total);
    ok = n == fc.bodies.total;
    for (long t = 0; t < n; t++) {
      printf("  tracer %ld (%s) at %g %g %g\n", all[t].id, body_kind_names[all[t].kind],
             all[t].x[0], all[t].x[1], all[t].x[2]);
      for (int c = 0; c < 3; c++)
        ok &= all[t].x[c] >= 0.0 && all[t].x[c] <= fc.grid.length[c];
      ok &= t == 0 || all[t].id != all[t - 1].id;
    }
  }
  free(all);
  fluid_case_close(&fc);
  ck_assert(mpi_all(ok));
}
END_TEST

START_TEST(bodies_are_invariant)
{
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  snapshot reference, again, parallel, parallel_again;
  snapshot_alloc(&reference);
  snapshot_alloc(&again);
  snapshot_alloc(&parallel);
  snapshot_alloc(&parallel_again);
  int ok = 1;
  if (rank == 0) {
    const int one[3] = {1, 1, 1};
    ok = run_case(MPI_COMM_SELF, one, 1, &reference);   /* interior first under the exchange */
    run_case(MPI_COMM_SELF, one, 1, &again);
    ok = ok && identical(&reference, &again);
    run_case(MPI_COMM_SELF, one, 0, &again);
    const int no_overlap = identical(&reference, &again);
    printf("one rank: the same bits with performance.overlap = false: %s\n", no_overlap ? "yes" : "NO");
    ok = ok && no_overlap;
    /* the bodies have moved and deformed: the comparison is not of a state at rest */
    double b_dev = 0.0;
    for (size_t n = 0; n < global_cells(); n++)
      b_dev = fmax(b_dev, fabs(reference.field[9][n]));
    printf("one rank, %d steps: %ld tracers, max|Bxy| = %.2e; bitwise identical twice: %s\n",
           STEPS, reference.ntracers, b_dev, ok ? "yes" : "NO");
    for (long t = 0; t < reference.ntracers; t++)
      printf("  tracer %ld (%s) at %.6f %.6f %.6f\n", reference.tracers[t].id,
             body_kind_names[reference.tracers[t].kind], reference.tracers[t].x[0],
             reference.tracers[t].x[1], reference.tracers[t].x[2]);
    ok = ok && b_dev > 1e-4;
  }
  ck_assert(mpi_all(ok));
  int grids[16][3];
  const int n = mpi_check_invariance_grids(size, (const int[3]){NX, NY, NZ}, grids, 16);
  for (int g = 0; g < n; g++) {
    /* the interior-first momentum runs where the blocks are more than 6 cells deep in y and z */
    const int interior = NY / grids[g][1] > 6 && NZ / grids[g][2] > 6;
    const int interior_first = run_case(MPI_COMM_WORLD, grids[g], 1, &parallel);
    ck_assert_int_eq(interior_first, interior);
    run_case(MPI_COMM_WORLD, grids[g], 0, &parallel_again);
    if (rank == 0) {
      double rel[NFIELDS];
      field_difference(&reference, &parallel, rel);
      const double dx = tracer_difference(&reference, &parallel);
      const int same = identical(&parallel, &parallel_again);
      printf("%d x %d x %d: relative difference to one rank: velocity %.1e, p %.1e, phi %.1e, "
             "B %.1e; tracer positions %.1e; interior first: %s; the same bits with overlap off: %s\n",
             grids[g][0],
             grids[g][1], grids[g][2], group_max(rel, 0, 3), group_max(rel, 3, 1),
             group_max(rel, 4, 2), group_max(rel, 6, 6), dx, interior ? "yes" : "no",
             same ? "yes" : "NO");
      ok = group_max(rel, 0, NFIELDS) <= TEST_GRID_TOLERANCE && dx <= TEST_GRID_TOLERANCE && same;
    }
    ck_assert(mpi_all(ok));
  }
  snapshot_free(&reference);
  snapshot_free(&again);
  snapshot_free(&parallel);
  snapshot_free(&parallel_again);
}
END_TEST

/* The volume fractions carried with THINC face values (solid.phi_transport = thinc), whose
 * steepness reads the neighbours across block edges: the bits of one rank on every grid. */
START_TEST(thinc_transport_is_invariant)
{
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  snapshot reference, parallel;
  snapshot_alloc(&reference);
  snapshot_alloc(&parallel);
  const int one[3] = {1, 1, 1};
  int differs = 1;
  if (rank == 0) {
    run_case_with(MPI_COMM_SELF, one, 1, 1, &reference);
    run_case_with(MPI_COMM_SELF, one, 1, 0, &parallel);   /* WENO5: THINC did act */
    double rel[NFIELDS];
    field_difference(&reference, &parallel, rel);
    printf("thinc against weno5 face values, one rank: phi differs by %.1e\n",
           group_max(rel, 4, 2));
    differs = group_max(rel, 4, 2) > 1e-6;
  }
  ck_assert(mpi_all(differs));
  int grids[16][3];
  const int n = mpi_check_invariance_grids(size, (const int[3]){NX, NY, NZ}, grids, 16);
  for (int g = 0; g < n; g++) {
    run_case_with(MPI_COMM_WORLD, grids[g], 1, 1, &parallel);
    int ok = 1;
    if (rank == 0) {
      double rel[NFIELDS];
      field_difference(&reference, &parallel, rel);
      printf("thinc, %d x %d x %d: relative difference to one rank: velocity %.1e, phi %.1e, "
             "B %.1e\n", grids[g][0], grids[g][1], grids[g][2], group_max(rel, 0, 3),
             group_max(rel, 4, 2), group_max(rel, 6, 6));
      ok = group_max(rel, 0, NFIELDS) <= TEST_GRID_TOLERANCE;
    }
    ck_assert(mpi_all(ok));
  }
  snapshot_free(&reference);
  snapshot_free(&parallel);
}
END_TEST

static Suite *solid_invariance_suite(void)
{
  Suite *s = suite_create("solid invariance");
  TCase *tc = tcase_create("process grids");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, one_tracer_per_body);
  tcase_add_test(tc, bodies_are_invariant);
  tcase_add_test(tc, thinc_transport_is_invariant);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) { return mpi_check_main(argc, argv, solid_invariance_suite); }
