/* The GPU's kernels against the CPU's (docs/gpu.md, "Verification"): every kernel of the
 * registry (stencils/kernel_list.h), and the layer moves, on random fields of a small block
 * with walls in y and z, run once by each backend.  The point kernels are the same sources
 * compiled twice, so with the default FMA policy (no fused multiply-adds on either side)
 * the GPU must reproduce the CPU's bits; so must the reductions, whose double-double sums
 * and maxima do not depend on the order of the points (stencils/reduce.h), and the ACM
 * sums' column march.  Skipped (exit 77) in a build without the GPU backend or where no GPU
 * is visible. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/device.h"
#include "base/tensor.h"
#include "decomp/layers.h"
#include "stencils/kernels.h"
#include "stencils/kernel_list.h"
#include "stencils/location.h"
#include "tests/test_support.h"

#ifdef EFSI_CUDA

enum { NF = 25 };                 /* random fields of the test */
static const int cells[3] = {13, 10, 9};
static const double length[3] = {1.3, 1.0, 0.9};

typedef struct {
  efsi_grid g;
  double *host[NF];               /* inputs, and the CPU's outputs */
  double *dev[NF];                /* the same on the GPU */
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
                    : f >= 16 && f < 18 ? 1.1 * x - 0.05
                 : f == 24 ? 12.0 * x - 6.0 : 2.0 * x - 1.0;
    }
    device_upload(b->dev[f], b->host[f], b->g.size);
  }
}

static void bench_close(bench *b)
{
  for (int f = 0; f < NF; f++) {
    field_free(b->host[f]);
    device_free(b->dev[f]);
  }
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

/* Fields 0-2 velocity, 3 p, 4 f, 5-9 outputs, 10-15 B, 16-17 phi, 18-23 stress or rate, 24 a
 * membrane's level (cells: its band, its hold and beyond). */
#define ARGS(side) (side ? b->dev : b->host)

/* One call of a kernel on the bench's fields by one backend's table (gpu: its fields on the
 * device); a reduction's results into out[] (at most OUT values).  The registry builds the
 * table of calls below, so a kernel without a call here does not compile. */
enum { OUT = 2 * SUM_COUNT };
typedef void (*kernel_call)(bench *b, const efsi_kernels *k, int gpu, efsi_scratch *scratch,
                            double *out);

#define CALL(name) static void call_##name(bench *b, const efsi_kernels *k, int gpu, \
                                            efsi_scratch *scratch, double *out)
#define FIELDS double **a = ARGS(gpu); const efsi_grid *g = &b->g; (void)a, (void)g, \
  (void)scratch, (void)out
#define TENSORS double *const bb[6] = {a[10], a[11], a[12], a[13], a[14], a[15]}; \
  double *const ss[6] = {a[18], a[19], a[20], a[21], a[22], a[23]}; \
  double *const phi[2] = {a[16], a[17]}; (void)bb, (void)ss, (void)phi
static const double modulus[2] = {0.02, 0.5};

CALL(modulus_sum) { FIELDS; TENSORS; k->modulus_sum(g, 2, modulus, phi, a[4]); }
CALL(stress_total)
{
  FIELDS;
  TENSORS;
  k->stress_total(g, 0.9, 2, bb, a[0], a[1], a[2], a[4], ss);
}
CALL(stress_contrast_add)
{
  FIELDS;
  TENSORS;
  k->stress_contrast_add(g, a[4], a[0], a[1], a[2], ss);
}
/* two membranes whose bands (|psi| < 2 cells) cover the block, one of each law: p's values
 * as their level */
#define TWO_MEMBRANES                                                  \
  double *const level[2] = {a[3], a[3]};                               \
  const double gs[2] = {5e-3, 3e-3}, dilatation[2] = {10.0, 1.0},      \
               law[2] = {MEMBRANE_LAW_SKALAK, MEMBRANE_LAW_NEO_HOOKEAN}
