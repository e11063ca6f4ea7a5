/* Dense random seeding (docs/bodies.md, "Random packing"), distributed over the ranks:
 *   - randomly oriented RBCs (8 um) at 40 % of a periodic 20 um box and 30 % of a 20 um
 *     lumen are packed on this run's ranks, and on one rank alone: the two give the same
 *     bodies, bit for bit (ids, centres, frames), and the same sweeps; in the lumen also on
 *     the process grid of slabs along x, whose ranks have only some of the others as
 *     neighbours;
 *   - drawn one by one on each rank's block (sharp fractions, 0.5 um cells), the volume
 *     fractions of all bodies and of the vessel wall never sum to more than 1 + 1e-12 in any
 *     cell; the drawn hematocrit is the seeded one within 1 %; each rank's bodies_near is
 *     the brute-force selection from the whole list, and the copies a rank keeps are those
 *     of the bodies' owners;
 *   - the packing does not depend on the number of OpenMP threads;
 *   - platelets keep to their radial band; a band without a vessel, reversed or out of
 *     reach is refused naming platelet.radial_band; a sphere on a packed RBC is refused;
 *   - a hematocrit or a count that cannot be placed is refused naming the limit the
 *     packing reached, and 90 % of that limit is placed;
 *   - two RBCs left nearly on top of each other (taken from a packing of 266,705 bodies
 *     that jammed on them) come apart within a few sweeps, where they used to swap places
 *     sweep after sweep.  That test drives the packing's own sweeps on two bodies, so this
 *     file compiles src/bodies/packing.c itself (its static functions are the ones tested; the
 *     library's copy of packing.o is then not linked). */
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
#include "src/bodies/packing.c"   /* the sweeps of nearly_coincident_rbcs_come_apart */
#include "src/bodies/seeding.h"
#include "tests/test_support.h"

/* by_id (efsi_body by id) is src/bodies/packing.c's; EFSI_PI base/portable.h's */

