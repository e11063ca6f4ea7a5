/* The viscous Taylor-Green vortex u = U sin(kx x) cos(kz z), w = -U (Lz/Lx) cos(kx x) sin(kz z)
 * in a periodic box at Re << 1: its kinetic energy decays as exp(-2 nu k^2 t),
 * k^2 = kx^2 + kz^2.  And the ACM step's own claims (docs/method.md, "The time step"), every step:
 * gamma >= 0, the divergence D^{N+1} = rho div v^{N+1} measured after the projection has
 * <D^2> equal to the minimum predicted from the sums, and <p> = 0 to round-off. */
#include <check.h>
#include <math.h>
#include <stdio.h>

#include "tests/fluid_case.h"
#include "tests/test_support.h"
#include "stencils/kernel_list.h"
#include "stencils/operators.h"
#include "decomp/reduce.h"

static const double L = 1.0, RHO = 1.0, MU = 0.05, AMPLITUDE = 0.005;   /* Re = U L/nu = 0.1 */

/* An n^3 periodic box; overrides ("section.key=value") change the case. */
static void open_box(fluid_case *fc, int n, const char *const *overrides, int n_overrides)
{
  char text[1024];
  snprintf(text, sizeof text,
           "[grid]\ncells = %d %d %d\nlength = %.17g %.17g %.17g\n"
           "[boundary]\ny = periodic\nz = periodic\n"
           "[fluid]\ndensity = %.17g\nviscosity = %.17g\n"
           "[init]\nflow = taylor-green\nflow_amplitude = %.17g\n"
           "[time]\ndt = auto\nsteps = 1\n",
           n, n, n, L, L, L, RHO, MU, AMPLITUDE);
  fluid_case_open(fc, MPI_COMM_WORLD, text, overrides, n_overrides, NULL);
}

/* sum over the owned faces of u^2 + v^2 + w^2, all ranks */
static double energy(const fluid_case *fc)
{
  const efsi_grid *g = &fc->grid;
  const efsi_state *s = &fc->state;
  double e = 0.0;
  for (int k = 0; k < g->n[2]; k++)
    for (int j = 0; j < g->n[1]; j++)
      for (int i = 0; i < g->n[0]; i++) {
        const ptrdiff_t at = grid_index(g, i, j, k);
        e += s->u[at] * s->u[at] + s->v[at] * s->v[at] + s->w[at] * s->w[at];
      }
  global_sum(&fc->decomp, &e, 1);
  return e;
}

START_TEST(energy_decay_rate)
{
  const int n = 64;
  fluid_case fc;
  open_box(&fc, n, NULL, 0);
  const double nu = MU / RHO, kx = 2.0 * M_PI / L, kz = 2.0 * M_PI / L, h = L / n;
  const double rate = 2.0 * nu * (kx * kx + kz * kz);
  /* the discrete rate: the compact Laplacian's eigenvalue and the forward Euler factor */
  const double lambda = 4.0 / (h * h) * (pow(sin(kx * h / 2), 2) + pow(sin(kz * h / 2), 2));
  const double discrete = -2.0 * log(1.0 - fc.solver.dt * nu * lambda) / fc.solver.dt;
  /* start after a few steps: the ACM pressure starts from p = 0 */
  fluid_case_steps(&fc, 5);
  const double e0 = energy(&fc), t0 = fc.state.time;
  fluid_case_steps(&fc, 20);
  const double e1 = energy(&fc), t1 = fc.state.time;
  const double measured = -log(e1 / e0) / (t1 - t0);
  if (test_rank0())
    printf("taylor-green: %d^3, Re = %.2g, steps %ld-%ld: decay rate / (2 nu k^2) - 1 = %.1e "
           "(discrete prediction %.1e, measured against it %.1e)\n",
           n, AMPLITUDE * L / nu, fc.state.step - 20, fc.state.step, measured / rate - 1.0,
           discrete / rate - 1.0, measured / discrete - 1.0);
  ck_assert_double_le(fabs(measured / rate - 1.0), 0.01);
  /* at Re = 0.1 advection and the ACM pressure leave the linear decay to 1e-8 (measured
   * 7e-9): the discrete viscous operator and time step are exactly as stated */
  ck_assert_double_le(fabs(measured / discrete - 1.0), 1e-5);
  fluid_case_close(&fc);
}
END_TEST

