/* The GPU's kernels against the CPU's (docs/gpu.md, "Verification"): every entry of the
 * kernel table, and the layer moves, on random fields of a small block with walls in y and
 * z, run once by each backend.  The per-point kernels compute the same formulas in the same
 * order, so with the default FMA policy (no fused multiply-adds on either side) the GPU
 * must reproduce the CPU's bits; so must the ACM sums (double-double); the diagnostics'
 * reductions combine in another order inside a plane and must agree to 1e-13 relative.  Skipped (exit 77) in a build without the GPU backend or
 * where no GPU is visible. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/device.h"
#include "base/tensor.h"
#include "decomp/layers.h"
#include "stencils/kernels.h"
#include "stencils/location.h"
#include "tests/test_support.h"

#ifdef EFSI_CUDA

enum { NF = 24 };                 /* random fields of the test */
static const int cells[3] = {13, 10, 9};
static const double length[3] = {1.3, 1.0, 0.9};

typedef struct {
  efsi_grid g;
  double *host[NF];               /* inputs, and the CPU's outputs */
  double *dev[NF];                /* the same on the GPU */
  double *scratch_host, *scratch_dev;
} bench;

static double uniform(unsigned *state)
{
  *state = *state * 1664525u + 1013904223u;
  return (*state >> 8) / 16777216.0;
}

/* Random fields, halos included (B close to I so the treatment sees realistic values; the
 * volume fractions in [-0.05, 1.05] like WENO5's small over- and undershoots). */
static void bench_open(bench *b, unsigned seed)
{
  b->g = test_grid(cells, length, 1, 1);
  unsigned state = seed;
  for (int f = 0; f < NF; f++) {
    b->host[f] = field_alloc(&b->g);
    b->dev[f] = device_alloc(b->g.size);
    ck_assert(b->host[f] && b->dev[f]);
    for (size_t n = 0; n < b->g.size; n++) {
      const double x = uniform(&state);
      b->host[f][n] = f >= 10 && f < 13 ? 1.0 + 0.2 * (x - 0.5)
                    : f >= 13 && f < 16 ? 0.1 * (x - 0.5)
                    : f >= 16 && f < 18 ? 1.1 * x - 0.05 : 2.0 * x - 1.0;
    }
    device_upload(b->dev[f], b->host[f], b->g.size);
  }
  b->scratch_host = calloc((size_t)b->g.n[2] * 2 * SUM_COUNT, sizeof(double));
  b->scratch_dev = device_alloc((size_t)b->g.n[2] * 2 * SUM_COUNT);
}

static void bench_close(bench *b)
{
  for (int f = 0; f < NF; f++) {
    field_free(b->host[f]);
    device_free(b->dev[f]);
  }
  free(b->scratch_host);
  device_free(b->scratch_dev);
}

/* Number of points of field f where the GPU's value is not the CPU's bit for bit. */
static long differing(const bench *b, int f)
{
  double *copy = malloc(b->g.size * sizeof *copy);
  device_download(copy, b->dev[f], b->g.size);
  long n = 0;
  for (size_t p = 0; p < b->g.size; p++) n += memcmp(&copy[p], &b->host[f][p], sizeof(double)) != 0;
  free(copy);
  return n;
}

/* Fields 0-2 velocity, 3 p, 4 f, 5-9 outputs, 10-15 B, 16-17 phi, 18-23 stress or rate. */
#define ARGS(side) (side ? b->dev : b->host)