/* 20 um lumen in a 22 x 22 um cross-section, `length` um long; 0.5 um cells. */
static efsi_seeding lumen_case(double length)
{
  efsi_seeding s = {.length = {length, 22, 22}, .cells = {(int)(2 * length), 44, 44},
                    .periodic = {1, 0, 0}, .seed = 3, .vessel = 1, .vessel_diameter = 20};
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

/* Plan, then pack on the process grid `ranks` of comm (0: efsi chooses).  Returns what
 * bodies_pack returns; the decomposition in *d (decomp_free it). */
static int pack_on(const efsi_seeding *s, const efsi_body_family *f, int nfam,
                   const efsi_body *singles, int nsingle, MPI_Comm comm, const int ranks[3],
                   efsi_decomp *d, efsi_packed *packed, efsi_seeding_report *report, char *err,
                   size_t errlen)
{
  long total = 0;
  if (bodies_seed(s, f, nfam, singles, nsingle, &total, report, err, errlen)) return 1;
  ck_assert(report->packed);
  char why[256];
  ck_assert_msg(decomp_create(d, comm, s->cells, ranks, s->periodic, why, sizeof why) == 0,
                "%s", why);
  return bodies_pack(s, f, nfam, singles, nsingle, d, 0, packed, report, err, errlen);
}

/* Every packed body, from the lists all ranks of comm keep, in id order; a body kept on
 * several ranks (its owner's and the copies) must be the same bits on each.  Collective. */
static long whole_packing(const efsi_packed *p, MPI_Comm comm, efsi_body **all)
{
  int size;
  MPI_Comm_size(comm, &size);
  int mine = (int)(p->n * (long)sizeof(efsi_body)), *count = malloc((size_t)size * sizeof *count);
  int *at = malloc((size_t)size * sizeof *at);
  MPI_Allgather(&mine, 1, MPI_INT, count, 1, MPI_INT, comm);
  long bytes = 0;
  for (int r = 0; r < size; r++) {
    at[r] = (int)bytes;
    bytes += count[r];
  }
  efsi_body *every = malloc((size_t)(bytes > 0 ? bytes : 1));
  MPI_Allgatherv(p->body, mine, MPI_BYTE, every, count, at, MPI_BYTE, comm);
  long n = bytes / (long)sizeof(efsi_body), kept = 0, differ = 0;
  qsort(every, (size_t)n, sizeof *every, by_id);
  for (long m = 0; m < n; m++) {
    if (kept > 0 && every[kept - 1].id == every[m].id) {
      differ += memcmp(&every[kept - 1], &every[m], sizeof *every) != 0;
      continue;
    }
    every[kept++] = every[m];
  }
  ck_assert_msg(differ == 0, "%ld copies differ from their owner's body", differ);
  for (long m = 0; m < kept; m++) ck_assert(every[m].id == m);
  free(count);
  free(at);
  *all = every;
  return kept;
}

/* The packing on one rank alone (rank 0 of the world; nothing elsewhere): its bodies and
 * sweeps. */
typedef struct {
  efsi_body *body;
  long n, sweeps;
} one_rank;

static one_rank packed_alone(const efsi_seeding *s, const efsi_body_family *f, int nfam)
{
  one_rank alone = {NULL, 0, 0};
  if (!test_rank0()) return alone;
  char err[512] = "";
  const int one[3] = {1, 1, 1};
  efsi_decomp self;
  efsi_packed p;
  efsi_seeding_report r;
  ck_assert_msg(pack_on(s, f, nfam, NULL, 0, MPI_COMM_SELF, one, &self, &p, &r, err,
                        sizeof err) == 0, "%s", err);
  alone.n = whole_packing(&p, MPI_COMM_SELF, &alone.body);
  alone.sweeps = r.sweeps;
  packed_free(&p);
  decomp_free(&self);
  return alone;
}

/* Pack on the world's process grid `ranks`: the same bodies and sweeps as on one rank.
 * Returns the world's packing (*d its decomposition) and the whole list. */
static long same_as_one_rank(const efsi_seeding *s, const efsi_body_family *f, int nfam,
                             const one_rank *alone, const int ranks[3], efsi_decomp *d,
                             efsi_packed *packed, efsi_seeding_report *report, efsi_body **all)
{
  char err[512] = "";
  ck_assert_msg(mpi_all(pack_on(s, f, nfam, NULL, 0, MPI_COMM_WORLD, ranks, d, packed, report,
                                err, sizeof err) == 0), "%s", err);
  const long n = whole_packing(packed, MPI_COMM_WORLD, all);
  int same = 1;
  if (test_rank0()) {
    same = n == alone->n && report->sweeps == alone->sweeps &&
           memcmp(alone->body, *all, (size_t)n * sizeof **all) == 0;
    printf("%ld bodies on process grid %d %d %d (at most %ld on a rank, own and copies), "
           "%ld sweeps, %.2f s; on one rank: %ld sweeps, checksum %016llx: %s\n", n,
           d->dims[0], d->dims[1], d->dims[2], report->most_bodies, report->sweeps,
           report->seconds, alone->sweeps, (unsigned long long)checksum(alone->body, alone->n),
           same ? "the same bodies" : "DIFFERENT");
  }
  ALL(same);
  return n;
}

/* On this rank's block: bodies_near against the brute-force selection from the whole list,
 * each body drawn alone, the sum of all fractions (and the wall's) at most 1 + 1e-12.
 * Returns the drawn volume of the bodies (all ranks). */
static double drawn_apart(const efsi_seeding *s, const efsi_body_family *f, int nfam,
                          const efsi_decomp *d, const efsi_packed *packed, const efsi_body *all,
                          long n, const char *what)
{
  efsi_grid g;
  decomp_grid(d, s->cells, s->length, &g);
  efsi_body *mine;
  long nm = 0, expected = 0;
  const long missing = test_near_missing(s, f, nfam, packed, &g, all, n, NULL, &mine, &nm,
                                         &expected);
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
  if (test_rank0())
    printf("%s: largest sum of phi %.15f, %ld cells over 1 + 1e-12\n", what, most, over);
  ALL(over == 0);
  field_free(one);
  field_free(sum_phi);
  field_free(wall);
  free(mine);
  return volume * g.h[0] * g.h[1] * g.h[2];
}

/* RBCs at `fraction` of the region (volume `region`) packed on the world's process grid
 * `ranks`: the bodies of the one-rank packing `alone`, drawn apart, and the drawn fraction
 * the seeded one (at least `fraction`) within 1 %. */
static void dense_case(const efsi_seeding *s, double fraction, double region,
                       const one_rank *alone, const int ranks[3], const char *what)
{
  const efsi_body_family f = rbcs(fraction);
  efsi_decomp d;
  efsi_packed packed;
  efsi_seeding_report report;
  efsi_body *all;
  const long n = same_as_one_rank(s, &f, 1, alone, ranks, &d, &packed, &report, &all);
  const double seeded = report.fraction[0];
  const double drawn = drawn_apart(s, &f, 1, &d, &packed, all, n, what) / region;
  if (test_rank0())
    printf("%s: %ld RBCs, drawn hematocrit %.5f, seeded %.5f, axis order %.3f\n", what, n,
           drawn, seeded, report.order);
  ck_assert(seeded >= fraction && fabs(drawn / seeded - 1) < 0.01);
  free(all);
  packed_free(&packed);
  decomp_free(&d);
}

START_TEST(dense_box_never_overlaps)
{
  const efsi_seeding s = box_case();
  const efsi_body_family f = rbcs(0.4);
  const int any[3] = {0, 0, 0};
  one_rank alone = packed_alone(&s, &f, 1);
  dense_case(&s, 0.4, 20.0 * 20 * 20, &alone, any, "periodic box 20 um, 40 %");
  free(alone.body);
}
END_TEST

START_TEST(dense_lumen_never_overlaps)
{
  const efsi_seeding s = lumen_case(64);
  const efsi_body_family f = rbcs(0.3);
  /* slabs along x (on 8 ranks each has 4 of the 7 others as neighbours), and efsi's choice
   * when it differs */
  const int size = mpi_check_world_size(), slabs[3] = {size, 1, 1}, any[3] = {0, 0, 0};
  int chosen[3];
  char why[256];
  ck_assert(decomp_plan(size, s.cells, any, s.periodic, chosen, why, sizeof why) == 0);
  one_rank alone = packed_alone(&s, &f, 1);
  dense_case(&s, 0.3, 0.25 * EFSI_PI * 20 * 20 * 64, &alone, slabs, "lumen 20 um, 30 %");
  if (memcmp(chosen, slabs, sizeof chosen) != 0)
    dense_case(&s, 0.3, 0.25 * EFSI_PI * 20 * 20 * 64, &alone, chosen, "lumen 20 um, 30 %");
  free(alone.body);
}
END_TEST

/* The packing itself, on 1 and on 2 threads: the same bodies, bit for bit.  This test and
 * the next two do not depend on the number of ranks: rank 0 of the run with the fewest
 * ranks alone runs them on a process grid of its own (test_rank0_once). */
START_TEST(packing_ignores_the_thread_count)
{
  if (!test_rank0_once()) return;
  const packing_region r = {.length = {16, 16, 16}, .periodic = {1, 1, 1}, .wall_margin = 0.5,
                            .gap = 0.05, .seed = 9};
  packing_family f = {.kind = BODY_RBC, .size = {8, 0, 0}, .count = 14, .rotates = 1};
  const int cells[3] = {16, 16, 16}, one[3] = {1, 1, 1};
  efsi_decomp d;
  char why[256];
  ck_assert(decomp_create(&d, MPI_COMM_SELF, cells, one, r.periodic, why, sizeof why) == 0);
  efsi_body *a, *b;
  long na, nb;
  packing_result ra, rb;
#ifdef _OPENMP
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
#endif
  ck_assert_int_eq(packing_run(&r, &f, 1, &d, 0, &a, &na, &ra), 0);
#ifdef _OPENMP
  omp_set_num_threads(2);
#endif
  ck_assert_int_eq(packing_run(&r, &f, 1, &d, 0, &b, &nb, &rb), 0);
#ifdef _OPENMP
  omp_set_num_threads(threads);
#endif
  ck_assert(na == 14 && nb == 14);
  ck_assert(memcmp(a, b, (size_t)na * sizeof *a) == 0 && ra.iterations == rb.iterations);
  free(a);
  free(b);
  decomp_free(&d);
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
  const int one[3] = {1, 1, 1};
  efsi_decomp d;
  efsi_packed packed;
  efsi_seeding_report report;
  char err[512];
  ck_assert_msg(pack_on(&s, f, 2, NULL, 0, MPI_COMM_SELF, one, &d, &packed, &report, err,
                        sizeof err) == 0, "%s", err);
  long platelets = 0, outside = 0;
  double lo = 1, hi = 0;
  for (long m = 0; m < packed.n; m++) {
    const efsi_body *b = &packed.body[m];
    if (b->kind != BODY_PLATELET) continue;
    const double r = hypot(b->center[1] - 13, b->center[2] - 13) / 12;
    lo = fmin(lo, r);
    hi = fmax(hi, r);
    outside += r < 0.7 || r > 0.9;
    platelets++;
  }
  printf("band 0.7 0.9: %ld platelets between r/(D/2) = %.4f and %.4f, with %ld RBCs\n",
         platelets, lo, hi, packed.n - platelets);
  ck_assert(platelets == 40 && outside == 0);
  /* a sphere where a packed RBC lies is refused, naming the RBC */
  long first = 0;
  while (packed.body[first].kind != BODY_RBC) first++;
  efsi_body sphere = {.kind = BODY_SPHERE, .size = {1.5, 0, 0},
                      .frame = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
  memcpy(sphere.center, packed.body[first].center, sizeof sphere.center);
  efsi_packed again;
  decomp_free(&d);
  ck_assert(pack_on(&s, f, 2, &sphere, 1, MPI_COMM_SELF, one, &d, &again, &report, err,
                    sizeof err) != 0 && strstr(err, "overlaps seeded rbc"));
  printf("refused: %s\n", err);
  packed_free(&packed);
  decomp_free(&d);
  /* refusals of the band name the key */
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
  const int one[3] = {1, 1, 1};
  efsi_body_family f = rbcs(0.7);
  efsi_decomp d;
  efsi_packed packed;
  efsi_seeding_report report;
  char err[512] = "";
  ck_assert(pack_on(&s, &f, 1, NULL, 0, MPI_COMM_SELF, one, &d, &packed, &report, err,
                    sizeof err) != 0 && !packed.done);
  decomp_free(&d);
  printf("refused: %s\n", err);
  const char *expect = "rbc.hematocrit = 0.7 cannot be placed: at most about ";
  ck_assert_msg(strstr(err, expect) == err, "%s", err);
  const double limit = atof(err + strlen(expect));
  ck_assert(limit > 0.2 && limit < 0.7);
  ck_assert(strstr(err, "with random packing in the 16 x 16 x 16 box"));
  efsi_body_family many = rbcs(0);
  many.count = 30;
  ck_assert(pack_on(&s, &many, 1, NULL, 0, MPI_COMM_SELF, one, &d, &packed, &report, err,
                    sizeof err) != 0);
  decomp_free(&d);
  printf("refused: %s\n", err);
  const char *count = "rbc.count = 30 cannot be placed: at most about ";
  ck_assert_msg(strstr(err, count) == err, "%s", err);
  const long most = atol(err + strlen(count));
  ck_assert(most > 5 && most < 30);
  f.fraction = 0.9 * limit;
  ck_assert_msg(pack_on(&s, &f, 1, NULL, 0, MPI_COMM_SELF, one, &d, &packed, &report, err,
                        sizeof err) == 0, "%s", err);
  printf("90 %% of it, %.4f: placed (%ld RBCs, %ld sweeps)\n", report.fraction[0],
         report.count[0], report.sweeps);
  packed_free(&packed);
  decomp_free(&d);
}
END_TEST

/* Two RBCs as a packing of 266,705 bodies left them at scale 0.5 (centres 0.24 and 0.28 um
 * apart, discs nearly parallel; the frames as printed there): the contact's normal points
 * into the other body, and before push_direction the pair swapped places every sweep and
 * the packing jammed at scale 0.  Driven by the packing's own sweeps (exchange, contacts,
 * moves) at that scale, each pair must come free of overlap within 20 sweeps. */
START_TEST(nearly_coincident_rbcs_come_apart)
{
  if (!test_rank0_once()) return;
  static const double centre[2][2][3] = {
      {{12.38722247402919, 11.52472384485088, 11.99561640153027},
       {12.4876543406598, 11.68605936928483, 11.85020074995549}},
      {{12.55083704535366, 12.08026243331773, 11.45771960933052},
       {12.49820171008389, 12.21606322217104, 11.69507891321038}}};
  static const double frame[2][2][3][3] = {
      {{{0.15078162795654182, -0.86750592212151989, -0.47402360252931142},
        {-0.98797307769383103, -0.14885755288976441, -0.041840491152118173},
        {-0.034265119625568073, 0.47463133486081877, -0.87951747995436858}},
       {{-0.19019692670776522, 0.85308475441156084, 0.4858719284559338},
        {-0.9816520411134364, -0.17210061860480522, -0.08210144489390965},
        {0.01357936849582066, -0.49257261278557746, 0.87016539915400237}}},
      {{{0.93607902090381778, -0.29503600392632479, 0.19159807674122348},
        {-0.34773265081746491, -0.8584861815241549, 0.37693962339814457},
        {0.053273541080062548, -0.41947018072714259, -0.90620455599248073}},
       {{0.27368090443339371, 0.91135036196135299, -0.30747240575607832},
        {-0.9501950800476362, 0.20663261406156189, -0.23330724947877668},
        {-0.14909081930751511, 0.35601050624805508, 0.92251203083711453}}}};
  const packing_region r = {.length = {24, 24, 24}, .periodic = {1, 1, 1},
                            .wall_margin = 0.5, .gap = 0.019979574500000003, .seed = 1};
  const packing_family f = {.kind = BODY_RBC, .size = {8, 0, 0}, .count = 2, .rotates = 1};
  const int cells[3] = {24, 24, 24}, one[3] = {1, 1, 1};
  efsi_decomp d;
  char why[256];
  ck_assert(decomp_create(&d, MPI_COMM_SELF, cells, one, r.periodic, why, sizeof why) == 0);
  for (int c = 0; c < 2; c++) {
    sweeper s;   /* the packing's own set-up (packing_run's) */
    sweeper_open(&s, &r, &f, 1, &d);
    packing_body *b = efsi_malloc(2 * sizeof *b, "test bodies");
    for (int m = 0; m < 2; m++) {
      b[m] = (packing_body){.id = m, .family = 0, .moved = 1};
      memcpy(b[m].c, centre[c][m], sizeof b[m].c);
      memcpy(b[m].frame, frame[c][m], sizeof b[m].frame);
    }
    packer P = {&r, s.shape, &s.table, &s.ang, b, 2, 2, 0.49999483684400936};
    sweeper_start(&s, 2);
    long sweep, violated = -1;
    double first = 0;
    for (sweep = 0; sweep < 200; sweep++) {
      exchange(&P, &s.pr, &s.w, s.reach, s.lists);
      const sweep_measure m = sweep_contacts(&P, &s.pr, &s.w, sweep == 0, s.reach);
      if (sweep == 0) first = m.deepest;
      violated = (long)m.count[0];
      if (violated == 0) break;
      sweep_move(&P, &s.w);
    }
    printf("nearly coincident RBCs %d: overlap %.3g of the smaller radius at first, free after "
           "%ld sweeps\n", c, first, sweep);
    ck_assert_msg(first > 0.1, "the pair starts overlapping (%g)", first);
    ck_assert_msg(violated == 0 && sweep <= 20, "still overlapping after %ld sweeps", sweep);
    free(P.b);
    sweeper_close(&s);
  }
  decomp_free(&d);
}
END_TEST

static Suite *packing_suite(void)
{
  Suite *s = suite_create("packing");
  const TTest *tests[] = {dense_box_never_overlaps, dense_lumen_never_overlaps,
                          packing_ignores_the_thread_count, platelets_keep_to_their_band,
                          unreachable_hematocrit_names_the_limit,
                          nearly_coincident_rbcs_come_apart, NULL};
  test_case_add(s, "packing", 600, tests);
  return s;
}

int main(int argc, char **argv) { return mpi_check_main(argc, argv, packing_suite); }
