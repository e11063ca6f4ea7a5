/* Per-body volume, centroid and second moments of the volume fraction (see body_shapes.h;
 * docs/tracers.md, "Body shapes").  Three steps at each output step:
 *   1. every tracer goes, as a copy, to the ranks whose block lies within its kind's reach
 *      (one MPI_Alltoallv; any reach, any block size);
 *   2. each rank gives each owned cell of a body material with phi > 0 to the nearest tracer
 *      image of that material within reach (buckets of the reach's size, periodic images
 *      inserted where they come near the block; ties go to the lower id), and adds
 *      phi, phi xi_a and phi xi_a xi_b (xi = (x - x_t)/h, the offset in cells) into that
 *      body's sums, each term rounded once to a multiple of 2^-56 and added as an integer:
 *      exact, so the order of the additions (threads, ranks) does not matter;
 *   3. the partial sums and the tracers go to the rank that writes the body (one
 *      MPI_Alltoallv), which adds them and forms V, c and M. */
#include "src/bodies/body_shapes.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "base/errors.h"
#include "src/case/config.h"

/* A sum in fixed point: an integer count of 2^-56.  A term is at most about (reach/h)^2
 * (checked at creation), so 2^127 leaves room for more cells than a rank holds. */
__extension__ typedef __int128 fixed;
#define FIXED_ONE 0x1p56
enum { FIXED_TERM_MAX_CELLS = 1 << 20 };   /* the largest reach/h allowed, squared: 2^40 */

/* A term in fixed point, truncated toward zero; through a 64-bit integer (one instruction)
 * when it fits, as nearly every term does, with the same result as the direct conversion. */
static inline fixed to_fixed(double term)
{
  const double scaled = term * FIXED_ONE;
  return fabs(scaled) < 0x1p62 ? (fixed)(long long)scaled : (fixed)scaled;
}

/* The sums of a body, in the order of efsi_body_record's moments after the first four. */
enum { S_1, S_X, S_Y, S_Z, S_XX, S_YY, S_ZZ, S_XY, S_XZ, S_YZ, SUMS };

/* What travels to the writing rank: a body's partial sums, and its tracer when the sender
 * owns it. */
typedef struct {
  fixed sum[SUMS];
  long id;
  int kind;
  int has_tracer;
  double x[3], v[3];
} share_message;

/* A tracer image in a bucket: candidate index, image shift code, position. */
typedef struct {
  long candidate;
  int shift;                 /* (s_x + 1) + 3 (s_y + 1) + 9 (s_z + 1), s_d in -1, 0, 1 */
  double x[3];
} image;

struct efsi_body_shapes {
  const efsi_decomp *d;
  efsi_grid g;
  long total;
  int material[BODY_KINDS];
  double reach[BODY_KINDS], reach_max;
  MPI_Datatype tracer_type, message_type;
  efsi_tracer *candidate;    /* the local tracers and the copies from other ranks, in the
                                order of their cells (z, y, x): the sums of the bodies of a
                                row of cells lie together in memory */
  char *local;               /* candidate p is a tracer of this rank's */
  long ncandidates, candidate_capacity;
  efsi_body_record *record;  /* this rank's share */
  long first, count;
};

static long share_first(long total, int size, int r) { return (long)((__int128)total * r / size); }

void body_shapes_share(const efsi_body_shapes *s, int rank, long *first, long *count)
{
  *first = share_first(s->total, s->d->size, rank);
  *count = share_first(s->total, s->d->size, rank + 1) - *first;
}

/* The rank whose share holds id. */
static int writer_of(const efsi_body_shapes *s, long id)
{
  const int size = s->d->size;
  int r = (int)((__int128)id * size / (s->total > 0 ? s->total : 1));
  if (r >= size) r = size - 1;
  while (r + 1 < size && share_first(s->total, size, r + 1) <= id) r++;
  while (r > 0 && share_first(s->total, size, r) > id) r--;
  return r;
}

int body_shapes_material(const efsi_body_shapes *s, int kind) { return s->material[kind]; }
double body_shapes_reach(const efsi_body_shapes *s, int kind) { return s->reach[kind]; }

