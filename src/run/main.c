/* efsi: full-Eulerian fluid-structure interaction solver for blood flow at the cellular
 * scale.  mpirun -np N efsi [options] CASE.ini
 * The entry point: command line, case file (read on rank 0, broadcast, parsed and
 * validated everywhere before any allocation: bad input exits with status 2), process
 * grid, time step, output directory, then the run. */
#define _GNU_SOURCE   /* feenableexcept */
#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#if defined(EFSI_DEBUG) && defined(HAVE_FEENABLEEXCEPT)
#include <fenv.h>
#endif

#include "base/device.h"
#include "src/case/backend.h"
#include "src/case/config.h"
#include "src/case/case.h"
#include "src/run/cli.h"
#include "decomp/decomp.h"
#include "base/errors.h"
#include "src/run/history.h"
#include "src/bodies/init_solid.h"
#include "src/run/plan.h"
#include "src/run/plan_comm.h"
#include "io/output.h"
#include "io/voxels.h"
#include "src/run/run.h"
#include "src/case/state.h"
#include "src/run/stop.h"
#include "src/step/timestep.h"
#include "stencils/kernel_list.h"
#include "stencils/reductions.h"

/* Every rank reached the same verdict on its input: rank 0 reports it; the status is 2. */
static int refuse(int rank, const char *message)
{
  if (rank == 0) fprintf(stderr, "efsi: error: %s\n", message);
  return EFSI_EXIT_INPUT;
}

/* Rank 0 reads the case file; every rank receives the text (NULL on failure, err set). */
static char *broadcast_case_text(int rank, const char *path, char *err, size_t errlen)
{
  char *text = NULL;
  long length = -1;
  if (rank == 0 && read_text_file(path, &text, err, errlen) == 0) length = (long)strlen(text);
  MPI_CHECK(MPI_Bcast(&length, 1, MPI_LONG, 0, MPI_COMM_WORLD));
  if (length < 0) {
    MPI_CHECK(MPI_Bcast(err, (int)errlen, MPI_CHAR, 0, MPI_COMM_WORLD));
    free(text);
    return NULL;
  }
  if (rank != 0) text = efsi_malloc((size_t)length + 1, "the case file");
  MPI_CHECK(MPI_Bcast(text, (int)length + 1, MPI_CHAR, 0, MPI_COMM_WORLD));
  return text;
}

/* Collective, on a GPU: does the run fit the device memory left free?  A case that does not
 * is refused before any allocation, naming what it needs and what there is. */
static int device_fits(const efsi_case *cs, const efsi_decomp *d, const efsi_grid *g,
                       char *err, size_t errlen)
{
  const efsi_config *c = cs->config;
  if (!cs->gpu) return 0;
  size_t free_bytes = 0, total = 0;
  device_memory(&free_bytes, &total);
  const double needed = case_memory(cs, g, d).device;
  /* the tightest rank decides: the largest shortfall, with its figures */
  double shortfall[3] = {needed - (double)free_bytes, needed, (double)free_bytes};
  struct { double value; int rank; } mine = {shortfall[0], d->rank}, worst;
  MPI_CHECK(MPI_Allreduce(&mine, &worst, 1, MPI_DOUBLE_INT, MPI_MAXLOC, d->comm));
  MPI_CHECK(MPI_Bcast(shortfall, 3, MPI_DOUBLE, worst.rank, d->comm));
  if (worst.value <= 0) return 0;
  snprintf(err, errlen, "%.1000s: %d x %d x %d cells per rank need %.0f MiB of GPU memory "
           "(%.0f bytes per cell), the GPU of rank %d has %.0f MiB free: use more GPUs "
           "(grid.ranks) or fewer cells", c->file, g->n[0], g->n[1], g->n[2],
           shortfall[1] / 1048576.0, shortfall[1] / grid_cells(g), worst.rank,
           shortfall[2] / 1048576.0);
  return 1;
}

/* The seeded bodies: each family's count and the fraction of the region it fills (the tube
 * hematocrit with a vessel, the volume fraction of the box without), and how they were
 * placed, with the cost model's estimate of a random packing on the process grid of d
 * (docs/bodies.md, "Seeding"). */