CALL(membrane_stress_add)
{
  FIELDS;
  TENSORS;
  TWO_MEMBRANES;
  k->membrane_stress_add(g, 2, level, gs, dilatation, law, bb, ss);
}
/* kappa of the level in a[3] on the block and two rings round it, into a[8] */
static void kappa_rings(const efsi_kernels *k, const efsi_grid *g, double **a)
{
  efsi_grid ring;
  ptrdiff_t rs;
  const int lo[3] = {-2, -2, -2}, hi[3] = {g->n[0] + 2, g->n[1] + 2, g->n[2] + 2};
  grid_view(g, lo, hi, &ring, &rs);
  double *const level[1] = {a[3] + rs}, *const kappa[1] = {a[8] + rs};
  k->level_kappa(&ring, 1, level, kappa);
}
CALL(level_kappa) { FIELDS; kappa_rings(k, g, a); }
CALL(membrane_bending_add)
{
  FIELDS;
  kappa_rings(k, g, a);
  double *const level[1] = {a[3]}, *const kappa[1] = {a[8]};
  const double bending[1] = {2e-4};
  k->membrane_bending_add(g, 1, level, kappa, bending, 0.01, a[5], a[6], a[7]);
}
CALL(momentum_predictor)
{
  FIELDS;
  TENSORS;
  k->momentum_predictor(g, 0.01, 1.0 / 1.1, 0.3, -0.01 / 1.1, ss, a[3], a[0], a[1], a[2], a[5],
                        a[6], a[7]);
}
/* The arrays a kernel borrows as scratch (phi_advance's face fluxes on the GPU) are no
 * result: after the GPU's call they get back the CPU's contents, which the CPU left alone. */
static void give_back(bench *b, int gpu, int first, int count)
{
  if (!gpu) return;
  device_synchronize();
  for (int f = first; f < first + count; f++) device_upload(b->dev[f], b->host[f], b->g.size);
}
CALL(phi_advance)
{
  FIELDS;
  double *const work[4] = {a[18], a[19], a[20], a[21]};
  k->phi_advance(g, a[16], a[0], a[1], a[2], 0, 0.01, a[9], work);
  give_back(b, gpu, 18, 4);
}
CALL(b_advance)
{
  FIELDS;
  TENSORS;
  double *const level[1] = {a[24]};
  k->b_advance(g, 2, phi, 1, level, 0.01, 1.0, a[0], a[1], a[2], bb, ss);
}
CALL(membrane_reset)
{
  FIELDS;
  TENSORS;
  double *const level[1] = {a[24]};
  k->membrane_reset(g, 1, level, bb);
}
/* A membrane's level in field f of one side (gpu: the device's), halos included: a sphere of
 * 3 cells round the block's centre, its distance in cells times scale (1: a distance),
 * capped; the other side's field is left as it is (the CPU's results stay for the
 * comparison). */
static void smooth_level(bench *b, int gpu, int f, double scale)
{
  const efsi_grid *g = &b->g;
  double *level = malloc(g->size * sizeof *level);
  for (int k = -EFSI_HALO; k < g->n[2] + EFSI_HALO; k++)
    for (int j = -EFSI_HALO; j < g->n[1] + EFSI_HALO; j++)
      for (int i = -EFSI_HALO; i < g->n[0] + EFSI_HALO; i++) {
        const double x = i + 0.5 - 0.5 * g->n[0], y = j + 0.5 - 0.5 * g->n[1];
        const double z = k + 0.5 - 0.5 * g->n[2], r = sqrt(x * x + y * y + z * z);
        level[grid_index(g, i, j, k)] =
            fmax(-MEMBRANE_LEVEL_CAP, fmin(MEMBRANE_LEVEL_CAP, scale * (r - 3.0)));
      }
  if (gpu) device_upload(b->dev[f], level, g->size);
  else memcpy(b->host[f], level, g->size * sizeof *level);
  free(level);
}
CALL(membrane_foot)
{
  FIELDS;
  TENSORS;
  smooth_level(b, gpu, 24, 1.0);
  double *const level[1] = {a[24]};
  k->membrane_foot(g, 1, level, bb, ss);
}
CALL(level_redistance)
{
  FIELDS;
  smooth_level(b, gpu, 24, 1.3);
  double *const level[1] = {a[24]}, *const iterate[1] = {a[9]};
  const double shift[1] = {0.2};
  k->level_redistance(g, 1, level, shift, level, 1, iterate);
  k->level_redistance(g, 1, level, shift, iterate, 0, level);   /* in place, as the step */
}
CALL(level_volume_sums)
{
  FIELDS;
  smooth_level(b, gpu, 24, 1.0);
  k->level_volume_sums(g, a[24], a[16], scratch, out);
}
/* the tweezers' pull on the level of smooth_level's sphere (radius 3 cells at the block's
 * centre): its patches within 2 cells of the y axis through the centre */
