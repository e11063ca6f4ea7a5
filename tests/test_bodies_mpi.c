/* Seeding and volume fractions on every process grid of the run's size: each rank's
 * bodies_near for its block equals the brute-force selection from the whole-domain list
 * (ids and centres bitwise) and the blocks together see every body; no two bodies overlap
 * and all keep off walls; the rasterised hematocrit matches the request; each body's
 * rasterised volume is within 1 % at 8 cells across its thickness; a body too large and a
 * misplaced single body are refused naming the key; same seed same bodies.  (Requests the
 * lattice cannot place are packed at random: tests/test_packing_mpi.c.) */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/bodies/seeding.h"
#include "decomp/decomp.h"
#include "tests/test_support.h"

/* The main case: 48^3 box on 32^3 cells, walls in y and z; RBCs at 8 % hematocrit and 60
 * platelets, both randomly oriented. */
static efsi_seeding box_case(unsigned long seed)
{
  efsi_seeding s = {.length = {48, 48, 48}, .cells = {32, 32, 32}, .periodic = {1, 0, 0},
                    .seed = seed};
  return s;
}

static const efsi_body_family mixed[2] = {
    {.kind = BODY_RBC, .material = 0, .fraction = 0.08, .size = {7.82, 0, 0}},
    {.kind = BODY_PLATELET, .material = 1, .count = 60, .size = {1, 1, 0.8}}};

START_TEST(every_process_grid_sees_the_same_bodies)
{
  const efsi_seeding s = box_case(7);
  char err[256];
  long total = 0;
  ck_assert_msg(bodies_seed(&s, mixed, 2, NULL, 0, &total, NULL, err, sizeof err) == 0, "%s",
                err);
  efsi_body *global;
  const long n = test_whole_list(&s, mixed, 2, &global);
  ck_assert_int_eq(n, total);
  int p[64][3];
  const int np = mpi_check_process_grids(mpi_check_world_size(), p, 64);
  for (int c = 0; c < np; c++) {
    efsi_decomp dec;
    efsi_grid g;
    test_decomp(&dec, &g, s.cells, p[c], s.periodic, s.length);
    efsi_body *mine;
    long nm = 0, expected = 0;
    char *owned = calloc((size_t)n, 1);
    const long missing = test_near_missing(&s, mixed, 2, NULL, &g, global, n, owned, &mine, &nm,
                                           &expected);
    ALL(missing == 0 && expected == nm);
    /* Together the blocks see every body (in its base image). */
    char *seen = calloc((size_t)n, 1);
    MPI_Allreduce(owned, seen, (int)n, MPI_CHAR, MPI_BOR, MPI_COMM_WORLD);
    long unseen = 0;
    for (long b = 0; b < n; b++) unseen += !seen[b];
    ALL(unseen == 0);
    if (test_rank0() && c == 0)
      printf("bodies: %ld seeded; process grid %d %d %d: rank 0 sees %ld\n", n, p[c][0],
             p[c][1], p[c][2], nm);
    free(seen);
    free(owned);
    free(mine);
    decomp_free(&dec);
  }
  free(global);
}
END_TEST

/* Pairwise: bounding spheres (nearest periodic image in x) apart, and one cell off walls. */
static void assert_apart(const efsi_seeding *s, const efsi_body *b, long n)
{
  long close = 0, near_wall = 0;
  for (long i = 0; i < n; i++) {
    const double ri = shape_bounding_radius(b[i].kind, b[i].size);
    for (int d = 1; d < 3; d++) {
      const double h = s->length[d] / s->cells[d];
      near_wall += !s->periodic[d] && !s->vessel &&
                   (b[i].center[d] - ri < h || b[i].center[d] + ri > s->length[d] - h);
    }
    if (s->vessel) {
      const double h = s->length[1] / s->cells[1];
      near_wall += hypot(b[i].center[1] - 0.5 * s->length[1],
                         b[i].center[2] - 0.5 * s->length[2]) + ri > 0.5 * s->vessel_diameter - h;
    }
    for (long j = 0; j < i; j++) {
      const double rj = shape_bounding_radius(b[j].kind, b[j].size);
      double d2 = 0;
      for (int d = 0; d < 3; d++) {
        double e = fabs(b[i].center[d] - b[j].center[d]);
        if (s->periodic[d]) e = fmin(e, s->length[d] - e);
        d2 += e * e;
      }
      close += d2 < (ri + rj) * (ri + rj);
    }
  }
  ck_assert_msg(close == 0 && near_wall == 0, "%ld overlapping pairs, %ld near walls", close,
                near_wall);
}

