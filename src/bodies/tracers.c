/* Body tracers (see tracers.h).  The velocity at a tracer is the kernel's
 * (stencils/interpolate.h); migration moves tracers that left the block along x, then y,
 * then z. */
#include "src/bodies/tracers.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/device.h"
#include "base/errors.h"

struct efsi_tracers {
  const efsi_decomp *d;
  efsi_grid g;
  efsi_tracer *local;        /* page-locked host memory when `pinned` (a GPU's kernels reach it) */
  long count, capacity;
  int pinned;
  int pending;               /* a move started (tracers_advance_start), not yet finished */
  double dt;                 /* the time step of the pending move */
  efsi_tracer *send[2];      /* leaving through the low / high side of the current direction */
  long send_capacity[2];
  MPI_Datatype type;         /* one efsi_tracer as bytes (a homogeneous machine) */
};

static const char axis_name[3] = {'x', 'y', 'z'};

/* Stops the run where the local tracers are read while a move is under way. */
static void settled(const efsi_tracers *t, const char *who)
{
  if (t->pending)
    efsi_abort(EFSI_EXIT_RUNTIME, "tracers: %s while a move is under way (tracers_advance_finish "
               "first)", who);
}

/* Grow *buf to hold at least need tracers, keeping its contents; pinned: in page-locked
 * memory (the local tracers of a GPU run, which its kernels reach). */
static void reserve(efsi_tracer **buf, long *capacity, long need, int pinned)
{
  if (need <= *capacity) return;
  long grown = *capacity > 0 ? *capacity : 64;
  while (grown < need) grown *= 2;
  if (!pinned) {
    *buf = efsi_realloc(*buf, (size_t)grown * sizeof **buf, "tracers");
  } else {
    _Static_assert(sizeof(efsi_tracer) % sizeof(double) == 0, "a tracer is whole doubles");
    efsi_tracer *to = (efsi_tracer *)device_alloc_pinned((size_t)grown * sizeof *to / sizeof(double));
    if (*capacity > 0) memcpy(to, *buf, (size_t)*capacity * sizeof *to);
    device_free_pinned((double *)*buf);
    *buf = to;
  }
  *capacity = grown;
}

/* The global cell along d that holds coordinate xd; the domain's ends belong to the first
 * and last cells. */
static int global_cell(const efsi_grid *g, int d, double xd)
{
  const double c = floor(xd * g->inv_h[d]);
  if (!(c >= 0.0)) return 0;           /* also a NaN position: stopped in the migration */
  if (c >= g->global_n[d]) return g->global_n[d] - 1;
  return (int)c;
}

int tracers_owns(const efsi_grid *g, const double x[3])
{
  for (int d = 0; d < 3; d++) {
    const int c = global_cell(g, d, x[d]);
    if (c < g->offset[d] || c >= g->offset[d] + g->n[d]) return 0;
  }
  return 1;
}

efsi_tracers *tracers_create(const efsi_decomp *d, const efsi_grid *g, int pinned)
{
  for (int e = 0; e < 3; e++)
    if (g->n[e] * d->dims[e] != g->global_n[e])
      efsi_abort(EFSI_EXIT_RUNTIME, "tracers: %d ranks along %c do not split %d cells into "
                 "equal blocks of %d", d->dims[e], axis_name[e], g->global_n[e], g->n[e]);
  efsi_tracers *t = efsi_calloc(1, sizeof *t, "tracers");
  t->d = d;
  t->g = *g;
  t->pinned = pinned;
  MPI_CHECK(MPI_Type_contiguous((int)sizeof(efsi_tracer), MPI_BYTE, &t->type));
  MPI_CHECK(MPI_Type_commit(&t->type));
  return t;
}

void tracers_free(efsi_tracers *t)
{
  if (!t) return;
  MPI_CHECK(MPI_Type_free(&t->type));
  if (t->pinned) device_free_pinned((double *)t->local);
  else free(t->local);
  free(t->send[0]);
  free(t->send[1]);
  free(t);
}