#define PULL_CENTRE const double c[3] = {0.5 * g->n[0] * g->h[0], 0.5 * g->n[1] * g->h[1], \
                                         0.5 * g->n[2] * g->h[2]}
CALL(membrane_patch_sums)
{
  FIELDS;
  PULL_CENTRE;
  smooth_level(b, gpu, 24, 1.0);
  k->membrane_patch_sums(g, a[24], c, 1, 2.0 * g->h[0], scratch, out);
}
CALL(membrane_stretch_add)
{
  FIELDS;
  PULL_CENTRE;
  smooth_level(b, gpu, 24, 1.0);
  k->membrane_stretch_add(g, a[24], c, 1, 2.0 * g->h[0], 0.7, 0.9, 0.01, a[6]);
}
CALL(level_advance) { FIELDS; k->level_advance(g, a[24], a[0], a[1], a[2], 0.01, a[9]); }
CALL(divergence) { FIELDS; k->divergence(g, 1.1, a[5], a[6], a[7], a[8]); }
CALL(gradient_add) { FIELDS; k->gradient_add(g, -0.01, a[3], a[5], a[6], a[7]); }
CALL(velocity_shift) { FIELDS; k->velocity_shift(g, 0, 0.02, a[5]); }
CALL(pressure_correct)
{
  FIELDS;
  k->pressure_correct(g, 0.3, 0.2, 0.01, -0.01, a[3], a[8], a[9], a[5], a[6], a[7]);
}
CALL(pressure_update) { FIELDS; k->pressure_update(g, 1, 0.01, a[9], a[3]); }
CALL(field_scale) { FIELDS; k->field_scale(g, 1.5, a[8]); }
CALL(field_accumulate)
{
  FIELDS;
  k->field_accumulate(g, -1, a[3], a[8]);
  k->field_accumulate(g, 1, a[1], a[9]);
}
CALL(acm_sums)
{
  FIELDS;
  k->acm_sums(g, 1, a[0], a[3], a[4], scratch, out);
  k->sums_wait(scratch);   /* queued: the sums are in out once waited for */
  /* double-double sums: the rounded values (hi) are compared */
  for (int c = 0; c < SUM_COUNT; c++) out[c] = out[2 * c];
  for (int c = SUM_COUNT; c < OUT; c++) out[c] = 0;
}
CALL(flow_norms) { FIELDS; k->flow_norms(g, 1.1, a[0], a[1], a[2], a[3], scratch, out); }
CALL(phi_moments) { FIELDS; k->phi_moments(g, a[16], scratch, out); }
CALL(elastic_energy)
{
  FIELDS;
  TENSORS;
  out[0] = k->elastic_energy(g, 2, modulus, phi, bb, scratch);
}
/* the membranes of membrane_stress_add's call: their bands' energy */
CALL(membrane_energy)
{
  FIELDS;
  TENSORS;
  TWO_MEMBRANES;
  out[0] = k->membrane_energy(g, 2, level, gs, dilatation, law, bb, scratch);
}
CALL(det_range) { FIELDS; TENSORS; k->det_range(g, 2, phi, bb, 0.5, scratch, out); }
CALL(wall_shear_sums)
{
  FIELDS;
  const double u_wall[2] = {0.1, -0.2};
  for (int dir = 1; dir < 3; dir++)
    k->wall_shear_sums(g, dir, 0.9, a[0], a[1], u_wall, scratch, out + 2 * (dir - 1));
}
CALL(lumen_sums)
{
  FIELDS;
  k->lumen_sums(g, 0.9, a[16], a[17], a[0], a[1], a[2], scratch, out);
}
CALL(velocity_at_tracers)
{
  FIELDS;
  /* the same five tracers on both sides, in page-locked memory on the GPU's (its kernel
   * works on them in place); their velocities are the results */
  efsi_tracer local[5], *t = local;
  if (gpu) t = (efsi_tracer *)device_alloc_pinned(sizeof local / (sizeof(double)));
  memset(t, 0, sizeof local);
  unsigned state = 99u;
  for (int n = 0; n < 5; n++)
    for (int c = 0; c < 3; c++) t[n].x[c] = length[c] * uniform(&state);
  k->velocity_at_tracers(g, a[0], a[1], a[2], t, 5);
  device_synchronize();
  for (int n = 0; n < 5; n++)
    for (int c = 0; c < 3; c++) out[3 * n + c] = t[n].v[c];
  if (gpu) device_free_pinned((double *)t);
}

