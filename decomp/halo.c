/* Halo exchange of width w <= EFSI_HALO for any set of fields: direction x over the owned
 * y, z range, then y over x in [-w, n_x + w), then z over x and y with their halos, so every
 * edge and corner of the box [-w, n + w)^3 is filled from the rank that owns it.  Per face,
 * all fields travel in one packed message; a periodic direction held by one rank copies
 * f(-m) = f(n - m), f(n - 1 + m) = f(m - 1) in place; nothing is written across a wall.
 *
 * Each face to another rank takes the path of the plan (decomp/halo_path.h, docs/gpu.md,
 * "Halo paths"):
 *   peer: the sender packs straight into the receiver's buffer, mapped into its own address
 *     space (CUDA IPC), and sends an empty message once the writes are done; the receiver
 *     unpacks from its own memory and answers with an empty message when the buffer may be
 *     written again, which the sender waits for only before its next push there;
 *   nccl: the faces of a direction are one group of NCCL sends and receives queued on the
 *     halo stream between the packing and the unpacking: the host never waits for them;
 *   cuda_aware_mpi: MPI moves the device buffers;
 *   host_mpi: MPI moves host buffers; on a GPU the packed buffer is copied to page-locked
 *     host memory and back by the copy engines, in order on the halo stream. */
#include "decomp/halo.h"

#include <stdlib.h>

#include "base/errors.h"
#include "decomp/halo_path.h"

/* A box of local indices [lo, hi) in each direction. */
typedef struct { int lo[3], hi[3]; } box;

struct efsi_halo {
  efsi_grid g;                 /* copy of the local layout */
  const efsi_layer_ops *ops;   /* the backend's point loops and message buffers */
  MPI_Comm comm;               /* the decomposition's communicator (must outlive the halo) */
  int neighbor[3][2];
  int local[3];                /* periodic direction held by one rank: copy in place */
  int max_fields;
  efsi_halo_plan plan;         /* the path of each face (HALO_NO_FACE: none) */
  int host_messages;           /* some face's buffers are read or written by MPI */
  int messages;                /* some face at all (none: one rank's periodic copies alone) */
  double *send[3][2], *recv[3][2];            /* where the packing writes and reads */
  double *send_host[3][2], *recv_host[3][2];  /* host_mpi on a GPU: what MPI moves */
  double *target[3][2];        /* peer: the neighbour's receive buffer, mapped here */
  MPI_Request freed[3][2];     /* peer: the neighbour's word that it unpacked our last push */
  MPI_Request unpacked[3][2];  /* peer: our word to the neighbour that we unpacked its push */
  void *nccl;                  /* the NCCL communicator, when some face takes nccl */
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
    h->ops->copy(g, h->fields, h->nfields, low.lo, low.hi, period, h->messages);
    h->ops->copy(g, h->fields, h->nfields, high.lo, high.hi, -period, h->messages);
  }
}

/* Tags: 2d + 1 for data travelling toward +d, 2d toward -d, so the two messages between the
 * same pair of ranks (two ranks, periodic) and the three directions never match wrongly. */
static int tag(int d, int toward_high) { return 2 * d + toward_high; }

static int talks(const efsi_halo *h, int d, int side)
{
  return h->plan.path[d][side] != HALO_NO_FACE;
}

static int path(const efsi_halo *h, int d, int side) { return h->plan.path[d][side]; }

/* The empty messages of a peer face: "your buffer is free again", tagged like the data,
 * above the data's tags. */
enum { FREED_TAG = 8, HANDLE_TAG = 16, CLOSED_TAG = 24 };

/* The buffers MPI moves for a face (peer and nccl faces: none; the host copies of host_mpi
 * on a GPU). */
static double *mpi_send(const efsi_halo *h, int d, int side)
{
  return h->send_host[d][side] ? h->send_host[d][side] : h->send[d][side];
}
static double *mpi_recv(const efsi_halo *h, int d, int side)
{
  return h->recv_host[d][side] ? h->recv_host[d][side] : h->recv[d][side];
}

