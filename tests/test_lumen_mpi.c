/* The lumen quantities of diagnostics.csv (docs/output.md, "Lumen quantities"):
 *   - Poiseuille flow u = G (R^2 - r^2) / (4 mu) in a rigid tube drawn on cubic cells
 *     (lumen_sums on one block): the flow rate against pi R^4 G / (8 mu) and the wall shear
 *     (mean and largest) against G R / 2, at R/h = 8 and 16, with the order of convergence;
 *   - through diagnose on every process grid of the run, in a vessel seeded with RBCs: the
 *     tube hematocrit against the seeded one, plug flow's discharge hematocrit equal to the
 *     tube hematocrit and its flow rate U times the drawn lumen's area, and Poiseuille flow's
 *     flow rate and wall shear as on one block. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/step/diagnose.h"
#include "src/case/materials.h"
#include "stencils/kernel_list.h"
#include "stencils/draw.h"
#include "stencils/reductions.h"
#include "tests/fluid_case.h"
#include "tests/test_support.h"

static const double pi = 3.14159265358979323846;

/* Poiseuille's axial velocity at distance r from the axis (0 outside the lumen). */
static double poiseuille(double G, double mu, double R, double r)
{
  return r < R ? G * (R * R - r * r) / (4 * mu) : 0.0;
}

/* The lumen quantities of Poiseuille flow on one block of n x m x m cubic cells of h,
 * radius R = 0.5 (m - 8) h (four cells of wall around the lumen): flux relative error, mean
 * and largest wall shear over G R / 2. */
static void rigid_tube(int m, double errors[3])
{
  const double h = 0.25, G = 3.0, mu = 0.7;
  const int n[3] = {4, m, m};
  const double length[3] = {n[0] * h, m * h, m * h}, R = 0.5 * (m - 8) * h;
  efsi_grid g = test_grid(n, length, 1, 1);
  double *wall = field_alloc(&g), *u = field_alloc(&g), *v = field_alloc(&g),
         *w = field_alloc(&g);
  ck_assert(wall && u && v && w);
  vessel_volume_fraction(&g, 2 * R, 0, wall);
  /* halos: the tube does not change along x; beyond the y and z walls, all wall */
  FOR_ALL(&g, i, j, k) {
    const int inside = j >= 0 && j < g.n[1] && k >= 0 && k < g.n[2];
    const ptrdiff_t p = grid_index(&g, i, j, k);
    wall[p] = inside ? wall[grid_index(&g, 0, j, k)] : 1.0;
    const double y = (j + 0.5) * h - 0.5 * length[1], z = (k + 0.5) * h - 0.5 * length[2];
    u[p] = poiseuille(G, mu, R, hypot(y, z));
    v[p] = w[p] = 0.0;
  }
  double out[LUMEN_COUNT];
  lumen_sums(&g, mu, wall, NULL, u, v, w, test_plane_scratch(&g), out);
  const double flow = out[LUMEN_FLUX] * h * h / n[0];
  errors[0] = flow / (pi * pow(R, 4) * G / (8 * mu)) - 1;
  errors[1] = out[LUMEN_SHEAR] / out[LUMEN_CROSSINGS] / (G * R / 2) - 1;
  errors[2] = out[LUMEN_SHEAR_MAX] / (G * R / 2) - 1;
  printf("rigid tube R/h = %g: %g crossings; flow rate %+.2e, mean wall shear %+.2e, "
         "largest %+.2e (relative to the closed forms)\n", R / h, out[LUMEN_CROSSINGS],
         errors[0], errors[1], errors[2]);
  field_free(wall);
  field_free(u);
  field_free(v);
  field_free(w);
}

/* One block, no communication, the same on any number of ranks: rank 0 of the run with the
 * fewest ranks alone runs it. */
START_TEST(poiseuille_in_a_rigid_tube)
{
  if (!test_rank0_once()) return;
  double coarse[3], fine[3];
  rigid_tube(24, coarse);   /* R/h = 8 */
  rigid_tube(40, fine);     /* R/h = 16 */
  const double order[2] = {log2(fabs(coarse[0] / fine[0])), log2(fabs(coarse[1] / fine[1]))};
  printf("order: flow rate %.2f, mean wall shear %.2f\n", order[0], order[1]);
  /* the flux: second order (the midpoint rule; in the cut cells u vanishes linearly) */
  ck_assert(fabs(coarse[0]) < 5e-3 && fabs(fine[0]) < 1e-3 && order[0] > 1.5);
  /* the shear is exact for the parabola at the right place and normal; what remains is
   * where the linear interpolation of the cut fractions puts phi_wall = 1/2 between two
   * cell centres: O(h) at a crossing (the largest), of either sign around the tube, so the
   * mean converges faster */
  ck_assert(fabs(coarse[1]) < 5e-3 && fabs(fine[1]) < 2e-3 && order[1] > 1);
  ck_assert(fabs(coarse[2]) < 1e-2 && fabs(fine[2]) < 6e-3);
}
END_TEST

