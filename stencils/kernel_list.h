/* The kernel registry: every kernel the time step and the diagnostics run, declared once.
 * From this list come the kernel table of each backend (stencils/kernels.h: the members;
 * stencils/kernels.c and stencils/cuda/kernels.cu: the tables, by designated initialisers),
 * the prototypes of both backends' functions, each kernel's timer family and its operation
 * and memory counts (src/timers.c charges every call of the step to its family), and the
 * loop of the CPU-against-GPU kernel test (tests/test_gpu_kernels.c), which fails to
 * compile for a kernel without a comparison.
 *
 *   X(name, family, flops, arrays, agreement, return type, (parameters))
 *
 * family     the timer family its time counts to (KERNEL_FAMILY_*; DIAGNOSTICS: the
 *            diagnostics, outside the step's timing)
 * flops      floating-point operations per point and call (add, multiply, divide, sqrt 1;
 *            FMA 2), counted from the source; may use nmat, the number of materials
 * arrays     values streamed per point and call: every array the kernel reads counts once,
 *            every array it writes once more (a += counts 2); 8 bytes each, no write-allocate,
 *            halos neglected (docs/performance.md, "Counting conventions"); may use nmat
 * agreement  how the GPU's result compares with the CPU's: 0 bit for bit, else the largest
 *            relative difference allowed (a different order of additions, the device's exp)
 *
 * The CPU's function is `name`, the GPU's `name_cuda` (KERNEL(name), stencils/loop.h).
 * Arrays are the backend's (device memory on a GPU); results of reductions are on the host;
 * scratch belongs to the caller (base/device.h: efsi_scratch). */
#ifndef EFSI_KERNEL_LIST_H
#define EFSI_KERNEL_LIST_H

#include "base/device.h"
#include "base/grid.h"
#include "base/tracer.h"
#include "stencils/oldroyd.h"
#include "stencils/operators.h"
#include "stencils/projection.h"
#include "stencils/reductions.h"
#include "stencils/solid_stress.h"
#include "stencils/stress.h"
#include "stencils/weno5.h"

/* The timer families, in the order of the paper's Table 1 (src/timers.h adds the exchange,
 * the reduction and the output). */
enum {
  KERNEL_FAMILY_ADVECTION = 0,   /* WENO5 advection of velocity, volume fractions and B */
  KERNEL_FAMILY_OLDROYD,         /* the Oldroyd rate L.B + B.L^T, update of phi and B */
  KERNEL_FAMILY_STRESS,          /* stress tensor on centres and edges */
  KERNEL_FAMILY_DIVERGENCE,      /* stress divergence and velocity update */
  KERNEL_FAMILY_PROJECTION,      /* D*, Laplacians, sums, dp, pressure and velocity correction */
  KERNEL_FAMILIES,
  KERNEL_FAMILY_DIAGNOSTICS = KERNEL_FAMILIES   /* untimed */
};

