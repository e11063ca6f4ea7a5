/* The kernel registry: every kernel the time step and the diagnostics run, declared once.
 * From this list come the kernel table of each backend (stencils/kernels.h: the members;
 * stencils/kernels.c and stencils/cuda/kernels.cu: the tables, by designated initialisers),
 * the prototypes of both backends' functions, each kernel's timer family and its operation
 * and memory counts (src/case/timers.c charges every call of the step to its family), and the
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
 *            relative difference allowed (the device's exp)
 *
 * The CPU's function is `name`, the GPU's `name_cuda` (KERNEL(name), stencils/loop.h).
 * Arrays are the backend's (device memory on a GPU); results of reductions are on the host;
 * scratch belongs to the caller (base/device.h: efsi_scratch). */
#ifndef EFSI_KERNEL_LIST_H
#define EFSI_KERNEL_LIST_H

#include "base/device.h"
#include "base/grid.h"
#include "base/tracer.h"
#include "stencils/membrane.h"
#include "stencils/momentum.h"
#include "stencils/oldroyd.h"
#include "stencils/operators.h"
#include "stencils/projection.h"
#include "stencils/reductions.h"
#include "stencils/solid_stress.h"
#include "stencils/stress.h"
#include "stencils/weno5.h"

/* The timer families, in the order of the paper's Table 1 (src/case/timers.h adds the exchange,
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
  /* the momentum: the stress of level N (stress.h), then v* in one pass per component     \
   * (momentum.h) */                                                                         \
  X(modulus_sum, KERNEL_FAMILY_STRESS, MODULUS_SUM_FLOPS(nmat), MODULUS_SUM_ARRAYS(nmat), 0, \
    void, (const efsi_grid *g, int nmat, const double *modulus, double *const phi[],         \
           double *gphi))                                                                    \
  X(stress_total, KERNEL_FAMILY_STRESS, STRESS_TOTAL_FLOPS(nmat), STRESS_TOTAL_ARRAYS(nmat), \
    0, void,                                                                                 \
    (const efsi_grid *g, double mu, int nmat, double *const b[6], const double *u,           \
     const double *v, const double *w, const double *gphi, double *const s[6]))              \
  X(stress_contrast_add, KERNEL_FAMILY_STRESS, STRESS_CONTRAST_FLOPS, STRESS_CONTRAST_ARRAYS, \
    0, void,                                                                                 \
    (const efsi_grid *g, const double *excess, const double *u, const double *v,             \
     const double *w, double *const s[6]))                                                   \
  X(membrane_stress_add, KERNEL_FAMILY_STRESS, MEMBRANE_STRESS_FLOPS(1), 20, 0, void,        \
    (const efsi_grid *g, int nmem, double *const level[], const double *shear_modulus,     \
     const double *dilatation, const double *law, double *const b[6], double *const s[6]))  \
  X(momentum_predictor, KERNEL_FAMILY_ADVECTION, MOMENTUM_FLOPS, 24, 0, void,                \
    (const efsi_grid *g, double dt, double inv_rho, double body, double grad_scale,          \
     double *const s[6], const double *p, const double *u, const double *v, const double *w, \
     double *fu, double *fv, double *fw))                                                    \
  X(level_kappa, KERNEL_FAMILY_DIVERGENCE, LEVEL_KAPPA_FLOPS, 2, 0, void,                    \
    (const efsi_grid *g, int nmem, double *const level[], double *const kappa[]))           \
  X(membrane_bending_add, KERNEL_FAMILY_DIVERGENCE, MEMBRANE_BENDING_FLOPS, 5, 0, void,      \
    (const efsi_grid *g, int nmem, double *const level[], double *const kappa[],            \
     const double *bending, double scale, double *fu, double *fv, double *fw))               \
  X(membrane_stretch_add, KERNEL_FAMILY_DIVERGENCE, MEMBRANE_STRETCH_FLOPS, 3, 0, void,      \
    (const efsi_grid *g, const double *psi, const double centre[3], int axis, double radius, \
     double f_plus, double f_minus, double scale, double *fa))                               \
  /* the solid: phi_m^{N+1} (weno5.h; the CPU's in transport.c, the GPU's in                 \
   * cuda/transport.cu), then B^{N+1} (oldroyd.h; b_advance.c, both backends) and the        \
   * membranes' levels (membrane.h; membrane.c, both backends); then the membranes' bands:   \
   * B from the foot points, the levels' volume and re-distancing */                         \
  X(phi_advance, KERNEL_FAMILY_ADVECTION, ADVECTION_CONSERVATIVE_FLOPS + AXPY_FLOPS, 5, 0,    \
    void,                                                                                    \
    (const efsi_grid *g, const double *f, const double *u, const double *v, const double *w, \
     double thinc_beta, double dt, double *next, double *const work[4]))                     \
  X(b_advance, KERNEL_FAMILY_OLDROYD, B_ADVANCE_FLOPS(nmat), 15 + nmat, 0, void,             \
    (const efsi_grid *g, int nmat, double *const phi[], int nlevel, double *const level[],   \
     double dt, double kappa,                                                                \
     const double *u, const double *v, const double *w, double *const b[6],                  \
     double *const next[6]))                                                                 \
  X(membrane_reset, KERNEL_FAMILY_OLDROYD, MEMBRANE_RESET_FLOPS, 13, 0, void,                 \
    (const efsi_grid *g, int nmem, double *const level[], double *const b[6]))              \
  X(membrane_foot, KERNEL_FAMILY_OLDROYD, MEMBRANE_FOOT_FLOPS, 13, 0, void,                   \
    (const efsi_grid *g, int nmem, double *const level[], double *const b[6],                \
     double *const next[6]))                                                                 \
  X(level_advance, KERNEL_FAMILY_ADVECTION, ADVECTION_FLOPS + AXPY_FLOPS, 5, 0, void,       \
    (const efsi_grid *g, const double *psi, const double *u, const double *v,                \
     const double *w, double dt, double *next))                                              \
  X(level_redistance, KERNEL_FAMILY_ADVECTION, MEMBRANE_REDISTANCE_FLOPS, 3, 0, void,       \
    (const efsi_grid *g, int nmem, double *const level[], const double *shift,              \
     double *const cur[], int cur_shifted, double *const out[]))                             \
  X(level_volume_sums, KERNEL_FAMILY_ADVECTION, LEVEL_VOLUME_FLOPS, 2, 0, void,              \
    (const efsi_grid *g, const double *psi, const double *phi, efsi_scratch *scratch,        \
     double pairs[2 * LEVEL_VOLUME_COUNT]))                                                  \
  X(membrane_patch_sums, KERNEL_FAMILY_DIVERGENCE, MEMBRANE_PATCH_FLOPS, 1, 0, void,         \
    (const efsi_grid *g, const double *psi, const double centre[3], int axis, double radius, \
     efsi_scratch *scratch, double pairs[4]))                                                \
  /* the projection (operators.h, projection.h) */                                          \
  X(divergence, KERNEL_FAMILY_PROJECTION, DIVERGENCE_FLOPS, 4, 0, void,                      \
    (const efsi_grid *g, double scale, const double *u, const double *v, const double *w,    \
     double *out))                                                                           \
  X(gradient_add, KERNEL_FAMILY_PROJECTION, GRADIENT_FLOPS, 7, 0, void,                      \
    (const efsi_grid *g, double scale, const double *p, double *u, double *v, double *w))    \
  X(velocity_shift, KERNEL_FAMILY_PROJECTION, 1, 2, 0, void,                                 \
    (const efsi_grid *g, int c, double shift, double *f))                                    \
  X(pressure_correct, KERNEL_FAMILY_PROJECTION,                                              \
    4 * PRESSURE_INCREMENT_FLOPS + PRESSURE_UPDATE_FLOPS + GRADIENT_FLOPS, 9, 0, void,       \
    (const efsi_grid *g, double a_over_dt, double b_over_dt, double shift, double scale,     \
     const double *p, const double *div, double *p_next, double *u, double *v, double *w))   \
  X(pressure_update, KERNEL_FAMILY_PROJECTION, PRESSURE_UPDATE_FLOPS, 3, 0, void,            \
    (const efsi_grid *g, int width, double shift, const double *dp, double *p))              \
  X(field_scale, KERNEL_FAMILY_PROJECTION, 1, 2, 0, void,                                    \
    (const efsi_grid *g, double c, double *f))                                               \
  /* reductions (reductions.h, the form of reduce.h): the results on the host; acm_sums'     \
   * once the table's sums_wait returns (stencils/kernels.h) */                              \
  X(acm_sums, KERNEL_FAMILY_PROJECTION, ACM_SUMS_FLOPS, 3, 0, void,                          \
    (const efsi_grid *g, int laplacians, const double *div, const double *p, const double *u, \
     efsi_scratch *scratch, double sums[2 * SUM_COUNT]))                                     \
  X(flow_norms, KERNEL_FAMILY_DIAGNOSTICS, 0, 4, 0, void,                                    \
    (const efsi_grid *g, double scale, const double *u, const double *v, const double *w,    \
     const double *div, efsi_scratch *scratch, double out[FLOW_COUNT]))                      \
  X(phi_moments, KERNEL_FAMILY_DIAGNOSTICS, 0, 1, 0, void,                                   \
    (const efsi_grid *g, const double *phi, efsi_scratch *scratch,                           \
     double out[MOMENT_COUNT]))                                                              \
  X(elastic_energy, KERNEL_FAMILY_DIAGNOSTICS, 0, 3 + nmat, 0, double,                       \
    (const efsi_grid *g, int nmat, const double *modulus, double *const phi[],               \
     double *const b[6], efsi_scratch *scratch))                                             \
  X(membrane_energy, KERNEL_FAMILY_DIAGNOSTICS, 0, 7, 0, double,                            \
    (const efsi_grid *g, int nmem, double *const level[], const double *shear_modulus,       \
     const double *dilatation, const double *law, double *const b[6],                        \
     efsi_scratch *scratch))                                                                 \
  X(det_range, KERNEL_FAMILY_DIAGNOSTICS, 0, 6 + nmat, 0, void,                              \
    (const efsi_grid *g, int nmat, double *const phi[], double *const b[6], double phi_min,  \
     efsi_scratch *scratch, double range[2]))                                                \
  X(wall_shear_sums, KERNEL_FAMILY_DIAGNOSTICS, 0, 0, 0, void,                               \
    (const efsi_grid *g, int d, double mu, const double *u, const double *tangential,        \
     const double u_wall[2], efsi_scratch *scratch, double sum_count[2]))                    \
  X(lumen_sums, KERNEL_FAMILY_DIAGNOSTICS, 0, 5, 0, void,                                    \
    (const efsi_grid *g, double mu, const double *phi_wall, const double *phi_rbc,           \
     const double *u, const double *v, const double *w, efsi_scratch *scratch,               \
     double out[LUMEN_COUNT]))                                                               \
  /* the running sums of the time averages (averages.c): sum += f, or the mean of f's two    \
   * faces along centre_dir (a velocity at the cell centre) */                               \
  X(field_accumulate, KERNEL_FAMILY_DIAGNOSTICS, 2, 3, 0, void,                              \
    (const efsi_grid *g, int centre_dir, const double *f, double *sum))                      \
  /* the velocity at each of n tracers (t[].x in, t[].v out; interpolate.h) */               \
  X(velocity_at_tracers, KERNEL_FAMILY_DIAGNOSTICS, 0, 0, 0, void,                           \
    (const efsi_grid *g, const double *u, const double *v, const double *w, efsi_tracer *t,  \
     long n))

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

/* The GPU's sums_wait (stencils/kernels.h): acm_sums' results in its sums[]. */
void acm_sums_wait_cuda(efsi_scratch *scratch);

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
 * which the solver reserves once and efsi --check counts: the reductions their per-plane
 * partials, on the GPU the faces of a wall too, in work and in staging memory (the GPU's
 * transport of phi works in arrays the caller lends instead). */
void kernel_scratch_bytes(const efsi_grid *g, int gpu, size_t *work, size_t *staging);

#ifdef __cplusplus
}
#endif

#endif
