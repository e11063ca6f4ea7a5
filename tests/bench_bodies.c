/* The bodies output at scale (docs/output.md, "bodies.nc", its cost): N bodies as cubes of
 * 2 x 2 x 2 cells of phi = 1 on a lattice of 3 cells (a periodic box of 3 N^(1/3) cells a
 * side, split along x over the ranks), one tracer each at its cube's centre; times the
 * shapes (src/bodies/body_shapes.c: the exchange of tracers, the cells' nearest tracers, the sums
 * to the writing ranks) and the parallel append of records to bodies.nc (io/bodies_nc.c),
 * and checks every record (volume 8 h^3, centroid at the tracer, moments h^2/4 on the
 * diagonal).
 *
 *   make -C build tests/bench_bodies
 *   mpirun -np 2 build/tests/bench_bodies [BODIES [DIR [RECORDS]]]   (1000000, /tmp, 3) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "decomp/decomp.h"
#include "src/bodies/body_shapes.h"
#include "src/case/case.h"
#include "src/case/config.h"
#include "src/bodies/init_solid.h"
#include "src/bodies/tracers.h"

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const long asked = argc > 1 ? atol(argv[1]) : 1000000;
  const char *dir = argc > 2 ? argv[2] : "/tmp";
  const int records = argc > 3 ? atoi(argv[3]) : 3;
  /* the lattice: side bodies a side, the cells three per body, x a multiple of the ranks */
  long side = (long)ceil(cbrt((double)asked) - 1e-9);
  if (side % size) side += size - side % size;
  const long total = side * side * side;
  const int n = (int)(3 * side);
  char text[512], err[512];
  snprintf(text, sizeof text, "[grid]\ncells = %d %d %d\nlength = %d %d %d\n[boundary]\n"
           "y = periodic\nz = periodic\n[time]\nsteps = 1\n[sphere]\ncenter = 1 1 1\n"
           "radius = 1\nmodulus = 1\n[output]\nbodies_csv = no\n", n, n, n, n, n, n);
  efsi_config c;
  efsi_case cs;
  if (config_parse(&c, "bench.ini", text, NULL, 0, err, sizeof err)) {
    fprintf(stderr, "bench_bodies: %s\n", err);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  case_resolve(&c, &cs);
  efsi_decomp d;
  const int ranks[3] = {size, 1, 1}, periodic[3] = {1, 1, 1};
  if (decomp_create(&d, MPI_COMM_WORLD, c.cells, ranks, periodic, err, sizeof err)) {
    fprintf(stderr, "bench_bodies: %s\n", err);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  efsi_grid g;
  decomp_grid(&d, c.cells, c.length, &g);
  double *phi = field_alloc(&g);
  efsi_tracers *t = tracers_create(&d, &g, 0);
  /* body (a, b, e) fills cells 3a+1, 3a+2 (and so on): its centre at 3a + 2 (h = 1) */
  for (long a = 0; a < side; a++)
    for (long b = 0; b < side; b++)
      for (long e = 0; e < side; e++) {
        const double x[3] = {3.0 * a + 2.0, 3.0 * b + 2.0, 3.0 * e + 2.0};
        if (tracers_owns(&g, x)) tracers_add(t, (a * side + b) * side + e, BODY_SPHERE, x);
      }
  for (int k = 0; k < g.n[2]; k++)
    for (int j = 0; j < g.n[1]; j++)
      for (int i = 0; i < g.n[0]; i++) {
        const int gi = g.offset[0] + i, gj = g.offset[1] + j, gk = g.offset[2] + k;
        phi[grid_index(&g, i, j, k)] = gi % 3 && gj % 3 && gk % 3 ? 1.0 : 0.0;
      }
  efsi_body_shapes *s = body_shapes_create(&cs, &d, &g, total);
  double *phis[EFSI_MAX_MATERIALS] = {phi};
  long first, count;
  body_shapes_share(s, rank, &first, &count);
  efsi_bodies_file f = {.dir = dir, .case_name = "bench", .run_id = "",
                        .kind_names = body_kind_names, .kinds = BODY_KINDS, .total = total};
  char path[1024];
  snprintf(path, sizeof path, "%s/bodies.nc", dir);
  if (rank == 0) remove(path);
  double shapes = 0, written = 0, bytes = 0;
  long bad = 0;
  for (int r = 0; r < records; r++) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    const efsi_body_record *rec = body_shapes_compute(s, tracers_local(t), tracers_local_count(t),
                                                      phis);
    MPI_Barrier(MPI_COMM_WORLD);
    double t1 = MPI_Wtime();
    bytes = bodies_nc_append(&f, &d, r, r * 0.5, first, count, rec);
    MPI_Barrier(MPI_COMM_WORLD);
    double t2 = MPI_Wtime();
    shapes += t1 - t0;
    written += t2 - t1;
    for (long m = 0; m < count; m++) {
      const efsi_body_record *q = &rec[m];
      int ok = q->id == first + m && fabs(q->volume - 8.0) < 1e-12;
      for (int k = 0; k < 3; k++)
        ok = ok && fabs(q->centroid[k] - q->x[k]) < 1e-12 && fabs(q->moment[k] - 0.25) < 1e-12
          && fabs(q->moment[3 + k]) < 1e-12;
      bad += !ok;
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  struct stat st;
  if (rank == 0) {
    const double file = stat(path, &st) == 0 ? (double)st.st_size : 0;
    printf("bench_bodies: %ld bodies on %d ranks (%d^3 cells), %d records: shapes %.3f s, "
           "append %.3f s per record (%.1f MB each, %.0f MB/s); %.3g bodies per second "
           "(shapes and append); bodies.nc %.1f MB; %ld wrong records\n", total, size, n,
           records, shapes / records, written / records, bytes / 1e6,
           bytes / 1e6 / (written / records), total / ((shapes + written) / records),
           file / 1e6, bad);
    remove(path);
  }
  body_shapes_free(s);
  tracers_free(t);
  field_free(phi);
  decomp_free(&d);
  MPI_Finalize();
  return bad ? 1 : 0;
}
