/* The communication plan (see plan_comm.h). */
#include "src/run/plan_comm.h"

#include <stdio.h>

#include "base/device.h"
#include "base/errors.h"

/* "2 peer, 0 nccl, 0 cuda_aware_mpi, 0 host_mpi" */
static void print_counts(const int counts[HALO_PATHS])
{
  for (int p = 0; p < HALO_PATHS; p++)
    printf("%s%d %s", p ? ", " : "", counts[p], halo_path_name(p));
}

static const char *policy(const efsi_config *c)
{
  return c->halo_path == HALO_PATH_AUTO ? "auto" : halo_path_name(c->halo_path - 1);
}

void comm_print_paths(const efsi_halo *h, const efsi_decomp *d, const efsi_config *c)
{
  efsi_halo_plan plan;
  halo_paths(h, &plan);
  int counts[HALO_PATHS] = {0};
  halo_plan_count(&plan, counts);
  MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, counts, HALO_PATHS, MPI_INT, MPI_SUM, d->comm));
  if (d->rank != 0) return;
  int faces = 0;
  for (int p = 0; p < HALO_PATHS; p++) faces += counts[p];
  printf("  halos: %d faces between ranks: ", faces);
  print_counts(counts);
  printf(" (performance.halo_path = %s)\n", policy(c));
}

int comm_print_plan(const efsi_case *cs, const efsi_decomp *d, const efsi_grid *g,
                    const efsi_backend *b, int gpus_per_node, char *err, size_t errlen)
{
  if (!b->gpu) return 0;
  const efsi_config *c = cs->config;
  if (gpus_per_node <= 0) gpus_per_node = device_count() > 0 ? device_count() : 4;
  const int aware = device_mpi_aware();
  int counts[HALO_PATHS] = {0};
  double most = 0;   /* bytes a step, the rank that sends the most */
  /* a step exchanges the state (width EFSI_HALO) and v* (3 fields, width 2), SMAC dp too */
  double face_bytes[3];
  for (int e = 0; e < 3; e++)
    face_bytes[e] = 8.0 * (double)(halo_message_doubles(g, e, cs->exchanged_arrays, EFSI_HALO)
                                   + halo_message_doubles(g, e, 3, 2)
                                   + (cs->smac ? halo_message_doubles(g, e, 1, 1) : 0));
  for (int r = 0; r < d->size; r++) {
    efsi_halo_plan plan;
    char why[512] = "";
    if (halo_plan_predict(d->dims, d->periodic, r, gpus_per_node, b->layers,
                          backend_halo_paths(c), aware, &plan, why, sizeof why)) {
      snprintf(err, errlen, "%s: performance.halo_path = %s: %s",
               config_where(c, "performance.halo_path"), policy(c), why);
      return 1;
    }
    halo_plan_count(&plan, counts);
    double sent = 0;
    for (int e = 0; e < 3; e++)
      for (int side = 0; side < 2; side++)
        if (plan.path[e][side] != HALO_NO_FACE) sent += face_bytes[e];
    if (sent > most) most = sent;
  }
  int faces = 0;
  for (int p = 0; p < HALO_PATHS; p++) faces += counts[p];
  printf("  halos (planned: %d GPUs per node, ranks in order; NCCL %s; the MPI library %s): "
         "%d faces between ranks: ", gpus_per_node, b->layers->nccl_open ? "built in" : "not built in",
         aware > 0 ? "CUDA-aware" : aware == 0 ? "not CUDA-aware" : "cannot say if CUDA-aware",
         faces);
  print_counts(counts);
  printf(" (performance.halo_path = %s)\n", policy(c));
  if (faces == 0) return 0;
  static const char axis[] = "xyz";
  printf("  halo messages a step (the state: %d fields, width %d; v*: 3 fields, width 2%s):",
         cs->exchanged_arrays, EFSI_HALO, cs->smac ? "; dp: width 1" : "");
  for (int e = 0; e < 3; e++)
    if (d->dims[e] > 1) printf(" %.3g MB a %c face,", face_bytes[e] / 1e6, axis[e]);
  printf(" at most %.3g MB sent by one rank\n", most / 1e6);
  return 0;
}