efsi_body_shapes *body_shapes_create(const efsi_case *cs, const efsi_decomp *d,
                                     const efsi_grid *g, long total)
{
  const efsi_config *c = cs->config;
  efsi_body_shapes *s = efsi_calloc(1, sizeof *s, "the body shapes");
  s->d = d;
  s->g = *g;
  s->total = total;
  /* each kind's material is the one named after it; its size is its bounding radius */
  const double largest_platelet = fmax(c->platelet_semi_axes[0],
                                       fmax(c->platelet_semi_axes[1], c->platelet_semi_axes[2]));
  const double largest_ellipsoid = fmax(c->ellipsoid_semi_axes[0],
                                        fmax(c->ellipsoid_semi_axes[1], c->ellipsoid_semi_axes[2]));
  const double radius[BODY_KINDS] = {0.5 * c->rbc_diameter, largest_platelet, c->sphere_radius,
                                     largest_ellipsoid};
  const double h = fmax(g->h[0], fmax(g->h[1], g->h[2]));
  const double h_min = fmin(g->h[0], fmin(g->h[1], g->h[2]));
  for (int k = 0; k < BODY_KINDS; k++) {
    s->material[k] = materials_index(&cs->materials, shape_name(k));
    s->reach[k] = s->material[k] >= 0 ? 2.0 * radius[k] + 2.0 * h : 0.0;
    s->reach_max = fmax(s->reach_max, s->reach[k]);
    if (s->reach[k] / h_min > sqrt((double)FIXED_TERM_MAX_CELLS))
      efsi_abort(EFSI_EXIT_RUNTIME, "body shapes: a %s reaches %g cells, more than the %g the "
                 "fixed-point sums hold", shape_name(k), s->reach[k] / h_min,
                 sqrt((double)FIXED_TERM_MAX_CELLS));
  }
  MPI_CHECK(MPI_Type_contiguous((int)sizeof(efsi_tracer), MPI_BYTE, &s->tracer_type));
  MPI_CHECK(MPI_Type_commit(&s->tracer_type));
  MPI_CHECK(MPI_Type_contiguous((int)sizeof(share_message), MPI_BYTE, &s->message_type));
  MPI_CHECK(MPI_Type_commit(&s->message_type));
  body_shapes_share(s, d->rank, &s->first, &s->count);
  s->record = efsi_calloc((size_t)(s->count > 0 ? s->count : 1), sizeof *s->record,
                          "the body records");
  return s;
}

void body_shapes_free(efsi_body_shapes *s)
{
  if (!s) return;
  MPI_CHECK(MPI_Type_free(&s->tracer_type));
  MPI_CHECK(MPI_Type_free(&s->message_type));
  free(s->candidate);
  free(s->local);
  free(s->record);
  free(s);
}

static int message_count(long n)
{
  if (n > INT_MAX)
    efsi_abort(EFSI_EXIT_RUNTIME, "body shapes: %ld items in one message (at most %d)", n,
               INT_MAX);
  return (int)n;
}

/* Counts (items per rank) into MPI's counts and displacements; returns the total. */
static long displacements(const long *count, int size, int *counts, int *displs)
{
  long at = 0;
  for (int r = 0; r < size; r++) {
    counts[r] = message_count(count[r]);
    displs[r] = message_count(at);
    at += count[r];
  }
  return at;
}

/* One all-to-all exchange of items: how many go to each rank (count[r], filled by the
 * caller), then, after exchange_counts, how many come from each, as MPI's counts and
 * displacements; next[r] is the caller's fill position in rank r's part of the send
 * buffer. */
typedef struct {
  long *count, *from, *next;
  int *scounts, *sdispls, *rcounts, *rdispls;
  long nsend, nrecv;
} exchange;