static void run_point_kernels(bench *b, const efsi_kernels *k, int gpu)
{
  double **a = ARGS(gpu);
  const efsi_grid *g = &b->g;
  double *const bb[6] = {a[10], a[11], a[12], a[13], a[14], a[15]};
  double *const ss[6] = {a[18], a[19], a[20], a[21], a[22], a[23]};
  double *const phi[2] = {a[16], a[17]};
  const double modulus[2] = {0.02, 0.5};
  for (int loc = LOC_CENTRE; loc <= LOC_FACE_Z; loc++)
    k->advection_weno5(g, loc, a[4], a[0], a[1], a[2], a[5 + loc]);
  k->advection_weno5_conservative(g, a[16], a[0], a[1], a[2], 0, 0, a[9]);
  k->stress_viscous(g, 0.9, a[0], a[1], a[2], ss);
  k->solid_stress_add(g, 2, modulus, phi, bb, ss, a[4]);
  k->stress_divergence_add(g, 1.0 / 1.1, ss, a[5], a[6], a[7]);
  for (int c = 0; c < 3; c++) k->velocity_update(g, c, 0.01, c == 0 ? 0.3 : 0.0, a[c], a[5 + c]);
  k->gradient_add(g, -0.01, a[3], a[5], a[6], a[7]);
  k->divergence(g, 1.1, a[5], a[6], a[7], a[8]);
  k->laplacian(g, a[8], a[9]);
  k->pressure_increment(g, 1, 0.3, 0.2, a[3], a[8], a[9]);
  k->pressure_update(g, 1, 0.01, a[9], a[3]);
  k->velocity_shift(g, 0, 0.02, a[5]);
  k->field_axpy(g, 0.01, a[9], a[16]);
  k->field_scale(g, 1.5, a[8]);
  k->oldroyd_update(g, 2, phi, 0.01, 1.0, a[0], a[1], a[2], ss, bb);
}

START_TEST(point_kernels_match_bitwise)
{
  bench b;
  bench_open(&b, 12345u);
  run_point_kernels(&b, &efsi_cpu_kernels, 0);
  run_point_kernels(&b, &efsi_cuda_kernels, 1);
  device_synchronize();
  long total = 0;
  for (int f = 0; f < NF; f++) {
    const long n = differing(&b, f);
    if (n && test_rank0()) printf("field %d: %ld points differ\n", f, n);
    total += n;
  }
  if (test_rank0()) printf("point kernels: %ld points differ from the CPU's bits\n", total);
  ck_assert_int_eq(total, 0);
  bench_close(&b);
}
END_TEST

/* The THINC transport of a volume fraction (solid.phi_transport = thinc) on the random
 * fields: the device's exp is not the host's to the last bit, so the rates agree to
 * round-off (1e-12 of the largest) rather than bit for bit; points untouched stay equal. */
START_TEST(thinc_agrees)
{
  bench b;
  bench_open(&b, 4242u);
  efsi_cpu_kernels.advection_weno5_conservative(&b.g, b.host[16], b.host[0], b.host[1],
                                                b.host[2], 3.5, 0.01, b.host[9]);
  efsi_cuda_kernels.advection_weno5_conservative(&b.g, b.dev[16], b.dev[0], b.dev[1],
                                                 b.dev[2], 3.5, 0.01, b.dev[9]);
  device_synchronize();
  double *copy = malloc(b.g.size * sizeof *copy);
  device_download(copy, b.dev[9], b.g.size);
  double largest = 0, diff = 0;
  for (size_t p = 0; p < b.g.size; p++) {
    largest = fmax(largest, fabs(b.host[9][p]));
    diff = fmax(diff, fabs(b.host[9][p] - copy[p]));
  }
  if (test_rank0())
    printf("thinc transport: largest difference %.2g of the largest rate %.3g\n",
           diff / largest, largest);
  ck_assert(largest > 0 && diff <= 1e-12 * largest);
  free(copy);
  bench_close(&b);
}
END_TEST

static void assert_close(const char *what, const double *cpu, const double *gpu, int n,
                         double tol)
{
  for (int c = 0; c < n; c++) {
    const double scale = fmax(fabs(cpu[c]), 1e-300);
    if (test_rank0())
      printf("%s[%d]: CPU %.17g GPU %.17g (relative %.2g)\n", what, c, cpu[c], gpu[c],
             fabs(cpu[c] - gpu[c]) / scale);
    ck_assert_msg(fabs(cpu[c] - gpu[c]) <= tol * scale, "%s[%d]", what, c);
  }
}