START_TEST(bodies_do_not_overlap)
{
  efsi_body *b;
  const efsi_seeding s = box_case(11);
  const long n = test_whole_list(&s, mixed, 2, &b);
  ck_assert(n > 150);
  assert_apart(&s, b, n);
  free(b);
  /* In a lumen: 200 randomly oriented platelets and some RBCs. */
  efsi_seeding t = {.length = {64, 32, 32}, .cells = {64, 32, 32}, .periodic = {1, 0, 0},
                    .seed = 3, .vessel = 1, .vessel_diameter = 24};
  efsi_body_family tube[2] = {mixed[0], mixed[1]};
  tube[0].fraction = 0.06;
  tube[1].count = 200;
  const long m = test_whole_list(&t, tube, 2, &b);
  const double lumen = 0.25 * 3.14159265358979323846 * 24 * 24 * 64;
  ck_assert_int_eq(m, 200 + lround(0.06 * lumen / shape_volume(BODY_RBC, tube[0].size)));
  assert_apart(&t, b, m);
  free(b);
  /* Aligned RBCs (axis z) pack closer than their bounding spheres: their bounding boxes
   * stay apart, and one cell off the walls. */
  efsi_body_family aligned[2] = {mixed[0], mixed[1]};
  aligned[0].fraction = 0.25;
  aligned[0].orientation = 3;
  const long na = test_whole_list(&s, aligned, 2, &b);
  long crossing = 0, near_wall = 0;
  for (long i = 0; i < na; i++) {
    double ei[3];
    shape_half_extents(b[i].kind, b[i].size, ei);
    if (b[i].kind == BODY_PLATELET) ei[0] = ei[1] = ei[2] = 1;  /* random: bounding cube */
    for (int d = 1; d < 3; d++)
      near_wall += b[i].center[d] - ei[d] < 1.5 || b[i].center[d] + ei[d] > 48 - 1.5;
    for (long j = 0; j < i; j++) {
      double ej[3];
      shape_half_extents(b[j].kind, b[j].size, ej);
      if (b[j].kind == BODY_PLATELET) ej[0] = ej[1] = ej[2] = 1;
      int apart = 0;
      for (int d = 0; d < 3; d++) {
        double e = fabs(b[i].center[d] - b[j].center[d]);
        if (d == 0) e = fmin(e, 48 - e);
        apart |= e >= ei[d] + ej[d];
      }
      crossing += !apart;
    }
  }
  if (test_rank0())
    printf("lumen: %ld bodies apart; aligned RBCs at 25 %%: %ld bodies, bounding boxes "
           "apart\n", m, na);
  ck_assert(crossing == 0 && near_wall == 0);
  free(b);
}
END_TEST

