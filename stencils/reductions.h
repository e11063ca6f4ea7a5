/* Local reductions over the owned cells of one rank: the per-point formulas of the ACM step's
 * sums and of the diagnostics, which the one reduction form (stencils/reduce.h) reduces on
 * both backends.  Every sum is added in double-double (base/dd.h) and every maximum by fmax,
 * so the rounded results do not depend on the order of the terms -- the number of threads,
 * the CPU or the GPU -- and a run is the same bits on any of them (docs/parallel.md,
 * "Reductions").  Global sums over ranks are the caller's (decomp/reduce.h). */
#ifndef EFSI_REDUCTIONS_H
#define EFSI_REDUCTIONS_H

#include <math.h>

#include "base/dd.h"
#include "base/grid.h"
#include "base/portable.h"
#include "base/tensor.h"
#include "stencils/operators.h"
#include "stencils/reduce.h"
#include "stencils/membrane.h"
#include "stencils/solid_stress.h"

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

/* Operations per owned cell of acm_sums: the two Laplacians 2 x 14, the six products 6,
 * and eleven double-double additions of 13 (two TwoSums and an add): 177. */
#define ACM_SUMS_FLOPS (2.0 * LAPLACIAN_FLOPS + 149.0)

/* The flow diagnostics: sums and maxima over the owned cells. */
enum {
  FLOW_KINETIC = 0,  /* sum of u^2 + v^2 + w^2 (face values as stored) */
  FLOW_DIV2,         /* sum of (scale div)^2 */
  FLOW_U,            /* sum of u */
  FLOW_SPEED_MAX,    /* max of |u|, |v|, |w| */
  FLOW_DIV_MAX,      /* max of |scale div| */
  FLOW_COUNT
};

/* acm_sums (stencils/kernel_list.h): sums[2 c], sums[2 c + 1] = the double-double sum (hi,
 * lo) of quantity c = SUM_* over the owned cells, the terms added in double-double; the
 * Laplacians of D* and p formed point by point (laplacians = 1, the ACM: D* and p need
 * valid halos of width 1) or taken as 0 (laplacians = 0, SMAC, which needs only the other
 * sums); the scratch holds the planes' pairs (stencils/reduce.h).  Combine ranks with
 * global_sum_dd (decomp/reduce.h), then hi is the sum.  Values streamed per owned cell:
 * D*, p and u read: 3.  The sums are queued, not waited for: they are in sums[] once the
 * kernel table's sums_wait returns (at once on the CPU; on the GPU the chunks' pairs
 * stay in the scratch's staging memory until then, so no other reduction may come between).
 * The CPU's in stencils/acm_sums.c, the GPU's in stencils/cuda/reductions.cu. */

/* The ACM's terms (the SUM_ order) of a point from its values: d = D*, ld and lp the
 * Laplacians of D* and p (0 without them), pq = p and uq = u there. */
EFSI_POINT reduce_values acm_terms_of(double d, double ld, double lp, double pq, double uq)
{
  reduce_values r = {{0.0}};
  double *t = r.v;
  t[SUM_D_LAPD] = d * ld;
  t[SUM_LAPD2] = ld * ld;
  t[SUM_LAPP2] = lp * lp;
  t[SUM_D_LAPP] = d * lp;
  t[SUM_LAPD_LAPP] = ld * lp;
  t[SUM_P] = pq;
  t[SUM_D] = d;
  t[SUM_D2] = d * d;
  t[SUM_U] = uq;
  t[SUM_ABS_P] = fabs(pq);
  t[SUM_ABS_D] = fabs(d);
  return r;
}

/* The eleven terms of acm_sums at point q, in the order of the SUM_ names; s the strides,
 * inv_h2 the squared inverse spacings, laplacians 0 or 1 (acm_sums). */
EFSI_POINT reduce_values acm_terms(const double *restrict div, const double *restrict p,
                                   const double *restrict u, ptrdiff_t q, const ptrdiff_t s[3],
                                   const double inv_h2[3], int laplacians)
{
  const double ld = laplacians ? laplacian_at(div, q, s, inv_h2) : 0.0;
  const double lp = laplacians ? laplacian_at(p, q, s, inv_h2) : 0.0;
  return acm_terms_of(div[q], ld, lp, p[q], u[q]);
}