#define EFSI_KERNEL_LIST(X)                                                                   \
  /* advection (weno5.h) */                                                                  \
  X(advection_weno5, KERNEL_FAMILY_ADVECTION, ADVECTION_FLOPS, 5, 0, void,                   \
    (const efsi_grid *g, int loc, const double *f, const double *u, const double *v,         \
     const double *w, double *out))                                                          \
  X(advection_weno5_conservative, KERNEL_FAMILY_ADVECTION, ADVECTION_CONSERVATIVE_FLOPS, 5,  \
    0, void,                                                                                 \
    (const efsi_grid *g, const double *f, const double *u, const double *v, const double *w, \
     double thinc_beta, double dt, double *out, efsi_scratch *scratch))                      \
  /* stress (stress.h, solid_stress.h) */                                                    \
  X(stress_viscous, KERNEL_FAMILY_STRESS, STRESS_VISCOUS_FLOPS, 9, 0, void,                  \
    (const efsi_grid *g, double mu, const double *u, const double *v, const double *w,       \
     double *const s[6]))                                                                    \
  X(solid_stress_add, KERNEL_FAMILY_STRESS, SOLID_STRESS_FLOPS(nmat), 20 + nmat, 0, void,    \
    (const efsi_grid *g, int nmat, const double *modulus, double *const phi[],               \
     double *const b[6], double *const s[6], double *gphi))                                  \
  X(stress_divergence_add, KERNEL_FAMILY_DIVERGENCE, STRESS_DIVERGENCE_FLOPS, 15, 0, void,   \
    (const efsi_grid *g, double inv_rho, double *const s[6], double *fu, double *fv,         \
     double *fw))                                                                            \
  /* compact operators (operators.h) */                                                      \
  X(divergence, KERNEL_FAMILY_PROJECTION, DIVERGENCE_FLOPS, 4, 0, void,                      \
    (const efsi_grid *g, double scale, const double *u, const double *v, const double *w,    \
     double *out))                                                                           \
  X(laplacian, KERNEL_FAMILY_PROJECTION, LAPLACIAN_FLOPS, 2, 0, void,                        \
    (const efsi_grid *g, const double *f, double *out))                                      \
  X(gradient_add, KERNEL_FAMILY_PROJECTION, GRADIENT_FLOPS, 9, 0, void,                      \
    (const efsi_grid *g, double scale, const double *p, double *u, double *v, double *w))    \
  /* point-wise updates (projection.h) */                                                    \
  X(velocity_update, KERNEL_FAMILY_DIVERGENCE, VELOCITY_UPDATE_FLOPS, 3, 0, void,            \
    (const efsi_grid *g, int c, double dt, double body, const double *f, double *rate))      \
  X(velocity_shift, KERNEL_FAMILY_PROJECTION, 1, 2, 0, void,                                 \
    (const efsi_grid *g, int c, double shift, double *f))                                    \
  X(pressure_increment, KERNEL_FAMILY_PROJECTION, PRESSURE_INCREMENT_FLOPS, 3, 0, void,      \
    (const efsi_grid *g, int width, double a_over_dt, double b_over_dt, const double *p,     \
     const double *div, double *dp))                                                         \
  X(pressure_update, KERNEL_FAMILY_PROJECTION, PRESSURE_UPDATE_FLOPS, 3, 0, void,            \
    (const efsi_grid *g, int width, double shift, const double *dp, double *p))              \
  X(field_axpy, KERNEL_FAMILY_OLDROYD, AXPY_FLOPS, 3, 0, void,                               \
    (const efsi_grid *g, double c, const double *r, double *f))                              \
  X(field_scale, KERNEL_FAMILY_PROJECTION, 1, 2, 0, void,                                    \
    (const efsi_grid *g, double c, double *f))                                               \
  /* the solid (oldroyd.h) */                                                                \
  X(oldroyd_update, KERNEL_FAMILY_OLDROYD, OLDROYD_UPDATE_FLOPS(nmat), 21 + nmat, 0, void,   \
    (const efsi_grid *g, int nmat, double *const phi[], double dt, double kappa,             \
     const double *u, const double *v, const double *w, double *const rate[6],               \
     double *const b[6]))                                                                    \
  /* reductions (reductions.h): the results on the host */                                  \
  X(acm_sums, KERNEL_FAMILY_PROJECTION, ACM_SUMS_FLOPS, 5, 0, void,                          \
    (const efsi_grid *g, const double *div, const double *lap_div, const double *p,          \
     const double *lap_p, const double *u, efsi_scratch *scratch,                            \
     double sums[2 * SUM_COUNT]))                                                            \
  X(flow_norms, KERNEL_FAMILY_DIAGNOSTICS, 0, 4, 1e-13, void,                                \
    (const efsi_grid *g, double scale, const double *u, const double *v, const double *w,    \
     const double *div, efsi_scratch *scratch, double out[FLOW_COUNT]))                      \
  X(phi_moments, KERNEL_FAMILY_DIAGNOSTICS, 0, 1, 1e-12, void,                               \
    (const efsi_grid *g, const double *phi, efsi_scratch *scratch,                           \
     double out[MOMENT_COUNT]))                                                              \
  X(elastic_energy, KERNEL_FAMILY_DIAGNOSTICS, 0, 3 + nmat, 1e-12, double,                   \
    (const efsi_grid *g, int nmat, const double *modulus, double *const phi[],               \
     double *const b[6], efsi_scratch *scratch))                                             \
  X(det_range, KERNEL_FAMILY_DIAGNOSTICS, 0, 6 + nmat, 0, void,                              \
    (const efsi_grid *g, int nmat, double *const phi[], double *const b[6], double phi_min,  \
     efsi_scratch *scratch, double range[2]))                                                \
  X(wall_shear_sums, KERNEL_FAMILY_DIAGNOSTICS, 0, 0, 0, void,                               \
    (const efsi_grid *g, int d, double mu, const double *u, const double *tangential,        \
     const double u_wall[2], efsi_scratch *scratch, double sum_count[2]))                    \
  X(lumen_sums, KERNEL_FAMILY_DIAGNOSTICS, 0, 5, 1e-12, void,                                \
    (const efsi_grid *g, double mu, const double *phi_wall, const double *phi_rbc,           \
     const double *u, const double *v, const double *w, efsi_scratch *scratch,               \
     double out[LUMEN_COUNT]))                                                               \
  /* the velocity at each of n tracers (t[].x in, t[].v out; t in host memory) */            \
  X(velocity_at_tracers, KERNEL_FAMILY_DIAGNOSTICS, 0, 0, 0, void,                           \
    (const efsi_grid *g, const double *u, const double *v, const double *w, efsi_tracer *t,  \
     long n, efsi_scratch *scratch))

/* KERNEL_ID_name: a kernel's place in the list. */
#define EFSI_KERNEL_ID(name, ...) KERNEL_ID_##name,
enum { EFSI_KERNEL_LIST(EFSI_KERNEL_ID) KERNEL_COUNT };
#undef EFSI_KERNEL_ID

#ifdef __cplusplus
extern "C" {
#endif

/* The prototypes of both backends' functions. */
#define EFSI_KERNEL_PROTOTYPES(name, family, flops, arrays, agreement, type, parameters) \
  type name parameters;                                                                  \
  type name##_cuda parameters;
EFSI_KERNEL_LIST(EFSI_KERNEL_PROTOTYPES)
#undef EFSI_KERNEL_PROTOTYPES

/* What the list says of kernel id: name, family, agreement. */
typedef struct {
  const char *name;
  int family;
  double agreement;
} efsi_kernel_info;
extern const efsi_kernel_info efsi_kernel_infos[KERNEL_COUNT];

/* Operations and values streamed per point of one call of kernel id, with nmat materials. */
double kernel_flops(int id, int nmat);
double kernel_arrays(int id, int nmat);

/* The scratch the kernels ask of their caller on grid g (efsi_scratch, base/device.h),
 * which the solver reserves once and efsi --check counts: the GPU's transport its face
 * fluxes, with THINC (thinc 1) also the list of interface cells; the reductions their
 * per-plane partials, on the GPU the faces of a wall too, in work and in staging memory. */
size_t transport_scratch_bytes(const efsi_grid *g, int thinc);
void kernel_scratch_bytes(const efsi_grid *g, int gpu, int thinc, size_t *work,
                          size_t *staging);

#ifdef __cplusplus
}
#endif

#endif