#define CALL_ENTRY(name, ...) [KERNEL_ID_##name] = call_##name,
static const kernel_call calls[KERNEL_COUNT] = {EFSI_KERNEL_LIST(CALL_ENTRY)};
#undef CALL_ENTRY

/* The largest difference between the GPU's field f and the CPU's, relative to the largest
 * value of the CPU's (0 when they are the same bits), and how many points differ. */
static double field_difference(const bench *b, int f, long *points)
{
  double *copy = malloc(b->g.size * sizeof *copy);
  device_download(copy, b->dev[f], b->g.size);
  double largest = 0, diff = 0;
  *points = 0;
  for (size_t p = 0; p < b->g.size; p++) {
    if (memcmp(&copy[p], &b->host[f][p], sizeof(double)) == 0) continue;
    ++*points;
    largest = fmax(largest, fabs(b->host[f][p]));
    diff = fmax(diff, fabs(copy[p] - b->host[f][p]));
  }
  free(copy);
  return *points ? (largest > 0 ? diff / largest : INFINITY) : 0.0;
}

/* Every kernel of the registry, once by each backend on the same random fields: the fields
 * and results agree as the registry says (0: bit for bit).  Every kernel is compared and
 * printed before the test fails, naming all that disagree. */
START_TEST(every_kernel_agrees)
{
  long total = 0;
  char failed[1024] = "";
  for (int id = 0; id < KERNEL_COUNT; id++) {
    const efsi_kernel_info *info = &efsi_kernel_infos[id];
    ck_assert_msg(calls[id] != NULL, "kernel %s has no comparison", info->name);
    bench b;
    bench_open(&b, 12345u + (unsigned)id);
    efsi_scratch cpu_scratch = scratch_of(0), gpu_scratch = scratch_of(1);
    double cpu[OUT] = {0}, gpu[OUT] = {0};
    calls[id](&b, &efsi_cpu_kernels, 0, &cpu_scratch, cpu);
    calls[id](&b, &efsi_cuda_kernels, 1, &gpu_scratch, gpu);
    device_synchronize();
    long differing_points = 0;
    double worst = 0;
    for (int f = 0; f < NF; f++) {
      long n = 0;
      worst = fmax(worst, field_difference(&b, f, &n));
      differing_points += n;
    }
    for (int c = 0; c < OUT; c++) {
      if (memcmp(&cpu[c], &gpu[c], sizeof(double)) == 0) continue;
      differing_points++;
      worst = fmax(worst, fabs(cpu[c] - gpu[c]) / fmax(fabs(cpu[c]), 1e-300));
    }
    if (test_rank0())
      printf("%-30s %6ld points and results differ, largest relative %.2g (allowed %.2g)\n",
             info->name, differing_points, worst, info->agreement);
    if (worst > info->agreement)
      snprintf(failed + strlen(failed), sizeof failed - strlen(failed), "%s%s (%.3g relative)",
               failed[0] ? ", " : "", info->name, worst);
    if (info->agreement == 0) total += differing_points;
    scratch_free(&cpu_scratch);
    scratch_free(&gpu_scratch);
    bench_close(&b);
  }
  if (test_rank0()) printf("point kernels: %ld points differ from the CPU's bits\n", total);
  ck_assert_msg(failed[0] == '\0', "kernels that disagree: %s", failed);
  ck_assert_int_eq(total, 0);
}
END_TEST

/* The THINC transport of a volume fraction (solid.phi_transport = thinc) on the random
 * fields: the device's exp is not the host's to the last bit, so the new volume fractions
 * agree to round-off (1e-12 of the largest rate, times dt, and the rounding of phi + dt rate)
 * rather than bit for bit.  The GPU transports another volume fraction first, as a step does
 * material after material: its list of interface cells must not ride along in the next. */
