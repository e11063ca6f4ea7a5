/* The ranks of a distributed random packing (see packing_ranks.h): ownership by the box
 * that holds a body's centre, the neighbours within a reach, and the exchange of bodies
 * with them (counts first, then one message of handed-over bodies and copies per
 * neighbour). */
#include "src/bodies/packing_ranks.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"

void packing_list_push(packing_list *list, const packing_body *b)
{
  if (list->n == list->cap) {
    list->cap = list->cap ? 2 * list->cap : 64;
    list->b = efsi_realloc(list->b, (size_t)list->cap * sizeof *list->b, "packed bodies");
  }
  list->b[list->n++] = *b;
}

void packing_list_free(packing_list *list)
{
  free(list->b);
  memset(list, 0, sizeof *list);
}

/* Boxes between coordinates p and q along axis a (nearest periodic image), less one: the
 * whole boxes that separate them. */
static int boxes_between(const packing_ranks *pr, int a, int p, int q)
{
  int k = abs(p - q);
  if (pr->periodic[a] && pr->dims[a] - k < k) k = pr->dims[a] - k;
  return k > 0 ? k - 1 : 0;
}

static int by_rank(const void *a, const void *b)
{
  const int *x = a, *y = b;
  return (x[0] > y[0]) - (x[0] < y[0]);
}

void packing_ranks_create(packing_ranks *pr, const efsi_decomp *d, const double length[3],
                          const int periodic[3], double reach)
{
  memset(pr, 0, sizeof *pr);
  pr->comm = d->comm;
  pr->rank = d->rank;
  pr->reach = reach;
  for (int a = 0; a < 3; a++) {
    pr->dims[a] = d->dims[a];
    pr->coords[a] = d->coords[a];
    pr->periodic[a] = periodic[a];
    pr->length[a] = length[a];
    pr->width[a] = length[a] / d->dims[a];
  }
  /* along each axis the coordinates within reach, then every combination but this rank */
  int *near[3], count[3];
  for (int a = 0; a < 3; a++) {
    near[a] = efsi_malloc((size_t)pr->dims[a] * sizeof *near[a], "packing neighbours");
    count[a] = 0;
    for (int q = 0; q < pr->dims[a]; q++)
      if (boxes_between(pr, a, pr->coords[a], q) * pr->width[a] <= reach) near[a][count[a]++] = q;
  }
  const long most = (long)count[0] * count[1] * count[2];
  int (*found)[4] = efsi_malloc((size_t)(most > 0 ? most : 1) * sizeof *found, "packing neighbours");
  for (int k = 0; k < count[2]; k++)
    for (int j = 0; j < count[1]; j++)
      for (int i = 0; i < count[0]; i++) {
        int at[3] = {near[0][i], near[1][j], near[2][k]}, rank;
        MPI_CHECK(MPI_Cart_rank(d->comm, at, &rank));
        if (rank == pr->rank) continue;
        found[pr->n][0] = rank;
        memcpy(&found[pr->n][1], at, sizeof at);
        pr->n++;
      }
  qsort(found, (size_t)pr->n, sizeof *found, by_rank);
  pr->neighbor = efsi_malloc((size_t)(pr->n > 0 ? pr->n : 1) * sizeof *pr->neighbor, "packing neighbours");
  pr->at = efsi_malloc((size_t)(pr->n > 0 ? pr->n : 1) * sizeof *pr->at, "packing neighbours");
  for (int m = 0; m < pr->n; m++) {
    pr->neighbor[m] = found[m][0];
    memcpy(pr->at[m], &found[m][1], sizeof pr->at[m]);
  }
  free(found);
  for (int a = 0; a < 3; a++) free(near[a]);
}

void packing_ranks_free(packing_ranks *pr)
{
  free(pr->neighbor);
  free(pr->at);
  memset(pr, 0, sizeof *pr);
}

/* The process-grid coordinates of the box that holds c. */
static void box_of(const packing_ranks *pr, const double c[3], int at[3])
{
  for (int a = 0; a < 3; a++) {
    const double q = floor(c[a] / pr->width[a]);
    at[a] = q < 0 ? 0 : q >= pr->dims[a] ? pr->dims[a] - 1 : (int)q;
  }
}

int packing_owns(const packing_ranks *pr, const double c[3])
{
  int at[3];
  box_of(pr, c, at);
  return at[0] == pr->coords[0] && at[1] == pr->coords[1] && at[2] == pr->coords[2];
}

