/* Helper of test_netcdf_python.sh: writes DIR/fields_00000010.nc (t = 0.5) and
 * DIR/fields_00000020.nc (t = 1.25) the way the driver does (halo exchange and wall layers,
 * then fields_write) for a small case with two materials: u = sin(2 pi x/Lx) on the faces,
 * v = w = 0, p = x + 2y + 3z at the cell centres (+ 1 in the second file), phi_rbc = 1/4,
 * phi_wall = 3/4, B = I.  Usage: write_sample_fields DIR */
#include <math.h>
#include <mpi.h>
#include <stdio.h>

#include "decomp/boundary.h"
#include "decomp/decomp.h"
#include "base/errors.h"
#include "io/fields.h"
#include "decomp/halo.h"
#include "io/output.h"
#include "src/case/state.h"

/* f <- f + a on the owned cells. */
static void field_axpy_constant(const efsi_grid *g, double *f, double a)
{
  for (int k = 0; k < g->n[2]; k++)
    for (int j = 0; j < g->n[1]; j++)
      for (int i = 0; i < g->n[0]; i++) f[grid_index(g, i, j, k)] += a;
}

int main(int argc, char **argv)
{
  int provided;
  MPI_CHECK(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided));
  if (argc != 2) efsi_abort(EFSI_EXIT_INPUT, "usage: write_sample_fields DIR");
  const int cells[3] = {8, 6, 4}, ranks[3] = {0, 0, 0}, periodic[3] = {1, 0, 1};
  const double length[3] = {4.0, 3.0, 2.0}, u_wall[3][2] = {{0, 0}, {0, 0}, {0, 0}};
  const char *const materials[2] = {"rbc", "wall"};
  char err[256], path[4096];
  efsi_decomp d;
  efsi_grid g;
  efsi_state s;
  if (decomp_create(&d, MPI_COMM_WORLD, cells, ranks, periodic, err, sizeof err))
    efsi_abort(EFSI_EXIT_INPUT, "%s", err);
  decomp_grid(&d, cells, length, &g);
  if (state_alloc(&s, &g, 2, materials)) efsi_abort(EFSI_EXIT_RUNTIME, "out of memory");
  const double pi = 3.14159265358979323846;
  for (int k = 0; k < g.n[2]; k++)
    for (int j = 0; j < g.n[1]; j++)
      for (int i = 0; i < g.n[0]; i++) {
        const ptrdiff_t at = grid_index(&g, i, j, k);
        const double x = (g.offset[0] + i + 0.5) * g.h[0], y = (g.offset[1] + j + 0.5) * g.h[1];
        const double z = (g.offset[2] + k + 0.5) * g.h[2];
        s.u[at] = sin(2.0 * pi * (g.offset[0] + i) * g.h[0] / length[0]);
        s.p[at] = x + 2.0 * y + 3.0 * z;
        s.phi[0][at] = 0.25;
        s.phi[1][at] = 0.75;
      }
  efsi_halo *halo = halo_create(&g, &d, 3, &efsi_cpu_layers, 0);
  double *const velocity[3] = {s.u, s.v, s.w};
  halo_exchange(halo, velocity, 3, 1);
  boundary_velocity(&efsi_cpu_layers, &g, s.u, s.v, s.w, u_wall, 1);
  /* two files of a series: steps 10 and 20 at t = 0.5 and 1.25 (p shifted by 1 in the second) */
  for (int n = 0; n < 2; n++) {
    s.step = 10 + 10 * n;
    s.time = n ? 1.25 : 0.5;
    if (n) field_axpy_constant(&g, s.p, 1.0);
    if (output_path(path, sizeof path, argv[1], "fields", s.step))
      efsi_abort(EFSI_EXIT_INPUT, "directory name too long: %s", argv[1]);
    state_write_fields(path, &s, &d, "sample");
  }
  halo_free(halo);
  state_free(&s);
  decomp_free(&d);
  MPI_CHECK(MPI_Finalize());
  return 0;
}
