/* Each body's volume, centroid and second moments (src/bodies/body_shapes.c, docs/tracers.md,
 * "Body shapes") on every process grid of the run's size, against one rank's computation
 * and against closed forms: a rotated ellipsoid's moments R diag(a_i^2/5) R^T (to the
 * sub-cell drawing's error), an RBC across the periodic x side equal to its copy drawn a
 * whole number of cells away inside the box, the centroid unwrapped around the tracer, two
 * platelets drawn in contact split between them, every cell of a material given to some
 * body (the sum of the volumes is the material's), a body without cells (NaN shape), and
 * the records the same bits on every process grid and on one rank (a reach larger than a
 * block on 8 ranks).  And bodies.nc (io/bodies_nc.c) written by every rank in parallel and
 * gathered through rank 0: the same variables, bit for bit. */
#include <check.h>
#include <math.h>
#include <netcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "decomp/decomp.h"
#include "io/bodies_nc.h"
#include "src/bodies/body_shapes.h"
#include "src/case/case.h"
#include "src/case/config.h"
#include "src/bodies/init_solid.h"
#include "src/bodies/tracers.h"
#include "stencils/draw.h"
#include "tests/test_support.h"

/* 32 x 24 x 16 cells of 0.5: x and z periodic, walls in y; the materials rbc, platelet,
 * ellipsoid (the state's order). */
static const int cells[3] = {32, 24, 16};
static const double length[3] = {16, 12, 8};
static const int periodic[3] = {1, 0, 1};
static const char case_text[] =
  "[grid]\ncells = 32 24 16\nlength = 16 12 8\n[boundary]\ny = wall\nz = periodic\n"
  "[time]\nsteps = 1\n[rbc]\ncount = 2\ndiameter = 4\n"
  "[platelet]\ncount = 2\nsemi_axes = 1 0.8 0.6\nmodulus = 1\n"
  "[ellipsoid]\ncenter = 8 6 4\nsemi_axes = 2.5 1.5 1\nmodulus = 1\n";

enum { RBC_A, RBC_B, PLATELET_A, PLATELET_B, ELLIPSOID, GHOST, BODIES };
enum { M_RBC, M_PLATELET, M_ELLIPSOID, MATERIALS };

static efsi_config config;
static efsi_case cs;

static void rotation(double angle_z, double angle_x, double frame[3][3])
{
  const double cz = cos(angle_z), sz = sin(angle_z), cx = cos(angle_x), sx = sin(angle_x);
  /* rows: the body's axes in lab coordinates, Rz(angle_z) Rx(angle_x) */
  const double r[3][3] = {{cz, -sz * cx, sz * sx}, {sz, cz * cx, -cz * sx}, {0, sx, cx}};
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++) frame[a][b] = r[b][a];
}

/* The bodies: ids 0 .. BODIES-1.  RBC_A straddles x = 0 and z = 0; RBC_B is the same RBC
 * moved by (10, 0, 4) (whole cells) inside the box; two platelets side by side 2.0 apart
 * (semi-axis 1 along x: they touch); a rotated ellipsoid; GHOST is a platelet drawn nowhere
 * (its tracer in a corner, no phi near it). */
static void make_bodies(efsi_body b[BODIES])
{
  memset(b, 0, BODIES * sizeof *b);
  for (int n = 0; n < BODIES; n++) {
    b[n].id = n;
    for (int d = 0; d < 3; d++) b[n].frame[d][d] = 1.0;
  }
  const double rbc_center[3] = {0.3, 6.1, 0.2};
  b[RBC_A].kind = b[RBC_B].kind = BODY_RBC;
  b[RBC_A].material = b[RBC_B].material = M_RBC;
  b[RBC_A].size[0] = b[RBC_B].size[0] = 4.0;
  rotation(0.4, 0.9, b[RBC_A].frame);
  memcpy(b[RBC_B].frame, b[RBC_A].frame, sizeof b[RBC_A].frame);
  const double shift[3] = {10.0, 0.0, 4.0};
  for (int d = 0; d < 3; d++) {
    b[RBC_A].center[d] = rbc_center[d];
    b[RBC_B].center[d] = rbc_center[d] + shift[d];
  }
  for (int n = PLATELET_A; n <= PLATELET_B; n++) {
    b[n].kind = BODY_PLATELET;
    b[n].material = M_PLATELET;
    b[n].size[0] = 1.0;
    b[n].size[1] = 0.8;
    b[n].size[2] = 0.6;
    b[n].center[0] = 4.0 + 2.0 * (n - PLATELET_A);
    b[n].center[1] = 2.2;
    b[n].center[2] = 4.1;
  }
  b[ELLIPSOID].kind = BODY_ELLIPSOID;
  b[ELLIPSOID].material = M_ELLIPSOID;
  b[ELLIPSOID].size[0] = 2.5;
  b[ELLIPSOID].size[1] = 1.5;
  b[ELLIPSOID].size[2] = 1.0;
  b[ELLIPSOID].center[0] = 8.05;
  b[ELLIPSOID].center[1] = 8.0;
  b[ELLIPSOID].center[2] = 4.0;
  rotation(0.5, 0.3, b[ELLIPSOID].frame);
  b[GHOST] = b[PLATELET_A];
  b[GHOST].id = GHOST;
  b[GHOST].center[0] = 15.9;
  b[GHOST].center[1] = 11.5;
  b[GHOST].center[2] = 6.0;
}

