/* Halo exchange of width w <= EFSI_HALO for any set of fields: direction x over the owned
 * y, z range, then y over x in [-w, n_x + w), then z over x and y with their halos, so every
 * edge and corner of the box [-w, n + w)^3 is filled from the rank that owns it.  Per face,
 * all fields travel in one packed message; a periodic direction held by one rank copies
 * f(-m) = f(n - m), f(n - 1 + m) = f(m - 1) in place; nothing is written across a wall.
 *
 * A face between two GPUs of one node (docs/gpu.md) carries no data through MPI: the sender
 * packs straight into the receiver's buffer, mapped into its own address space, and sends
 * an empty message once the writes are done; the receiver unpacks from its own memory and
 * answers with an empty message when the buffer may be written again.  The sender waits
 * for that answer only before its next push into the same buffer, one exchange later. */
#include "decomp/halo.h"

#include <stdlib.h>

#include "base/errors.h"

/* A box of local indices [lo, hi) in each direction. */
typedef struct { int lo[3], hi[3]; } box;

struct efsi_halo {
  efsi_grid g;                 /* copy of the local layout */
  const efsi_layer_ops *ops;   /* the backend's point loops and message buffers */
  MPI_Comm comm;               /* the decomposition's communicator (must outlive the halo) */
  int neighbor[3][2];
  int local[3];                /* periodic direction held by one rank: copy in place */
  int max_fields;
  double *send[3][2], *recv[3][2];
  int peer[3][2];              /* face GPU to GPU: recv is shared, target is the neighbour's */
  double *target[3][2];        /* the neighbour's receive buffer of this face, mapped here */
  MPI_Request freed[3][2];     /* the neighbour's word that it unpacked our last push */
  MPI_Request unpacked[3][2];  /* our word to the neighbour that we unpacked its push */
  double **fields;             /* the fields of the exchange in progress */
  int nfields, width;
  int pending;                 /* between halo_start and halo_finish */
  int phase;                   /* the direction whose messages are in flight */
  MPI_Request request[4];      /* receive low, receive high, send low, send high */
};

/* Layers [a, b) along d; the directions before d include their (already exchanged) halos of
 * width w, the ones after only the owned cells. */
static box slab(const efsi_grid *g, int d, int a, int b, int w)
{
  box s;
  for (int e = 0; e < 3; e++) {
    s.lo[e] = e < d ? -w : 0;
    s.hi[e] = e < d ? g->n[e] + w : g->n[e];
  }
  s.lo[d] = a;
  s.hi[d] = b;
  return s;
}

static size_t box_points(box b)
{
  return (size_t)(b.hi[0] - b.lo[0]) * (b.hi[1] - b.lo[1]) * (b.hi[2] - b.lo[2]);
}

/* One rank, periodic along d.  Layers are filled outward in chunks of at most n, so a chunk
 * reads owned cells or layers filled by the chunk before: correct even when n < w. */
static void copy_periodic(efsi_halo *h, int d)
{
  const efsi_grid *g = &h->g;
  const int n = g->n[d], w = h->width;
  const ptrdiff_t period = (ptrdiff_t)n * g->stride[d];
  for (int filled = 0; filled < w; filled += n) {
    const int c = w - filled < n ? w - filled : n;
    const box low = slab(g, d, -filled - c, -filled, w), high = slab(g, d, n + filled, n + filled + c, w);
    h->ops->copy(g, h->fields, h->nfields, low.lo, low.hi, period);
    h->ops->copy(g, h->fields, h->nfields, high.lo, high.hi, -period);
  }
}

/* Tags: 2d + 1 for data travelling toward +d, 2d toward -d, so the two messages between the
 * same pair of ranks (two ranks, periodic) and the three directions never match wrongly. */
static int tag(int d, int toward_high) { return 2 * d + toward_high; }

static int talks(const efsi_halo *h, int d, int side)
{
  return !h->local[d] && h->neighbor[d][side] != MPI_PROC_NULL;
}

/* The empty messages of a GPU-to-GPU face: "your buffer is free again", tagged like the
 * data, above the data's tags. */
enum { FREED_TAG = 8, HANDLE_TAG = 16, CLOSED_TAG = 24 };

