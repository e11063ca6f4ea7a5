/* The kernel API: every loop over grid points that the time step and the diagnostics run,
 * as one table of functions per backend.  The CPU's table (stencils/kernels.c) points to the
 * OpenMP kernels of the stencils/ sources; a GPU build adds the CUDA table, whose kernels take the
 * same arguments with arrays in device memory and run the same per-point formulas (the
 * EFSI_POINT functions of the headers).  The solver holds one table and only sequences its
 * kernels, the halo exchanges and the one reduction (docs/architecture.md). */
#ifndef EFSI_KERNELS_H
#define EFSI_KERNELS_H

#include "base/grid.h"
#include "base/tracer.h"
#include "stencils/reductions.h"

typedef struct efsi_kernels {
  const char *name;          /* "cpu" or "gpu" */

  /* advection (weno5.h) */
  void (*advection_weno5)(const efsi_grid *g, int loc, const double *f, const double *u,
                          const double *v, const double *w, double *out);
  void (*advection_weno5_conservative)(const efsi_grid *g, const double *f, const double *u,
                                       const double *v, const double *w, double thinc_beta,
                                       double dt, double *out);
  /* stress (stress.h, solid_stress.h) */
  void (*stress_viscous)(const efsi_grid *g, double mu, const double *u, const double *v,
                         const double *w, double *const s[6]);
  void (*solid_stress_add)(const efsi_grid *g, int nmat, const double *modulus,
                           double *const phi[], double *const b[6], double *const s[6],
                           double *gphi);
  void (*stress_divergence_add)(const efsi_grid *g, double inv_rho, double *const s[6],
                                double *fu, double *fv, double *fw);
  /* compact operators (operators.h) */
  void (*divergence)(const efsi_grid *g, double scale, const double *u, const double *v,
                     const double *w, double *out);
  void (*laplacian)(const efsi_grid *g, const double *f, double *out);
  void (*gradient_add)(const efsi_grid *g, double scale, const double *p, double *u,
                       double *v, double *w);
  /* point-wise updates (projection.h) */
  void (*velocity_update)(const efsi_grid *g, int c, double dt, double body, const double *f,
                          double *rate);
  void (*velocity_shift)(const efsi_grid *g, int c, double shift, double *f);
  void (*pressure_increment)(const efsi_grid *g, int width, double a_over_dt,
                             double b_over_dt, const double *p, const double *div,
                             double *dp);
  void (*pressure_update)(const efsi_grid *g, int width, double shift, const double *dp,
                          double *p);
  void (*field_axpy)(const efsi_grid *g, double c, const double *r, double *f);
  void (*field_scale)(const efsi_grid *g, double c, double *f);
  /* the solid (oldroyd.h) */
  void (*oldroyd_update)(const efsi_grid *g, int nmat, double *const phi[], double dt,
                         double kappa, const double *u, const double *v, const double *w,
                         double *const rate[6], double *const b[6]);
  /* reductions (reductions.h): plane is scratch in the backend's memory, results on the host */
  void (*acm_sums)(const efsi_grid *g, const double *div, const double *lap_div,
                   const double *p, const double *lap_p, const double *u, double *plane,
                   double sums[2 * SUM_COUNT]);
  void (*flow_norms)(const efsi_grid *g, double scale, const double *u, const double *v,
                     const double *w, const double *div, double *plane,
                     double out[FLOW_COUNT]);
  void (*phi_moments)(const efsi_grid *g, const double *phi, double *plane,
                      double out[MOMENT_COUNT]);
  double (*elastic_energy)(const efsi_grid *g, int nmat, const double *modulus,
                           double *const phi[], double *const b[6], double *plane);
  void (*det_range)(const efsi_grid *g, int nmat, double *const phi[], double *const b[6],
                    double phi_min, double *plane, double range[2]);
  void (*wall_shear_sums)(const efsi_grid *g, int d, double mu, const double *u,
                          const double *tangential, const double u_wall[2],
                          double sum_count[2]);
  void (*lumen_sums)(const efsi_grid *g, double mu, const double *phi_wall,
                     const double *phi_rbc, const double *u, const double *v, const double *w,
                     double *plane, double out[LUMEN_COUNT]);
  /* the velocity at each of n tracers (t[].x in, t[].v out; t in host memory) */
  void (*tracers_interpolate)(const efsi_grid *g, const double *u, const double *v,
                              const double *w, efsi_tracer *t, long n);
} efsi_kernels;

/* The CPU's kernels; the GPU's in a build with the GPU backend (stencils/cuda/kernels.cu). */
extern const efsi_kernels efsi_cpu_kernels;
extern const efsi_kernels efsi_cuda_kernels;

#endif