void tracers_add(efsi_tracers *t, long id, int kind, const double x[3])
{
  if (!tracers_owns(&t->g, x))
    efsi_abort(EFSI_EXIT_RUNTIME, "tracers: body %ld at (%g, %g, %g) added on rank %d, "
               "which does not own that point", id, x[0], x[1], x[2], t->d->rank);
  settled(t, "tracers_add");
  reserve(&t->local, &t->capacity, t->count + 1, t->pinned);
  efsi_tracer *p = &t->local[t->count++];
  memset(p, 0, sizeof *p);             /* padding too: gathered arrays compare bitwise */
  p->id = id;
  p->kind = kind;
  memcpy(p->x, x, sizeof p->x);
}

long tracers_local_count(const efsi_tracers *t) { return t->count; }

const efsi_tracer *tracers_local(const efsi_tracers *t)
{
  settled(t, "tracers_local");
  return t->local;
}

void tracers_interpolate(efsi_tracers *t, const efsi_kernels *k, const efsi_grid *g,
                         const double *u, const double *v, const double *w)
{
  settled(t, "tracers_interpolate");
  k->velocity_at_tracers(g, u, v, w, t->local, t->count);
  if (t->pinned) device_synchronize();   /* a GPU's kernel (a CPU run has no device) */
}

/* Back into the domain along d: periodic wrap into [0, L), or reflection off the wall. */
static double into_domain(double xd, double length, int periodic)
{
  if (periodic) return xd - length * floor(xd / length);
  if (xd < 0.0) xd = -xd;
  if (xd > length) xd = 2.0 * length - xd;
  return xd < 0.0 ? 0.0 : xd > length ? length : xd;
}

void tracers_advance(efsi_tracers *t, const efsi_kernels *k, const efsi_grid *g,
                     const double *u, const double *v, const double *w,
                     double dt)
{
  tracers_advance_start(t, k, g, u, v, w, dt);
  tracers_advance_finish(t);
}

void tracers_advance_start(efsi_tracers *t, const efsi_kernels *k, const efsi_grid *g,
                           const double *u, const double *v, const double *w, double dt)
{
  settled(t, "tracers_advance_start");
  k->velocity_at_tracers(g, u, v, w, t->local, t->count);
  if (t->pinned) device_fence(DEVICE_FENCE_TRACERS);
  t->dt = dt;
  t->pending = 1;
}

void tracers_advance_finish(efsi_tracers *t)
{
  if (!t->pending) return;
  if (t->pinned) device_fence_wait(DEVICE_FENCE_TRACERS);   /* a GPU's velocities are in t->local */
  t->pending = 0;
  efsi_tracer *p = t->local;
  const int *periodic = t->d->periodic;
  const double dt = t->dt, *length = t->g.length;
  /* threads only for many tracers: the host's time here is the step's, on a small grid */
#pragma omp parallel for schedule(static) if (t->count > 4096)
  for (long n = 0; n < t->count; n++)
    for (int d = 0; d < 3; d++)
      p[n].x[d] = into_domain(p[n].x[d] + dt * p[n].v[d], length[d], periodic[d]);
  tracers_migrate(t);
}

void tracers_advance_cancel(efsi_tracers *t)
{
  if (!t->pending) return;
  if (t->pinned) device_fence_wait(DEVICE_FENCE_TRACERS);
  t->pending = 0;
}

/* Which way the tracer goes along d: 0 stays, -1 to the low neighbour, +1 to the high one;
 * a jump beyond the neighbouring block (or a non-finite position) stops the run. */
static int direction_of(const efsi_tracers *t, const efsi_tracer *p, int d)
{
  const efsi_decomp *dc = t->d;
  const int block = global_cell(&t->g, d, p->x[d]) / t->g.n[d];
  const int diff = block - dc->coords[d], dims = dc->dims[d];
  if (isfinite(p->x[d])) {
    if (diff == 0) return 0;
    if (diff == 1 || (dc->periodic[d] && diff == 1 - dims)) return 1;
    if (diff == -1 || (dc->periodic[d] && diff == dims - 1)) return -1;
  }
  efsi_abort(EFSI_EXIT_RUNTIME, "tracers: body %ld moved to (%g, %g, %g), from block %d to "
             "block %d of %d along %c in one step; a tracer may only move into a neighbouring "
             "block (|v| dt < h): the time step is too large or the velocity is not finite",
             p->id, p->x[0], p->x[1], p->x[2], dc->coords[d], block, dims, axis_name[d]);
}