/* Post receives, pack and send direction d (or copy in place). */
static void post(efsi_halo *h, int d)
{
  const efsi_grid *g = &h->g;
  const int n = g->n[d], w = h->width;
  for (int r = 0; r < 4; r++) h->request[r] = MPI_REQUEST_NULL;
  if (h->local[d]) {
    copy_periodic(h, d);
    return;
  }
  for (int side = 0; side < 2; side++) {
    if (!talks(h, d, side)) continue;
    const box in = side ? slab(g, d, n, n + w, w) : slab(g, d, -w, 0, w);
    const int count = h->peer[d][side] ? 0 : (int)(box_points(in) * h->nfields);
    MPI_CHECK(MPI_Irecv(h->recv[d][side], count, MPI_DOUBLE, h->neighbor[d][side],
                        tag(d, side == 0), h->comm, &h->request[side]));
  }
  for (int side = 0; side < 2; side++) {
    if (!talks(h, d, side)) continue;
    const box out = side ? slab(g, d, n - w, n, w) : slab(g, d, 0, w, w);
    double *buf = h->send[d][side];
    if (h->peer[d][side]) {
      /* the neighbour has unpacked what we wrote there one exchange ago */
      MPI_CHECK(MPI_Wait(&h->freed[d][side], MPI_STATUS_IGNORE));
      buf = h->target[d][side];
    }
    h->ops->pack(g, h->fields, h->nfields, out.lo, out.hi, buf, 1);
  }
  if (talks(h, d, 0) || talks(h, d, 1)) h->ops->sent();
  for (int side = 0; side < 2; side++) {
    if (!talks(h, d, side)) continue;
    const box out = side ? slab(g, d, n - w, n, w) : slab(g, d, 0, w, w);
    const int count = h->peer[d][side] ? 0 : (int)(box_points(out) * h->nfields);
    MPI_CHECK(MPI_Isend(h->send[d][side], count, MPI_DOUBLE, h->neighbor[d][side],
                        tag(d, side == 1), h->comm, &h->request[2 + side]));
    if (h->peer[d][side])
      MPI_CHECK(MPI_Irecv(NULL, 0, MPI_DOUBLE, h->neighbor[d][side],
                          FREED_TAG + tag(d, side == 0), h->comm, &h->freed[d][side]));
  }
}

/* Wait for direction d and unpack what arrived. */
static void complete(efsi_halo *h, int d)
{
  const efsi_grid *g = &h->g;
  const int n = g->n[d], w = h->width;
  MPI_CHECK(MPI_Waitall(4, h->request, MPI_STATUSES_IGNORE));
  int pushed = 0;
  for (int side = 0; side < 2; side++) {
    if (!talks(h, d, side)) continue;
    const box in = side ? slab(g, d, n, n + w, w) : slab(g, d, -w, 0, w);
    h->ops->pack(g, h->fields, h->nfields, in.lo, in.hi, h->recv[d][side], 0);
    pushed |= h->peer[d][side];
  }
  if (!pushed) return;
  h->ops->sent();   /* unpacked: the neighbours may write their buffers here again */
  for (int side = 0; side < 2; side++) {
    if (!talks(h, d, side) || !h->peer[d][side]) continue;
    MPI_CHECK(MPI_Wait(&h->unpacked[d][side], MPI_STATUS_IGNORE));
    MPI_CHECK(MPI_Isend(NULL, 0, MPI_DOUBLE, h->neighbor[d][side], FREED_TAG + tag(d, side == 1),
                        h->comm, &h->unpacked[d][side]));
  }
}

/* Doubles in a message buffer across d: every field, EFSI_HALO layers, edges and corners. */
/* The doubles of one face's message along d: nfields fields, EFSI_HALO layers, the face
 * with the halos of the other two directions. */
static size_t face_doubles(const efsi_grid *g, int d, int nfields)
{
  size_t f = (size_t)nfields * EFSI_HALO;
  for (int o = 0; o < 3; o++)
    if (o != d) f *= (size_t)(g->n[o] + 2 * EFSI_HALO);
  return f;
}

static size_t face_size(const efsi_halo *h, int d) { return face_doubles(&h->g, d, h->max_fields); }

size_t halo_bytes(const efsi_grid *g, const efsi_decomp *d, int nfields)
{
  size_t bytes = 0;
  for (int e = 0; e < 3; e++) {
    /* a direction held by one rank copies in place, periodic or walled */
    if (d->dims[e] == 1) continue;
    const int low = d->periodic[e] || d->coords[e] > 0;
    const int high = d->periodic[e] || d->coords[e] < d->dims[e] - 1;
    bytes += (size_t)(low + high) * 2 * face_doubles(g, e, nfields) * sizeof(double);
  }
  return bytes;
}