/* The boxes a face sends from (out) and receives into (in) along d. */
static box outgoing(const efsi_halo *h, int d, int side)
{
  const int n = h->g.n[d], w = h->width;
  return side ? slab(&h->g, d, n - w, n, w) : slab(&h->g, d, 0, w, w);
}
static box incoming(const efsi_halo *h, int d, int side)
{
  const int n = h->g.n[d], w = h->width;
  return side ? slab(&h->g, d, n, n + w, w) : slab(&h->g, d, -w, 0, w);
}

/* Post receives, pack and send direction d (or copy in place). */
static void post(efsi_halo *h, int d)
{
  const efsi_grid *g = &h->g;
  for (int r = 0; r < 4; r++) h->request[r] = MPI_REQUEST_NULL;
  if (h->local[d]) {
    copy_periodic(h, d);
    return;
  }
  int by_host = 0;   /* a face whose buffer the host hands to MPI once it is packed */
  for (int side = 0; side < 2; side++) {
    if (!talks(h, d, side) || path(h, d, side) == HALO_NCCL) continue;
    by_host = 1;
    const int count = path(h, d, side) == HALO_PEER
                    ? 0 : (int)(box_points(incoming(h, d, side)) * h->nfields);
    MPI_CHECK(MPI_Irecv(mpi_recv(h, d, side), count, MPI_DOUBLE, h->neighbor[d][side],
                        tag(d, side == 0), h->comm, &h->request[side]));
  }
  for (int side = 0; side < 2; side++) {
    if (!talks(h, d, side)) continue;
    const box out = outgoing(h, d, side);
    double *buf = h->send[d][side];
    if (path(h, d, side) == HALO_PEER) {
      /* the neighbour has unpacked what we wrote there one exchange ago */
      MPI_CHECK(MPI_Wait(&h->freed[d][side], MPI_STATUS_IGNORE));
      buf = h->target[d][side];
    }
    h->ops->pack(g, h->fields, h->nfields, out.lo, out.hi, buf, 1);
    if (h->send_host[d][side])
      h->ops->stage(h->send_host[d][side], buf, box_points(out) * h->nfields, 1);
  }
  if (by_host) {
    h->ops->sent();
    for (int side = 0; side < 2; side++) {
      if (!talks(h, d, side) || path(h, d, side) == HALO_NCCL) continue;
      const int peer = path(h, d, side) == HALO_PEER;
      const int count = peer ? 0 : (int)(box_points(outgoing(h, d, side)) * h->nfields);
      MPI_CHECK(MPI_Isend(mpi_send(h, d, side), count, MPI_DOUBLE, h->neighbor[d][side],
                          tag(d, side == 1), h->comm, &h->request[2 + side]));
      if (peer)
        MPI_CHECK(MPI_Irecv(NULL, 0, MPI_DOUBLE, h->neighbor[d][side],
                            FREED_TAG + tag(d, side == 0), h->comm, &h->freed[d][side]));
    }
  }
  /* NCCL, queued after the host's wait above (which it need not hold up): the data
   * travelling toward -d first, then toward +d, on both ranks, so that two messages between
   * the same pair of ranks (two ranks, periodic) match */
  efsi_message m[4];
  int nm = 0;
  for (int side = 1; side >= 0; side--)
    if (talks(h, d, side) && path(h, d, side) == HALO_NCCL)
      m[nm++] = (efsi_message){h->recv[d][side], box_points(incoming(h, d, side)) * h->nfields,
                               h->neighbor[d][side], 0};
  for (int side = 0; side < 2; side++)
    if (talks(h, d, side) && path(h, d, side) == HALO_NCCL)
      m[nm++] = (efsi_message){h->send[d][side], box_points(outgoing(h, d, side)) * h->nfields,
                               h->neighbor[d][side], 1};
  if (nm) h->ops->nccl_exchange(h->nccl, m, nm);
}