START_TEST(thinc_agrees)
{
  bench b;
  bench_open(&b, 4242u);
  const double dt = 0.01;
  double *const cpu_work[4] = {b.host[18], b.host[19], b.host[20], b.host[21]};
  double *const gpu_work[4] = {b.dev[18], b.dev[19], b.dev[20], b.dev[21]};
  efsi_cpu_kernels.phi_advance(&b.g, b.host[16], b.host[0], b.host[1], b.host[2], 3.5, dt,
                               b.host[9], cpu_work);
  efsi_cuda_kernels.phi_advance(&b.g, b.dev[17], b.dev[0], b.dev[1], b.dev[2], 3.5, dt,
                                b.dev[10], gpu_work);
  efsi_cuda_kernels.phi_advance(&b.g, b.dev[16], b.dev[0], b.dev[1], b.dev[2], 3.5, dt,
                                b.dev[9], gpu_work);
  device_synchronize();
  double *copy = malloc(b.g.size * sizeof *copy);
  device_download(copy, b.dev[9], b.g.size);
  double largest = 0, diff = 0;
  for (size_t p = 0; p < b.g.size; p++) {
    largest = fmax(largest, fabs(b.host[9][p] - b.host[16][p]) / dt);
    diff = fmax(diff, fabs(b.host[9][p] - copy[p]));
  }
  if (test_rank0())
    printf("thinc transport: largest difference %.2g of the largest rate %.3g times dt\n",
           diff / (largest * dt), largest);
  ck_assert(largest > 0 && diff <= 1e-12 * largest * dt + 1e-15);
  free(copy);
  bench_close(&b);
}
END_TEST

/* b_advance where part of the block is plasma (the diagonal of B exactly 1, the
 * off-diagonal +0, -0 or tiny, no solid), the rest random: the GPU skips WENO5's arithmetic
 * for the diagonal where it is constant along a line (weno5_upwind_sparse) and must still
 * give the CPU's bits at every point, on both sides of the region's edge. */
START_TEST(b_advance_in_plasma_agrees)
{
  bench b;
  bench_open(&b, 2718u);
  const efsi_grid *g = &b.g;
  unsigned state = 99u;
  long plasma = 0;
  for (int k = -EFSI_HALO; k < g->n[2] + EFSI_HALO; k++)
    for (int j = -EFSI_HALO; j < g->n[1] + EFSI_HALO; j++)
      for (int i = -EFSI_HALO; i < 7; i++) {
        const ptrdiff_t p = grid_index(g, i, j, k);
        for (int c = 0; c < 3; c++) b.host[10 + c][p] = 1.0;
        for (int c = 3; c < 6; c++) {
          const double x = uniform(&state);
          b.host[10 + c][p] = x < 0.4 ? 0.0 : x < 0.8 ? -0.0 : 1e-30 * (x - 0.9);
        }
        b.host[16][p] = b.host[17][p] = 0.0;
        b.host[24][p] = MEMBRANE_LEVEL_CAP;   /* no membrane's band holds B there either */
        plasma += i >= 0 && j >= 0 && k >= 0 && j < g->n[1] && k < g->n[2];
      }
  for (int f = 10; f < 18; f++) device_upload(b.dev[f], b.host[f], g->size);
  device_upload(b.dev[24], b.host[24], g->size);
  call_b_advance(&b, &efsi_cpu_kernels, 0, NULL, NULL);   /* the registry test's call */
  call_b_advance(&b, &efsi_cuda_kernels, 1, NULL, NULL);
  device_synchronize();
  long points = 0, unit = 0;
  for (int f = 18; f < 24; f++) points += differing(&b, f);
  /* the plasma's diagonal stays 1: the region is where the skip is taken */
  for (int k = 0; k < g->n[2]; k++)
    for (int j = 0; j < g->n[1]; j++)
      for (int i = 0; i < 4; i++) unit += b.host[18][grid_index(g, i, j, k)] == 1.0;
  if (test_rank0())
    printf("b_advance with %ld plasma cells: %ld points differ from the CPU's bits, B_xx = 1 in "
           "%ld of %d cells of the skipped lines\n", plasma, points, unit, 4 * g->n[1] * g->n[2]);
  ck_assert_int_eq(points, 0);
  ck_assert_int_eq(unit, 4 * g->n[1] * g->n[2]);
  bench_close(&b);
}
END_TEST

