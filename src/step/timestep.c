/* Stability limits of the explicit step (docs/method.md, "Time-step control"):
 *   viscous      h^2 / (6 nu)        (forward Euler, 7-point diffusion, h the smallest spacing)
 *   advective    h / U               (CFL)
 *   adv.-diff.   2 nu / U^2          (forward Euler is unstable for pure advection: the
 *                                     viscous term is what keeps it stable)
 *   elastic      h / (sqrt(3) c_s)   (shear waves, c_s = sqrt(G_max / rho); no solid: none)
 *   membrane     sqrt(rho h^3 / (2 pi K))   (the capillary-wave limit with the stiffest
 *                                     membrane's area modulus K = G_s (1 + 2 C) for the
 *                                     tension: docs/membrane.md; no membrane: none)
 *   bending      sqrt(2 rho h^5 / (pi^5 k_b))   (the fastest bending wave, omega^2 =
 *                                     k_b k^5 / (2 rho) at k = pi/h, with the stiffest
 *                                     membrane's k_b: dt omega <= 2) */
#include "src/step/timestep.h"

#include <float.h>
#include <math.h>
#include <stdio.h>

static const char *const limit_names[LIMIT_COUNT] = {
  "viscous h^2/(6 nu)", "advective h/U", "advective-diffusive 2 nu/U^2", "elastic h/(sqrt(3) c_s)",
  "membrane sqrt(rho h^3/(2 pi K))", "bending sqrt(2 rho h^5/(pi^5 k_b))",
};

const char *timestep_limit_name(int which) { return limit_names[which]; }

static double smallest_spacing(const efsi_config *c)
{
  double h = INFINITY;
  for (int d = 0; d < 3; d++) h = fmin(h, c->length[d] / c->cells[d]);
  return h;
}

double timestep_velocity_scale(const efsi_config *c)
{
  double u = 0.0;
  for (int d = 1; d < 3; d++)
    for (int side = 0; side < 2; side++) u = fmax(u, fabs(c->wall_u[d][side]));
  if (c->init_flow == INIT_TAYLOR_GREEN)
    u = fmax(u, fabs(c->flow_amplitude) * fmax(1.0, c->length[2] / c->length[0]));
  /* The narrowest wall-bounded width sets the steady velocity of a driven flow. */
  double width = INFINITY;
  for (int d = 1; d < 3; d++)
    if (c->boundary[d] == BOUNDARY_WALL) width = fmin(width, c->length[d]);
  if (c->drive_mode == DRIVE_FLOWRATE) {
    /* Peak over bulk velocity: 1.5 in a plane channel, about 2.1 in a square duct. */
    u = fmax(u, 2.5 * fabs(c->bulk_velocity));
  } else if (c->pressure_gradient != 0.0) {
    if (isfinite(width)) {
      u = fmax(u, fabs(c->pressure_gradient) * width * width / (8.0 * c->viscosity));
    } else {
      /* No wall: a uniform force accelerates the whole fluid, u = f t / rho; bound it by the
       * end of the run (or by as many steps at the viscous limit). */
      double h = smallest_spacing(c);
      double nu = c->viscosity / c->density;
      double end = c->end_time > 0 ? c->end_time : c->steps * h * h / (6.0 * nu);
      u = fmax(u, fabs(c->pressure_gradient) * end / c->density);
    }
  }
  return u;
}