/* Wait for direction d and unpack what arrived; the kernels queued after it see it. */
static void complete(efsi_halo *h, int d)
{
  const efsi_grid *g = &h->g;
  MPI_CHECK(MPI_Waitall(4, h->request, MPI_STATUSES_IGNORE));
  int pushed = 0;
  for (int side = 0; side < 2; side++) {
    if (!talks(h, d, side)) continue;
    const box in = incoming(h, d, side);
    if (h->recv_host[d][side])
      h->ops->stage(h->recv[d][side], h->recv_host[d][side], box_points(in) * h->nfields, 0);
    h->ops->pack(g, h->fields, h->nfields, in.lo, in.hi, h->recv[d][side], 0);
    pushed |= path(h, d, side) == HALO_PEER;
  }
  h->ops->end(h->messages);
  if (!pushed) return;
  h->ops->sent();   /* unpacked: the neighbours may write their buffers here again */
  for (int side = 0; side < 2; side++) {
    if (!talks(h, d, side) || path(h, d, side) != HALO_PEER) continue;
    MPI_CHECK(MPI_Wait(&h->unpacked[d][side], MPI_STATUS_IGNORE));
    MPI_CHECK(MPI_Isend(NULL, 0, MPI_DOUBLE, h->neighbor[d][side], FREED_TAG + tag(d, side == 1),
                        h->comm, &h->unpacked[d][side]));
  }
}

/* The doubles of one face's message buffer along d: nfields fields, EFSI_HALO layers, the
 * face with the halos of the other two directions. */
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

size_t halo_message_doubles(const efsi_grid *g, int d, int nfields, int width)
{
  return box_points(slab(g, d, 0, width, width)) * (size_t)nfields;
}

/* Collective: the peer faces of the plan.  Each side shares its receive buffer and maps the
 * neighbour's; every message is posted before any is waited for, so that no ring of ranks
 * waits on itself.  The plan has tried the mapping (halo_plan_create), so a failure here is
 * a fault of the run. */
static void connect_peers(efsi_halo *h)
{
  const efsi_layer_ops *ops = h->ops;
  efsi_peer_handle mine[3][2], theirs[3][2];
  MPI_Request req[24];
  int nreq = 0;
  for (int e = 0; e < 3; e++)
    for (int side = 0; side < 2; side++) {
      if (path(h, e, side) != HALO_PEER) continue;
      const int r = h->neighbor[e][side];
      h->recv[e][side] = ops->share(face_size(h, e), &mine[e][side]);
      MPI_CHECK(MPI_Irecv(&theirs[e][side], (int)sizeof theirs[e][side], MPI_BYTE, r,
                          HANDLE_TAG + tag(e, side == 0), h->comm, &req[nreq++]));
      MPI_CHECK(MPI_Isend(&mine[e][side], (int)sizeof mine[e][side], MPI_BYTE, r,
                          HANDLE_TAG + tag(e, side == 1), h->comm, &req[nreq++]));
    }
  MPI_CHECK(MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE));
  for (int e = 0; e < 3; e++)
    for (int side = 0; side < 2; side++) {
      if (path(h, e, side) != HALO_PEER) continue;
      h->target[e][side] = ops->open(&theirs[e][side]);
      if (!h->target[e][side])
        efsi_abort(EFSI_EXIT_RUNTIME, "halo_create: the GPU memory of rank %d, mapped when the "
                   "halo paths were planned, cannot be mapped now", h->neighbor[e][side]);
    }
}

