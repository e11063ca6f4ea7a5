/* Dense random seeding (docs/bodies.md, "Random packing"), on every rank count of the run:
 *   - randomly oriented RBCs (8 um) at 31 % of a 20 um lumen (30.7 % in whole cells) and
 *     40 % of a periodic box are packed; drawn one by one on each rank's block (sharp fractions, 0.5 um cells), the
 *     volume fractions of all bodies and of the vessel wall never sum to more than
 *     1 + 1e-12 in any cell, and the drawn tube hematocrit is the seeded one within 1 %;
 *   - every rank packs the same bodies (a checksum of the whole list, bitwise), each
 *     rank's bodies_near is the brute-force selection from that list, and the packing does
 *     not depend on the number of OpenMP threads;
 *   - platelets keep to their radial band; a band without a vessel, reversed or out of
 *     reach is refused naming platelet.radial_band;
 *   - a hematocrit or a count that cannot be placed is refused naming the limit the
 *     packing reached, and 90 % of that limit is placed. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "decomp/decomp.h"
#include "src/packing.h"
#include "src/seeding.h"
#include "tests/test_support.h"

static const double pi = 3.14159265358979323846;

/* 20 um lumen, 24 um long, in a 22 x 22 um cross-section; 0.5 um cells. */
static efsi_seeding lumen_case(void)
{
  efsi_seeding s = {.length = {24, 22, 22}, .cells = {48, 44, 44}, .periodic = {1, 0, 0},
                    .seed = 3, .vessel = 1, .vessel_diameter = 20};
  return s;
}

/* A periodic 20 um box; 0.5 um cells. */
static efsi_seeding box_case(void)
{
  efsi_seeding s = {.length = {20, 20, 20}, .cells = {40, 40, 40}, .periodic = {1, 1, 1},
                    .seed = 5};
  return s;
}

static efsi_body_family rbcs(double fraction)
{
  efsi_body_family f = {.kind = BODY_RBC, .material = 0, .fraction = fraction,
                        .size = {8, 0, 0}, .band = {0, 1}};
  return f;
}

/* FNV-1a over the ids, centres and frames. */
static uint64_t checksum(const efsi_body *b, long n)
{
  uint64_t hash = 14695981039346656037ull;
  for (long m = 0; m < n; m++) {
    const unsigned char *bytes[3] = {(const unsigned char *)&b[m].id,
                                     (const unsigned char *)b[m].center,
                                     (const unsigned char *)b[m].frame};
    const size_t len[3] = {sizeof b[m].id, sizeof b[m].center, sizeof b[m].frame};
    for (int part = 0; part < 3; part++)
      for (size_t k = 0; k < len[part]; k++) hash = (hash ^ bytes[part][k]) * 1099511628211ull;
  }
  return hash;
}

static int same_everywhere(uint64_t value)
{
  unsigned long long lo = value, hi = value;
  MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  return lo == hi;
}

/* Pack, then on this rank's block: bodies_near against the brute-force selection, each
 * body drawn alone, the sum of all fractions (and the wall's) at most 1 + 1e-12.  Returns
 * the drawn volume of the bodies (all ranks). */
