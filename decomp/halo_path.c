/* The path of each face of the halo exchange (see halo_path.h).  What makes a path work:
 *   peer             the neighbour is on this node and the two GPUs map each other's memory
 *                    (CUDA IPC; two ranks may share one GPU);
 *   nccl             the build has NCCL, and no two ranks share a GPU (NCCL refuses that);
 *   cuda_aware_mpi   the MPI library says it takes device pointers;
 *   host_mpi         always.
 * The first two are asked of the ranks and GPUs themselves; what is asked of the library is
 * the same on every rank, so both ranks of a face choose alike. */
#include "decomp/halo_path.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"

static const char *const names[HALO_PATHS] = {"peer", "nccl", "cuda_aware_mpi", "host_mpi"};
static const char axis[] = "xyz";

const char *halo_path_name(int path)
{
  return path >= 0 && path < HALO_PATHS ? names[path] : "none";
}

int halo_path_choose(unsigned allowed, unsigned works)
{
  for (int p = 0; p < HALO_PATHS; p++)
    if (allowed & works & (1u << p)) return p;
  return HALO_NO_FACE;
}

void halo_plan_count(const efsi_halo_plan *plan, int counts[HALO_PATHS])
{
  for (int e = 0; e < 3; e++)
    for (int side = 0; side < 2; side++)
      if (plan->path[e][side] != HALO_NO_FACE) counts[plan->path[e][side]]++;
}

static int has_face(const efsi_decomp *d, int e, int side)
{
  return d->dims[e] > 1 && d->neighbor[e][side] != MPI_PROC_NULL;
}

void halo_plan_host(const efsi_decomp *d, efsi_halo_plan *plan)
{
  for (int e = 0; e < 3; e++)
    for (int side = 0; side < 2; side++)
      plan->path[e][side] = has_face(d, e, side) ? HALO_HOST_MPI : HALO_NO_FACE;
}

/* The paths that work whatever the face: what the build and the MPI library can do. */
static unsigned global_works(const efsi_layer_ops *ops, unsigned allowed, int mpi_aware)
{
  const int gpu = ops->gpu_identity != NULL;
  unsigned works = 1u << HALO_HOST_MPI;
  if (ops->share) works |= 1u << HALO_PEER;
  if (ops->nccl_open) works |= 1u << HALO_NCCL;
  /* a library that cannot be asked is taken at its word only when the user forces it */
  if (gpu && (mpi_aware > 0 || (mpi_aware < 0 && allowed == 1u << HALO_DEVICE_MPI)))
    works |= 1u << HALO_DEVICE_MPI;
  return works;
}

/* Why a forced path does not work anywhere (the build or the library), or NULL. */
static const char *global_refusal(unsigned allowed, unsigned works, const efsi_layer_ops *ops)
{
  if (allowed == HALO_ANY_PATH || (allowed & works)) return NULL;
  if (!ops->gpu_identity) return "halos between CPU ranks go through MPI from host memory";
  if (allowed == 1u << HALO_NCCL)
    return "this efsi was built without NCCL (configure --with-nccl)";
  if (allowed == 1u << HALO_DEVICE_MPI)
    return "the MPI library says it is not CUDA-aware (MPIX_Query_cuda_support() = 0)";
  return "not available";
}

/* Tags of the probe's messages, above halo.c's (2d + toward_high: the direction of travel). */
enum { PROBE_TAG = 32 };
static int tag(int d, int toward_high) { return PROBE_TAG + 2 * d + toward_high; }

/* Collective: which faces to a neighbour on this node can go GPU to GPU.  Each side shares
 * a small buffer, maps the neighbour's, and the two agree (a face works only when both
 * mapped); every message is posted before any is waited for, so that no ring of ranks waits
 * on itself; the buffers are released once neither side maps them. */