/* This rank and rank r of comm share a node. */
static int same_node(MPI_Comm comm, MPI_Comm node, int r)
{
  MPI_Group all, here;
  int there = MPI_UNDEFINED;
  MPI_CHECK(MPI_Comm_group(comm, &all));
  MPI_CHECK(MPI_Comm_group(node, &here));
  MPI_CHECK(MPI_Group_translate_ranks(all, 1, &r, here, &there));
  MPI_CHECK(MPI_Group_free(&all));
  MPI_CHECK(MPI_Group_free(&here));
  return there != MPI_UNDEFINED;
}

/* Collective: the faces to a neighbour on this node go GPU to GPU where both GPUs can map
 * each other's buffer; the others keep message buffers.  Each side shares its receive
 * buffer, maps the neighbour's, and the two agree (a face is GPU to GPU only when both
 * mapped); every message is posted before any is waited for, so no ring of ranks waits on
 * itself. */
static void connect_peers(efsi_halo *h)
{
  const efsi_layer_ops *ops = h->ops;
  int me = 0;
  MPI_CHECK(MPI_Comm_rank(h->comm, &me));
  MPI_Comm node;
  MPI_CHECK(MPI_Comm_split_type(h->comm, MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL, &node));
  efsi_peer_handle mine[3][2], theirs[3][2];
  int mapped[3][2], agreed[3][2];
  MPI_Request req[24];
  int nreq = 0;
  for (int e = 0; e < 3; e++)
    for (int side = 0; side < 2; side++) {
      const int r = h->neighbor[e][side];
      h->peer[e][side] = talks(h, e, side) && r != me && same_node(h->comm, node, r);
      if (!h->peer[e][side]) continue;
      h->recv[e][side] = ops->share(face_size(h, e), &mine[e][side]);
      if (!h->recv[e][side])
        efsi_abort(EFSI_EXIT_RUNTIME, "halo_create: out of device memory for %zu doubles per "
                   "face", face_size(h, e));
      MPI_CHECK(MPI_Irecv(&theirs[e][side], (int)sizeof theirs[e][side], MPI_BYTE, r,
                          HANDLE_TAG + tag(e, side == 0), h->comm, &req[nreq++]));
      MPI_CHECK(MPI_Isend(&mine[e][side], (int)sizeof mine[e][side], MPI_BYTE, r,
                          HANDLE_TAG + tag(e, side == 1), h->comm, &req[nreq++]));
    }
  MPI_CHECK(MPI_Comm_free(&node));
  MPI_CHECK(MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE));
  nreq = 0;
  for (int e = 0; e < 3; e++)
    for (int side = 0; side < 2; side++) {
      if (!h->peer[e][side]) continue;
      h->target[e][side] = ops->open(&theirs[e][side]);
      mapped[e][side] = h->target[e][side] != NULL;
      MPI_CHECK(MPI_Irecv(&agreed[e][side], 1, MPI_INT, h->neighbor[e][side],
                          HANDLE_TAG + tag(e, side == 0), h->comm, &req[nreq++]));
      MPI_CHECK(MPI_Isend(&mapped[e][side], 1, MPI_INT, h->neighbor[e][side],
                          HANDLE_TAG + tag(e, side == 1), h->comm, &req[nreq++]));
    }
  MPI_CHECK(MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE));
  for (int e = 0; e < 3; e++)
    for (int side = 0; side < 2; side++) {
      if (!h->peer[e][side] || (mapped[e][side] && agreed[e][side])) continue;
      /* one of the two cannot map the other's buffer: messages on this face (the
       * neighbour has not mapped ours, or has closed its side the same way) */
      if (h->target[e][side]) ops->close(h->target[e][side]);
      h->target[e][side] = NULL;
      h->peer[e][side] = 0;
    }
  /* the buffers of a face that fell back are unshared only once neither side maps them */
  MPI_CHECK(MPI_Barrier(h->comm));
  for (int e = 0; e < 3; e++)
    for (int side = 0; side < 2; side++)
      if (talks(h, e, side) && !h->peer[e][side] && h->recv[e][side]) {
        ops->unshare(h->recv[e][side]);
        h->recv[e][side] = NULL;
      }
}