/* Sum of phi_m over all ranks' cells times the cell volume. */
static void rasterised_volumes(const efsi_seeding *s, const efsi_body_family *f, int nfam,
                               double width, int vessel, double volume[3])
{
  efsi_decomp dec;
  efsi_grid g;
  const int any[3] = {0, 0, 0};
  test_decomp(&dec, &g, s->cells, any, s->periodic, s->length);
  double *phi[3];
  for (int m = 0; m < 3; m++) phi[m] = field_alloc(&g);
  const double reach = bodies_reach(&g, width);
  double lo[3], hi[3];
  for (int d = 0; d < 3; d++) {
    lo[d] = g.offset[d] * g.h[d] - reach;
    hi[d] = (g.offset[d] + g.n[d]) * g.h[d] + reach;
  }
  efsi_body *b;
  long n = 0;
  ck_assert(bodies_near(s, f, nfam, NULL, 0, NULL, lo, hi, &b, &n) == 0);
  ck_assert(bodies_volume_fraction(&g, b, n, width, phi) == 0);
  if (vessel) vessel_volume_fraction(&g, s->vessel_diameter, width, phi[2]);
  double sum[3] = {0, 0, 0}, bad = 0;
  for (int m = 0; m < 3; m++)
    for (int k = 0; k < g.n[2]; k++)
      for (int j = 0; j < g.n[1]; j++)
        for (int i = 0; i < g.n[0]; i++) {
          const double v = phi[m][grid_index(&g, i, j, k)];
          sum[m] += v;
          bad += !(v >= 0 && v <= 1);
        }
  ALL(bad == 0);
  MPI_Allreduce(sum, volume, 3, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  for (int m = 0; m < 3; m++) volume[m] *= g.h[0] * g.h[1] * g.h[2];
  free(b);
  for (int m = 0; m < 3; m++) field_free(phi[m]);
  decomp_free(&dec);
}

START_TEST(hematocrit_matches_the_request)
{
  const efsi_seeding s = box_case(5);
  double v[3];
  rasterised_volumes(&s, mixed, 2, 0, 0, v);
  const double box = 48.0 * 48 * 48;
  const double hct = v[0] / box, platelets = v[1] / (60 * shape_volume(BODY_PLATELET,
                                                                        mixed[1].size));
  /* In a lumen: hematocrit is the fraction of the lumen. */
  efsi_seeding t = {.length = {64, 32, 32}, .cells = {64, 32, 32}, .periodic = {1, 0, 0},
                    .seed = 9, .vessel = 1, .vessel_diameter = 26};
  efsi_body_family rbc = mixed[0];
  rbc.fraction = 0.2;
  rbc.orientation = 1;
  double w[3];
  rasterised_volumes(&t, &rbc, 1, 0, 1, w);
  const double lumen = 0.25 * 3.14159265358979323846 * 26 * 26 * 64;
  const double wall = 64.0 * 32 * 32 - lumen;
  if (test_rank0())
    printf("hematocrit: box %.5f (asked 0.08), platelets %.4f of their volume; lumen %.5f "
           "(asked 0.2, axis along x); wall volume rel error %.1e\n", hct, platelets, w[0] / lumen,
           fabs(w[2] / wall - 1));
  ck_assert(fabs(hct / 0.08 - 1) < 0.01);
  ck_assert(fabs(platelets - 1) < 0.01);
  ck_assert(fabs(w[0] / lumen / 0.2 - 1) < 0.01);
  ck_assert(fabs(w[2] / wall - 1) < 1e-4);
}
END_TEST

/* One body, 8 cells across its thickness (the RBC's rim thickness), several orientations;
 * with tanh smoothing the volume error is second order in the width. */
START_TEST(body_volume_within_one_percent)
{
  const double thickness[2] = {2 * rbc_max_half_thickness(7.82, NULL), 1.6};
  const efsi_body_family one[2] = {
      {.kind = BODY_RBC, .count = 1, .size = {7.82, 0, 0}},
      {.kind = BODY_PLATELET, .count = 1, .size = {1, 1, 0.8}}};
  double worst[2] = {0, 0}, smooth[2][3];
  for (int f = 0; f < 2; f++) {
    const double h = thickness[f] / 8, L = 32 * h;
    const double exact = shape_volume(one[f].kind, one[f].size);
    for (unsigned long seed = 1; seed <= 6; seed++) {
      const efsi_seeding s = {.length = {L, L, L}, .cells = {32, 32, 32},
                              .periodic = {1, 1, 1}, .seed = seed};
      double v[3];
      rasterised_volumes(&s, &one[f], 1, 0, 0, v);
      worst[f] = fmax(worst[f], fabs(v[0] / exact - 1));
      if (seed == 1)
        for (int w = 0; w < 3; w++) {
          rasterised_volumes(&s, &one[f], 1, 0.5 * (1 << w), 0, v);
          smooth[f][w] = v[0] / exact - 1;
        }
    }
  }
  if (test_rank0())
    printf("8 cells across: worst volume error rbc %.2e, platelet %.2e; smoothed over "
           "0.5, 1, 2 cells: rbc %+.2e %+.2e %+.2e, platelet %+.2e %+.2e %+.2e\n", worst[0],
           worst[1], smooth[0][0], smooth[0][1], smooth[0][2], smooth[1][0], smooth[1][1],
           smooth[1][2]);
  ck_assert(worst[0] < 0.01 && worst[1] < 0.01);
  /* Smoothing adds volume, second order in the width once it spans a cell. */
  for (int f = 0; f < 2; f++) {
    const double order = log2(smooth[f][2] / smooth[f][1]);
    ck_assert_msg(smooth[f][1] > 0 && order > 1.6 && order < 2.4, "order %.2f", order);
  }
}
END_TEST

static int refused(const efsi_seeding *s, const efsi_body_family *f, int nfam,
                   const efsi_body *singles, int nsingle, const char *expect)
{
  char err[256] = "";
  long total = -1;
  const int rc = bodies_seed(s, f, nfam, singles, nsingle, &total, NULL, err, sizeof err);
  if (test_rank0()) printf("refused: %s\n", err);
  return rc != 0 && total == 0 && strstr(err, expect) != NULL;
}

START_TEST(impossible_requests_are_refused)
{
  /* (what neither the lattice nor the random packing places: tests/test_packing_mpi.c) */
  efsi_body_family rbc = mixed[0];
  rbc.fraction = 0;
  const efsi_seeding s = box_case(1);
  rbc.count = 1;
  rbc.size[0] = 50;
  ck_assert(refused(&s, &rbc, 1, NULL, 0, "rbc.diameter = 50: a body needs 50 along x"));
  rbc.size[0] = 7.82;
  rbc.count = 100;
  efsi_body sphere = {.kind = BODY_SPHERE, .size = {3, 0, 0}, .frame = {{1, 0, 0}, {0, 1, 0},
                                                                        {0, 0, 1}}};
  memcpy(sphere.center, (double[3]){24, 24, 2}, sizeof sphere.center);
  ck_assert(refused(&s, NULL, 0, &sphere, 1, "sphere.center = 24 24 2: the sphere"));
  efsi_body *b;
  const long n = test_whole_list(&s, &rbc, 1, &b);
  ck_assert_int_eq(n, 100);
  memcpy(sphere.center, b[17].center, sizeof sphere.center);
  ck_assert(refused(&s, &rbc, 1, &sphere, 1, "overlaps seeded rbc 17"));
  free(b);
  /* A fitting sphere alone is accepted, and counted. */
  memcpy(sphere.center, (double[3]){24, 24, 24}, sizeof sphere.center);
  long total = 0;
  char err[256];
  ck_assert(bodies_seed(&s, NULL, 0, &sphere, 1, &total, NULL, err, sizeof err) == 0 &&
            total == 1);
}
END_TEST

START_TEST(seed_makes_it_reproducible)
{
  efsi_body *a, *b, *c;
  efsi_seeding s = box_case(21);
  const long na = test_whole_list(&s, mixed, 2, &a), nb = test_whole_list(&s, mixed, 2, &b);
  s.seed = 22;
  const long nc = test_whole_list(&s, mixed, 2, &c);
  ck_assert(na == nb && na == nc);
  ck_assert(memcmp(a, b, (size_t)na * sizeof *a) == 0);
  long moved = 0;
  for (long m = 0; m < na; m++) moved += memcmp(a[m].center, c[m].center, sizeof a[m].center) != 0;
  ck_assert_msg(moved > 0.9 * na, "%ld of %ld bodies moved with another seed", moved, na);
  free(a);
  free(b);
  free(c);
}
END_TEST

static Suite *bodies_suite(void)
{
  Suite *s = suite_create("bodies");
  const TTest *tests[] = {every_process_grid_sees_the_same_bodies, bodies_do_not_overlap,
                          hematocrit_matches_the_request, body_volume_within_one_percent,
                          impossible_requests_are_refused, seed_makes_it_reproducible, NULL};
  test_case_add(s, "bodies", 120, tests);
  return s;
}

int main(int argc, char **argv) { return mpi_check_main(argc, argv, bodies_suite); }