/* A membrane's volume terms at the centre p (docs/membrane.md, "The band from the surface"), in
 * cells: the part of the cell inside the level psi, min(max(1/2 - psi, 0), 1); the
 * membrane's area in the cell, delta(psi) |grad psi| h (h the smallest spacing); the
 * material's volume fraction phi.  level_volume_sums sums them over the owned cells. */
enum { LEVEL_VOLUME_PSI = 0, LEVEL_AREA, LEVEL_VOLUME_PHI, LEVEL_VOLUME_COUNT };
EFSI_POINT reduce_values level_volume_terms(const double *restrict psi,
                                            const double *restrict phi, ptrdiff_t p,
                                            ptrdiff_t sx, ptrdiff_t sy, ptrdiff_t sz,
                                            double ihx, double ihy, double ihz, double h)
{
  reduce_values r = {{0.0}};
  const double level = psi[p], inside = 0.5 - level;
  const double gx = 0.5 * ihx * (psi[p + sx] - psi[p - sx]);
  const double gy = 0.5 * ihy * (psi[p + sy] - psi[p - sy]);
  const double gz = 0.5 * ihz * (psi[p + sz] - psi[p - sz]);
  r.v[LEVEL_VOLUME_PSI] = inside < 0.0 ? 0.0 : (inside > 1.0 ? 1.0 : inside);
  r.v[LEVEL_AREA] = membrane_delta(level) * sqrt(gx * gx + gy * gy + gz * gz) * h;
  r.v[LEVEL_VOLUME_PHI] = phi[p];
  return r;
}

/* level_volume_sums (stencils/kernel_list.h): pairs[2 c], pairs[2 c + 1] = the double-double
 * sum of term c = LEVEL_* of level_volume_terms over the owned cells (psi's halo width 1);
 * combine ranks with global_sum_dd.  Operations per cell: 16 for the terms, 3 x 13 for the
 * sums: 55. */
#define LEVEL_VOLUME_FLOPS 55.0

/* The GPU's acm_sums: a block of threads takes ACM_GPU_COLUMNS columns (i, j) of the owned
 * cells over one of at most ACM_GPU_CHUNKS_MAX chunks of the planes; its scratch holds a
 * pair per block and sum (acm_gpu_blocks). */
enum { ACM_GPU_COLUMNS = 256, ACM_GPU_CHUNKS_MAX = 16 };

/* The most blocks of the GPU's acm_sums on the owned cells of g. */
static inline size_t acm_gpu_blocks(const efsi_grid *g)
{
  const size_t columns = (size_t)g->n[0] * (size_t)g->n[1];
  return (columns + ACM_GPU_COLUMNS - 1) / ACM_GPU_COLUMNS * ACM_GPU_CHUNKS_MAX;
}

/* The flow diagnostics' terms at point q (the FLOW_ order): the sums' terms u^2 + v^2 + w^2,
 * (scale div)^2 and u, the maxima's max(|u|, |v|, |w|) and |scale div|. */
EFSI_POINT reduce_values flow_terms(const double *restrict u, const double *restrict v,
                                    const double *restrict w, const double *restrict div,
                                    double scale, ptrdiff_t q)
{
  reduce_values r = {{0.0}};
  double *x = r.v;
  const double uu = u[q], vv = v[q], ww = w[q], dv = scale * div[q];
  x[FLOW_KINETIC] = uu * uu + vv * vv + ww * ww;
  x[FLOW_DIV2] = dv * dv;
  x[FLOW_U] = uu;
  x[FLOW_SPEED_MAX] = fmax(fabs(uu), fmax(fabs(vv), fabs(ww)));
  x[FLOW_DIV_MAX] = fabs(dv);
  return r;
}

/* flow_norms (stencils/kernel_list.h): out[FLOW_*] over the owned cells from the velocity
 * and div (the divergence, multiplied by scale). */

/* The volume-fraction moments of one material (the shape of a body: docs/method.md,
 * "Diagnostics"): with (x, y, z) a cell centre less the centre of the box, the sums over the
 * owned cells of phi, phi x, phi y, phi z, phi x^2, phi y^2, phi z^2, phi x y, phi x z and
 * phi y z, in this order. */