static void exchange_open(exchange *x, int size)
{
  x->count = efsi_calloc((size_t)size, sizeof *x->count, "body shapes");
  x->from = efsi_calloc((size_t)size, sizeof *x->from, "body shapes");
  x->next = efsi_calloc((size_t)size, sizeof *x->next, "body shapes");
  x->scounts = efsi_malloc((size_t)size * sizeof *x->scounts, "body shapes");
  x->sdispls = efsi_malloc((size_t)size * sizeof *x->sdispls, "body shapes");
  x->rcounts = efsi_malloc((size_t)size * sizeof *x->rcounts, "body shapes");
  x->rdispls = efsi_malloc((size_t)size * sizeof *x->rdispls, "body shapes");
}

/* Collective: the counts of every rank to every other. */
static void exchange_counts(exchange *x, const efsi_decomp *d)
{
  MPI_CHECK(MPI_Alltoall(x->count, 1, MPI_LONG, x->from, 1, MPI_LONG, d->comm));
  x->nsend = displacements(x->count, d->size, x->scounts, x->sdispls);
  x->nrecv = displacements(x->from, d->size, x->rcounts, x->rdispls);
}

static void exchange_close(exchange *x)
{
  free(x->count);
  free(x->from);
  free(x->next);
  free(x->scounts);
  free(x->sdispls);
  free(x->rcounts);
  free(x->rdispls);
}

/* The block coordinates along d within reach of coordinate x: lo .. lo + n - 1, each
 * taken modulo the number of blocks in a periodic direction (distinct: n <= dims). */
static void blocks_near(const efsi_body_shapes *s, int d, double x, double reach, long *lo,
                        long *n)
{
  const efsi_decomp *dc = s->d;
  const double width = s->g.n[d] * s->g.h[d];
  long first = (long)floor((x - reach) / width), last = (long)floor((x + reach) / width);
  if (!dc->periodic[d]) {
    if (first < 0) first = 0;
    if (last > dc->dims[d] - 1) last = dc->dims[d] - 1;
  } else if (last - first + 1 >= dc->dims[d]) {
    first = 0;
    last = dc->dims[d] - 1;
  }
  *lo = first;
  *n = last >= first ? last - first + 1 : 0;
}

/* A candidate's place in the order of the cells. */
typedef struct {
  long cell, id, index;
} cell_key;

static int by_cell(const void *a, const void *b)
{
  const cell_key *x = a, *y = b;
  if (x->cell != y->cell) return x->cell < y->cell ? -1 : 1;
  return (x->id > y->id) - (x->id < y->id);
}

/* Step 1: candidates <- the local tracers and copies of the tracers of other ranks whose
 * reach touches this block. */
