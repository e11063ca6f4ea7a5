/* The paper's Fig. 2 comparison, scaled down: RBCs carried by a pressure-driven channel flow
 * between walls, run with the ACM and with the exact SMAC projection from the same start.
 * The bodies must end at the same places and with the same shapes: centroid tracers within
 * a small fraction of a cell, and the volume fractions overlapping to within a small part of
 * the solid volume (sum |phi_acm - phi_smac| / sum phi).  The figures go to
 * docs/verification.md. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/fluid_case.h"
#include "tests/test_support.h"

/* 32^3 cells of h = 0.33 um, 3 RBCs of diameter 4 um (4 cells thick), axes along y. */
static const char *case_text =
  "[grid]\ncells = 32 32 32\nlength = 10.56 10.56 10.56\n"
  "[boundary]\ny = wall\nz = periodic\n"
  "[drive]\npressure_gradient = 0.2\n"
  "[rbc]\ncount = 3\ndiameter = 4\nmodulus = 2e-2\norientation = y\n"
  "[time]\nsteps = 300\n";

enum { STEPS = 300, CELLS = 32 * 32 * 32 };

typedef struct {
  long n;
  efsi_tracer *tracers;
  double *phi;
  double h;
} outcome;

static void run(const char *method, outcome *out)
{
  fluid_case fc;
  const char *overrides[1] = {method};
  fluid_case_open(&fc, MPI_COMM_SELF, case_text, overrides, 1, NULL);
  fluid_case_steps(&fc, STEPS);
  tracers_gather(fc.tracers, &out->n, &out->tracers);
  out->phi = malloc(CELLS * sizeof(double));
  fluid_case_gather(&fc, fc.state.phi[0], out->phi);
  out->h = fc.grid.h[0];
  fluid_case_close(&fc);
}

START_TEST(acm_and_smac_move_the_cells_alike)
{
  outcome acm, smac;
  run("pressure.method=acm", &acm);
  run("pressure.method=smac", &smac);
  ck_assert_int_eq(acm.n, 3);
  ck_assert_int_eq(smac.n, 3);
  double distance = 0.0, travel = 0.0;
  for (long b = 0; b < acm.n; b++) {
    ck_assert_int_eq(acm.tracers[b].id, smac.tracers[b].id);
    double d2 = 0.0;
    for (int c = 0; c < 3; c++) {
      const double d = acm.tracers[b].x[c] - smac.tracers[b].x[c];
      d2 += d * d;
    }
    distance = fmax(distance, sqrt(d2) / acm.h);
  }
  double mismatch = 0.0, volume = 0.0;
  for (long n = 0; n < CELLS; n++) {
    mismatch += fabs(acm.phi[n] - smac.phi[n]);
    volume += smac.phi[n];
  }
  /* how far the cells travelled, for scale: the flow carries them along x */
  fluid_case fc;
  const char *overrides[1] = {"pressure.method=smac"};
  fluid_case_open(&fc, MPI_COMM_SELF, case_text, overrides, 1, NULL);
  long n0;
  efsi_tracer *start;
  tracers_gather(fc.tracers, &n0, &start);
  for (long b = 0; b < n0; b++) {
    double dx = smac.tracers[b].x[0] - start[b].x[0];
    dx -= fc.grid.length[0] * round(dx / fc.grid.length[0]);
    travel = fmax(travel, fabs(dx) / acm.h);
  }
  fluid_case_close(&fc);
  free(start);
  printf("Fig. 2 (scaled down, %d steps): the RBCs travel up to %.2g cells; ACM vs SMAC: "
         "centroids %.2g cells apart at most, phi mismatch %.2g of the volume\n", STEPS,
         travel, distance, mismatch / volume);
  ck_assert(travel > 1.0);          /* the comparison means something */
  ck_assert(distance < 0.01);
  ck_assert(mismatch / volume < 1e-3);
  free(acm.tracers);
  free(smac.tracers);
  free(acm.phi);
  free(smac.phi);
}
END_TEST

static Suite *fig2_suite(void)
{
  Suite *s = suite_create("fig2");
  TCase *tc = tcase_create("acm-smac");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, acm_and_smac_move_the_cells_alike);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) { return mpi_check_main(argc, argv, fig2_suite); }