static void packed_and_drawn(const efsi_seeding *s, const efsi_body_family *f, int nfam,
                             double target, const char *what, double *drawn)
{
  char err[512] = "";
  long total = 0;
  efsi_seeding_report report;
  ck_assert_msg(bodies_seed(s, f, nfam, NULL, 0, &total, &report, err, sizeof err) == 0, "%s",
                err);
  ck_assert(report.packed);
  ck_assert(fabs(report.fraction[0] - target) < 0.01);
  efsi_body *all;
  const long n = test_whole_list(s, f, nfam, &all);
  ck_assert_int_eq(n, total);
  const uint64_t sum = checksum(all, n);
  ALL(same_everywhere(sum));

  efsi_decomp dec;
  efsi_grid g;
  const int any[3] = {0, 0, 0};
  test_decomp(&dec, &g, s->cells, any, s->periodic, s->length);
  efsi_body *mine;
  long nm = 0, expected = 0;
  const long missing = test_near_missing(s, f, nfam, &g, all, n, NULL, &mine, &nm, &expected);
  ALL(missing == 0 && expected == nm);

  /* each body alone into one, summed into the other; the wall's fraction added */
  double *one = field_alloc(&g), *sum_phi = field_alloc(&g), *wall = field_alloc(&g);
  ck_assert(one && sum_phi && wall);
  if (s->vessel) vessel_volume_fraction(&g, s->vessel_diameter, 0, wall);
  double *const slot[1] = {one};
  for (long m = 0; m < nm; m++) {
    memset(one, 0, g.size * sizeof *one);
    efsi_body b = mine[m];
    b.material = 0;
    ck_assert(bodies_volume_fraction(&g, &b, 1, 0, slot) == 0);
    for (size_t p = 0; p < g.size; p++) sum_phi[p] += one[p];
  }
  double volume = 0, most = 0;
  long over = 0;
  for (int k = 0; k < g.n[2]; k++)
    for (int j = 0; j < g.n[1]; j++)
      for (int i = 0; i < g.n[0]; i++) {
        const ptrdiff_t p = grid_index(&g, i, j, k);
        const double total_phi = sum_phi[p] + wall[p];
        volume += sum_phi[p];
        most = fmax(most, total_phi);
        over += total_phi > 1 + 1e-12;
      }
  MPI_Allreduce(MPI_IN_PLACE, &volume, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &most, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &over, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  *drawn = volume * g.h[0] * g.h[1] * g.h[2];
  if (test_rank0())
    printf("%s: %ld RBCs, %.4f of the region, packed in %ld sweeps (%.2f s, axis order %.3f), "
           "checksum %016llx; largest sum of phi %.15f, %ld cells over 1 + 1e-12\n", what, n,
           report.fraction[0], report.sweeps, report.seconds, report.order,
           (unsigned long long)sum, most, over);
  ck_assert_int_eq(over, 0);
  field_free(one);
  field_free(sum_phi);
  field_free(wall);
  free(mine);
  free(all);
  decomp_free(&dec);
}

START_TEST(dense_lumen_never_overlaps)
{
  const efsi_seeding s = lumen_case();
  const efsi_body_family f = rbcs(0.31);
  double drawn;
  packed_and_drawn(&s, &f, 1, 0.31, "lumen 20 um, 31 %", &drawn);
  const double lumen = 0.25 * pi * 20 * 20 * 24;
  const long n = lround(0.31 * lumen / shape_volume(BODY_RBC, f.size));
  const double seeded = n * shape_volume(BODY_RBC, f.size) / lumen;
  if (test_rank0())
    printf("lumen: drawn tube hematocrit %.5f, seeded %.5f\n", drawn / lumen, seeded);
  ck_assert(seeded >= 0.3 && fabs(drawn / lumen / seeded - 1) < 0.01);
}
END_TEST

START_TEST(dense_box_never_overlaps)
{
  const efsi_seeding s = box_case();
  const efsi_body_family f = rbcs(0.4);
  double drawn;
  packed_and_drawn(&s, &f, 1, 0.4, "periodic box 20 um, 40 %", &drawn);
  const double box = 20.0 * 20 * 20;
  const long n = lround(0.4 * box / shape_volume(BODY_RBC, f.size));
  const double seeded = n * shape_volume(BODY_RBC, f.size) / box;
  if (test_rank0()) printf("box: drawn hematocrit %.5f, seeded %.5f\n", drawn / box, seeded);
  ck_assert(seeded >= 0.4 && fabs(drawn / box / seeded - 1) < 0.01);
}
END_TEST

/* The packing itself, on 1 and on 2 threads: the same bodies, bit for bit.  This test and
 * the next two involve no communication and do not depend on the number of ranks: rank 0 of
 * the run with the fewest ranks alone runs them (test_rank0_once). */
START_TEST(packing_ignores_the_thread_count)
{
  if (!test_rank0_once()) return;
  const packing_region r = {.length = {16, 16, 16}, .periodic = {1, 1, 1}, .wall_margin = 0.5,
                            .gap = 0.05, .seed = 9};
  packing_family f = {.kind = BODY_RBC, .size = {8, 0, 0}, .count = 14, .rotates = 1};
  efsi_body a[14], b[14];
  packing_result ra, rb;
#ifdef _OPENMP
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
#endif
  ck_assert_int_eq(packing_run(&r, &f, 1, a, &ra), 0);
#ifdef _OPENMP
  omp_set_num_threads(2);
#endif
  ck_assert_int_eq(packing_run(&r, &f, 1, b, &rb), 0);
#ifdef _OPENMP
  omp_set_num_threads(threads);
#endif
  ck_assert(memcmp(a, b, sizeof a) == 0 && ra.iterations == rb.iterations);
}
END_TEST

START_TEST(platelets_keep_to_their_band)
{
  if (!test_rank0_once()) return;
  efsi_seeding s = {.length = {24, 26, 26}, .cells = {48, 52, 52}, .periodic = {1, 0, 0},
                    .seed = 4, .vessel = 1, .vessel_diameter = 24};
  efsi_body_family f[2] = {rbcs(0.2),
                           {.kind = BODY_PLATELET, .material = 1, .count = 40,
                            .size = {1, 1, 0.8}, .band = {0.7, 0.9}}};
  efsi_body *all;
  const long n = test_whole_list(&s, f, 2, &all);
  long platelets = 0, outside = 0;
  double lo = 1, hi = 0;
  for (long m = 0; m < n; m++) {
    if (all[m].kind != BODY_PLATELET) continue;
    const double r = hypot(all[m].center[1] - 13, all[m].center[2] - 13) / 12;
    lo = fmin(lo, r);
    hi = fmax(hi, r);
    outside += r < 0.7 || r > 0.9;
    platelets++;
  }
  printf("band 0.7 0.9: %ld platelets between r/(D/2) = %.4f and %.4f, with %ld RBCs\n",
           platelets, lo, hi, n - platelets);
  ck_assert(platelets == 40 && outside == 0);
  free(all);
  /* refusals name the key */
  char err[512];
  long total;
  efsi_body_family bad = f[1];
  bad.band[0] = 0.9;
  bad.band[1] = 0.7;
  ck_assert(bodies_seed(&s, &bad, 1, NULL, 0, &total, NULL, err, sizeof err) != 0 &&
            strstr(err, "platelet.radial_band = 0.9 0.7") == err);
  bad.band[0] = 0.95;
  bad.band[1] = 1;
  ck_assert(bodies_seed(&s, &bad, 1, NULL, 0, &total, NULL, err, sizeof err) != 0 &&
            strstr(err, "platelet.radial_band = 0.95 1: a platelet's centre stays within") == err);
  printf("refused: %s\n", err);
  const efsi_seeding box = box_case();
  ck_assert(bodies_seed(&box, &f[1], 1, NULL, 0, &total, NULL, err, sizeof err) != 0 &&
            strstr(err, "platelet.radial_band = 0.7 0.9: a band of the lumen needs a vessel") == err);
}
END_TEST

START_TEST(unreachable_hematocrit_names_the_limit)
{
  if (!test_rank0_once()) return;
  efsi_seeding s = box_case();
  s.length[0] = s.length[1] = s.length[2] = 16;
  s.cells[0] = s.cells[1] = s.cells[2] = 32;
  s.periodic[1] = s.periodic[2] = 0;
  efsi_body_family f = rbcs(0.7);
  char err[512] = "";
  long total = -1;
  ck_assert(bodies_seed(&s, &f, 1, NULL, 0, &total, NULL, err, sizeof err) != 0 && total == 0);
  printf("refused: %s\n", err);
  const char *expect = "rbc.hematocrit = 0.7 cannot be placed: at most about ";
  ck_assert_msg(strstr(err, expect) == err, "%s", err);
  const double limit = atof(err + strlen(expect));
  ck_assert(limit > 0.2 && limit < 0.7);
  ck_assert(strstr(err, "with random packing in the 16 x 16 x 16 box"));
  efsi_body_family many = rbcs(0);
  many.count = 30;
  ck_assert(bodies_seed(&s, &many, 1, NULL, 0, &total, NULL, err, sizeof err) != 0);
  printf("refused: %s\n", err);
  const char *count = "rbc.count = 30 cannot be placed: at most about ";
  ck_assert_msg(strstr(err, count) == err, "%s", err);
  const long most = atol(err + strlen(count));
  ck_assert(most > 5 && most < 30);
  f.fraction = 0.9 * limit;
  efsi_seeding_report report;
  ck_assert_msg(bodies_seed(&s, &f, 1, NULL, 0, &total, &report, err, sizeof err) == 0, "%s",
                err);
  printf("90 %% of it, %.4f: placed (%ld RBCs, %ld sweeps)\n", report.fraction[0], total,
           report.sweeps);
}
END_TEST

static Suite *packing_suite(void)
{
  Suite *s = suite_create("packing");
  const TTest *tests[] = {dense_lumen_never_overlaps, dense_box_never_overlaps,
                          packing_ignores_the_thread_count, platelets_keep_to_their_band,
                          unreachable_hematocrit_names_the_limit, NULL};
  test_case_add(s, "packing", 600, tests);
  return s;
}

int main(int argc, char **argv) { return mpi_check_main(argc, argv, packing_suite); }