static void print_bodies(const efsi_config *c, const efsi_case_bodies *cb, const efsi_decomp *d)
{
  if (cb->nfam == 0) return;
  const efsi_seeding_report *r = &cb->report;
  printf("  bodies:");
  const int tube = c->vessel_shape == VESSEL_TUBE;
  for (int f = 0; f < cb->nfam; f++) {
    const int rbc = cb->family[f].kind == BODY_RBC;
    printf("%s %ld %s (%s%.4f%s)", f ? "," : "", r->count[f], shape_name(cb->family[f].kind),
           rbc && tube ? "tube hematocrit " : rbc ? "hematocrit " : "", r->fraction[f],
           rbc ? "" : tube ? " of the lumen" : " of the box");
  }
  const double estimate = bodies_pack_estimate(&cb->seeding, cb->family, cb->nfam, d->dims);
  if (r->packed && r->sweeps > 0)
    printf("; random packing on %d ranks: %ld sweeps, %.2f s (the busiest rank computing for "
           "%.2f s of CPU, estimated %.2g s), at most %ld bodies on a rank, axis order %.3f\n",
           r->ranks, r->sweeps, r->seconds, r->cpu_seconds, estimate, r->most_bodies, r->order);
  else if (r->packed)
    printf("; random packing, estimated %.2g s on %d ranks (not packed in a plan)\n", estimate,
           d->size);
  else
    printf("; lattice\n");
}

/* A whole count as digits (exact below 2^53), else in e-notation. */
static void format_count(double n, char *buf, size_t len)
{
  if (n < 9007199254740992.0) snprintf(buf, len, "%.0f", n);
  else snprintf(buf, len, "%.6e", n);
}

/* Does one rank's block of the process grid dims fit efsi's index and message types?  The
 * points of a field with halos and a halo message must fit an int (MPI counts, the serial
 * NetCDF planes).  Computed in double: nothing overflows on the way. */
static int block_fits(const efsi_case *cs, const int dims[3], char *err, size_t errlen)
{
  const efsi_config *c = cs->config;
  double n[3], points = 1;
  for (int e = 0; e < 3; e++) {
    n[e] = (double)(c->cells[e] / dims[e]);
    points *= n[e] + 2 * EFSI_HALO + EFSI_ALIGN / sizeof(double);
  }
  const double exchanged = cs->exchanged_arrays;
  double face = 0;
  for (int e = 0; e < 3; e++)
    face = fmax(face, EFSI_HALO * exchanged * (n[(e + 1) % 3] + 2 * EFSI_HALO)
                          * (n[(e + 2) % 3] + 2 * EFSI_HALO));
  if (points <= INT_MAX && face <= INT_MAX) return 0;
  snprintf(err, errlen, "%.1000s: grid.cells: a block of %.0f x %.0f x %.0f cells per rank "
           "(process grid %d x %d x %d) is too large: a field with halos or a halo message "
           "must hold fewer than 2^31 values; use more ranks", config_where(c, "grid.cells"),
           n[0], n[1], n[2], dims[0], dims[1], dims[2]);
  return 1;
}

/* Collective: does the run fit the memory of every node (the ranks there times the
 * estimate per rank against the node's physical memory)?  Refused before any allocation. */
static int memory_fits(const efsi_case *cs, const efsi_decomp *d, const efsi_grid *g,
                       char *err, size_t errlen)
{
  const efsi_config *c = cs->config;
  const int on_node = d->node_size;
  const double physical = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
  const double need = case_memory(cs, g, d).host;
  int short_here = physical > 0 && need * on_node > physical, any = 0;
  MPI_CHECK(MPI_Allreduce(&short_here, &any, 1, MPI_INT, MPI_MAX, d->comm));
  if (!any) return 0;
  if (d->rank == 0 || short_here)
    snprintf(err, errlen, "%.1000s: grid.cells: %d x %d x %d cells need %.4g GiB per rank "
             "(%.0f bytes per cell); %d ranks on a node need %.4g GiB, more than its %.4g GiB "
             "of memory: use more nodes or fewer cells (efsi --check prints the estimate)",
             config_where(c, "grid.cells"), c->cells[0], c->cells[1], c->cells[2],
             need / 1073741824.0, need / grid_cells(g), on_node,
             need * on_node / 1073741824.0, physical / 1073741824.0);
  /* the message of the lowest rank that is short */
  struct { int failed, rank; } mine = {short_here, -d->rank}, first;
  MPI_CHECK(MPI_Allreduce(&mine, &first, 1, MPI_2INT, MPI_MAXLOC, d->comm));
  MPI_CHECK(MPI_Bcast(err, (int)errlen, MPI_CHAR, -first.rank, d->comm));
  return 1;
}