START_TEST(reductions_agree)
{
  bench b;
  bench_open(&b, 777u);
  const efsi_grid *g = &b.g;
  double cpu[2 * SUM_COUNT], gpu[2 * SUM_COUNT];
  double **h = b.host, **d = b.dev;
  efsi_cpu_kernels.acm_sums(g, h[0], h[1], h[2], h[3], h[4], b.scratch_host, cpu);
  efsi_cuda_kernels.acm_sums(g, d[0], d[1], d[2], d[3], d[4], b.scratch_dev, gpu);
  /* double-double sums: the rounded values (hi) are the same bits */
  for (int c = 0; c < SUM_COUNT; c++) {
    cpu[c] = cpu[2 * c];
    gpu[c] = gpu[2 * c];
  }
  assert_close("acm_sums", cpu, gpu, SUM_COUNT, 0.0);
  efsi_cpu_kernels.flow_norms(g, 1.1, h[0], h[1], h[2], h[3], b.scratch_host, cpu);
  efsi_cuda_kernels.flow_norms(g, 1.1, d[0], d[1], d[2], d[3], b.scratch_dev, gpu);
  assert_close("flow_norms", cpu, gpu, FLOW_COUNT, 1e-13);
  double mc[MOMENT_COUNT], mg[MOMENT_COUNT];
  efsi_cpu_kernels.phi_moments(g, h[16], b.scratch_host, mc);
  efsi_cuda_kernels.phi_moments(g, d[16], b.scratch_dev, mg);
  assert_close("phi_moments", mc, mg, MOMENT_COUNT, 1e-12);
  double *const phi_h[2] = {h[16], h[17]}, *const phi_d[2] = {d[16], d[17]};
  double *const b_h[6] = {h[10], h[11], h[12], h[13], h[14], h[15]};
  double *const b_d[6] = {d[10], d[11], d[12], d[13], d[14], d[15]};
  const double modulus[2] = {0.02, 0.5};
  cpu[0] = efsi_cpu_kernels.elastic_energy(g, 2, modulus, phi_h, b_h, b.scratch_host);
  gpu[0] = efsi_cuda_kernels.elastic_energy(g, 2, modulus, phi_d, b_d, b.scratch_dev);
  assert_close("elastic_energy", cpu, gpu, 1, 1e-12);
  efsi_cpu_kernels.det_range(g, 2, phi_h, b_h, 0.5, b.scratch_host, cpu);
  efsi_cuda_kernels.det_range(g, 2, phi_d, b_d, 0.5, b.scratch_dev, gpu);
  assert_close("det_range", cpu, gpu, 2, 0.0);
  for (int dir = 1; dir < 3; dir++) {
    double sc[2] = {0, 0}, sg[2] = {0, 0};
    const double u_wall[2] = {0.1, -0.2};
    efsi_cpu_kernels.wall_shear_sums(g, dir, 0.9, h[0], h[1], u_wall, sc);
    efsi_cuda_kernels.wall_shear_sums(g, dir, 0.9, d[0], d[1], u_wall, sg);
    assert_close("wall_shear_sums", sc, sg, 2, 0.0);
  }
  double lc[LUMEN_COUNT], lg[LUMEN_COUNT];
  efsi_cpu_kernels.lumen_sums(g, 0.9, h[16], h[17], h[0], h[1], h[2], b.scratch_host, lc);
  efsi_cuda_kernels.lumen_sums(g, 0.9, d[16], d[17], d[0], d[1], d[2], b.scratch_dev, lg);
  assert_close("lumen_sums", lc, lg, LUMEN_COUNT, 1e-12);
  /* tracers: the same interpolation, point by point */
  efsi_tracer t[2][5];
  memset(t, 0, sizeof t);
  unsigned state = 99u;
  for (int n = 0; n < 5; n++)
    for (int c = 0; c < 3; c++) t[0][n].x[c] = t[1][n].x[c] = length[c] * uniform(&state);
  efsi_cpu_kernels.tracers_interpolate(g, h[0], h[1], h[2], t[0], 5);
  efsi_cuda_kernels.tracers_interpolate(g, d[0], d[1], d[2], t[1], 5);
  ck_assert(memcmp(t[0], t[1], sizeof t[0]) == 0);
  bench_close(&b);
}
END_TEST