/* The layer moves: pack and unpack, periodic copies, wall reflections and zero faces;
 * messages as begin's (0: the GPU queues the copy on the compute stream, without events,
 * and the reflections after it read what it wrote). */
static void run_layers(bench *b, const efsi_layer_ops *ops, int gpu, double *buffer,
                       int messages)
{
  double **a = ARGS(gpu);
  const efsi_grid *g = &b->g;
  const int lo[3] = {-2, 0, 1}, hi[3] = {g->n[0] + 2, 3, g->n[2]};
  ops->begin(messages, messages);
  ops->pack(g, a, 3, lo, hi, buffer, 1);
  ops->sent();
  ops->pack(g, a + 3, 3, lo, hi, buffer, 0);
  /* the moves' contract: source and destination boxes do not overlap */
  ops->copy(g, a + 6, 2, lo, hi, g->stride[1] * 3, messages);
  ops->end(messages);
  /* wall layers in one call: two layers of one field and one of another, of different
   * shapes, and a wall face set to a value (sign 0), none reading or writing another's box
   * (the call's contract) */
  const int layer_lo[3] = {-3, -3, 2}, layer_hi[3] = {g->n[0] + 3, g->n[1] + 3, 3};
  const int n1 = g->n[1];
  const efsi_reflection layers[] = {
    {a[8], {-3, -3, 2}, {g->n[0] + 3, g->n[1] + 3, 3}, -2 * g->stride[2], -1.0, 0.25},
    {a[8], {-3, n1 + 1, 4}, {g->n[0] + 3, n1 + 2, g->n[2] + 3}, -3 * g->stride[1], 1.0, 0.0},
    {a[7], {-2, -1, 0}, {g->n[0] + 2, 0, g->n[2]}, 2 * g->stride[1], -1.0, -0.5},
    {a[9], {-3, -3, 0}, {g->n[0] + 3, g->n[1] + 3, 1}, 0, 0.0, 0.75},
  };
  ops->reflect(g, layers, (int)(sizeof layers / sizeof layers[0]));
  ops->zero(g, a[9], layer_lo, layer_hi);
}

START_TEST(layer_moves_match_bitwise)
{
  for (int messages = 1; messages >= 0; messages--) {
    bench b;
    bench_open(&b, 4242u);
    const size_t points = 3 * (size_t)(b.g.n[0] + 4) * 3 * (b.g.n[2] - 1);
    double *host_buffer = efsi_cpu_layers.alloc(points);
    double *on_device = efsi_cuda_layers.alloc(points), *pinned = efsi_cuda_layers.alloc_host(points);
    run_layers(&b, &efsi_cpu_layers, 0, host_buffer, messages);
    run_layers(&b, &efsi_cuda_layers, 1, on_device, messages);
    /* the packed buffer through a copy engine to page-locked memory, as host_mpi stages it */
    efsi_cuda_layers.stage(pinned, on_device, points, 1);
    efsi_cuda_layers.sent();
    device_synchronize();
    long total = 0;
    for (int f = 0; f < 10; f++) total += differing(&b, f);
    ck_assert_int_eq(memcmp(host_buffer, pinned, points * sizeof(double)), 0);
    if (test_rank0())
      printf("layer moves (%s): %ld points differ\n",
             messages ? "with messages" : "local copies alone", total);
    ck_assert_int_eq(total, 0);
    efsi_cpu_layers.release(host_buffer);
    efsi_cuda_layers.release(on_device);
    efsi_cuda_layers.release_host(pinned);
    bench_close(&b);
  }
}
END_TEST

static Suite *gpu_suite(void)
{
  Suite *s = suite_create("gpu_kernels");
  TCase *tc = tcase_create("gpu");
  tcase_add_test(tc, every_kernel_agrees);
  tcase_add_test(tc, thinc_agrees);
  tcase_add_test(tc, b_advance_in_plasma_agrees);
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