int timestep_choose(const efsi_case *cs, efsi_timestep *ts, char *err, size_t errlen)
{
  const efsi_config *c = cs->config;
  const double h = smallest_spacing(c);
  /* the viscous limit by the most viscous material, the advective-diffusive one by the
   * least (docs/method.md, "The time step") */
  double mu_max = c->viscosity, mu_min = c->viscosity;
  for (int m = 0; m < cs->nmat; m++) {
    mu_max = fmax(mu_max, cs->materials.viscosity[m]);
    mu_min = fmin(mu_min, cs->materials.viscosity[m]);
  }
  const double nu = mu_max / c->density, nu_min = mu_min / c->density;
  const double u = timestep_velocity_scale(c);
  ts->velocity_scale = u;
  ts->limit[LIMIT_VISCOUS] = h * h / (6.0 * nu);
  ts->limit[LIMIT_ADVECTIVE] = u > 0 ? h / u : INFINITY;
  /* divided twice: u * u overflows where u is near the largest double (a limit of 0
   * then, refused below as a dt that underflows) */
  ts->limit[LIMIT_ADVECTIVE_DIFFUSIVE] = u > 0 ? 2.0 * nu_min / u / u : INFINITY;
  /* shear waves in the stiffest material: c_s = sqrt(G_max / rho) */
  double g_max = 0.0;
  for (int m = 0; m < cs->nmat; m++) g_max = fmax(g_max, cs->materials.modulus[m]);
  ts->limit[LIMIT_ELASTIC] = g_max > 0 ? h / (sqrt(3.0) * sqrt(g_max / c->density)) : INFINITY;
  /* a membrane's short waves: its area modulus as the tension of capillary waves, and its
   * bending modulus */
  double k_max = 0.0, kb_max = 0.0;
  for (int m = 0; m < cs->nmat; m++)
    if (cs->materials.model[m] == MATERIAL_MODEL_MEMBRANE) {
      const double *param = cs->materials.param[m];
      k_max = fmax(k_max, membrane_area_modulus(param[MATERIAL_PARAM_LAW],
                                                param[MATERIAL_PARAM_SURFACE_MODULUS],
                                                param[MATERIAL_PARAM_DILATATION]));
      kb_max = fmax(kb_max, param[MATERIAL_PARAM_BENDING]);
    }
  ts->limit[LIMIT_MEMBRANE] = k_max > 0 ? sqrt(c->density * h * h * h / (2.0 * EFSI_PI * k_max))
                                        : INFINITY;
  const double pi5 = EFSI_PI * EFSI_PI * EFSI_PI * EFSI_PI * EFSI_PI;
  ts->limit[LIMIT_BENDING] = kb_max > 0 ? sqrt(2.0 * c->density * pow(h, 5) / (pi5 * kb_max))
                                        : INFINITY;
  ts->binding = 0;
  for (int l = 1; l < LIMIT_COUNT; l++)
    if (ts->limit[l] < ts->limit[ts->binding]) ts->binding = l;
  const double limit = ts->limit[ts->binding];
  if (c->dt_auto) {
    ts->dt = c->safety * limit;
    /* a limit so small that dt underflows (or a run of more steps than a step counter
     * holds) is no run: say which limit and the velocity scale that made it */
    const double steps = c->end_time > 0 && ts->dt >= DBL_MIN ? c->end_time / ts->dt : 0;
    if (!(ts->dt >= DBL_MIN) || !(steps < 1e15)) {
      snprintf(err, errlen, "%s: time.dt: the automatic dt is %g (%s %g, U = %g): %s; check "
               "drive.pressure_gradient, drive.bulk_velocity and the wall speeds",
               config_where(c, "time.dt"), ts->dt, limit_names[ts->binding], limit, u,
               ts->dt >= DBL_MIN ? "time.end_time would take more than 1e15 steps"
                                 : "below the smallest normal number, no step could advance");
      return 1;
    }
    return 0;
  }
  ts->dt = c->dt;
  if (c->dt > limit && !c->unsafe) {
    snprintf(err, errlen,
             "%s: time.dt: %g is above the stable limit %g (%s, U = %g); "
             "lower it, use time.dt = auto, or set time.unsafe = true",
             config_where(c, "time.dt"), c->dt, limit, limit_names[ts->binding], u);
    return 1;
  }
  return 0;
}

double timestep_advective_ratio(const efsi_config *c, double dt, double u_max)
{
  if (!(u_max > 0)) return u_max == 0 ? 0.0 : INFINITY;
  const double h = smallest_spacing(c);
  const double nu = c->viscosity / c->density;
  return fmax(dt * u_max / h, dt * u_max * u_max / (2.0 * nu));
}