/* The layer moves: pack and unpack, periodic copies, wall reflections and zero faces. */
static void run_layers(bench *b, const efsi_layer_ops *ops, int gpu, double *buffer)
{
  double **a = ARGS(gpu);
  const efsi_grid *g = &b->g;
  const int lo[3] = {-2, 0, 1}, hi[3] = {g->n[0] + 2, 3, g->n[2]};
  ops->begin(1);
  ops->pack(g, a, 3, lo, hi, buffer, 1);
  ops->sent();
  ops->pack(g, a + 3, 3, lo, hi, buffer, 0);
  /* the moves' contract: source and destination boxes do not overlap */
  ops->copy(g, a + 6, 2, lo, hi, g->stride[1] * 3);
  ops->end();
  /* wall layers in one call: two layers of one field and one of another, of different
   * shapes, none reading or writing another's box (the call's contract) */
  const int layer_lo[3] = {-3, -3, 2}, layer_hi[3] = {g->n[0] + 3, g->n[1] + 3, 3};
  const int n1 = g->n[1];
  const efsi_reflection layers[3] = {
    {a[8], {-3, -3, 2}, {g->n[0] + 3, g->n[1] + 3, 3}, -2 * g->stride[2], -1.0, 0.25},
    {a[8], {-3, n1 + 1, 4}, {g->n[0] + 3, n1 + 2, g->n[2] + 3}, -3 * g->stride[1], 1.0, 0.0},
    {a[7], {-2, -1, 0}, {g->n[0] + 2, 0, g->n[2]}, 2 * g->stride[1], -1.0, -0.5},
  };
  ops->reflect(g, layers, 3);
  ops->zero(g, a[9], layer_lo, layer_hi);
}

START_TEST(layer_moves_match_bitwise)
{
  bench b;
  bench_open(&b, 4242u);
  const size_t points = 3 * (size_t)(b.g.n[0] + 4) * 3 * (b.g.n[2] - 1);
  double *host_buffer = efsi_cpu_layers.alloc(points);
  double *pinned = efsi_cuda_layers.alloc(points), *on_device = efsi_cuda_layers_aware.alloc(points);
  run_layers(&b, &efsi_cpu_layers, 0, host_buffer);
  run_layers(&b, &efsi_cuda_layers, 1, pinned);
  device_synchronize();
  long total = 0;
  for (int f = 0; f < 10; f++) total += differing(&b, f);
  ck_assert_int_eq(memcmp(host_buffer, pinned, points * sizeof(double)), 0);
  /* the device-buffer path packs the same bytes */
  run_layers(&b, &efsi_cuda_layers_aware, 1, on_device);
  device_synchronize();
  double *back = malloc(points * sizeof *back);
  device_download(back, on_device, points);
  ck_assert_int_eq(memcmp(host_buffer, back, points * sizeof(double)), 0);
  if (test_rank0()) printf("layer moves: %ld points differ\n", total);
  ck_assert_int_eq(total, 0);
  free(back);
  efsi_cpu_layers.release(host_buffer);
  efsi_cuda_layers.release(pinned);
  efsi_cuda_layers_aware.release(on_device);
  bench_close(&b);
}
END_TEST

static Suite *gpu_suite(void)
{
  Suite *s = suite_create("gpu_kernels");
  TCase *tc = tcase_create("gpu");
  tcase_add_test(tc, point_kernels_match_bitwise);
  tcase_add_test(tc, reductions_agree);
  tcase_add_test(tc, thinc_agrees);
  tcase_add_test(tc, layer_moves_match_bitwise);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv)
{
  if (device_count() == 0) return 77;
  char desc[256];
  if (device_select(0, desc, sizeof desc)) return 77;
  return mpi_check_main(argc, argv, gpu_suite);
}

#else

int main(void) { return 77; }   /* a build without the GPU backend */

#endif
