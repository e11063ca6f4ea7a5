/* Plane Couette flow between a wall at rest (y = 0) and a wall moving in x (y = H), from rest:
 *   steady wall speed U:     u = U y / H (exact on the grid: the odd reflection about the
 *                            walls is exact for a linear profile), reached to 1e-10 U;
 *   oscillating U sin(w t):  u = Im[U e^{i w t} sinh(k y) / sinh(k H)], k = (1 + i) sqrt(w/(2 nu))
 *                            (u_t = nu u_yy with u = Im[f(y) e^{i w t}] gives f'' = (i w/nu) f,
 *                            f(0) = 0, f(H) = U), second order in space-time with dt ~ h^2. */
#include <check.h>
#include <complex.h>
#include <math.h>
#include <stdio.h>

#include "tests/fluid_case.h"
#include "tests/test_support.h"
#include "decomp/reduce.h"

static const double H = 1.0, RHO = 1.0, MU = 0.5, U = 1.0;   /* H^2/nu = 2 */
static const double OMEGA = 10.0;   /* w H^2/nu = 20: Stokes depth sqrt(2 nu/w) = 0.32 H */

/* The channel with the upper wall at U sin(omega t). */
static void open_channel(fluid_case *fc, int ny, double omega)
{
  fluid_case_open_channel(fc, ny, H, RHO, MU,
                          "[boundary]\ny_lo_u = 0\ny_hi_u = %.17g\nwall_omega = %.17g\n", U, omega);
}

static double linear(double y, double t)
{
  (void)t;
  return U * y / H;
}

static double oscillating(double y, double t)
{
  const double nu = MU / RHO;
  const double complex k = (1.0 + I) * sqrt(OMEGA / (2.0 * nu));
  return cimag(U * cexp(I * OMEGA * t) * csinh(k * y) / csinh(k * H));
}

START_TEST(steady_linear_profile)
{
  const int ny = 16;
  fluid_case fc;
  open_channel(&fc, ny, 0.0);
  /* the slowest mode, (2U/pi) sin(pi y/H) at t = 0, decays as e^{-pi^2 nu t/H^2}:
   * 1.5e-13 U at t = 3 H^2/nu */
  const double t_end = 3.0 * H * H * RHO / MU;
  fluid_case_steps(&fc, (long)ceil(t_end / fc.solver.dt));
  const double err = fluid_case_u_error(&fc, linear) / U;
  if (test_rank0())
    printf("couette steady: Ny = %d, t nu/H^2 = %.2g, max |u - U y/H| / U = %.1e\n", ny,
           fc.state.time * MU / (RHO * H * H), err);
  ck_assert_double_le(err, 1e-10);
  fluid_case_close(&fc);
}
END_TEST

START_TEST(oscillating_converges_at_second_order)
{
  const int sizes[] = {16, 32};
  const double period = 2.0 * M_PI / OMEGA;
  const double t_settle = 2.0 * H * H * RHO / MU;   /* transient e^{-2 pi^2} = 2.7e-9 */
  double err[2];
  for (int s = 0; s < 2; s++) {
    fluid_case fc;
    open_channel(&fc, sizes[s], OMEGA);
    err[s] = 0.0;
    /* four phases over one period after the transient */
    for (int phase = 0; phase < 4; phase++) {
      const double t = t_settle + phase * period / 4.0;
      fluid_case_steps(&fc, (long)ceil(t / fc.solver.dt - 1e-9) - fc.state.step);
      const double e = fluid_case_u_error(&fc, oscillating) / U;
      err[s] = fmax(err[s], e);
      if (test_rank0())
        printf("couette oscillating: Ny = %d, t nu/H^2 = %.3g (phase w t mod 2 pi = %.2g), "
               "max |u - u_exact| / U = %.1e\n",
               sizes[s], fc.state.time * MU / (RHO * H * H),
               fmod(OMEGA * fc.state.time, 2.0 * M_PI), e);
    }
    fluid_case_close(&fc);
  }
  const double order = log2(err[0] / err[1]);
  if (test_rank0())
    printf("couette oscillating: max error Ny = 16: %.1e, Ny = 32: %.1e, order %.1f\n", err[0],
           err[1], order);
  ck_assert_msg(order >= 1.8, "order %g", order);
  /* measured 1.8e-3, of the size of the forward-Euler phase error w dt = w h^2/(12 nu) =
   * 1.6e-3 at 32 cells; the bound is 1.4 times the measured figure */
  ck_assert_double_le(err[1], 2.5e-3);
}
END_TEST

static Suite *couette_suite(void)
{
  Suite *s = suite_create("couette");
  TCase *tc = tcase_create("channel");
  tcase_add_test(tc, steady_linear_profile);
  tcase_add_test(tc, oscillating_converges_at_second_order);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) { return mpi_check_main(argc, argv, couette_suite); }