static void gather_candidates(efsi_body_shapes *s, const efsi_tracer *local, long nlocal)
{
  const efsi_decomp *dc = s->d;
  exchange x;
  exchange_open(&x, dc->size);
  long *target = NULL;       /* (tracer, rank) pairs */
  long ntargets = 0, target_capacity = 0;
  /* every (tracer, rank) pair, in tracer order */
  for (long t = 0; t < nlocal; t++) {
    const int kind = local[t].kind;
    if (kind < 0 || kind >= BODY_KINDS || s->material[kind] < 0) continue;
    long lo[3], n[3];
    for (int d = 0; d < 3; d++) blocks_near(s, d, local[t].x[d], s->reach[kind], &lo[d], &n[d]);
    for (long a = 0; a < n[0]; a++)
      for (long b = 0; b < n[1]; b++)
        for (long e = 0; e < n[2]; e++) {
          const long pick[3] = {lo[0] + a, lo[1] + b, lo[2] + e};
          int coords[3], rank = 0;
          for (int d = 0; d < 3; d++)
            coords[d] = (int)(((pick[d] % dc->dims[d]) + dc->dims[d]) % dc->dims[d]);
          MPI_CHECK(MPI_Cart_rank(dc->comm, coords, &rank));
          if (rank == dc->rank) continue;
          if (ntargets == target_capacity) {
            target_capacity = target_capacity ? 2 * target_capacity : 256;
            target = efsi_realloc(target, (size_t)target_capacity * 2 * sizeof *target,
                                  "body shapes");
          }
          target[2 * ntargets] = t;
          target[2 * ntargets + 1] = rank;
          ntargets++;
          x.count[rank]++;
        }
  }
  exchange_counts(&x, dc);
  efsi_tracer *out = efsi_malloc((size_t)(x.nsend > 0 ? x.nsend : 1) * sizeof *out, "body shapes");
  for (long p = 0; p < ntargets; p++) {
    const int rank = (int)target[2 * p + 1];
    out[x.sdispls[rank] + x.next[rank]++] = local[target[2 * p]];
  }
  const long need = nlocal + x.nrecv;
  if (need > s->candidate_capacity) {
    s->candidate_capacity = need > 0 ? need : 1;
    s->candidate = efsi_realloc(s->candidate, (size_t)s->candidate_capacity
                                * sizeof *s->candidate, "body shapes");
  }
  efsi_tracer *all = efsi_malloc((size_t)(need > 0 ? need : 1) * sizeof *all, "body shapes");
  if (nlocal > 0) memcpy(all, local, (size_t)nlocal * sizeof *local);
  MPI_CHECK(MPI_Alltoallv(out, x.scounts, x.sdispls, s->tracer_type, all + nlocal, x.rcounts,
                          x.rdispls, s->tracer_type, dc->comm));
  /* in the order of their cells, then ids (the order changes no sum: they are exact) */
  cell_key *key = efsi_malloc((size_t)(need > 0 ? need : 1) * sizeof *key, "body shapes");
  for (long c = 0; c < need; c++) {
    long cell[3];
    for (int d = 0; d < 3; d++) {
      cell[d] = (long)floor(all[c].x[d] * s->g.inv_h[d]);
      cell[d] = cell[d] < 0 ? 0 : cell[d] >= s->g.global_n[d] ? s->g.global_n[d] - 1 : cell[d];
    }
    key[c].cell = (cell[2] * s->g.global_n[1] + cell[1]) * s->g.global_n[0] + cell[0];
    key[c].id = all[c].id;
    key[c].index = c;
  }
  qsort(key, (size_t)need, sizeof *key, by_cell);
  s->local = efsi_realloc(s->local, (size_t)(need > 0 ? need : 1), "body shapes");
  for (long p = 0; p < need; p++) {
    s->candidate[p] = all[key[p].index];
    s->local[p] = key[p].index < nlocal;
  }
  free(key);
  free(all);
  s->ncandidates = need;
  free(out);
  free(target);
  exchange_close(&x);
}

/* The tracer images of one material sorted into buckets over the block widened by the
 * reach: bucket b holds item[head[b] .. head[b+1]). */
typedef struct {
  double origin[3], size[3];
  int n[3];
  long *head;
  image *item;
} buckets;

static long bucket_index(const buckets *bk, const int b[3])
{
  return ((long)b[2] * bk->n[1] + b[1]) * bk->n[0] + b[0];
}