/* Threads per rank where OMP_NUM_THREADS is not set (docs/building.md, "Threads"): the
 * processors a rank may run on, shared by the ranks of its node that may run on them too.
 * Ranks bound to cores of their own keep those; ranks started unbound (a GPU node's ranks,
 * mpirun --bind-to none) would otherwise each start a thread per core of the node, and
 * their threads would wait for one another's cores (on two GPUs of one node the Fig. 2
 * channel's step took 9.0 ms so, 0.92 ms with the cores shared).  Collective; returns the
 * ranks that share this rank's processors (1: none), 0 where OMP_NUM_THREADS decides. */
static int share_cores(MPI_Comm comm)
{
  int sharing = 0;
#if defined(_OPENMP) && defined(__linux__)
  if (getenv("OMP_NUM_THREADS")) return 0;
  MPI_Comm node;
  int on_node = 1;
  MPI_CHECK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
  MPI_CHECK(MPI_Comm_size(node, &on_node));
  cpu_set_t mine;
  CPU_ZERO(&mine);
  if (sched_getaffinity(0, sizeof mine, &mine) != 0) CPU_SET(0, &mine);
  cpu_set_t *all = efsi_malloc((size_t)on_node * sizeof *all, "the node's processor masks");
  MPI_CHECK(MPI_Allgather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE,
                          node));
  MPI_CHECK(MPI_Comm_free(&node));
  for (int r = 0; r < on_node; r++) {
    cpu_set_t both;
    CPU_AND(&both, &mine, &all[r]);
    if (CPU_COUNT(&both) > 0) sharing++;
  }
  free(all);
  const int processors = CPU_COUNT(&mine);
  if (sharing > 1) omp_set_num_threads(processors / sharing > 1 ? processors / sharing : 1);
#else
  (void)comm;
#endif
  return sharing;
}

static void print_summary(const efsi_case *cs, const efsi_decomp *d, const efsi_grid *g,
                          const efsi_timestep *ts, const efsi_backend *b,
                          const efsi_case_bodies *cb, int cores_shared, int check)
{
  const efsi_config *c = cs->config;
  int threads = 1;
#ifdef _OPENMP
  threads = omp_get_max_threads();
#endif
  static const char *const bc[2] = {"periodic", "wall"};
  printf("efsi %s: case %s (%s)\n", PACKAGE_VERSION, c->name, c->file);
  char total[64];
  format_count((double)c->cells[0] * c->cells[1] * (double)c->cells[2], total, sizeof total);
  printf("  grid %d x %d x %d = %s cells, %g x %g x %g, y %s, z %s\n", c->cells[0],
         c->cells[1], c->cells[2], total, c->length[0], c->length[1], c->length[2],
         bc[c->boundary[1]], bc[c->boundary[2]]);
  char shared[96] = "";
  if (cores_shared > 1)
    snprintf(shared, sizeof shared, " (%d ranks share the processors; OMP_NUM_THREADS unset)",
             cores_shared);
  printf("  %d ranks as %d x %d x %d, %d x %d x %d cells each, %d threads per rank%s\n",
         d->size, d->dims[0], d->dims[1], d->dims[2], g->n[0], g->n[1], g->n[2], threads,
         shared);
  printf("  pressure: %s; drive: %s\n", c->pressure_method == PRESSURE_ACM ? "acm" : "smac",
         c->drive_mode == DRIVE_PRESSURE ? "pressure gradient" : "flow rate");
  printf("  dt = %.6g (%s); limits:", ts->dt, c->dt_auto ? "auto" : "fixed");
  for (int l = 0; l < LIMIT_COUNT; l++)
    if (ts->limit[l] < 1e300) printf(" %s %.4g%s;", timestep_limit_name(l), ts->limit[l],
                                     l == ts->binding ? " (binds)" : "");
  printf(" U = %.4g\n", ts->velocity_scale);
  printf("  device: %s\n", b->description);
  print_bodies(c, cb, d);
  if (check) {
    const efsi_memory m = case_memory(cs, g, d);
    printf("  memory: %.1f MiB per rank, %.0f bytes per cell, %.1f GiB for all %d ranks",
           m.host / 1048576.0, m.host / grid_cells(g), m.host * d->size / 1073741824.0,
           d->size);
    if (b->gpu)
      printf(" on the host; %.1f MiB per GPU, %.0f bytes per cell on the device",
             m.device / 1048576.0, m.device / grid_cells(g));
    printf("\n");
  }
  fflush(stdout);
}