/* phi[m] (new fields of g) <- the volume fractions of the bodies on block g: every
 * periodic image of every body but the ghost. */
static void draw(const efsi_grid *g, const efsi_body *b, double *phi[MATERIALS])
{
  for (int m = 0; m < MATERIALS; m++) phi[m] = field_alloc(g);
  efsi_body image[BODIES * 9];
  long n = 0;
  for (int k = 0; k < GHOST; k++)
    for (int sx = -1; sx <= 1; sx++)
      for (int sz = -1; sz <= 1; sz++) {
        image[n] = b[k];
        image[n].center[0] += sx * length[0];
        image[n].center[2] += sz * length[2];
        n++;
      }
  ck_assert_int_eq(bodies_volume_fraction(g, image, n, 0.0, phi), 0);
}

/* Every record on rank 0 (count of them), computed on decomposition d: phi drawn on the
 * block, tracers where their owners are. */
static efsi_body_record *records_on(const efsi_decomp *d, const efsi_grid *g,
                                    const efsi_body *b)
{
  double *phi[MATERIALS];
  draw(g, b, phi);
  efsi_tracers *t = tracers_create(d, g, 0);
  for (int k = 0; k < BODIES; k++)
    if (tracers_owns(g, b[k].center)) tracers_add(t, b[k].id, b[k].kind, b[k].center);
  efsi_body_shapes *s = body_shapes_create(&cs, d, g, BODIES);
  const efsi_body_record *mine = body_shapes_compute(s, tracers_local(t), tracers_local_count(t),
                                                     phi);
  long first, count;
  body_shapes_share(s, d->rank, &first, &count);
  int bytes = (int)(count * (long)sizeof *mine), *counts = NULL, *displs = NULL;
  efsi_body_record *all = NULL;
  if (d->rank == 0) {
    all = calloc(BODIES, sizeof *all);
    counts = calloc((size_t)d->size, sizeof *counts);
    displs = calloc((size_t)d->size, sizeof *displs);
  }
  MPI_Gather(&bytes, 1, MPI_INT, counts, 1, MPI_INT, 0, d->comm);
  for (int r = 1; d->rank == 0 && r < d->size; r++) displs[r] = displs[r - 1] + counts[r - 1];
  MPI_Gatherv(mine, bytes, MPI_BYTE, all, counts, displs, MPI_BYTE, 0, d->comm);
  free(counts);
  free(displs);
  body_shapes_free(s);
  tracers_free(t);
  for (int m = 0; m < MATERIALS; m++) field_free(phi[m]);
  return all;
}

/* Sum of phi dV of one material over the whole box, by brute force on one rank. */
static double material_volume(const efsi_body *b, int material)
{
  const int zero[3] = {0, 0, 0};
  efsi_grid g;
  grid_init(&g, cells, length, cells, zero, (int[3]){0, 1, 0}, (int[3]){0, 1, 0});
  double *phi[MATERIALS];
  draw(&g, b, phi);
  double sum = 0.0;
  for (int k = 0; k < cells[2]; k++)
    for (int j = 0; j < cells[1]; j++)
      for (int i = 0; i < cells[0]; i++) sum += phi[material][grid_index(&g, i, j, k)];
  for (int m = 0; m < MATERIALS; m++) field_free(phi[m]);
  return sum * g.h[0] * g.h[1] * g.h[2];
}

