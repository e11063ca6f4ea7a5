/* Block <-> pencil transposes along any direction d, written once for x, y and z.
 * Block side: the block's n_a * n_b lines along d (a < b the other directions, a fastest),
 * each n_d long, packed line after line; the lines [first(q), first(q+1)) go to line member
 * q, so the packed block is already in send order.  Pencil side: from each member q a
 * segment of n_d(q) points per line, placed at q's offset along d in the full line. */
#include "decomp/transpose.h"

#include <stdlib.h>

#include "base/errors.h"

typedef struct {
  MPI_Comm comm;             /* decomp line[d]: the ranks along d */
  int p, me;                 /* members, my rank among them */
  int a, b;                  /* the other two directions, a < b */
  int block_lines;           /* n_a * n_b: lines of the block cross-section */
  int first, lines;          /* my pencil lines are block lines [first, first + lines) */
  int *member_n, *member_offset;   /* extent and global offset along d of each member */
  int *block_count, *block_displ;  /* block side: lines of member q times my n_d */
  int *pencil_count, *pencil_displ;/* pencil side: my lines times n_d(q) */
} transpose_dir;

struct efsi_transpose {
  int n[3], global_n[3], offset[3];
  transpose_dir dir[3];
  double *send, *recv;       /* each large enough for a block or any pencil */
};

static void *checked_malloc(size_t bytes) { return efsi_malloc(bytes, "transposes"); }

/* First block line of member r when m lines are split among p members. */
static int split_first(int m, int p, int r) { return r * (m / p) + (r < m % p ? r : m % p); }

static void dir_init(transpose_dir *x, const efsi_transpose *t, const efsi_decomp *d, int dd)
{
  x->comm = d->line[dd];
  MPI_CHECK(MPI_Comm_size(x->comm, &x->p));
  MPI_CHECK(MPI_Comm_rank(x->comm, &x->me));
  x->a = dd == 0 ? 1 : 0;
  x->b = dd == 2 ? 1 : 2;
  x->block_lines = t->n[x->a] * t->n[x->b];
  x->first = split_first(x->block_lines, x->p, x->me);
  x->lines = split_first(x->block_lines, x->p, x->me + 1) - x->first;

  const int p = x->p;
  x->member_n = checked_malloc(sizeof(int) * p);
  x->member_offset = checked_malloc(sizeof(int) * p);
  x->block_count = checked_malloc(sizeof(int) * p);
  x->block_displ = checked_malloc(sizeof(int) * p);
  x->pencil_count = checked_malloc(sizeof(int) * p);
  x->pencil_displ = checked_malloc(sizeof(int) * p);
  /* Members are identified by their rank in line[d], whatever their coordinate order. */
  const int mine[2] = {t->n[dd], t->offset[dd]};
  int *both = checked_malloc(sizeof(int) * 2 * p);
  MPI_CHECK(MPI_Allgather(mine, 2, MPI_INT, both, 2, MPI_INT, x->comm));
  long covered = 0;
  for (int q = 0; q < p; q++) {
    x->member_n[q] = both[2 * q];
    x->member_offset[q] = both[2 * q + 1];
    covered += x->member_n[q];
  }
  free(both);
  if (covered != t->global_n[dd])
    efsi_abort(EFSI_EXIT_RUNTIME, "transpose: blocks along direction %d cover %ld of %d cells",
               dd, covered, t->global_n[dd]);
  int block_at = 0, pencil_at = 0;
  for (int q = 0; q < p; q++) {
    const int q_lines = split_first(x->block_lines, p, q + 1) - split_first(x->block_lines, p, q);
    x->block_count[q] = q_lines * t->n[dd];
    x->block_displ[q] = block_at;
    block_at += x->block_count[q];
    x->pencil_count[q] = x->lines * x->member_n[q];
    x->pencil_displ[q] = pencil_at;
    pencil_at += x->pencil_count[q];
  }
}

efsi_transpose *transpose_create(const efsi_grid *g, const efsi_decomp *d)
{
  efsi_transpose *t = checked_malloc(sizeof *t);
  for (int dd = 0; dd < 3; dd++) {
    t->n[dd] = g->n[dd];
    t->global_n[dd] = g->global_n[dd];
    t->offset[dd] = g->offset[dd];
  }
  size_t largest = grid_cells(g);
  for (int dd = 0; dd < 3; dd++) {
    dir_init(&t->dir[dd], t, d, dd);
    const size_t pencil = (size_t)t->dir[dd].lines * t->global_n[dd];
    if (pencil > largest) largest = pencil;
  }
  t->send = checked_malloc(sizeof(double) * largest);
  t->recv = checked_malloc(sizeof(double) * largest);
  return t;
}