/* No packing of the bodies efsi seeds (RBCs, platelets: ellipsoids and discs) fills more of
 * a region than the densest packing of ellipsoids, 0.7707 (Donev et al., Phys. Rev. Lett. 92,
 * 255506, 2004); a random packing jams well below it (the quick start's lumen holds RBCs
 * to a tube hematocrit of about 0.33). */
#define BODIES_DENSEST_FRACTION 0.7707

/* Bodies that cannot fit whatever the packing: the families' volume against the region
 * (the lumen with a vessel, the box without), refused at once, before a random packing
 * would try for seconds or minutes (docs/bodies.md, "Seeding").  0, or 2's message in err. */
static int bodies_fit(const efsi_case *cs, const efsi_case_bodies *cb, char *err,
                      size_t errlen)
{
  const efsi_config *c = cs->config;
  double total = 0;
  for (int f = 0; f < cb->nfam; f++) total += cb->report.fraction[f];
  if (total <= BODIES_DENSEST_FRACTION || cb->nfam == 0) return 0;
  const efsi_body_family *first = &cb->family[0];
  char key[64];
  snprintf(key, sizeof key, "%s.%s", shape_name(first->kind),
           first->count > 0 ? "count" : first->kind == BODY_RBC ? "hematocrit" : "fraction");
  char asked[64];
  if (first->count > 0) snprintf(asked, sizeof asked, "%ld", first->count);
  else snprintf(asked, sizeof asked, "%g", first->fraction);
  snprintf(err, errlen, "%.1000s: %s = %s: the bodies asked would fill %.3g times the %s "
           "(%ld %s%s), more than any packing of them can (at most %.2f of it; a random "
           "packing jams lower): ask for fewer", config_where(c, key), key, asked, total,
           c->vessel_shape == VESSEL_TUBE ? "lumen" : "box", cb->report.count[0],
           shape_name(first->kind), cb->nfam > 1 ? " and the other families" : "",
           BODIES_DENSEST_FRACTION);
  return 1;
}

/* Rank 0, before a random packing that the cost model expects to take more than a few
 * seconds: one line, so that a long packing is not a silent one. */
static void say_packing(const efsi_config *c, const efsi_case_bodies *cb, const efsi_decomp *d)
{
  if (cb->nfam == 0 || !cb->report.packed) return;
  const double estimate = bodies_pack_estimate(&cb->seeding, cb->family, cb->nfam, d->dims);
  if (estimate < 2) return;
  printf("efsi: packing the bodies of %s at random on %d rank%s: about %.2g s (the cost "
         "model's estimate, docs/bodies.md)\n", c->file, d->size, d->size == 1 ? "" : "s",
         estimate);
  fflush(stdout);
}

/* Rank 0, --check: would the run be allowed to write where it will (-o, else out/<name>)?
 * A folder that cannot be created or written is refused as the run would refuse it. */
static int check_output(const efsi_config *c, const efsi_cli *cli, char *err, size_t errlen)
{
  char dir[EFSI_PATH_LEN];
  if (cli->output_dir) snprintf(dir, sizeof dir, "%s", cli->output_dir);
  else snprintf(dir, sizeof dir, "out/%s", c->name);
  return output_check(dir, err, errlen);
}

/* The share of this process's processors (its affinity mask) that other work leaves idle,
 * from /proc/stat's idle time of each over `ms` milliseconds: 1 on a quiet machine, about
 * (n - 1)/n with one of n taken.  -1 where it cannot be read. */