static void buckets_build(const efsi_body_shapes *s, int material, buckets *bk)
{
  const efsi_grid *g = &s->g;
  const double reach = s->reach_max;
  for (int d = 0; d < 3; d++) {
    const double width = g->n[d] * g->h[d];
    bk->origin[d] = g->offset[d] * g->h[d] - reach;
    bk->size[d] = fmax(reach, width / 64.0);
    bk->n[d] = (int)ceil((width + 2.0 * reach) / bk->size[d]) + 1;
  }
  const long nbuckets = (long)bk->n[0] * bk->n[1] * bk->n[2];
  bk->head = efsi_calloc((size_t)nbuckets + 1, sizeof *bk->head, "body shape buckets");
  long nimages = 0, capacity = 0;
  image *all = NULL;
  for (long c = 0; c < s->ncandidates; c++) {
    const efsi_tracer *t = &s->candidate[c];
    if (t->kind < 0 || t->kind >= BODY_KINDS || s->material[t->kind] != material) continue;
    for (int shift = 0; shift < 27; shift++) {
      const int sd[3] = {shift % 3 - 1, shift / 3 % 3 - 1, shift / 9 - 1};
      int inside = 1;
      double x[3];
      for (int d = 0; d < 3 && inside; d++) {
        if (sd[d] != 0 && !s->d->periodic[d]) inside = 0;
        x[d] = t->x[d] + sd[d] * g->length[d];
        inside = inside && x[d] >= bk->origin[d]
              && x[d] <= bk->origin[d] + g->n[d] * g->h[d] + 2.0 * reach;
      }
      if (!inside) continue;
      if (nimages == capacity) {
        capacity = capacity ? 2 * capacity : 256;
        all = efsi_realloc(all, (size_t)capacity * sizeof *all, "body shape buckets");
      }
      all[nimages].candidate = c;
      all[nimages].shift = shift;
      memcpy(all[nimages].x, x, sizeof x);
      nimages++;
    }
  }
  long *where = efsi_malloc((size_t)(nimages > 0 ? nimages : 1) * sizeof *where, "body shape buckets");
  for (long m = 0; m < nimages; m++) {
    int b[3];
    for (int d = 0; d < 3; d++) {
      b[d] = (int)floor((all[m].x[d] - bk->origin[d]) / bk->size[d]);
      b[d] = b[d] < 0 ? 0 : b[d] >= bk->n[d] ? bk->n[d] - 1 : b[d];
    }
    where[m] = bucket_index(bk, b);
    bk->head[where[m] + 1]++;
  }
  for (long b = 0; b < nbuckets; b++) bk->head[b + 1] += bk->head[b];
  bk->item = efsi_malloc((size_t)(nimages > 0 ? nimages : 1) * sizeof *bk->item, "body shape buckets");
  long *fill = efsi_calloc((size_t)nbuckets, sizeof *fill, "body shape buckets");
  for (long m = 0; m < nimages; m++) bk->item[bk->head[where[m]] + fill[where[m]]++] = all[m];
  free(fill);
  free(where);
  free(all);
}

static void buckets_free(buckets *bk)
{
  free(bk->head);
  free(bk->item);
}

/* Step 2 for one material: each owned cell with phi > 0 to its nearest tracer image within
 * reach; the terms into sums[candidate][SUMS] of the thread. */