enum {
  MOMENT_1 = 0, MOMENT_X, MOMENT_Y, MOMENT_Z, MOMENT_XX, MOMENT_YY, MOMENT_ZZ, MOMENT_XY,
  MOMENT_XZ, MOMENT_YZ, MOMENT_COUNT
};

/* The coordinate of the first owned cell centre along d, from the centre of the box; cell i
 * is at first_centre + i h (phi_moments, on both backends). */
EFSI_POINT double first_centre(const efsi_grid *g, int d)
{
  return g->offset[d] * g->h[d] + 0.5 * g->h[d] - 0.5 * g->length[d];
}

/* The moments' terms (the MOMENT_ order) of a cell of volume fraction f at (x, y, z). */
EFSI_POINT reduce_values moment_terms(double f, double x, double y, double z)
{
  reduce_values r = {{0.0}};
  double *m = r.v;
  m[MOMENT_1] = f;
  m[MOMENT_X] = f * x;
  m[MOMENT_Y] = f * y;
  m[MOMENT_Z] = f * z;
  m[MOMENT_XX] = f * x * x;
  m[MOMENT_YY] = f * y * y;
  m[MOMENT_ZZ] = f * z * z;
  m[MOMENT_XY] = f * x * y;
  m[MOMENT_XZ] = f * x * z;
  m[MOMENT_YZ] = f * y * z;
  return r;
}

/* phi_moments (stencils/kernel_list.h): out[MOMENT_*] of phi over the owned cells. */

/* elastic_energy (stencils/kernel_list.h): the elastic energy on the owned cells, sum over
 * cells of e hx hy hz with e = sum_m G_m phi_m (tr B - 3)/2 (zero at B = I; for det B = 1,
 * tr B >= 3). */

/* G phi (tr B - 3) at p, G phi = sum_m G_m phi_m (modulus_sum_at); nmat >= 1.  (Summed
 * from G_0 phi_0 rather than from 0, it differs from a sum started at 0 only in the sign of
 * a zero, which no sum of such terms started at +0 can show.) */
EFSI_POINT double elastic_density_at(int nmat, const double *modulus, double *const phi[],
                                     const double *restrict bxx, const double *restrict byy,
                                     const double *restrict bzz, ptrdiff_t p)
{
  return modulus_sum_at(nmat, modulus, phi, p) * (bxx[p] + byy[p] + bzz[p] - 3.0);
}

/* membrane_energy (stencils/kernel_list.h): the membranes' elastic energy on the owned
 * cells, the sum over cells and membranes of membrane_energy_at (membrane.h) hx hy hz, the
 * level's gradient its centred differences; nmem membranes, each a level (cells), a surface
 * shear modulus, a dilatation ratio and a law (MEMBRANE_LAW_*).  Halo needed: the levels width 1. */
EFSI_POINT double membranes_energy_at(int nmem, double *const level[], const double *gs,
                                      const double *c, const double *law, double *const b[6],
                                      ptrdiff_t p,
                                      ptrdiff_t sx, ptrdiff_t sy, ptrdiff_t sz, double ihx,
                                      double ihy, double ihz)
{
  const ptrdiff_t s[3] = {sx, sy, sz};
  const double ih[3] = {ihx, ihy, ihz};
  double e = 0.0;
  for (int m = 0; m < nmem; m++) {
    const double *psi = level[m];
    if (!(fabs(psi[p]) < MEMBRANE_DELTA_WIDTH)) continue;
    double g[3];
    level_gradient_at(psi, p, s, ih, g);
    e += membrane_energy_at(psi[p], g[0], g[1], g[2], sym_load(b, p), gs[m], c[m], law[m]);
  }
  return e;
}

/* The determinant of the symmetric tensor (xx, yy, zz, xy, xz, yz), expanded along its
 * first row. */
EFSI_POINT double symmetric_det(double xx, double yy, double zz, double xy, double xz,
                                double yz)
{
  return xx * (yy * zz - yz * yz) - xy * (xy * zz - yz * xz) + xz * (xy * yz - yy * xz);
}

/* -det B and det B at p where the total solid fraction is at least phi_min, -inf and -inf
 * elsewhere (det_range's maxima: -min and max). */