static double idle_share(int ms)
{
#ifdef __linux__
  cpu_set_t mine;
  if (sched_getaffinity(0, sizeof mine, &mine) != 0) return -1;
  double idle[2] = {0, 0}, total[2] = {0, 0};
  for (int sample = 0; sample < 2; sample++) {
    if (sample) usleep((useconds_t)ms * 1000);
    FILE *f = fopen("/proc/stat", "r");
    if (!f) return -1;
    char line[512];
    while (fgets(line, sizeof line, f)) {
      int cpu;
      unsigned long long t[8] = {0};
      if (sscanf(line, "cpu%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &t[0], &t[1],
                 &t[2], &t[3], &t[4], &t[5], &t[6], &t[7]) < 5 || cpu < 0 || cpu >= CPU_SETSIZE
          || !CPU_ISSET(cpu, &mine))
        continue;
      for (int k = 0; k < 8; k++) total[sample] += (double)t[k];
      idle[sample] += (double)(t[3] + t[4]);   /* idle and iowait */
    }
    fclose(f);
  }
  const double spent = total[1] - total[0];
  return spent > 0 ? (idle[1] - idle[0]) / spent : -1;
#else
  (void)ms;
  return -1;
#endif
}

/* How OpenMP threads wait at the end of a loop, unless the user chose (OMP_WAIT_POLICY,
 * GOMP_SPINCOUNT, KMP_BLOCKTIME): with libgomp's default a waiting thread spins for a while
 * (GOMP_SPINCOUNT=300000), and when another job takes one of a rank's cores its threads spin
 * while the one they wait for cannot run.  Where this process's processors are idle at the
 * start, a short spin (GOMP_SPINCOUNT=10000: the speed of the default on a quiet machine);
 * where other work already takes some, threads that sleep at once (OMP_WAIT_POLICY=
 * passive).  bench/busy-cores and the figures: docs/building.md, "Threads".  The OpenMP
 * runtime reads the variables when it is loaded, before main: efsi sets one and starts
 * itself again, once, before MPI_Init. */
static void quiet_threads(char **argv)
{
#if defined(_OPENMP) && defined(__linux__)
  if (getenv("OMP_WAIT_POLICY") || getenv("GOMP_SPINCOUNT") || getenv("KMP_BLOCKTIME")) return;
  const char *threads = getenv("OMP_NUM_THREADS");
  cpu_set_t mine;
  const int processors = sched_getaffinity(0, sizeof mine, &mine) == 0 ? CPU_COUNT(&mine) : 1;
  if ((threads && strcmp(threads, "1") == 0) || processors < 2) return;   /* no one waits */
  const double idle = idle_share(30);
  /* quiet: less than half a processor of this process's taken by other work */
  const int quiet = idle >= 0 && idle * processors > processors - 0.5;
  if (quiet ? setenv("GOMP_SPINCOUNT", "10000", 1) : setenv("OMP_WAIT_POLICY", "passive", 1))
    return;
  execv("/proc/self/exe", argv);
  /* no new image (no /proc): the run goes on with the runtime's default */
#else
  (void)argv;
#endif
}

/* --check --ranks N: the process grid, limits, memory and, on GPUs, the halo paths of a run
 * on N ranks, planned on this one process without creating the ranks (a decomposition of
 * one process standing in for rank 0 of N).  Returns the exit status. */
