/* Point-wise kernels of the pressure step (DESIGN.md section 3, steps 2, 4 and 5):
 * the velocity update v* = v + dt (F + f e_x), the local ACM sums, the pressure
 * increment dp = -beta^2 dt (gamma p + D*) = -(b p + a D*)/dt and the pressure update. */
#ifndef EFSI_PROJECTION_H
#define EFSI_PROJECTION_H

#include "base/grid.h"

/* Number of sums the ACM step reduces in its one global reduction. */
enum {
  SUM_D_LAPD = 0,  /* sum D* lap D*        (A1 = -<.>) */
  SUM_LAPD2,       /* sum (lap D*)^2       (A2) */
  SUM_LAPP2,       /* sum (lap p)^2        (A3) */
  SUM_D_LAPP,      /* sum D* lap p         (B1) */
  SUM_LAPD_LAPP,   /* sum lap D* lap p     (B2) */
  SUM_P,           /* sum p^N */
  SUM_D,           /* sum D* */
  SUM_D2,          /* sum D*^2 */
  SUM_U,           /* sum u* (flow-rate drive) */
  SUM_COUNT
};

/* Velocity component c (0, 1, 2) on its updated faces, into the rate array:
 * rate <- f + dt * (rate + body), i.e. v* = v^N + dt (F + f e_x / rho), leaving v^N intact. */
void velocity_update(const efsi_grid *g, int c, double dt, double body,
                     const double *restrict f, double *restrict rate);

/* Add a constant to every updated (owned) face of component c; halos are refilled after. */
void velocity_shift(const efsi_grid *g, int c, double shift, double *restrict f);

/* Local sums over owned cells into sums[SUM_COUNT]; plane_sums holds n[2] * SUM_COUNT
 * partial sums so that the result does not depend on the number of threads. */
void acm_local_sums(const efsi_grid *g, const double *restrict div,
                    const double *restrict lap_div, const double *restrict p,
                    const double *restrict lap_p, const double *restrict u,
                    double *restrict plane_sums, double sums[SUM_COUNT]);

/* dp = -(b p + a D)/dt on owned cells and `width` halo layers. */
void pressure_increment(const efsi_grid *g, int width, double a_over_dt, double b_over_dt,
                        const double *restrict p, const double *restrict div,
                        double *restrict dp);

/* p = p + dp - shift on owned cells and `width` halo layers. */
void pressure_update(const efsi_grid *g, int width, double shift, const double *restrict dp,
                     double *restrict p);

/* Sum of squares and max |f| of f over owned cells, in a fixed order (plane_sums holds
 * n[2] partial values). */
void field_norms(const efsi_grid *g, const double *restrict f, double *restrict plane_sums,
                 double *sum_squares, double *max_abs);

#endif