EFSI_POINT reduce_values det_values(int nmat, double *const phi[], double *const b[6],
                                    double phi_min, ptrdiff_t p)
{
  const int solid = solid_fraction_at(nmat, phi, p) >= phi_min;
  const double det = symmetric_det(b[TXX][p], b[TYY][p], b[TZZ][p], b[TXY][p], b[TXZ][p],
                                   b[TYZ][p]);
  reduce_values r = {{0.0}};
  r.v[0] = solid ? -det : -INFINITY;
  r.v[1] = solid ? det : -INFINITY;
  return r;
}

/* det_range (stencils/kernel_list.h): range[0], range[1] = min and max of det B over the
 * owned cells whose total solid fraction sum_m phi_m is at least phi_min (the
 * incompressible solid keeps det B = 1); +inf and -inf when there is no such cell. */

/* wall_shear_sums (stencils/kernel_list.h): the wall shear stress on the walls normal to d
 * (1 or 2) that this block touches: the sum over their faces of
 * mu |u_t(first cell) - u_wall| / (h_d / 2), u_t the tangential velocity (the x component
 * at the face; the other one, `tangential`, averaged to it), and the number of faces, each
 * wall's added to sum_count[0], sum_count[1].  u_wall[0|1]: the low and high walls' x
 * velocity. */

/* The shear of the wall face at p and a count of 1 (wall_shear_sums): scale = mu / (h_d / 2),
 * along the stride of `tangential` across the face. */
EFSI_POINT reduce_values wall_shear_at(const double *restrict u,
                                       const double *restrict tangential, ptrdiff_t p,
                                       ptrdiff_t along, double u_wall, double scale)
{
  const double t1 = u[p] - u_wall;
  const double t2 = 0.5 * (tangential[p] + tangential[p + along]);
  reduce_values r = {{0.0}};
  r.v[0] = scale * sqrt(t1 * t1 + t2 * t2);
  r.v[1] = 1.0;
  return r;
}

/* The lumen of a vessel (docs/output.md, "Lumen quantities"): sums over the owned cells. */
enum {
  LUMEN_FLUX = 0,      /* sum over the x faces of u (1 - phi_wall): the lumen's volume flux */
  LUMEN_RBC_FLUX,      /* sum over the x faces of u phi_rbc: the flux of RBC volume */
  LUMEN_SHEAR,         /* sum of the wall shear stress over the crossings of phi_wall = 1/2 */
  LUMEN_CROSSINGS,     /* their number */
  LUMEN_SHEAR_MAX,     /* the largest */
  LUMEN_COUNT
};

/* The coordinate along d (1 or 2) of the first owned cell centre from the tube's axis,
 * (offset + 1/2) h - L/2: the place of first_centre, rounded differently (one product, not
 * two); lumen_sums keeps this form, whose bits its diagnostics have. */
EFSI_POINT double lumen_first_centre(const efsi_grid *g, int d)
{
  return (g->offset[d] + 0.5) * g->h[d] - 0.5 * g->length[d];
}

/* The cell-centred velocity at c. */
EFSI_POINT void centred_velocity(const double *restrict u, const double *restrict v,
                                 const double *restrict w, ptrdiff_t c, const ptrdiff_t s[3],
                                 double out[3])
{
  out[0] = 0.5 * (u[c] + u[c + s[0]]);
  out[1] = 0.5 * (v[c] + v[c + s[1]]);
  out[2] = 0.5 * (w[c] + w[c + s[2]]);
}

/* The wall shear stress where the lumen's surface phi_wall = 1/2 crosses the line from the
 * lumen-side cell p (phi_wall < 1/2) to its neighbour q = p + side s[d] (phi_wall >= 1/2),
 * d = 1 or 2 (docs/output.md, "Lumen quantities"); (y, z): p's centre from the tube's axis.
 * The crossing lies at the fraction t = (1/2 - phi_p) / (phi_q - phi_p) of the way to q;
 * the normal n there is the tube's radial direction, and the crossing counts when d is its
 * larger component and the three cells inward of p are in the lumen (0 otherwise).  The
 * velocity's derivative along side e_d at the crossing is that of the parabola through those
 * three cells (p itself, cut by the diffuse wall, is left out); dv/dn is it over side n_d, and
 * tau = mu |(I - n n) dv/dn|. */