static int plan(const efsi_case *cs, const efsi_timestep *ts, long ranks, int gpus_per_node,
                int cores_shared, char *err, size_t errlen)
{
  const efsi_config *c = cs->config;
  const int n = (int)ranks;
  const int *periodic = cs->periodic;
  efsi_decomp d;
  memset(&d, 0, sizeof d);
  char why[1024] = "";
  if (config_validate_ranks(c, n, err, errlen)) return EFSI_EXIT_INPUT;
  if (decomp_plan(n, c->cells, c->ranks, periodic, d.dims, why, sizeof why)) {
    snprintf(err, errlen, "%.1000s: %s", config_where(c, "grid.ranks"), why);
    return EFSI_EXIT_INPUT;
  }
  if (block_fits(cs, d.dims, err, errlen)) return EFSI_EXIT_INPUT;
  d.comm = d.node = MPI_COMM_SELF;   /* rank 0, alone on its node */
  d.size = n;
  d.node_size = 1;
  for (int e = 0; e < 3; e++) d.periodic[e] = periodic[e];
  efsi_grid g;
  decomp_grid(&d, c->cells, c->length, &g);
  efsi_backend backend;
  if (backend_plan(c, &backend, err, errlen)) return EFSI_EXIT_INPUT;
  efsi_case_bodies planned;   /* the bodies are planned, not placed */
  if (case_bodies(cs, &planned, err, errlen) || bodies_fit(cs, &planned, err, errlen))
    return EFSI_EXIT_INPUT;
  print_summary(cs, &d, &g, ts, &backend, &planned, cores_shared, 1);
  plan_warnings(c);
  /* the planned GPU run's step is timed on this process's first GPU, where it sees one */
  char gpu[256];
  if (backend.gpu && device_count() > 0) device_select(0, gpu, sizeof gpu);
  plan_report(cs, &g, ts, &backend, MPI_COMM_SELF, n, planned.total);
  if (comm_print_plan(cs, &d, &g, &backend, gpus_per_node, err, errlen)) return EFSI_EXIT_INPUT;
  printf("efsi: %s is valid for %d ranks (planned, not run)\n", c->file, n);
  return 0;
}

/* What this build has, for efsi --version (docs/building.md): the backends and the optional
 * libraries configure found. */
#ifdef EFSI_CUDA
#define BUILT_WITH_GPU "the CPU and GPU (CUDA) backends"
#else
#define BUILT_WITH_GPU "the CPU backend"
#endif
#ifdef EFSI_NCCL
#define BUILT_WITH_NCCL ", NCCL"
#else
#define BUILT_WITH_NCCL ""
#endif
#ifdef HAVE_NETCDF_PAR
#define BUILT_WITH_NETCDF ", parallel NetCDF-4"
#else
#define BUILT_WITH_NETCDF ", NetCDF-4 through rank 0"
#endif
#define BUILT_WITH BUILT_WITH_GPU BUILT_WITH_NCCL BUILT_WITH_NETCDF

/* The run after the command line: the case read, checked and planned or run.  Returns the
 * exit status; MPI_Finalize is the caller's. */