/* An MPI count: at most INT_MAX tracers in one message. */
static int message_count(long n)
{
  if (n > INT_MAX)
    efsi_abort(EFSI_EXIT_RUNTIME, "tracers: %ld tracers in one message (at most %d)", n,
               INT_MAX);
  return (int)n;
}

/* One direction: sort out the leavers (the staying ones keep their order), exchange the
 * counts, then the tracers, appended to the local array.  Tag 0 travels up, tag 1 down. */
static void migrate_direction(efsi_tracers *t, int d)
{
  const efsi_decomp *dc = t->d;
  long leaving[2] = {0, 0}, kept = 0;
  for (long n = 0; n < t->count; n++) {
    const int way = direction_of(t, &t->local[n], d);
    if (way == 0) {
      t->local[kept++] = t->local[n];
      continue;
    }
    const int side = way > 0;
    reserve(&t->send[side], &t->send_capacity[side], leaving[side] + 1, 0);
    t->send[side][leaving[side]++] = t->local[n];
  }
  t->count = kept;

  const int low = dc->neighbor[d][0], high = dc->neighbor[d][1];
  long arriving[2] = {0, 0};           /* from the low / high neighbour */
  MPI_Request req[4];
  MPI_CHECK(MPI_Irecv(&arriving[0], 1, MPI_LONG, low, 0, dc->comm, &req[0]));
  MPI_CHECK(MPI_Irecv(&arriving[1], 1, MPI_LONG, high, 1, dc->comm, &req[1]));
  MPI_CHECK(MPI_Isend(&leaving[1], 1, MPI_LONG, high, 0, dc->comm, &req[2]));
  MPI_CHECK(MPI_Isend(&leaving[0], 1, MPI_LONG, low, 1, dc->comm, &req[3]));
  MPI_CHECK(MPI_Waitall(4, req, MPI_STATUSES_IGNORE));

  reserve(&t->local, &t->capacity, t->count + arriving[0] + arriving[1], t->pinned);
  efsi_tracer *from_low = t->local + t->count, *from_high = from_low + arriving[0];
  MPI_CHECK(MPI_Irecv(from_low, message_count(arriving[0]), t->type, low, 0, dc->comm,
                      &req[0]));
  MPI_CHECK(MPI_Irecv(from_high, message_count(arriving[1]), t->type, high, 1, dc->comm,
                      &req[1]));
  MPI_CHECK(MPI_Isend(t->send[1], message_count(leaving[1]), t->type, high, 0, dc->comm,
                      &req[2]));
  MPI_CHECK(MPI_Isend(t->send[0], message_count(leaving[0]), t->type, low, 1, dc->comm,
                      &req[3]));
  MPI_CHECK(MPI_Waitall(4, req, MPI_STATUSES_IGNORE));
  t->count += arriving[0] + arriving[1];
}

void tracers_migrate(efsi_tracers *t)
{
  for (int d = 0; d < 3; d++)
    if (t->d->dims[d] > 1) migrate_direction(t, d);
}

long tracers_total(const efsi_tracers *t)
{
  long total = 0;
  MPI_CHECK(MPI_Allreduce(&t->count, &total, 1, MPI_LONG, MPI_SUM, t->d->comm));
  return total;
}

static int by_id(const void *a, const void *b)
{
  const long ia = ((const efsi_tracer *)a)->id, ib = ((const efsi_tracer *)b)->id;
  return (ia > ib) - (ia < ib);
}

static efsi_tracer *alloc_tracers(long n)
{
  return efsi_malloc((size_t)(n > 0 ? n : 1) * sizeof(efsi_tracer), "tracers");
}