efsi_halo *halo_create(const efsi_grid *g, const efsi_decomp *d, int max_fields,
                       const efsi_layer_ops *ops, const efsi_halo_plan *plan)
{
  efsi_halo *h = efsi_calloc(1, sizeof *h, "the halo exchange");
  h->g = *g;
  h->ops = ops;
  h->comm = d->comm;
  h->max_fields = max_fields;
  h->fields = efsi_calloc(max_fields > 0 ? (size_t)max_fields : 1, sizeof *h->fields,
                          "the halo exchange");
  if (plan) h->plan = *plan;
  else halo_plan_host(d, &h->plan);
  int nccl = 0;
  for (int e = 0; e < 3; e++) {
    h->local[e] = d->dims[e] == 1 && d->periodic[e];
    for (int side = 0; side < 2; side++) {
      h->neighbor[e][side] = d->neighbor[e][side];
      h->freed[e][side] = h->unpacked[e][side] = MPI_REQUEST_NULL;
      nccl |= path(h, e, side) == HALO_NCCL;
      h->host_messages |= path(h, e, side) == HALO_DEVICE_MPI || path(h, e, side) == HALO_HOST_MPI;
      h->messages |= path(h, e, side) != HALO_NO_FACE;
    }
  }
  connect_peers(h);
  /* NCCL's communicator is made by every rank once any rank has a face on it */
  MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &nccl, 1, MPI_INT, MPI_MAX, h->comm));
  if (nccl) h->nccl = ops->nccl_open(h->comm);
  for (int e = 0; e < 3; e++) {
    const size_t f = face_size(h, e);
    for (int side = 0; side < 2; side++) {
      if (!talks(h, e, side) || path(h, e, side) == HALO_PEER) continue;
      h->send[e][side] = ops->alloc(f);
      h->recv[e][side] = ops->alloc(f);
      if (path(h, e, side) == HALO_HOST_MPI && ops->alloc_host) {
        h->send_host[e][side] = ops->alloc_host(f);
        h->recv_host[e][side] = ops->alloc_host(f);
      }
    }
  }
  return h;
}

void halo_paths(const efsi_halo *h, efsi_halo_plan *plan) { *plan = h->plan; }

void halo_free(efsi_halo *h)
{
  if (!h) return;
  if (h->pending) halo_finish(h);   /* every rank has the same exchange in flight */
  /* peer faces: the last words of both sides, our mapping of the neighbour's buffer closed,
   * and the neighbour's of ours, before ours is released */
  MPI_Request closed[12];
  char none[6];
  int nreq = 0;
  for (int e = 0; e < 3; e++)
    for (int side = 0; side < 2; side++) {
      if (path(h, e, side) != HALO_PEER) continue;
      MPI_CHECK(MPI_Wait(&h->freed[e][side], MPI_STATUS_IGNORE));
      MPI_CHECK(MPI_Wait(&h->unpacked[e][side], MPI_STATUS_IGNORE));
      h->ops->close(h->target[e][side]);
      MPI_CHECK(MPI_Irecv(&none[2 * e + side], 0, MPI_BYTE, h->neighbor[e][side],
                          CLOSED_TAG + tag(e, side == 0), h->comm, &closed[nreq++]));
      MPI_CHECK(MPI_Isend(NULL, 0, MPI_BYTE, h->neighbor[e][side],
                          CLOSED_TAG + tag(e, side == 1), h->comm, &closed[nreq++]));
    }
  MPI_CHECK(MPI_Waitall(nreq, closed, MPI_STATUSES_IGNORE));
  if (h->nccl) h->ops->nccl_close(h->nccl);
  for (int e = 0; e < 3; e++)
    for (int side = 0; side < 2; side++) {
      if (h->send[e][side]) h->ops->release(h->send[e][side]);
      if (h->recv[e][side]) {
        if (path(h, e, side) == HALO_PEER) h->ops->unshare(h->recv[e][side]);
        else h->ops->release(h->recv[e][side]);
      }
      if (h->send_host[e][side]) h->ops->release_host(h->send_host[e][side]);
      if (h->recv_host[e][side]) h->ops->release_host(h->recv_host[e][side]);
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
  h->ops->begin(h->host_messages, h->messages);
  post(h, 0);
}

int halo_advance(efsi_halo *h)
{
  if (!h->pending) return 0;
  complete(h, h->phase);
  if (h->phase == 2) {
    h->pending = 0;
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