efsi_halo *halo_create(const efsi_grid *g, const efsi_decomp *d, int max_fields,
                       const efsi_layer_ops *ops, int gpu_to_gpu)
{
  efsi_halo *h = efsi_calloc(1, sizeof *h, "the halo exchange");
  h->g = *g;
  h->ops = ops;
  h->comm = d->comm;
  h->max_fields = max_fields;
  h->fields = efsi_calloc(max_fields > 0 ? (size_t)max_fields : 1, sizeof *h->fields,
                          "the halo exchange");
  for (int e = 0; e < 3; e++) {
    h->local[e] = d->dims[e] == 1 && d->periodic[e];
    for (int side = 0; side < 2; side++) {
      h->neighbor[e][side] = d->neighbor[e][side];
      h->freed[e][side] = h->unpacked[e][side] = MPI_REQUEST_NULL;
    }
  }
  if (gpu_to_gpu && ops->share) connect_peers(h);
  for (int e = 0; e < 3; e++) {
    const size_t f = face_size(h, e);
    for (int side = 0; side < 2; side++) {
      if (!talks(h, e, side) || h->peer[e][side]) continue;
      h->send[e][side] = ops->alloc(f);
      h->recv[e][side] = ops->alloc(f);
    }
  }
  return h;
}

int halo_gpu_to_gpu_faces(const efsi_halo *h)
{
  int n = 0;
  for (int e = 0; e < 3; e++) n += h->peer[e][0] + h->peer[e][1];
  return n;
}

int halo_faces(const efsi_halo *h)
{
  int n = 0;
  for (int e = 0; e < 3; e++) n += talks(h, e, 0) + talks(h, e, 1);
  return n;
}

void halo_free(efsi_halo *h)
{
  if (!h) return;
  if (h->pending) halo_finish(h);   /* every rank has the same exchange in flight */
  /* GPU to GPU: the last words of both sides, our mapping of the neighbour's buffer closed,
   * and the neighbour's of ours, before ours is released */
  MPI_Request closed[12];
  char none[6];
  int nreq = 0;
  for (int e = 0; e < 3; e++)
    for (int side = 0; side < 2; side++) {
      if (!h->peer[e][side]) continue;
      MPI_CHECK(MPI_Wait(&h->freed[e][side], MPI_STATUS_IGNORE));
      MPI_CHECK(MPI_Wait(&h->unpacked[e][side], MPI_STATUS_IGNORE));
      h->ops->close(h->target[e][side]);
      MPI_CHECK(MPI_Irecv(&none[2 * e + side], 0, MPI_BYTE, h->neighbor[e][side],
                          CLOSED_TAG + tag(e, side == 0), h->comm, &closed[nreq++]));
      MPI_CHECK(MPI_Isend(NULL, 0, MPI_BYTE, h->neighbor[e][side],
                          CLOSED_TAG + tag(e, side == 1), h->comm, &closed[nreq++]));
    }
  MPI_CHECK(MPI_Waitall(nreq, closed, MPI_STATUSES_IGNORE));
  for (int e = 0; e < 3; e++)
    for (int side = 0; side < 2; side++) {
      if (h->send[e][side]) h->ops->release(h->send[e][side]);
      if (h->recv[e][side]) {
        if (h->peer[e][side]) h->ops->unshare(h->recv[e][side]);
        else h->ops->release(h->recv[e][side]);
      }
    }
  free(h->fields);
  free(h);
}

int halo_pending(const efsi_halo *h) { return h->pending; }

int halo_filled_at_start(const efsi_halo *h, int d) { return d == 0 && h->local[0]; }

void halo_start(efsi_halo *h, double *const *fields, int nfields, int width)
{
  if (h->pending) efsi_abort(EFSI_EXIT_RUNTIME, "halo_start: previous exchange not finished");
  if (nfields < 1 || nfields > h->max_fields)
    efsi_abort(EFSI_EXIT_RUNTIME, "halo_start: %d fields, buffers hold 1 to %d", nfields,
               h->max_fields);
  if (width < 1 || width > EFSI_HALO)
    efsi_abort(EFSI_EXIT_RUNTIME, "halo_start: width %d outside 1..%d", width, EFSI_HALO);
  for (int f = 0; f < nfields; f++) h->fields[f] = fields[f];
  h->nfields = nfields;
  h->width = width;
  h->pending = 1;
  h->phase = 0;
  h->ops->begin(halo_faces(h) > 0);
  post(h, 0);
}

int halo_advance(efsi_halo *h)
{
  if (!h->pending) return 0;
  complete(h, h->phase);
  if (h->phase == 2) {
    h->pending = 0;
    h->ops->end();
    return 0;
  }
  post(h, ++h->phase);
  return 1;
}

void halo_finish(efsi_halo *h)
{
  if (!h->pending) efsi_abort(EFSI_EXIT_RUNTIME, "halo_finish: no exchange started");
  while (halo_advance(h)) continue;
}

void halo_exchange(efsi_halo *h, double *const *fields, int nfields, int width)
{
  halo_start(h, fields, nfields, width);
  halo_finish(h);
}