/* Counts and displacements (in tracers) of every rank, for the v-collectives on rank 0. */
static void layout(const long *count, int size, int *counts, int *displs)
{
  long at = 0;
  for (int r = 0; r < size; r++) {
    if (count[r] > INT_MAX || at > INT_MAX)
      efsi_abort(EFSI_EXIT_RUNTIME, "tracers: more than %d tracers to gather", INT_MAX);
    counts[r] = (int)count[r];
    displs[r] = (int)at;
    at += count[r];
  }
}

void tracers_gather(const efsi_tracers *t, long *n, efsi_tracer **all)
{
  settled(t, "tracers_gather");
  const efsi_decomp *dc = t->d;
  const int root = dc->rank == 0;
  long *count = root ? efsi_malloc((size_t)dc->size * sizeof *count, "tracer counts") : NULL;
  int *counts = root ? efsi_malloc((size_t)dc->size * sizeof *counts, "tracer counts") : NULL;
  int *displs = root ? efsi_malloc((size_t)dc->size * sizeof *displs, "tracer counts") : NULL;
  MPI_CHECK(MPI_Gather(&t->count, 1, MPI_LONG, count, 1, MPI_LONG, 0, dc->comm));
  *n = 0;
  *all = NULL;
  if (root) {
    layout(count, dc->size, counts, displs);
    for (int r = 0; r < dc->size; r++) *n += count[r];
    *all = alloc_tracers(*n);
  }
  MPI_CHECK(MPI_Gatherv(t->local, message_count(t->count), t->type, *all, counts, displs,
                        t->type, 0, dc->comm));
  if (root && *n > 1) qsort(*all, (size_t)*n, sizeof **all, by_id);
  free(count);
  free(counts);
  free(displs);
}

/* Rank 0: the rank that owns x (the blocks are equal). */
static int owner_rank(const efsi_tracers *t, const double x[3])
{
  int coords[3], rank = 0;
  for (int d = 0; d < 3; d++) coords[d] = global_cell(&t->g, d, x[d]) / t->g.n[d];
  MPI_CHECK(MPI_Cart_rank(t->d->comm, coords, &rank));
  return rank;
}

void tracers_scatter(efsi_tracers *t, long n, const efsi_tracer *all)
{
  const efsi_decomp *dc = t->d;
  const int root = dc->rank == 0;
  long *count = NULL;
  int *counts = NULL, *displs = NULL, *owner = NULL;
  efsi_tracer *sorted = NULL;
  if (root) {
    /* Bucket by owner, keeping the input order within a rank. */
    count = efsi_calloc((size_t)dc->size, sizeof *count, "tracer counts");
    counts = efsi_malloc((size_t)dc->size * sizeof *counts, "tracer counts");
    displs = efsi_malloc((size_t)dc->size * sizeof *displs, "tracer counts");
    owner = efsi_malloc((size_t)(n > 0 ? n : 1) * sizeof *owner, "tracer owners");
    sorted = alloc_tracers(n);
    for (long m = 0; m < n; m++) count[owner[m] = owner_rank(t, all[m].x)]++;
    layout(count, dc->size, counts, displs);
    long *next = efsi_calloc((size_t)dc->size, sizeof *next, "tracer counts");
    for (long m = 0; m < n; m++) sorted[displs[owner[m]] + next[owner[m]]++] = all[m];
    free(next);
  }
  long mine = 0;
  MPI_CHECK(MPI_Scatter(count, 1, MPI_LONG, &mine, 1, MPI_LONG, 0, dc->comm));
  settled(t, "tracers_scatter");
  t->count = 0;
  reserve(&t->local, &t->capacity, mine, t->pinned);
  MPI_CHECK(MPI_Scatterv(sorted, counts, displs, t->type, t->local, message_count(mine),
                         t->type, 0, dc->comm));
  t->count = mine;
  free(count);
  free(counts);
  free(displs);
  free(owner);
  free(sorted);
}