static void setup(void)
{
  char err[512];
  ck_assert_msg(config_parse(&config, "shapes.ini", case_text, NULL, 0, err, sizeof err) == 0,
                "%s", err);
  case_resolve(&config, &cs);
  ck_assert_int_eq(cs.nmat, MATERIALS);
}

static int bitwise(const efsi_body_record *a, const efsi_body_record *b)
{
  return memcmp(a, b, BODIES * sizeof *a) == 0;
}

START_TEST(closed_forms_and_every_process_grid)
{
  setup();
  efsi_body b[BODIES];
  make_bodies(b);
  /* one rank, the whole grid */
  efsi_body_record *one = NULL;
  if (test_rank0()) {
    efsi_decomp self;
    char err[256];
    const int none[3] = {1, 1, 1};
    ck_assert_int_eq(decomp_create(&self, MPI_COMM_SELF, cells, none, periodic, err, sizeof err), 0);
    efsi_grid g;
    decomp_grid(&self, cells, length, &g);
    one = records_on(&self, &g, b);
    decomp_free(&self);

    const double cell = 0.125;
    /* the ellipsoid: volume 4/3 pi abc to 1 %, moments R diag(a^2/5) R^T to 2 % of a^2/5 */
    const efsi_body_record *e = &one[ELLIPSOID];
    const double exact = 4.0 / 3.0 * M_PI * 2.5 * 1.5 * 1.0;
    ck_assert_msg(fabs(e->volume / exact - 1) < 0.01, "ellipsoid volume %g, exact %g", e->volume,
                  exact);
    static const int pair[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {0, 2}, {1, 2}};
    double worst = 0.0;
    for (int k = 0; k < 6; k++) {
      double m = 0.0;
      for (int q = 0; q < 3; q++)
        m += b[ELLIPSOID].frame[q][pair[k][0]] * b[ELLIPSOID].frame[q][pair[k][1]]
           * b[ELLIPSOID].size[q] * b[ELLIPSOID].size[q] / 5.0;
      worst = fmax(worst, fabs(e->moment[k] - m) / (2.5 * 2.5 / 5.0));
    }
    ck_assert_msg(worst < 0.02, "ellipsoid moments off by %g of a^2/5", worst);
    for (int d = 0; d < 3; d++)
      ck_assert_msg(fabs(e->centroid[d] - b[ELLIPSOID].center[d]) < 0.01 * 0.5,
                    "ellipsoid centroid %g, centre %g", e->centroid[d], b[ELLIPSOID].center[d]);
    /* the RBC across x = 0 and z = 0 is its copy moved by whole cells: the same volume and
     * moments, the centroid moved by the same shift (unwrapped around the tracer) */
    const efsi_body_record *ra = &one[RBC_A], *rb = &one[RBC_B];
    ck_assert_msg(fabs(ra->volume - rb->volume) <= 1e-12 * rb->volume, "%.17g %.17g",
                  ra->volume, rb->volume);
    for (int k = 0; k < 6; k++)
      ck_assert_msg(fabs(ra->moment[k] - rb->moment[k]) <= 1e-12 * fabs(rb->moment[0]),
                    "moment %d: %.17g %.17g", k, ra->moment[k], rb->moment[k]);
    const double shift[3] = {10.0, 0.0, 4.0};
    for (int d = 0; d < 3; d++) {
      ck_assert_msg(fabs(ra->centroid[d] + shift[d] - rb->centroid[d]) < 1e-12,
                    "centroid %d: %.17g + %g, %.17g", d, ra->centroid[d], shift[d], rb->centroid[d]);
      ck_assert(fabs(ra->centroid[d] - ra->x[d]) < 0.1);   /* near its tracer, not at L - x */
    }
    /* each material's volume is shared out whole; the touching platelets halve it */
    const int material_of[BODIES] = {M_RBC, M_RBC, M_PLATELET, M_PLATELET, M_ELLIPSOID, M_PLATELET};
    for (int m = 0; m < MATERIALS; m++) {
      double shared = 0.0;
      for (int k = 0; k < BODIES; k++)
        if (material_of[k] == m) shared += one[k].volume;
      const double whole = material_volume(b, m);
      ck_assert_msg(fabs(shared - whole) <= 1e-12 * whole, "material %d: %.17g of %.17g", m,
                    shared, whole);
    }
    ck_assert_msg(fabs(one[PLATELET_A].volume - one[PLATELET_B].volume) < 0.02 * cell * 8,
                  "platelets %g and %g", one[PLATELET_A].volume, one[PLATELET_B].volume);
    /* the ghost: no cells, no shape; its tracer as given */
    ck_assert(one[GHOST].volume == 0.0 && isnan(one[GHOST].centroid[0])
              && isnan(one[GHOST].moment[0]) && one[GHOST].x[0] == 15.9);
    for (int k = 0; k < BODIES; k++)
      ck_assert(one[k].id == k && one[k].kind == b[k].kind);
    printf("body shapes: ellipsoid volume %.5g (exact %.5g), moments within %.2g of a^2/5; "
           "RBC across the periodic sides equal to its copy\n", e->volume, exact, worst);
  }
  /* every process grid of this size: the records of one rank, bit for bit */
  int p[64][3];
  const int np = mpi_check_invariance_grids(mpi_check_world_size(), cells, p, 64);
  for (int c = 0; c < np; c++) {
    efsi_decomp d;
    efsi_grid g;
    test_decomp(&d, &g, cells, p[c], periodic, length);
    efsi_body_record *all = records_on(&d, &g, b);
    int same = !test_rank0() || bitwise(all, one);
    MPI_Bcast(&same, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (test_rank0() && !same)
      for (int k = 0; k < BODIES; k++)
        printf("grid %d %d %d body %d: volume %.17g / %.17g\n", p[c][0], p[c][1], p[c][2], k,
               all[k].volume, one[k].volume);
    ck_assert_msg(same, "process grid %d %d %d: records differ from one rank's", p[c][0],
                  p[c][1], p[c][2]);
    free(all);
    decomp_free(&d);
  }
  free(one);
}
END_TEST

/* Every variable of two bodies.nc files, bit for bit (rank 0); 0 when the same. */
static int files_differ(const char *a, const char *b, char *what, size_t len)
{
  int fa, fb, nvars, nvars_b;
  ck_assert_int_eq(nc_open(a, NC_NOWRITE, &fa), NC_NOERR);
  ck_assert_int_eq(nc_open(b, NC_NOWRITE, &fb), NC_NOERR);
  ck_assert_int_eq(nc_inq_nvars(fa, &nvars), NC_NOERR);
  ck_assert_int_eq(nc_inq_nvars(fb, &nvars_b), NC_NOERR);
  int differ = nvars != nvars_b;
  snprintf(what, len, "%d and %d variables", nvars, nvars_b);
  for (int v = 0; !differ && v < nvars; v++) {
    char name[NC_MAX_NAME + 1];
    nc_type type;
    int ndims, dims[NC_MAX_VAR_DIMS], vb;
    ck_assert_int_eq(nc_inq_var(fa, v, name, &type, &ndims, dims, NULL), NC_NOERR);
    ck_assert_int_eq(nc_inq_varid(fb, name, &vb), NC_NOERR);
    size_t n = 1, size, len_b = 1;
    for (int k = 0; k < ndims; k++) {
      size_t l;
      ck_assert_int_eq(nc_inq_dimlen(fa, dims[k], &l), NC_NOERR);
      n *= l;
    }
    int ndims_b, dims_b[NC_MAX_VAR_DIMS];
    ck_assert_int_eq(nc_inq_var(fb, vb, NULL, NULL, &ndims_b, dims_b, NULL), NC_NOERR);
    for (int k = 0; k < ndims_b; k++) {
      size_t l;
      ck_assert_int_eq(nc_inq_dimlen(fb, dims_b[k], &l), NC_NOERR);
      len_b *= l;
    }
    ck_assert_int_eq(nc_inq_type(fa, type, NULL, &size), NC_NOERR);
    void *x = calloc(n, size), *y = calloc(n, size);
    differ = len_b != n || nc_get_var(fa, v, x) != NC_NOERR || nc_get_var(fb, vb, y) != NC_NOERR
          || memcmp(x, y, n * size) != 0;
    snprintf(what, len, "variable %.*s (%zu and %zu values)", NC_MAX_NAME, name, n, len_b);
    free(x);
    free(y);
  }
  nc_close(fa);
  nc_close(fb);
  return differ;
}

/* Writes records of total bodies (every rank holds them all; rank r appends its uneven
 * share of the ids) in parallel and through rank 0, and says on rank 0 whether the two
 * files differ (0: the same bits). */
static int both_paths_differ(const efsi_decomp *d, const efsi_body_record *all, long total,
                             int records, int power, char *what, size_t len)
{
  char dir[2][64] = {"bodies_nc_parallel.XXXXXX", "bodies_nc_rank0.XXXXXX"};
  const int rank = d->rank, size = d->size;
  /* power 1: near even shares; 2: uneven (rank 0 none on 2 ranks and more, the last the
   * most) */
  const long r0 = power == 1 ? rank : rank * rank, r1 = power == 1 ? rank + 1 : (rank + 1) * (rank + 1);
  const long whole = power == 1 ? size : (long)size * size;
  const long first = total * r0 / whole, end = total * r1 / whole;
  efsi_body_record *moved = calloc((size_t)(end > first ? end - first : 1), sizeof *moved);
  for (int w = 0; w < 2; w++) {
    if (rank == 0) ck_assert(mkdtemp(dir[w]) != NULL);
    MPI_Bcast(dir[w], sizeof dir[w], MPI_CHAR, 0, MPI_COMM_WORLD);
    const efsi_bodies_file f = {.dir = dir[w], .case_name = "shapes", .run_id = "test",
                                .kind_names = body_kind_names, .kinds = BODY_KINDS,
                                .total = total, .serial_up_to = w ? total : 0};
    for (int record = 0; record < records; record++) {
      for (long k = first; k < end; k++) {   /* the records differ from step to step */
        moved[k - first] = all[k];
        moved[k - first].x[0] += 0.25 * record;
      }
      bodies_nc_append(&f, d, 10L * record, 0.5 * record, first, end - first, moved);
    }
  }
  free(moved);
  int differ = 0;
  if (rank == 0) {
    char a[128], c[128];
    snprintf(a, sizeof a, "%s/bodies.nc", dir[0]);
    snprintf(c, sizeof c, "%s/bodies.nc", dir[1]);
    differ = files_differ(a, c, what, len);
    remove(a);
    remove(c);
    rmdir(dir[0]);
    rmdir(dir[1]);
  }
  return differ;
}

START_TEST(bodies_file_parallel_and_through_rank0)
{
  setup();
  efsi_body b[BODIES];
  make_bodies(b);
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int ranks[3] = {size, 1, 1};   /* 32 cells along x: up to 8 ranks */
  efsi_decomp d;
  efsi_grid g;
  test_decomp(&d, &g, cells, ranks, periodic, length);
  char what[NC_MAX_NAME + 64];
  /* the bodies of this test, in one chunk */
  efsi_body_record *all = records_on(&d, &g, b);   /* rank 0's; every rank's copy below */
  if (!all) all = calloc(BODIES, sizeof *all);
  MPI_Bcast(all, (int)(BODIES * sizeof *all), MPI_BYTE, 0, MPI_COMM_WORLD);
  int differ = both_paths_differ(&d, all, BODIES, 4, 1, what, sizeof what);
  ck_assert_msg(!differ, "%d bodies: bodies.nc in parallel and through rank 0 differ: %s",
                BODIES, what);
  free(all);
  /* two and a half chunks of made-up bodies: slabs that straddle the chunks' bounds */
  const long many = 2 * BODIES_NC_CHUNK_BODIES + BODIES_NC_CHUNK_BODIES / 2 + 7;
  all = calloc((size_t)many, sizeof *all);
  for (long k = 0; k < many; k++) {
    all[k].id = k;
    all[k].kind = (int)(k % BODY_KINDS);
    all[k].volume = 1.0 + 1e-6 * (double)k;
    for (int q = 0; q < 3; q++) {
      all[k].x[q] = all[k].centroid[q] = 1e-3 * (double)k + q;
      all[k].v[q] = -1e-4 * (double)k;
    }
    for (int q = 0; q < 6; q++) all[k].moment[q] = 1e-5 * (double)(k + q);
  }
  for (int power = 1; power <= 2; power++) {
    differ = both_paths_differ(&d, all, many, 2, power, what, sizeof what);
    ck_assert_msg(!differ, "%ld bodies (shares of power %d): bodies.nc in parallel and "
                  "through rank 0 differ: %s", many, power, what);
  }
  if (test_rank0())
    printf("bodies.nc: %d and %ld bodies on %d ranks: the same file in parallel and through "
           "rank 0\n", BODIES, many, size);
  free(all);
  decomp_free(&d);
}
END_TEST

static Suite *shapes_suite(void)
{
  Suite *s = suite_create("body_shapes");
  TCase *tc = tcase_create("body_shapes");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, closed_forms_and_every_process_grid);
  tcase_add_test(tc, bodies_file_parallel_and_through_rank0);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) { return mpi_check_main(argc, argv, shapes_suite); }