/* A vessel of 12 um on 0.5 um cells, 12 um long, RBCs of 4 um at 25 %. */
static const char vessel_case[] =
    "[grid]\ncells = 24 28 28\nlength = 12 14 14\n"
    "[boundary]\ny = wall\nz = wall\n"
    "[fluid]\nviscosity = 0.7\n"
    "[vessel]\nshape = tube\ndiameter = 12\nmodulus = 0.5\n"
    "[rbc]\nhematocrit = 0.25\ndiameter = 4\n"
    "[time]\nsteps = 1\n";

/* Set the axial velocity of every face to f(r), the rest to 0; fill the halos. */
static void set_flow(fluid_case *fc, double (*f)(double r))
{
  const efsi_grid *g = &fc->grid;
  efsi_state *s = &fc->state;
  FOR_OWNED(g, i, j, k) {
    const ptrdiff_t p = grid_index(g, i, j, k);
    const double y = (g->offset[1] + j + 0.5) * g->h[1] - 0.5 * g->length[1];
    const double z = (g->offset[2] + k + 0.5) * g->h[2] - 0.5 * g->length[2];
    s->u[p] = f(hypot(y, z));
    s->v[p] = s->w[p] = 0.0;
  }
  fluid_case_refresh(fc);
}

static double plug(double r) { return r < 6.5 ? 2.0 : 0.0; }
static double parabola(double r) { return poiseuille(3.0, 0.7, 6.0, r); }

START_TEST(diagnose_in_a_seeded_vessel)
{
  int grids[8][3];
  const int cells[3] = {24, 28, 28};
  const int ng = mpi_check_invariance_grids(mpi_check_world_size(), cells, grids, 8);
  for (int c = 0; c < ng; c++) {
    fluid_case fc;
    fluid_case_open(&fc, MPI_COMM_WORLD, vessel_case, NULL, 0, grids[c]);
    const efsi_seeding_report *report = &fc.bodies.report;
    const double seeded = report->fraction[0];
    efsi_diagnostics row;
    set_flow(&fc, plug);
    diagnose(&fc.solver, &fc.state, &row);
    const double lumen = 12.0 * 14 * 14 - fluid_case_volume(&fc, fc.cs.wall_material);
    const double area = lumen / 12.0;
    if (test_rank0())
      printf("process grid %d %d %d: %ld RBCs, seeded %.5f, tube hematocrit %.5f, plug flow: "
             "discharge hematocrit %.5f, flow rate %.6f (U A %.6f, A / pi R^2 - 1 = %.1e)\n",
             grids[c][0], grids[c][1], grids[c][2], report->count[0], seeded,
             row.tube_hematocrit, row.discharge_hematocrit, row.lumen_flow_rate, 2.0 * area,
             area / (pi * 36) - 1);
    ck_assert(fabs(row.tube_hematocrit / seeded - 1) < 0.01);
    ck_assert(fabs(row.discharge_hematocrit / row.tube_hematocrit - 1) < 1e-12);
    ck_assert(fabs(row.lumen_flow_rate / (2.0 * area) - 1) < 1e-12);
    set_flow(&fc, parabola);
    diagnose(&fc.solver, &fc.state, &row);
    const double q = pi * pow(6.0, 4) * 3.0 / (8 * 0.7), tau = 3.0 * 6.0 / 2;
    if (test_rank0())
      printf("  Poiseuille: flow rate %+.2e, wall shear mean %+.2e, largest %+.2e\n",
             row.lumen_flow_rate / q - 1, row.lumen_wall_shear_mean / tau - 1,
             row.lumen_wall_shear_max / tau - 1);
    /* R/h = 12: between the two resolutions of the rigid tube */
    ck_assert(fabs(row.lumen_flow_rate / q - 1) < 2e-3);
    ck_assert(fabs(row.lumen_wall_shear_mean / tau - 1) < 3e-3);
    ck_assert(fabs(row.lumen_wall_shear_max / tau - 1) < 1e-2);
    fluid_case_close(&fc);
  }
}
END_TEST

static Suite *lumen_suite(void)
{
  Suite *s = suite_create("lumen");
  const TTest *tests[] = {poiseuille_in_a_rigid_tube, diagnose_in_a_seeded_vessel, NULL};
  test_case_add(s, "lumen", 300, tests);
  return s;
}

int main(int argc, char **argv) { return mpi_check_main(argc, argv, lumen_suite); }