static void accumulate(const efsi_body_shapes *s, const buckets *bk, const double *phi,
                       fixed *sums)
{
  const efsi_grid *g = &s->g;
  const int threads =
#ifdef _OPENMP
    omp_get_max_threads();
#else
    1;
#endif
  const long stride = s->ncandidates * SUMS;
  fixed *partial = threads > 1 ? efsi_calloc((size_t)(threads - 1) * (size_t)(stride > 0 ? stride : 1),
                                             sizeof *partial, "body shape sums") : NULL;
#pragma omp parallel for schedule(static)
  for (int k = 0; k < g->n[2]; k++) {
#ifdef _OPENMP
    const int me = omp_get_thread_num();
#else
    const int me = 0;
#endif
    fixed *mine = me == 0 ? sums : partial + (size_t)(me - 1) * (size_t)stride;
    double xc[3];
    xc[2] = (g->offset[2] + k + 0.5) * g->h[2];
    for (int j = 0; j < g->n[1]; j++) {
      xc[1] = (g->offset[1] + j + 0.5) * g->h[1];
      const double *row = phi + grid_index(g, 0, j, k);
      for (int i = 0; i < g->n[0]; i++) {
        const double f = row[i];
        if (!(f > 0.0)) continue;
        xc[0] = (g->offset[0] + i + 0.5) * g->h[0];
        int b[3];
        for (int d = 0; d < 3; d++) {
          b[d] = (int)floor((xc[d] - bk->origin[d]) / bk->size[d]);
          b[d] = b[d] < 0 ? 0 : b[d] >= bk->n[d] ? bk->n[d] - 1 : b[d];
        }
        const image *best = NULL;
        double best_d2 = 0.0, best_dx[3] = {0, 0, 0};
        long best_id = 0;
        /* the squared distance from the cell to the faces of its bucket: the gap to a
         * neighbouring bucket along d (offset -1, 0, +1) */
        double face2[3][3];
        for (int d = 0; d < 3; d++) {
          const double lo = bk->origin[d] + b[d] * bk->size[d];
          face2[d][0] = (xc[d] - lo) * (xc[d] - lo);
          face2[d][1] = 0.0;
          face2[d][2] = (lo + bk->size[d] - xc[d]) * (lo + bk->size[d] - xc[d]);
        }
        /* the cell's own bucket first, then the 26 around it, each only when its box comes
         * as near as the best so far (ties included) */
        for (int q = 0; q < 27; q++) {
          const int order = q == 0 ? 13 : q <= 13 ? q - 1 : q;
          const int bc[3] = {b[0] + order % 3 - 1, b[1] + order / 3 % 3 - 1, b[2] + order / 9 - 1};
          if (bc[0] < 0 || bc[1] < 0 || bc[2] < 0 || bc[0] >= bk->n[0] || bc[1] >= bk->n[1]
              || bc[2] >= bk->n[2])
            continue;
          if (best) {
            const double gap2 = face2[0][order % 3] + face2[1][order / 3 % 3] + face2[2][order / 9];
            /* a tie must never be passed over: the slack covers the rounding of gap2 */
            if (gap2 > best_d2 * (1.0 + 1e-9)) continue;
          }
          const long at = bucket_index(bk, bc);
          for (long m = bk->head[at]; m < bk->head[at + 1]; m++) {
            const image *im = &bk->item[m];
            const efsi_tracer *t = &s->candidate[im->candidate];
            const double dx[3] = {xc[0] - im->x[0], xc[1] - im->x[1], xc[2] - im->x[2]};
            const double d2 = dx[0] * dx[0] + dx[1] * dx[1] + dx[2] * dx[2];
            const double r = s->reach[t->kind];
            if (d2 > r * r) continue;
            /* the nearest; on a tie the lower id, then the lower image code */
            if (best && (d2 > best_d2 || (d2 == best_d2 && (t->id > best_id
                        || (t->id == best_id && im->shift > best->shift)))))
              continue;
            best = im;
            best_d2 = d2;
            best_id = t->id;
            memcpy(best_dx, dx, sizeof dx);
          }
        }
        if (!best) continue;
        const double xi[3] = {best_dx[0] * g->inv_h[0], best_dx[1] * g->inv_h[1],
                              best_dx[2] * g->inv_h[2]};
        const double term[SUMS] = {f, f * xi[0], f * xi[1], f * xi[2], f * xi[0] * xi[0],
                                   f * xi[1] * xi[1], f * xi[2] * xi[2], f * xi[0] * xi[1],
                                   f * xi[0] * xi[2], f * xi[1] * xi[2]};
        fixed *into = mine + best->candidate * SUMS;
        for (int q = 0; q < SUMS; q++) into[q] += to_fixed(term[q]);
      }
    }
  }
  for (int t = 1; t < threads; t++)
    for (long q = 0; q < stride; q++) sums[q] += partial[(size_t)(t - 1) * (size_t)stride + q];
  free(partial);
}

/* Step 3: the partial sums and the tracers to the writing ranks; the records of this
 * rank's share. */