static void probe_peers(const efsi_decomp *d, const efsi_layer_ops *ops,
                        const int same_node[3][2], int works[3][2])
{
  efsi_peer_handle mine[3][2], theirs[3][2];
  double *shared[3][2] = {{NULL}}, *mapped[3][2] = {{NULL}};
  int ok[3][2], agreed[3][2];
  MPI_Request req[24];
  int nreq = 0;
  for (int e = 0; e < 3; e++)
    for (int side = 0; side < 2; side++) {
      works[e][side] = 0;
      if (!same_node[e][side]) continue;
      const int r = d->neighbor[e][side];
      shared[e][side] = ops->share(1, &mine[e][side]);
      MPI_CHECK(MPI_Irecv(&theirs[e][side], (int)sizeof theirs[e][side], MPI_BYTE, r,
                          tag(e, side == 0), d->comm, &req[nreq++]));
      MPI_CHECK(MPI_Isend(&mine[e][side], (int)sizeof mine[e][side], MPI_BYTE, r,
                          tag(e, side == 1), d->comm, &req[nreq++]));
    }
  MPI_CHECK(MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE));
  nreq = 0;
  for (int e = 0; e < 3; e++)
    for (int side = 0; side < 2; side++) {
      if (!same_node[e][side]) continue;
      mapped[e][side] = ops->open(&theirs[e][side]);
      ok[e][side] = mapped[e][side] != NULL;
      MPI_CHECK(MPI_Irecv(&agreed[e][side], 1, MPI_INT, d->neighbor[e][side],
                          tag(e, side == 0), d->comm, &req[nreq++]));
      MPI_CHECK(MPI_Isend(&ok[e][side], 1, MPI_INT, d->neighbor[e][side], tag(e, side == 1),
                          d->comm, &req[nreq++]));
    }
  MPI_CHECK(MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE));
  for (int e = 0; e < 3; e++)
    for (int side = 0; side < 2; side++) {
      if (!same_node[e][side]) continue;
      works[e][side] = ok[e][side] && agreed[e][side];
      if (mapped[e][side]) ops->close(mapped[e][side]);
    }
  MPI_CHECK(MPI_Barrier(d->comm));
  for (int e = 0; e < 3; e++)
    for (int side = 0; side < 2; side++)
      if (shared[e][side]) ops->unshare(shared[e][side]);
}

/* Ranks a < b of comm that share a GPU (*a = -1 when none): every rank's GPU identity,
 * sorted. */
typedef struct { efsi_gpu_identity id; int rank; } gpu_of_rank;

static int by_identity(const void *x, const void *y)
{
  const gpu_of_rank *a = x, *b = y;
  const int c = memcmp(a->id.bytes, b->id.bytes, sizeof a->id.bytes);
  return c ? c : (a->rank > b->rank) - (a->rank < b->rank);
}

static void shared_gpu(const efsi_decomp *d, const efsi_layer_ops *ops, int *a, int *b)
{
  gpu_of_rank *all = efsi_malloc((size_t)d->size * sizeof *all, "the GPUs of the ranks");
  efsi_gpu_identity mine;
  ops->gpu_identity(&mine);
  efsi_gpu_identity *ids = efsi_malloc((size_t)d->size * sizeof *ids, "the GPUs of the ranks");
  MPI_CHECK(MPI_Allgather(&mine, (int)sizeof mine, MPI_BYTE, ids, (int)sizeof mine, MPI_BYTE,
                          d->comm));
  for (int r = 0; r < d->size; r++) {
    all[r].id = ids[r];
    all[r].rank = r;
  }
  qsort(all, (size_t)d->size, sizeof *all, by_identity);
  *a = *b = -1;
  for (int r = 1; r < d->size && *a < 0; r++)
    if (memcmp(all[r - 1].id.bytes, all[r].id.bytes, sizeof mine.bytes) == 0) {
      *a = all[r - 1].rank;
      *b = all[r].rank;
    }
  free(ids);
  free(all);
}

/* This rank and rank r of comm share a node. */
static int same_node_as(MPI_Comm comm, MPI_Comm node, int r)
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

/* The plan of one rank from what works for each face; why the forced path does not, in
 * why, for the first face it fails. */
