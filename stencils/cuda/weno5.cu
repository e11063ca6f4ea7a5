/* WENO5 advection on the GPU (formulas in stencils/weno5.h; mirrors weno5.c). */
#include "stencils/cuda/kernels.cuh"

extern "C" {
#include "stencils/loop.h"
#include "stencils/weno5.h"
}

void advection_weno5_cuda(const efsi_grid *g, int loc, const double *f, const double *u,
                          const double *v, const double *w, double *out)
{
  int lo[3], hi[3];
  location_range(g, loc, lo, hi);
  const weno5_stencil_t st = weno5_stencil(g, loc);
  for_box(g, lo, hi, "advection_weno5", [=] __device__(ptrdiff_t p) {
    out[p] = advection_at(&st, f, u, v, w, p);
  });
}

/* THINC's flux changes, each face once (thinc_flux_change): every listed interface cell c
 * (list[0 .. *count)) computes the faces it is upwind of, the low face (index c) where the
 * face velocity is negative and the high one (c + s_d) where it is not, keeping those of
 * owned cells (along d: faces 0 .. n_d; across: owned rows).  One writer per face, so the
 * stored values do not depend on the list's order.  A grid-stride loop: the list's length
 * stays on the device. */
__global__ void thinc_faces_kernel(weno5_stencil_t st, const double *f, const double *u,
                                   const double *v, const double *w, const ptrdiff_t *list,
                                   const int *count, int n0, int n1, int n2, double beta,
                                   double dt, double *c0, double *c1, double *c2)
{
  const int n[3] = {n0, n1, n2}, total = *count;
  const double *const a[3] = {u, v, w};
  double *const change[3] = {c0, c1, c2};
  for (int t = blockIdx.x * blockDim.x + threadIdx.x; t < total; t += gridDim.x * blockDim.x) {
    const ptrdiff_t c = list[t], r = c % st.s[2];
    const int at[3] = {(int)(r % st.s[1]) - EFSI_HALO, (int)(r / st.s[1]) - EFSI_HALO,
                       (int)(c / st.s[2]) - EFSI_HALO};
    for (int d = 0; d < 3; d++) {
      const int e1 = (d + 1) % 3, e2 = (d + 2) % 3;
      if (at[e1] < 0 || at[e1] >= n[e1] || at[e2] < 0 || at[e2] >= n[e2]) continue;
      const ptrdiff_t s = st.s[d];
      if (at[d] >= 0 && a[d][c] < 0)
        change[d][c] = thinc_flux_change(&st, f, c, d, a[d][c], beta, dt);
      if (at[d] < n[d] && a[d][c + s] >= 0)
        change[d][c + s] = thinc_flux_change(&st, f, c + s, d, a[d][c + s], beta, dt);
    }
  }
}

void advection_weno5_conservative_cuda(const efsi_grid *g, const double *f, const double *u,
                                       const double *v, const double *w, double thinc_beta,
                                       double dt, double *out)
{
  int lo[3], hi[3];
  box_owned(g, 0, lo, hi);
  const weno5_stencil_t st = weno5_stencil(g, LOC_CENTRE);
  /* WENO5's rate everywhere; then, with THINC, the interface cells of the owned cells and
   * their face neighbours listed, the flux change of each face whose upwind cell is one of
   * them computed once (full warps: only listed cells work), and each owned cell's six
   * summed.  Both change the WENO5 kernel in nothing, and only the listed cells pay for
   * THINC's exponentials. */
  for_box(g, lo, hi, "advection_weno5_conservative", [=] __device__(ptrdiff_t p) {
    out[p] = advection_conservative_at(&st, f, u, v, w, p);
  });
  if (!(thinc_beta > 0)) return;
  static cuda_buffer list_buffer = {NULL, 0, 0}, count_buffer = {NULL, 0, 0},
                     change_buffer = {NULL, 0, 0};
  const int wide_lo[3] = {-1, -1, -1}, wide_hi[3] = {g->n[0] + 1, g->n[1] + 1, g->n[2] + 1};
  ptrdiff_t *list = (ptrdiff_t *)cuda_grow(&list_buffer, g->size * sizeof(ptrdiff_t));
  int *count = (int *)cuda_grow(&count_buffer, sizeof(int));
  double *c0 = (double *)cuda_grow(&change_buffer, 3 * g->size * sizeof(double));
  double *c1 = c0 + g->size, *c2 = c1 + g->size;
  cudaStream_t stream = cuda_compute_stream();
  CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(int), stream));
  for_box(g, wide_lo, wide_hi, "advection_thinc_list", [=] __device__(ptrdiff_t p) {
    if (thinc_interface(f[p])) list[atomicAdd(count, 1)] = p;
  });
  thinc_faces_kernel<<<1024, 128, 0, stream>>>(st, f, u, v, w, list, count, g->n[0], g->n[1],
                                               g->n[2], thinc_beta, dt, c0, c1, c2);
  cuda_launched("advection_thinc_faces");
  for_box(g, lo, hi, "advection_thinc", [=] __device__(ptrdiff_t p) {
    const double c = thinc_correction_at(&st, f, u, v, w, c0, c1, c2, p);
    if (c != 0) out[p] += c;
  });
}
