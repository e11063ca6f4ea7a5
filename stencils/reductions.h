/* Local reductions over the owned cells of one rank, with a determinism contract
 * (docs/parallel.md, "Reductions"): each kernel forms one partial result per z-plane k
 * (rows in j order), written to plane[], and the partials are combined in k order by one
 * thread (reduce_planes), so that a result does not depend on the number of threads.  The
 * ACM step's sums go further: every term is added in double-double (base/dd.h), so their
 * rounded values do not depend on the order of the terms either -- the number of threads,
 * the process grid, the CPU or the GPU -- and a run is the same bits on any of them.
 * Global sums over ranks are the caller's (decomp/reduce.h). */
#ifndef EFSI_REDUCTIONS_H
#define EFSI_REDUCTIONS_H

#include <math.h>

#include "base/dd.h"
#include "base/grid.h"
#include "base/portable.h"

/* The sums the ACM step reduces in its one global reduction. */
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
  SUM_ABS_P,       /* sum |p^N|  } the round-off scale of <p^{N+1}>: a mean below it is */
  SUM_ABS_D,       /* sum |D*|   } noise, not removed (docs/method.md, "The ACM parameters") */
  SUM_COUNT
};

/* Operations per owned cell of acm_sums: the six products 6, and eleven double-double
 * additions of 13 (two TwoSums and an add): 149. */
#define ACM_SUMS_FLOPS 149.0

/* The flow diagnostics: sums and maxima over the owned cells. */
enum {
  FLOW_KINETIC = 0,  /* sum of u^2 + v^2 + w^2 (face values as stored) */
  FLOW_DIV2,         /* sum of (scale div)^2 */
  FLOW_U,            /* sum of u */
  FLOW_SPEED_MAX,    /* max of |u|, |v|, |w| */
  FLOW_DIV_MAX,      /* max of |scale div| */
  FLOW_COUNT
};

/* Per plane: count values of plane k at plane[k * count ..]; combine[c] = 0 sums value c
 * over the planes in k order, 1 takes the maximum (fmax: a NaN does not hide a number).
 * Writes the count results into out. */
void reduce_planes(const double *plane, int planes, int count, const int *combine,
                   double *out);

/* sums[2 c], sums[2 c + 1] = the double-double sum (hi, lo) of quantity c = SUM_* over the
 * owned cells, the terms added in double-double; plane holds 2 n[2] SUM_COUNT doubles of
 * scratch.  Combine ranks with global_sum_dd (decomp/reduce.h), then hi is the sum. */
void acm_sums(const efsi_grid *g, const double *restrict div, const double *restrict lap_div,
              const double *restrict p, const double *restrict lap_p, const double *restrict u,
              double *restrict plane, double sums[2 * SUM_COUNT]);

/* The nine terms of acm_sums at point q, in the order of the SUM_ names. */
EFSI_POINT void acm_terms(const double *restrict div, const double *restrict lap_div,
                          const double *restrict p, const double *restrict lap_p,
                          const double *restrict u, ptrdiff_t q, double t[SUM_COUNT])
{
  const double d = div[q], ld = lap_div[q], lp = lap_p[q];
  t[SUM_D_LAPD] = d * ld;
  t[SUM_LAPD2] = ld * ld;
  t[SUM_LAPP2] = lp * lp;
  t[SUM_D_LAPP] = d * lp;
  t[SUM_LAPD_LAPP] = ld * lp;
  t[SUM_P] = p[q];
  t[SUM_D] = d;
  t[SUM_D2] = d * d;
  t[SUM_U] = u[q];
  t[SUM_ABS_P] = fabs(p[q]);
  t[SUM_ABS_D] = fabs(d);
}

/* The double-double per-plane partials (hi, lo pairs, count of them per plane) combined in k
 * order into out[2 count]. */
void reduce_planes_dd(const double *plane, int planes, int count, double *out);

/* out[FLOW_*] over the owned cells from the velocity and div (the divergence, multiplied by
 * scale); plane holds n[2] * FLOW_COUNT doubles. */
void flow_norms(const efsi_grid *g, double scale, const double *restrict u,
                const double *restrict v, const double *restrict w,
                const double *restrict div, double *restrict plane, double out[FLOW_COUNT]);

/* The sum of f over the owned cells; plane holds n[2] doubles. */
double field_sum(const efsi_grid *g, const double *restrict f, double *restrict plane);

/* The elastic energy on the owned cells, sum over cells of e hx hy hz with
 * e = sum_m G_m phi_m (tr B - 3)/2 (zero at B = I; for det B = 1, tr B >= 3).  plane holds
 * n[2] doubles. */
double elastic_energy(const efsi_grid *g, int nmat, const double *modulus,
                      double *const phi[], double *const b[6], double *restrict plane);

/* range[0], range[1] = min and max of det B over the owned cells whose total solid fraction
 * sum_m phi_m is at least phi_min (the incompressible solid keeps det B = 1); +inf and -inf
 * when there is no such cell.  plane holds 2 n[2] doubles. */
void det_range(const efsi_grid *g, int nmat, double *const phi[], double *const b[6],
               double phi_min, double *restrict plane, double range[2]);

/* The wall shear stress on the walls normal to d (1 or 2) that this block touches: the sum
 * over their faces of mu |u_t(first cell) - u_wall| / (h_d / 2), u_t the tangential velocity
 * (the x component at the face; the other one, `tangential`, averaged to it), and the number
 * of faces, added to sum_count[0], sum_count[1].  u_wall[0|1]: the low and high walls' x
 * velocity.  Faces in a fixed order (rows along the other direction, then x). */
void wall_shear_sums(const efsi_grid *g, int d, double mu, const double *restrict u,
                     const double *restrict tangential, const double u_wall[2],
                     double sum_count[2]);

/* Where a field goes wrong, for the diagnosis of a blow-up (host memory): find_max = 0, the
 * first owned point (in k, j, i order) whose value is not finite, with *score = 1;
 * find_max = 1, the first point whose |value| is the largest and exceeds *score, which is
 * raised to it.  Returns 1 and the local index in at[] when such a point exists. */
int field_locate(const efsi_grid *g, const double *f, int find_max, double *score, int at[3]);

#endif