static int run_case(const efsi_cli *cli, int rank, int size, int cores_shared, efsi_config *cfg)
{
  char err[2048] = "";
  char *text = broadcast_case_text(rank, cli->case_file, err, sizeof err);
  if (!text) return refuse(rank, err);
  config_defaults(cfg);
  int bad = config_parse(cfg, cli->case_file, text, cli->overrides, cli->n_overrides, err,
                         sizeof err);
  free(text);
  if (!bad && cli->steps > 0) cfg->steps = cli->steps;
  /* the case resolved once: materials, periodicity, methods, the lists of arrays */
  efsi_case cs;
  if (!bad) case_resolve(cfg, &cs);
  efsi_timestep ts;
  if (!bad && cli->plan_ranks > 0) {   /* --check --ranks N */
    bad = timestep_choose(&cs, &ts, err, sizeof err);
    const int status = bad ? EFSI_EXIT_INPUT
                           : plan(&cs, &ts, cli->plan_ranks, (int)cli->plan_gpus_per_node,
                                  cores_shared, err, sizeof err);
    if (status) return refuse(rank, err);
    return 0;
  }
  if (!bad) bad = config_validate_ranks(cfg, size, err, sizeof err);
  if (!bad) bad = timestep_choose(&cs, &ts, err, sizeof err);
  efsi_decomp d;
  const int *periodic = cs.periodic;
  int planned[3];
  if (!bad) {
    char why[1024] = "";
    if (decomp_plan(size, cfg->cells, cfg->ranks, periodic, planned, why, sizeof why)) {
      snprintf(err, sizeof err, "%.1000s: %s", config_where(cfg, "grid.ranks"), why);
      bad = 1;
    }
  }
  /* sizes first: the seeding below allocates per body, the decomposition per rank */
  if (!bad) bad = block_fits(&cs, planned, err, sizeof err);
  /* --check: where the run would write, before the bodies (a packing may take a while) */
  if (!bad && cli->check && rank == 0) bad = check_output(cfg, cli, err, sizeof err);
  if (cli->check) MPI_CHECK(MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD));
  if (bad && cli->check) MPI_CHECK(MPI_Bcast(err, (int)sizeof err, MPI_CHAR, 0, MPI_COMM_WORLD));
  efsi_case_bodies bodies;
  memset(&bodies, 0, sizeof bodies);
  if (!bad && cfg->voxels_file[0]) {   /* every value, on rank 0 only, before any rank opens it */
    if (rank == 0)
      bad = voxels_validate(cfg->voxels_file, cfg->voxels_variable, voxels_labels(cfg),
                            cfg->cells, err, sizeof err);
    MPI_CHECK(MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD));
  }
  if (!bad) bad = case_bodies(&cs, &bodies, err, sizeof err) || bodies_fit(&cs, &bodies, err,
                                                                            sizeof err);
  if (!bad) {
    char why[1024] = "";
    if (decomp_create(&d, MPI_COMM_WORLD, cfg->cells, cfg->ranks, periodic, why, sizeof why)) {
      snprintf(err, sizeof err, "%.1000s: %s", config_where(cfg, "grid.ranks"), why);
      bad = 1;
    }
  }
  if (bad) return refuse(rank, err);

  efsi_grid g;
  decomp_grid(&d, cfg->cells, cfg->length, &g);
  efsi_backend backend;
  if (rank == 0) say_packing(cfg, &bodies, &d);
  if (memory_fits(&cs, &d, &g, err, sizeof err)
      || backend_choose(cfg, &d, &backend, err, sizeof err)
      || device_fits(&cs, &d, &g, err, sizeof err)
      || case_bodies_place(cfg, &bodies, &d, err, sizeof err)) {
    case_bodies_free(&bodies);
    decomp_free(&d);
    return refuse(rank, err);
  }
  if (rank == 0) print_summary(&cs, &d, &g, &ts, &backend, &bodies, cores_shared, cli->check);
  if (rank == 0) plan_warnings(cfg);
  int status = 0, refused = 0;
  if (cli->check) {
    plan_report(&cs, &g, &ts, &backend, MPI_COMM_WORLD, size, bodies.total);
    if (rank == 0) printf("efsi: %s is valid\n", cfg->file);
  } else {
    /* the output directory as one run's history: what the run continues from, or a
     * refusal (src/run/history.h); nothing to do when the restart file is at the end */
    efsi_output_plan out;
    int finished = 0;
    if (history_plan(&cs, cli, &g, &d, ts.dt, &out, &finished, err, sizeof err)) {
      refused = 1;
    } else if (!finished) {
      if (rank == 0) {
        printf("  output: %s\n", out.dir);
        if (out.restart[0]) printf("  restart: %s\n", out.restart);
      }
      status = run(&cs, &d, &ts, &out, &bodies, &backend);
    }
  }
  case_bodies_free(&bodies);
  decomp_free(&d);
  return refused ? refuse(rank, err) : status;
}

int main(int argc, char **argv)
{
  quiet_threads(argv);
  int provided = 0, rank = 0, size = 1;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  stop_install();
#if defined(EFSI_DEBUG) && defined(HAVE_FEENABLEEXCEPT)
  feenableexcept(FE_DIVBYZERO | FE_INVALID | FE_OVERFLOW);
#endif

  char err[2048] = "";
  efsi_cli cli;
  int status = 0;
  if (cli_parse(argc, argv, &cli, err, sizeof err)) {
    status = refuse(rank, err);
  } else if (cli.help || cli.version) {
    if (rank == 0) {
      if (cli.help) cli_usage(stdout);
      else printf("efsi %s\nbuilt with: %s\n", PACKAGE_VERSION, BUILT_WITH);
    }
  } else {
    const int cores_shared = share_cores(MPI_COMM_WORLD);
    if (cli.status_dir) {   /* efsi --status DIR [CASE.ini] */
      status = history_status_command(&cli, rank);
    } else {
      /* the case's configuration is large (its tables of keys and materials): on the heap */
      efsi_config *cfg = efsi_calloc(1, sizeof *cfg, "the case's configuration");
      status = run_case(&cli, rank, size, cores_shared, cfg);
      free(cfg);
    }
  }
  cli_free(&cli);
  MPI_Finalize();
  return status;
}
