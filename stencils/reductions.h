/* Local reductions over the owned cells of one rank, with a determinism contract
 * (docs/parallel.md, "Reductions"): each kernel forms one partial result per z-plane k
 * (rows in j order, a row's points in the order of the SIMD loop), written to plane[], and
 * the partials are combined in k order by one thread.  The result therefore does not depend
 * on the number of threads, and a GPU kernel that forms the same per-plane partials and
 * leaves the combination to the same host loop (reduce_planes) gives the same sums to
 * round-off within a plane.  Global sums over ranks are the caller's (decomp/reduce.h). */
#ifndef EFSI_REDUCTIONS_H
#define EFSI_REDUCTIONS_H

#include "base/grid.h"

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
  SUM_COUNT
};

/* Operations per owned cell of acm_sums: the nine sums, 15. */
#define ACM_SUMS_FLOPS 15.0

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

/* sums[SUM_*] over the owned cells; plane holds n[2] * SUM_COUNT doubles of scratch. */
void acm_sums(const efsi_grid *g, const double *restrict div, const double *restrict lap_div,
              const double *restrict p, const double *restrict lap_p, const double *restrict u,
              double *restrict plane, double sums[SUM_COUNT]);

/* out[FLOW_*] over the owned cells from the velocity and div (the divergence, multiplied by
 * scale); plane holds n[2] * FLOW_COUNT doubles. */
void flow_norms(const efsi_grid *g, double scale, const double *restrict u,
                const double *restrict v, const double *restrict w,
                const double *restrict div, double *restrict plane, double out[FLOW_COUNT]);

/* The volume-fraction moments of one material (the shape of a body: docs/method.md,
 * "Diagnostics"): with (x, y, z) a cell centre less the centre of the box, the sums over the
 * owned cells of phi, phi x, phi y, phi z, phi x^2, phi y^2, phi z^2, phi x y, phi x z and
 * phi y z, in this order.  Within a plane the rows are formed first (sums of phi, phi x and
 * phi x^2 along x), then weighted by their y and the plane by its z. */
enum {
  MOMENT_1 = 0, MOMENT_X, MOMENT_Y, MOMENT_Z, MOMENT_XX, MOMENT_YY, MOMENT_ZZ, MOMENT_XY,
  MOMENT_XZ, MOMENT_YZ, MOMENT_COUNT
};

/* out[MOMENT_*] of phi over the owned cells; plane holds n[2] * MOMENT_COUNT doubles. */
void phi_moments(const efsi_grid *g, const double *restrict phi, double *restrict plane,
                 double out[MOMENT_COUNT]);

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