static int choose_all(const int face[3][2], const int neighbor[3][2], int rank,
                      const int same_node[3][2], const int peer_works[3][2], unsigned works,
                      unsigned allowed, const int nccl_shared[2], efsi_halo_plan *plan,
                      char *why, size_t len)
{
  for (int e = 0; e < 3; e++)
    for (int side = 0; side < 2; side++) {
      plan->path[e][side] = HALO_NO_FACE;
      if (!face[e][side]) continue;
      unsigned here = works;
      if (!peer_works[e][side]) here &= ~(1u << HALO_PEER);
      if (nccl_shared[0] >= 0) here &= ~(1u << HALO_NCCL);
      plan->path[e][side] = halo_path_choose(allowed, here);
      if (plan->path[e][side] != HALO_NO_FACE) continue;
      if (allowed == 1u << HALO_NCCL)
        snprintf(why, len, "ranks %d and %d share one GPU, and NCCL needs a GPU for each rank",
                 nccl_shared[0], nccl_shared[1]);
      else if (!same_node[e][side])
        snprintf(why, len, "the face of rank %d toward %c%c leads to rank %d on another node; "
                 "CUDA IPC joins the GPUs of one node only", rank, side ? '+' : '-', axis[e],
                 neighbor[e][side]);
      else
        snprintf(why, len, "ranks %d and %d cannot map each other's GPU memory (CUDA IPC)",
                 rank, neighbor[e][side]);
      return 1;
    }
  return 0;
}

int halo_plan_create(const efsi_decomp *d, const efsi_layer_ops *ops, unsigned allowed,
                     int mpi_aware, efsi_halo_plan *plan, char *err, size_t errlen)
{
  const unsigned works = global_works(ops, allowed, mpi_aware);
  const char *refused = global_refusal(allowed, works, ops);
  if (refused) {
    snprintf(err, errlen, "%s", refused);
    return 1;
  }
  int face[3][2], same_node[3][2] = {{0}}, peer_works[3][2] = {{0}};
  for (int e = 0; e < 3; e++)
    for (int side = 0; side < 2; side++) {
      face[e][side] = has_face(d, e, side);
      same_node[e][side] = face[e][side]
                        && same_node_as(d->comm, d->node, d->neighbor[e][side]);
    }
  int probe[3][2];
  for (int e = 0; e < 3; e++)
    for (int side = 0; side < 2; side++)
      probe[e][side] = same_node[e][side] && (allowed & works & (1u << HALO_PEER));
  probe_peers(d, ops, probe, peer_works);
  int nccl_shared[2] = {-1, -1};
  if ((allowed & works & (1u << HALO_NCCL)) && ops->gpu_identity)
    shared_gpu(d, ops, &nccl_shared[0], &nccl_shared[1]);
  char why[512] = "";
  const int failed = choose_all(face, d->neighbor, d->rank, same_node, peer_works, works,
                                allowed, nccl_shared, plan, why, sizeof why);
  /* the same verdict on every rank: the lowest failing rank's */
  int first = failed ? d->rank : d->size;
  MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, d->comm));
  if (first == d->size) return 0;
  MPI_CHECK(MPI_Bcast(why, (int)sizeof why, MPI_CHAR, first, d->comm));
  snprintf(err, errlen, "%s", why);
  return 1;
}

int halo_plan_predict(const int dims[3], const int periodic[3], int r, int ranks_per_node,
                      const efsi_layer_ops *ops, unsigned allowed, int mpi_aware,
                      efsi_halo_plan *plan, char *err, size_t errlen)
{
  const unsigned works = global_works(ops, allowed, mpi_aware);
  const char *refused = global_refusal(allowed, works, ops);
  if (refused) {
    snprintf(err, errlen, "%s", refused);
    return 1;
  }
  /* MPI's Cartesian order: rank = (c0 dims1 + c1) dims2 + c2 */
  const int c[3] = {r / (dims[1] * dims[2]), r / dims[2] % dims[1], r % dims[2]};
  int face[3][2], neighbor[3][2], same_node[3][2];
  for (int e = 0; e < 3; e++)
    for (int side = 0; side < 2; side++) {
      int n[3] = {c[0], c[1], c[2]};
      n[e] += side ? 1 : -1;
      const int inside = n[e] >= 0 && n[e] < dims[e];
      n[e] = (n[e] + dims[e]) % dims[e];
      face[e][side] = dims[e] > 1 && (inside || periodic[e]);
      neighbor[e][side] = (n[0] * dims[1] + n[1]) * dims[2] + n[2];
      same_node[e][side] = face[e][side] && neighbor[e][side] / ranks_per_node == r / ranks_per_node;
    }
  /* one GPU per rank, and every GPU of a node maps the others' memory */
  const int no_sharing[2] = {-1, -1};
  char why[512] = "";
  if (choose_all(face, neighbor, r, same_node, same_node, works, allowed, no_sharing, plan,
                 why, sizeof why)) {
    snprintf(err, errlen, "%s", why);
    return 1;
  }
  return 0;
}