int packing_near_box(const packing_ranks *pr, const int at[3], const double c[3], double reach)
{
  for (int a = 0; a < 3; a++) {
    const double lo = at[a] * pr->width[a], hi = (at[a] + 1) * pr->width[a];
    double e = fmax(fmax(lo - c[a], c[a] - hi), 0);
    if (pr->periodic[a])
      for (int s = -1; s <= 1; s += 2) {
        const double x = c[a] + s * pr->length[a];
        e = fmin(e, fmax(fmax(lo - x, x - hi), 0));
      }
    if (e > reach) return 0;
  }
  return 1;
}

/* The neighbour whose box holds c. */
static int owner_index(const packing_ranks *pr, const double c[3])
{
  int at[3];
  box_of(pr, c, at);
  for (int m = 0; m < pr->n; m++)
    if (memcmp(pr->at[m], at, sizeof at) == 0) return m;
  efsi_abort(EFSI_EXIT_RUNTIME, "random packing: a body moved past the neighbouring ranks "
             "(to the box at %d %d %d)", at[0], at[1], at[2]);
}

enum { TAG_COUNTS = 27001, TAG_BODIES };

void packing_exchange(const packing_ranks *pr, const packing_body *stay, long nstay,
                      const packing_body *leave, long nleave, double reach,
                      packing_list *arrived, packing_list *copies)
{
  const int n = pr->n;
  const size_t slots = (size_t)(n > 0 ? n : 1);
  packing_list *handed = efsi_calloc(slots, sizeof *handed, "packing exchange");
  packing_list *copied = efsi_calloc(slots, sizeof *copied, "packing exchange");
  arrived->n = copies->n = 0;
  for (long m = 0; m < nleave; m++) {
    const packing_body *b = &leave[m];
    const int owner = owner_index(pr, b->c);
    packing_list_push(&handed[owner], b);
    for (int q = 0; q < n; q++)
      if (q != owner && packing_near_box(pr, pr->at[q], b->c, reach)) packing_list_push(&copied[q], b);
    if (packing_near_box(pr, pr->coords, b->c, reach)) packing_list_push(copies, b);
  }
  for (long m = 0; m < nstay; m++)
    for (int q = 0; q < n; q++)
      if (packing_near_box(pr, pr->at[q], stay[m].c, reach)) packing_list_push(&copied[q], &stay[m]);
  /* the counts, then one message per neighbour: handed-over bodies, then copies */
  long (*out)[2] = efsi_malloc(slots * sizeof *out, "packing exchange");
  long (*in)[2] = efsi_malloc(slots * sizeof *in, "packing exchange");
  MPI_Request *req = efsi_malloc(2 * slots * sizeof *req, "packing exchange");
  for (int q = 0; q < n; q++) {
    out[q][0] = handed[q].n;
    out[q][1] = copied[q].n;
    MPI_CHECK(MPI_Irecv(in[q], 2, MPI_LONG, pr->neighbor[q], TAG_COUNTS, pr->comm, &req[q]));
    MPI_CHECK(MPI_Isend(out[q], 2, MPI_LONG, pr->neighbor[q], TAG_COUNTS, pr->comm, &req[n + q]));
  }
  MPI_CHECK(MPI_Waitall(2 * n, req, MPI_STATUSES_IGNORE));
  packing_list *send = efsi_calloc(slots, sizeof *send, "packing exchange");
  packing_body **recv = efsi_calloc(slots, sizeof *recv, "packing exchange");
  const int record = (int)sizeof(packing_body);
  for (int q = 0; q < n; q++) {
    const long got = in[q][0] + in[q][1];
    recv[q] = efsi_malloc((size_t)(got > 0 ? got : 1) * sizeof **recv, "packing exchange");
    MPI_CHECK(MPI_Irecv(recv[q], (int)(got * record), MPI_BYTE, pr->neighbor[q], TAG_BODIES,
                        pr->comm, &req[q]));
    for (long m = 0; m < handed[q].n; m++) packing_list_push(&send[q], &handed[q].b[m]);
    for (long m = 0; m < copied[q].n; m++) packing_list_push(&send[q], &copied[q].b[m]);
    MPI_CHECK(MPI_Isend(send[q].b, (int)(send[q].n * record), MPI_BYTE, pr->neighbor[q],
                        TAG_BODIES, pr->comm, &req[n + q]));
  }
  MPI_CHECK(MPI_Waitall(2 * n, req, MPI_STATUSES_IGNORE));
  for (int q = 0; q < n; q++) {
    for (long m = 0; m < in[q][0]; m++) packing_list_push(arrived, &recv[q][m]);
    for (long m = in[q][0]; m < in[q][0] + in[q][1]; m++) packing_list_push(copies, &recv[q][m]);
    free(recv[q]);
    packing_list_free(&send[q]);
    packing_list_free(&handed[q]);
    packing_list_free(&copied[q]);
  }
  free(recv);
  free(send);
  free(req);
  free(in);
  free(out);
  free(handed);
  free(copied);
}
