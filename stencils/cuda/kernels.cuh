/* The GPU's kernels: one function per entry of efsi_kernels (stencils/kernels.h), each in
 * the .cu file that mirrors the CPU's .c file of the same name, taking the same arguments
 * with arrays in device memory. */
#ifndef EFSI_CUDA_KERNELS_CUH
#define EFSI_CUDA_KERNELS_CUH

#include "stencils/cuda/launch.cuh"

extern "C" {
#include "base/tracer.h"
#include "stencils/reductions.h"
}

/* weno5.cu */
void advection_weno5_cuda(const efsi_grid *g, int loc, const double *f, const double *u,
                          const double *v, const double *w, double *out);
void advection_weno5_conservative_cuda(const efsi_grid *g, const double *f, const double *u,
                                       const double *v, const double *w, double thinc_beta,
                                       double dt, double *out);
/* stress.cu, solid_stress.cu */
void stress_viscous_cuda(const efsi_grid *g, double mu, const double *u, const double *v,
                         const double *w, double *const s[6]);
void stress_divergence_add_cuda(const efsi_grid *g, double inv_rho, double *const s[6],
                                double *fu, double *fv, double *fw);
void solid_stress_add_cuda(const efsi_grid *g, int nmat, const double *modulus,
                           double *const phi[], double *const b[6], double *const s[6],
                           double *gphi);
/* operators.cu */
void divergence_cuda(const efsi_grid *g, double scale, const double *u, const double *v,
                     const double *w, double *out);
void laplacian_cuda(const efsi_grid *g, const double *f, double *out);
void gradient_add_cuda(const efsi_grid *g, double scale, const double *p, double *u, double *v,
                       double *w);
/* projection.cu */
void velocity_update_cuda(const efsi_grid *g, int c, double dt, double body, const double *f,
                          double *rate);
void velocity_shift_cuda(const efsi_grid *g, int c, double shift, double *f);
void pressure_increment_cuda(const efsi_grid *g, int width, double a_over_dt,
                             double b_over_dt, const double *p, const double *div, double *dp);
void pressure_update_cuda(const efsi_grid *g, int width, double shift, const double *dp,
                          double *p);
void field_axpy_cuda(const efsi_grid *g, double c, const double *r, double *f);
void field_scale_cuda(const efsi_grid *g, double c, double *f);
/* oldroyd.cu */
void oldroyd_update_cuda(const efsi_grid *g, int nmat, double *const phi[], double dt,
                         double kappa, const double *u, const double *v, const double *w,
                         double *const rate[6], double *const b[6]);
/* reductions.cu */
void acm_sums_cuda(const efsi_grid *g, const double *div, const double *lap_div,
                   const double *p, const double *lap_p, const double *u, double *plane,
                   double sums[2 * SUM_COUNT]);
void flow_norms_cuda(const efsi_grid *g, double scale, const double *u, const double *v,
                     const double *w, const double *div, double *plane,
                     double out[FLOW_COUNT]);
void phi_moments_cuda(const efsi_grid *g, const double *phi, double *plane,
                      double out[MOMENT_COUNT]);
double elastic_energy_cuda(const efsi_grid *g, int nmat, const double *modulus,
                           double *const phi[], double *const b[6], double *plane);
void det_range_cuda(const efsi_grid *g, int nmat, double *const phi[], double *const b[6],
                    double phi_min, double *plane, double range[2]);
void wall_shear_sums_cuda(const efsi_grid *g, int d, double mu, const double *u,
                          const double *tangential, const double u_wall[2],
                          double sum_count[2]);
void lumen_sums_cuda(const efsi_grid *g, double mu, const double *phi_wall,
                     const double *phi_rbc, const double *u, const double *v, const double *w,
                     double *plane, double out[LUMEN_COUNT]);
/* interpolate.cu */
void tracers_interpolate_cuda(const efsi_grid *g, const double *u, const double *v,
                              const double *w, efsi_tracer *t, long count);

#endif