static void share(efsi_body_shapes *s, const fixed *sums)
{
  const efsi_decomp *dc = s->d;
  exchange x;
  exchange_open(&x, dc->size);
  char *sends = efsi_calloc((size_t)(s->ncandidates > 0 ? s->ncandidates : 1), 1, "body shapes");
  for (long c = 0; c < s->ncandidates; c++) {
    int touched = s->local[c];
    for (int q = 0; q < SUMS && !touched; q++) touched = sums[c * SUMS + q] != 0;
    if (!touched) continue;
    const long id = s->candidate[c].id;
    if (id < 0 || id >= s->total)
      efsi_abort(EFSI_EXIT_RUNTIME, "body shapes: body %ld is not one of the case's %ld (ids "
                 "0 to %ld)", id, s->total, s->total - 1);
    sends[c] = 1;
    x.count[writer_of(s, id)]++;
  }
  exchange_counts(&x, dc);
  share_message *out = efsi_calloc((size_t)(x.nsend > 0 ? x.nsend : 1), sizeof *out, "body shapes");
  share_message *in = efsi_calloc((size_t)(x.nrecv > 0 ? x.nrecv : 1), sizeof *in, "body shapes");
  for (long c = 0; c < s->ncandidates; c++) {
    if (!sends[c]) continue;
    const efsi_tracer *t = &s->candidate[c];
    const int r = writer_of(s, t->id);
    share_message *m = &out[x.sdispls[r] + x.next[r]++];
    memcpy(m->sum, sums + c * SUMS, sizeof m->sum);
    m->id = t->id;
    m->kind = t->kind;
    m->has_tracer = s->local[c];
    memcpy(m->x, t->x, sizeof m->x);
    memcpy(m->v, t->v, sizeof m->v);
  }
  MPI_CHECK(MPI_Alltoallv(out, x.scounts, x.sdispls, s->message_type, in, x.rcounts, x.rdispls,
                          s->message_type, dc->comm));
  fixed *total = efsi_calloc((size_t)(s->count > 0 ? s->count : 1) * SUMS, sizeof *total,
                             "body shapes");
  char *seen = efsi_calloc((size_t)(s->count > 0 ? s->count : 1), 1, "body shapes");
  for (long m = 0; m < x.nrecv; m++) {
    const long b = in[m].id - s->first;
    if (b < 0 || b >= s->count)
      efsi_abort(EFSI_EXIT_RUNTIME, "body shapes: body %ld sent to the wrong rank", in[m].id);
    for (int q = 0; q < SUMS; q++) total[b * SUMS + q] += in[m].sum[q];
    if (!in[m].has_tracer) continue;
    if (seen[b])
      efsi_abort(EFSI_EXIT_RUNTIME, "body shapes: body %ld has two tracers", in[m].id);
    seen[b] = 1;
    efsi_body_record *r = &s->record[b];
    r->id = in[m].id;
    r->kind = in[m].kind;
    memcpy(r->x, in[m].x, sizeof r->x);
    memcpy(r->v, in[m].v, sizeof r->v);
  }
  const efsi_grid *g = &s->g;
  const double cell = g->h[0] * g->h[1] * g->h[2];
  for (long b = 0; b < s->count; b++) {
    if (!seen[b])
      efsi_abort(EFSI_EXIT_RUNTIME, "body shapes: body %ld has no tracer", s->first + b);
    efsi_body_record *r = &s->record[b];
    double q[SUMS];
    for (int k = 0; k < SUMS; k++) q[k] = (double)total[b * SUMS + k] / FIXED_ONE;
    r->volume = q[S_1] * cell;
    if (!(q[S_1] > 0.0)) {
      r->volume = 0.0;
      for (int d = 0; d < 3; d++) r->centroid[d] = NAN;
      for (int k = 0; k < 6; k++) r->moment[k] = NAN;
      continue;
    }
    const double mean[3] = {q[S_X] / q[S_1], q[S_Y] / q[S_1], q[S_Z] / q[S_1]};
    for (int d = 0; d < 3; d++) r->centroid[d] = r->x[d] + g->h[d] * mean[d];
    static const int pair[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {0, 2}, {1, 2}};
    for (int k = 0; k < 6; k++) {
      const int a = pair[k][0], c = pair[k][1];
      r->moment[k] = g->h[a] * g->h[c] * (q[S_XX + k] / q[S_1] - mean[a] * mean[c]);
    }
  }
  free(total);
  free(seen);
  free(out);
  free(in);
  free(sends);
  exchange_close(&x);
}

const efsi_body_record *body_shapes_compute(efsi_body_shapes *s, const efsi_tracer *local,
                                            long nlocal, double *const phi[])
{
  gather_candidates(s, local, nlocal);
  fixed *sums = efsi_calloc((size_t)(s->ncandidates > 0 ? s->ncandidates : 1) * SUMS,
                            sizeof *sums, "body shape sums");
  int done[EFSI_MAX_MATERIALS] = {0};
  for (int k = 0; k < BODY_KINDS; k++) {
    const int m = s->material[k];
    if (m < 0 || done[m]) continue;
    done[m] = 1;
    buckets bk;
    buckets_build(s, m, &bk);
    accumulate(s, &bk, phi[m], sums);
    buckets_free(&bk);
  }
  share(s, sums);
  free(sums);
  return s->record;
}