EFSI_POINT double lumen_crossing_shear(const double *restrict pw, const double *restrict u,
                                       const double *restrict v, const double *restrict w,
                                       ptrdiff_t p, double y, double z, int d, int side,
                                       const ptrdiff_t s[3], const double h[3], double mu)
{
  const ptrdiff_t e = side * s[d], q = p + e;
  if (!(pw[q] >= 0.5)) return 0.0;
  if (!(pw[p - e] < 0.5 && pw[p - 2 * e] < 0.5 && pw[p - 3 * e] < 0.5)) return 0.0;
  const double t = (0.5 - pw[p]) / (pw[q] - pw[p]);
  const double at[3] = {0.0, y + (d == 1 ? side * t * h[1] : 0.0),
                        z + (d == 2 ? side * t * h[2] : 0.0)};
  const double r = sqrt(at[1] * at[1] + at[2] * at[2]);
  if (!(r > 0.0)) return 0.0;
  const double n[3] = {0.0, at[1] / r, at[2] / r};
  const double cosine = side * n[d];
  if (!(cosine > 0.0) || fabs(n[d]) < fabs(n[3 - d])) return 0.0;
  double f1[3], f2[3], f3[3], dv[3], along_n = 0.0;
  centred_velocity(u, v, w, p - e, s, f1);
  centred_velocity(u, v, w, p - 2 * e, s, f2);
  centred_velocity(u, v, w, p - 3 * e, s, f3);
  /* the parabola through x = -1, -2, -3 (cells from p, towards q), differentiated at t */
  for (int a = 0; a < 3; a++) {
    dv[a] = ((f1[a] - f2[a]) + (f1[a] - 2.0 * f2[a] + f3[a]) * (t + 1.5)) / (h[d] * cosine);
    along_n += dv[a] * n[a];
  }
  double tangential = 0.0;
  for (int a = 0; a < 3; a++) {
    const double c = dv[a] - along_n * n[a];
    tangential += c * c;
  }
  return mu * sqrt(tangential);
}

/* The lumen quantities of cell p, whose centre lies at (y, z) from the tube's axis: out[LUMEN_*]
 * (the flux through its x face, and the wall shear of the crossings it has on the lumen
 * side).  phi_rbc may be NULL (no RBCs). */
EFSI_POINT reduce_values lumen_at(const double *restrict pw, const double *restrict phi_rbc,
                                  const double *restrict u, const double *restrict v,
                                  const double *restrict w, ptrdiff_t p, double y, double z,
                                  const ptrdiff_t s[3], const double h[3], double mu)
{
  reduce_values r = {{0.0}};
  double *out = r.v;
  out[LUMEN_FLUX] = u[p] * (1.0 - 0.5 * (pw[p - s[0]] + pw[p]));
  out[LUMEN_RBC_FLUX] = phi_rbc ? u[p] * 0.5 * (phi_rbc[p - s[0]] + phi_rbc[p]) : 0.0;
  out[LUMEN_SHEAR] = out[LUMEN_CROSSINGS] = out[LUMEN_SHEAR_MAX] = 0.0;
  if (!(pw[p] < 0.5)) return r;
  for (int d = 1; d < 3; d++)
    for (int side = -1; side <= 1; side += 2) {
      if (!(pw[p + side * s[d]] >= 0.5)) continue;
      const double tau = lumen_crossing_shear(pw, u, v, w, p, y, z, d, side, s, h, mu);
      if (!(tau > 0.0)) continue;
      out[LUMEN_SHEAR] += tau;
      out[LUMEN_CROSSINGS] += 1.0;
      out[LUMEN_SHEAR_MAX] = fmax(out[LUMEN_SHEAR_MAX], tau);
    }
  return r;
}

/* lumen_sums (stencils/kernel_list.h): out[LUMEN_*] over the owned cells of a vessel's wall
 * fraction phi_wall (halos of width 3 valid, as the velocity's), the tube's axis along x
 * through the centre of the global y-z cross-section: sums, and the maximum for
 * LUMEN_SHEAR_MAX. */

/* Where a field goes wrong, for the diagnosis of a blow-up (host memory): find_max = 0, the
 * first owned point (in k, j, i order) whose value is not finite, with *score = 1;
 * find_max = 1, the first point whose |value| is the largest and exceeds *score, which is
 * raised to it.  Returns 1 and the local index in at[] when such a point exists. */
int field_locate(const efsi_grid *g, const double *f, int find_max, double *score, int at[3]);

#endif
