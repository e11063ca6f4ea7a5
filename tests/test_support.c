/* What the test programs share (see test_support.h). */
#include "tests/test_support.h"

#include <math.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "stencils/location.h"
#include "stencils/shapes.h"

int mpi_all(int condition)
{
  int all = 0;
  MPI_Allreduce(&condition, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  return all;
}

int mpi_check_world_size(void)
{
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

int mpi_check_process_grids(int size, int grids[][3], int max)
{
  int count = 0;
  for (int px = 1; px <= size; px++)
    for (int py = 1; px * py <= size; py++)
      if (size % (px * py) == 0 && count < max) {
        grids[count][0] = px;
        grids[count][1] = py;
        grids[count][2] = size / (px * py);
        count++;
      }
  return count;
}

int mpi_check_invariance_grids(int size, const int cells[3], int grids[][3], int max)
{
  static const int grids8[3][3] = {{8, 1, 1}, {2, 2, 2}, {1, 2, 4}};
  int count = 0;
  if (size == 8) {
    for (int g = 0; g < 3 && count < max; g++) memcpy(grids[count++], grids8[g], sizeof grids8[g]);
    return count;
  }
  int all[64][3];
  const int n = mpi_check_process_grids(size, all, 64);
  for (int g = 0; g < n && count < max; g++)
    if (cells[0] / all[g][0] >= 3 && cells[1] / all[g][1] >= 3 && cells[2] / all[g][2] >= 3)
      memcpy(grids[count++], all[g], sizeof all[g]);
  return count;
}

int mpi_check_main(int argc, char **argv, Suite *(*make_suite)(void))
{
  int provided = 0, rank = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  SRunner *runner = srunner_create(make_suite());
  srunner_set_fork_status(runner, CK_NOFORK);
  srunner_run_all(runner, rank == 0 ? CK_NORMAL : CK_SILENT);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  int any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  return any == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

TCase *test_case_add(Suite *s, const char *name, int timeout, const TTest *const tests[])
{
  TCase *tc = tcase_create(name);
  if (timeout > 0) tcase_set_timeout(tc, timeout);
  for (int t = 0; tests[t]; t++) tcase_add_test(tc, tests[t]);
  suite_add_tcase(s, tc);
  return tc;
}

efsi_grid test_grid(const int n[3], const double length[3], int wall_y, int wall_z)
{
  efsi_grid g;
  const int zero[3] = {0, 0, 0}, wall[3] = {0, wall_y, wall_z};
  grid_init(&g, n, length, n, zero, wall, wall);
  return g;
}

void test_decomp(efsi_decomp *d, efsi_grid *g, const int cells[3], const int ranks[3],
                 const int periodic[3], const double length[3])
{
  char err[256] = "";
  const int rc = decomp_create(d, MPI_COMM_WORLD, cells, ranks, periodic, err, sizeof err);
  ck_assert_msg(mpi_all(rc == 0), "decomp_create on %d x %d x %d ranks: %s", ranks[0], ranks[1],
                ranks[2], err);
  decomp_grid(d, cells, length, g);
}

void test_position(const efsi_grid *g, int loc, int i, int j, int k, double x[3])
{
  const int idx[3] = {i, j, k};
  for (int d = 0; d < 3; d++)
    x[d] = (idx[d] + (d == location_direction(loc) ? 0.0 : 0.5)) * g->h[d];
}

double test_mode_eval(const test_mode *md, const double length[3], const double x[3],
                      const int deriv[3])
{
  const double two_pi = 6.283185307179586, half_pi = 1.5707963267948966;
  double value = md->amplitude;
  for (int d = 0; d < 3; d++) {
    const double kw = two_pi * md->m[d] / length[d];
    value *= pow(kw, deriv[d]) * sin(kw * x[d] + md->phase[d] + deriv[d] * half_pi);
  }
  return value;
}

efsi_scratch *test_plane_scratch(const efsi_grid *g)
{
  static efsi_scratch scratch;   /* the CPU's, grown by the kernels as they need */
  (void)g;
  return &scratch;
}

int test_rank0(void)
{
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank == 0;
}

int test_rank0_once(void)
{
  const char *smallest = getenv("EFSI_TEST_SMALLEST_RANKS");
  return test_rank0() && (!smallest || atoi(smallest) == mpi_check_world_size());
}

static int body_meets(const efsi_body *b, const double lo[3], const double hi[3])
{
  const double r = shape_bounding_radius(b->kind, b->size);
  double d2 = 0;
  for (int d = 0; d < 3; d++) {
    const double e = fmax(fmax(lo[d] - b->center[d], b->center[d] - hi[d]), 0);
    d2 += e * e;
  }
  return d2 <= r * r;
}

long test_whole_list(const efsi_seeding *s, const efsi_body_family *f, int nfam,
                     efsi_body **list)
{
  efsi_body *near;
  long n = 0, kept = 0;
  const double lo[3] = {0, 0, 0};
  ck_assert(bodies_near(s, f, nfam, NULL, 0, NULL, lo, s->length, &near, &n) == 0);
  for (long m = 0; m < n; m++) {
    int base = 1;
    for (int d = 0; d < 3; d++) base &= near[m].center[d] >= 0 && near[m].center[d] < s->length[d];
    if (base) near[kept++] = near[m];
  }
  efsi_body *sorted = malloc((size_t)(kept > 0 ? kept : 1) * sizeof *sorted);
  char *seen = calloc((size_t)(kept > 0 ? kept : 1), 1);
  for (long m = 0; m < kept; m++) {
    ck_assert(near[m].id >= 0 && near[m].id < kept && !seen[near[m].id]);
    seen[near[m].id] = 1;
    sorted[near[m].id] = near[m];
  }
  free(seen);
  free(near);
  *list = sorted;
  return kept;
}

long test_near_missing(const efsi_seeding *s, const efsi_body_family *f, int nfam,
                       const efsi_packed *packed, const efsi_grid *g, const efsi_body *all,
                       long n, char *owned, efsi_body **mine, long *nm, long *expected)
{
  double lo[3], hi[3];
  for (int d = 0; d < 3; d++) {
    lo[d] = g->offset[d] * g->h[d];
    hi[d] = (g->offset[d] + g->n[d]) * g->h[d];
  }
  ck_assert(bodies_near(s, f, nfam, NULL, 0, packed, lo, hi, mine, nm) == 0);
  long missing = 0;
  *expected = 0;
  for (long b = 0; b < n; b++)
    for (int iz = -s->periodic[2]; iz <= s->periodic[2]; iz++)
      for (int iy = -s->periodic[1]; iy <= s->periodic[1]; iy++)
        for (int ix = -1; ix <= 1; ix++) {   /* x is always periodic */
          efsi_body image = all[b];
          const int shift[3] = {ix, iy, iz};
          for (int d = 0; d < 3; d++) image.center[d] += shift[d] * s->length[d];
          if (!body_meets(&image, lo, hi)) continue;
          ++*expected;
          int found = 0;
          for (long m = 0; m < *nm; m++)
            found |= (*mine)[m].id == image.id &&
                     memcmp((*mine)[m].center, image.center, sizeof image.center) == 0 &&
                     memcmp((*mine)[m].frame, image.frame, sizeof image.frame) == 0;
          missing += !found;
          if (owned && ix == 0 && iy == 0 && iz == 0) owned[b] = 1;
        }
  return missing;
}