void transpose_free(efsi_transpose *t)
{
  if (!t) return;
  for (int dd = 0; dd < 3; dd++) {
    transpose_dir *x = &t->dir[dd];
    free(x->member_n);
    free(x->member_offset);
    free(x->block_count);
    free(x->block_displ);
    free(x->pencil_count);
    free(x->pencil_displ);
  }
  free(t->send);
  free(t->recv);
  free(t);
}

int transpose_lines(const efsi_transpose *t, int d) { return t->dir[d].lines; }

void transpose_line_origin(const efsi_transpose *t, int d, int l, int global[3])
{
  const transpose_dir *x = &t->dir[d];
  const int line = x->first + l, na = t->n[x->a];
  global[d] = 0;
  global[x->a] = t->offset[x->a] + line % na;
  global[x->b] = t->offset[x->b] + line / na;
}

/* packed[line][s] = block(point s along d of block line `line`), all block lines.  Reads
 * stride d (the transposition), writes contiguously. */
static void block_to_packed(const efsi_transpose *t, int d, const double *restrict block,
                            const ptrdiff_t stride[3], double *restrict packed)
{
  const transpose_dir *x = &t->dir[d];
  const int na = t->n[x->a], nd = t->n[d], m = x->block_lines;
  const ptrdiff_t sa = stride[x->a], sb = stride[x->b], sd = stride[d];
#pragma omp parallel for
  for (int line = 0; line < m; line++) {
    const double *restrict src = block + (line % na) * sa + (line / na) * sb;
    double *restrict dst = packed + (ptrdiff_t)line * nd;
    for (int s = 0; s < nd; s++) dst[s] = src[s * sd];
  }
}

/* The inverse of block_to_packed. */
static void packed_to_block(const efsi_transpose *t, int d, const double *restrict packed,
                            double *restrict block, const ptrdiff_t stride[3])
{
  const transpose_dir *x = &t->dir[d];
  const int na = t->n[x->a], nd = t->n[d], m = x->block_lines;
  const ptrdiff_t sa = stride[x->a], sb = stride[x->b], sd = stride[d];
#pragma omp parallel for
  for (int line = 0; line < m; line++) {
    double *restrict dst = block + (line % na) * sa + (line / na) * sb;
    const double *restrict src = packed + (ptrdiff_t)line * nd;
    for (int s = 0; s < nd; s++) dst[s * sd] = src[s];
  }
}

/* Between the message buffer (member q's part of each of my lines, in q order) and the
 * full lines of the pencil: to_pencil = 1 copies buffer -> pencil, 0 the inverse. */
static void move_segments(const efsi_transpose *t, int d, int to_pencil,
                          const double *restrict from, double *restrict to)
{
  const transpose_dir *x = &t->dir[d];
  const ptrdiff_t len = t->global_n[d];
#pragma omp parallel for
  for (int l = 0; l < x->lines; l++)
    for (int q = 0; q < x->p; q++) {
      const int nq = x->member_n[q];
      const ptrdiff_t in_buffer = x->pencil_displ[q] + (ptrdiff_t)l * nq;
      const ptrdiff_t in_pencil = l * len + x->member_offset[q];
      const double *restrict src = from + (to_pencil ? in_buffer : in_pencil);
      double *restrict dst = to + (to_pencil ? in_pencil : in_buffer);
      for (int s = 0; s < nq; s++) dst[s] = src[s];
    }
}

void transpose_to_pencil(efsi_transpose *t, int d, const double *block,
                         const ptrdiff_t stride[3], double *pencil)
{
  const transpose_dir *x = &t->dir[d];
  /* One member: the packed block is the pencil. */
  if (x->p == 1) {
    block_to_packed(t, d, block, stride, pencil);
    return;
  }
  block_to_packed(t, d, block, stride, t->send);
  MPI_CHECK(MPI_Alltoallv(t->send, x->block_count, x->block_displ, MPI_DOUBLE,
                          t->recv, x->pencil_count, x->pencil_displ, MPI_DOUBLE, x->comm));
  move_segments(t, d, 1, t->recv, pencil);
}

void transpose_to_block(efsi_transpose *t, int d, const double *pencil,
                        double *block, const ptrdiff_t stride[3])
{
  const transpose_dir *x = &t->dir[d];
  if (x->p == 1) {
    packed_to_block(t, d, pencil, block, stride);
    return;
  }
  move_segments(t, d, 0, pencil, t->send);
  MPI_CHECK(MPI_Alltoallv(t->send, x->pencil_count, x->pencil_displ, MPI_DOUBLE,
                          t->recv, x->block_count, x->block_displ, MPI_DOUBLE, x->comm));
  packed_to_block(t, d, t->recv, block, stride);
}