/* the ACM claims after every one of `steps` steps */
static void check_projection(fluid_case *fc, long steps, const char *label)
{
  const efsi_grid *g = &fc->grid;
  const efsi_state *s = &fc->state;
  const double cells = (double)g->global_n[0] * g->global_n[1] * g->global_n[2];
  double *div = field_alloc(g);
  double worst_gap = 0.0, worst_mean_p = 0.0, min_gamma = INFINITY, max_gamma = 0.0;
  double reduction = 0.0;
  for (long n = 0; n < steps; n++) {
    fluid_case_steps(fc, 1);
    const efsi_step_info *info = &fc->solver.info;
    min_gamma = fmin(min_gamma, info->gamma);
    max_gamma = fmax(max_gamma, info->gamma);
    ck_assert_msg(info->gamma >= 0.0, "%s: gamma = %g at step %ld", label, info->gamma, s->step);
    divergence(g, 1.0, s->u, s->v, s->w, div);
    /* sums: D^2, p, and |p| max for the round-off scale of <p> */
    double sums[2] = {0.0, 0.0}, p_max = 0.0;
    for (int k = 0; k < g->n[2]; k++)
      for (int j = 0; j < g->n[1]; j++)
        for (int i = 0; i < g->n[0]; i++) {
          const ptrdiff_t at = grid_index(g, i, j, k);
          const double D = fc->cfg.density * div[at];
          sums[0] += D * D;
          sums[1] += s->p[at];
          p_max = fmax(p_max, fabs(s->p[at]));
        }
    global_sum(&fc->decomp, sums, 2);
    global_max(&fc->decomp, &p_max, 1);
    const double div2 = sums[0] / cells, mean_p = sums[1] / cells;
    const double gap = fabs(div2 - info->div2_predicted) / fmax(info->div2_before, 1e-300);
    worst_gap = fmax(worst_gap, gap);
    worst_mean_p = fmax(worst_mean_p, fabs(mean_p) / fmax(p_max, 1e-300));
    reduction = fmax(reduction, div2 / fmax(info->div2_before, 1e-300));
    ck_assert_msg(gap <= 1e-10, "%s: step %ld: <D^2> = %.17g, predicted %.17g, <D*^2> = %.17g",
                  label, s->step, div2, info->div2_predicted, info->div2_before);
    ck_assert_msg(fabs(mean_p) <= 1e-13 * p_max, "%s: step %ld: <p> = %g, max |p| = %g", label,
                  s->step, mean_p, p_max);
  }
  if (test_rank0())
    printf("%s: %ld steps: gamma in [%.1e, %.1e], max |<D^2> - predicted| / <D*^2> = %.1e, "
           "max <D^2>/<D*^2> = %.1e, max |<p>| / max |p| = %.1e\n",
           label, steps, min_gamma, max_gamma, worst_gap, reduction, worst_mean_p);
  field_free(div);
}

START_TEST(projection_optimal_periodic)
{
  fluid_case fc;
  open_box(&fc, 32, NULL, 0);
  check_projection(&fc, 40, "acm periodic taylor-green 32^3");
  fluid_case_close(&fc);
}
END_TEST

/* walls in y (even reflection of D* and p in the Laplacian) and a driven channel flow */
START_TEST(projection_optimal_walls)
{
  fluid_case fc;
  const char *const walls[] = {"boundary.y=wall", "drive.pressure_gradient=0.01"};
  open_box(&fc, 16, walls, 2);
  check_projection(&fc, 60, "acm walled taylor-green + poiseuille 16^3");
  fluid_case_close(&fc);
}
END_TEST

static Suite *taylor_green_suite(void)
{
  Suite *s = suite_create("taylor_green");
  TCase *tc = tcase_create("periodic box");
  tcase_add_test(tc, energy_decay_rate);
  tcase_add_test(tc, projection_optimal_periodic);
  tcase_add_test(tc, projection_optimal_walls);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) { return mpi_check_main(argc, argv, taylor_green_suite); }
