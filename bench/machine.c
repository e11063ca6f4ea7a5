/* This machine's FP64 peak and memory bandwidth, the references of docs/performance.md:
 *   peak:  every OpenMP thread runs NCHAIN independent chains acc <- acc * m + c in vector
 *          registers (FMA where the target has it), counted 2 flops per lane per FMA;
 *   triad: a(i) = b(i) + s c(i) over arrays far larger than the last-level cache, first
 *          touched by the threads that stream them, counted 24 bytes per element (STREAM's
 *          convention: the write-allocate read of a is not counted).
 * The vector width is the widest the compiler was allowed (-march=native for the full peak). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#if defined(__AVX512F__) || defined(__AVX__) || defined(__SSE2__)
#include <immintrin.h>
#endif

/* The widest FP64 vector of the target, and whether it has a fused multiply-add. */
#if defined(__AVX512F__)
typedef __m512d vec;
#define LANES 8
#define HAS_FMA 1
#define VSET(x) _mm512_set1_pd(x)
#define VFMA(a, m, c) _mm512_fmadd_pd(a, m, c)
#define VSTORE(p, a) _mm512_storeu_pd(p, a)
#elif defined(__AVX__) && defined(__FMA__)
typedef __m256d vec;
#define LANES 4
#define HAS_FMA 1
#define VSET(x) _mm256_set1_pd(x)
#define VFMA(a, m, c) _mm256_fmadd_pd(a, m, c)
#define VSTORE(p, a) _mm256_storeu_pd(p, a)
#elif defined(__AVX__)
typedef __m256d vec;
#define LANES 4
#define HAS_FMA 0
#define VSET(x) _mm256_set1_pd(x)
#define VFMA(a, m, c) _mm256_add_pd(_mm256_mul_pd(a, m), c)
#define VSTORE(p, a) _mm256_storeu_pd(p, a)
#elif defined(__SSE2__)
typedef __m128d vec;
#define LANES 2
#define HAS_FMA 0
#define VSET(x) _mm_set1_pd(x)
#define VFMA(a, m, c) _mm_add_pd(_mm_mul_pd(a, m), c)
#define VSTORE(p, a) _mm_storeu_pd(p, a)
#else
typedef double vec;
#define LANES 1
#define HAS_FMA 0
#define VSET(x) (x)
#define VFMA(a, m, c) ((a) * (m) + (c))
#define VSTORE(p, a) (*(p) = (a))
#endif

/* Independent chains: an FMA's latency (4-5 cycles) times the FMA pipes (2) is at most 10
 * instructions in flight; 12 accumulators plus the two constants fit in 16 registers. */
#define NCHAIN 12          /* the number of X(n) in CHAINS below */
#define PEAK_ITERATIONS 10000000L   /* per thread and repeat: 1.2e8 vector operations */
#define REPEATS 10

static double now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* CPU time of the calling thread: the time it actually ran, whatever else shares the cores. */
static double thread_cpu(void)
{
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static int thread_count(void)
{
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

/* The chains of one thread; returns the sum of the lanes so that nothing is dead code.  The
 * chains converge to c/(1 - m) = 1 from different starts: no overflow, no subnormals.  They
 * are named one by one: an array of accumulators is kept in memory by GCC at -O2, and the
 * loop then measures store-to-load forwarding, not the FMA units. */
#define CHAINS(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11)
static double fma_chains(long iterations, double start)
{
  const vec m = VSET(1.0 - 1e-7), c = VSET(1e-7);
#define DECLARE(n) vec a##n = VSET(start + n);
#define STEP(n) a##n = VFMA(a##n, m, c);
#define SUM(n) VSTORE(lanes, a##n); for (int l = 0; l < LANES; l++) sum += lanes[l];
  CHAINS(DECLARE)
  for (long it = 0; it < iterations; it++) {
    CHAINS(STEP)
  }
  double lanes[LANES], sum = 0.0;
  CHAINS(SUM)
  return sum;
}

typedef struct {
  double cpu_gflops;    /* best over repeats of the sum over threads of flops / thread CPU time */
  double wall_gflops;   /* best over repeats of all flops / wall time */
  double cpu_share;     /* thread CPU time / (threads x wall time) of the best wall repeat */
} peak_result;

/* REPEATS timed runs of the chains on every thread at once.  On an idle machine the two
 * rates agree; where other jobs share the cores, the wall rate falls with the share of the
 * cores this program gets, and the CPU-time rate still measures the hardware. */
static peak_result measure_peak(double *checksum)
{
  const int ops_per_chain_step = HAS_FMA ? 1 : 2;            /* FMA, or mul + add */
  const double flops_per_op = HAS_FMA ? 2.0 * LANES : LANES;
  const double thread_flops = (double)PEAK_ITERATIONS * NCHAIN * ops_per_chain_step * flops_per_op;
  peak_result best = {0.0, 0.0, 0.0};
  double sum = 0.0;
  for (int r = 0; r < REPEATS; r++) {
    double t0 = 0.0, t1 = 0.0, rate = 0.0, cpu = 0.0;
#pragma omp parallel reduction(+ : sum, rate, cpu)
    {
#pragma omp barrier
#pragma omp master
      t0 = now();
      const double c0 = thread_cpu();
      sum += fma_chains(PEAK_ITERATIONS, 1.0 + r);
      const double c = thread_cpu() - c0;
      rate += thread_flops / c * 1e-9;
      cpu += c;
#pragma omp barrier
#pragma omp master
      t1 = now();
    }
    const double wall = thread_flops * thread_count() / (t1 - t0) * 1e-9;
    if (rate > best.cpu_gflops) best.cpu_gflops = rate;
    if (wall > best.wall_gflops) {
      best.wall_gflops = wall;
      best.cpu_share = cpu / (thread_count() * (t1 - t0));
    }
  }
  *checksum = sum;
  return best;
}

/* Doubles per array: four times the last-level cache, at least 256 MiB, the three arrays
 * together at most a sixteenth of the memory (other jobs share the machine; a virtual
 * machine may report the whole socket's L3). */
static size_t triad_length(size_t mib)
{
  if (mib > 0) return mib * ((size_t)1 << 20) / sizeof(double);
  size_t bytes = (size_t)256 << 20;
#ifdef _SC_LEVEL3_CACHE_SIZE
  const long llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
  if (llc > 0 && 4 * (size_t)llc > bytes) bytes = 4 * (size_t)llc;
#endif
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0) {
    const size_t cap = (size_t)pages * (size_t)page / 48;
    if (bytes > cap) bytes = cap;
  }
  return bytes / sizeof(double);
}

typedef struct {
  double gbs;         /* best over the repeats, 24 bytes per element over wall time */
  double cpu_share;   /* process CPU time / (threads x wall time) of that repeat */
} triad_result;

/* Ten triads after a first touch by the same threads with the same static schedule, so
 * that each page lies near the thread that streams it. */
static triad_result measure_triad(size_t n, double *checksum)
{
  const size_t bytes = (n * sizeof(double) + 63) / 64 * 64;
  double *a = aligned_alloc(64, bytes), *b = aligned_alloc(64, bytes), *c = aligned_alloc(64, bytes);
  if (!a || !b || !c) {
    fprintf(stderr, "efsi-machine: cannot allocate 3 x %zu MiB\n", bytes >> 20);
    exit(1);
  }
  const long len = (long)n;
#pragma omp parallel for schedule(static)
  for (long i = 0; i < len; i++) {
    a[i] = 0.0;
    b[i] = 1.0;
    c[i] = 2.0;
  }
  const double s = 3.0;
  triad_result best = {0.0, 0.0};
  for (int r = 0; r < 10; r++) {
    struct timespec c0, c1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    const double t0 = now();
#pragma omp parallel for simd schedule(static)
    for (long i = 0; i < len; i++) a[i] = b[i] + s * c[i];
    const double t = now() - t0;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    const double gbs = 24.0 * (double)n / t * 1e-9;
    if (gbs > best.gbs) {
      best.gbs = gbs;
      best.cpu_share = ((c1.tv_sec - c0.tv_sec) + 1e-9 * (c1.tv_nsec - c0.tv_nsec))
                     / (thread_count() * t);
    }
  }
  *checksum = a[0] + a[len / 2] + a[len - 1];   /* 7 each */
  free(a);
  free(b);
  free(c);
  return best;
}

int main(int argc, char **argv)
{
  int json = 0;
  size_t mib = 0;
  for (int a = 1; a < argc; a++) {
    if (!strcmp(argv[a], "--json")) json = 1;
    else if (!strcmp(argv[a], "--mib") && a + 1 < argc) mib = (size_t)strtoul(argv[++a], NULL, 10);
    else {
      printf("usage: %s [--json] [--mib MIB]\n"
             "FP64 peak (register FMA chains on all OpenMP threads) and STREAM-triad bandwidth\n"
             "(arrays of MIB MiB each; default 4 x the last-level cache, at least 256 MiB).\n"
             "Threads: OMP_NUM_THREADS, one per core.\n", argv[0]);
      return strcmp(argv[a], "--help") && strcmp(argv[a], "-h") ? 2 : 0;
    }
  }
  const int threads = thread_count();
  double check_peak, check_triad;
  const peak_result peak = measure_peak(&check_peak);
  const size_t n = triad_length(mib);
  const triad_result triad = measure_triad(n, &check_triad);
  const size_t mib_used = n * sizeof(double) >> 20;
  if (json) {
    printf("{\"threads\": %d, \"peak_gflops\": %.6g, \"peak_gflops_per_core\": %.6g, "
           "\"triad_gbs\": %.6g, \"peak_gflops_wall\": %.6g, \"peak_cpu_share\": %.3g, "
           "\"triad_cpu_share\": %.3g, \"vector_bits\": %d, \"fma\": %s, "
           "\"triad_mib_per_array\": %zu}\n",
           threads, peak.cpu_gflops, peak.cpu_gflops / threads, triad.gbs, peak.wall_gflops,
           peak.cpu_share, triad.cpu_share, 64 * LANES, HAS_FMA ? "true" : "false", mib_used);
  } else {
    printf("efsi-machine: %d threads, %d-bit FP64 vectors%s\n", threads, 64 * LANES,
           HAS_FMA ? " with FMA (2 flops)" : ", no FMA (mul + add)");
    printf("  %-30s %9.4g GFLOP/s  (%.4g per core; from each thread's CPU time)\n",
           "peak", peak.cpu_gflops, peak.cpu_gflops / threads);
    printf("  %-30s %9.4g GFLOP/s  (wall clock; %.0f %% of the cores' time was ours)\n",
           "peak seen in wall time", peak.wall_gflops, 100 * peak.cpu_share);
    printf("  %-30s %9.4g GB/s     (3 x %zu MiB, 24 B/element, write-allocate not counted;"
           " %.0f %% of the cores' time)\n", "triad a = b + s c", triad.gbs, mib_used,
           100 * triad.cpu_share);
    if (peak.cpu_share < 0.9 || triad.cpu_share < 0.9)
      printf("  warning: other processes took the cores for part of the time: the wall-clock\n"
             "  figures are low (see uptime)\n");
    printf("  checksums %.6g %.6g\n", check_peak, check_triad);
  }
  return 0;
}
