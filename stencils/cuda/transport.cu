/* The conservative transport of a volume fraction on the GPU, out = -div(a f) (formulas in
 * stencils/weno5.h).  Another algorithm than the CPU's (stencils/transport.c), because a
 * thread per cell would compute each face twice and make every warp pay for THINC's
 * exponentials where one cell needs them: here each face's WENO5 flux once, THINC's over it
 * for a list of the interface cells only, then each cell's difference of its faces. */
#include "stencils/cuda/launch.cuh"

extern "C" {
#include "stencils/kernel_list.h"
#include "stencils/loop.h"
}

/* The interface cells (thinc_interface) of the box of ni x nj x nk points from origin,
 * appended to list[*count ..]: a warp's cells take consecutive places, and a block's warps
 * one range taken by one atomic a block (an atomic a cell, on one address, costs as much as
 * the fluxes themselves).  The order is the blocks' arrival, which changes nothing: each
 * listed cell writes its own faces (thinc_fluxes_kernel). */
__global__ void thinc_list_kernel(int ni, int nj, ptrdiff_t origin, ptrdiff_t s1, ptrdiff_t s2,
                                  const double *f, ptrdiff_t *list, int *count)
{
  __shared__ int block_count, block_base;
  const int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
  const int lane = threadIdx.x & 31;   /* blockDim.x is a multiple of 32 */
  const ptrdiff_t p = origin + i + s1 * j + s2 * (ptrdiff_t)blockIdx.z;
  const int here = i < ni && j < nj && thinc_interface(f[p]);
  if (threadIdx.x == 0 && threadIdx.y == 0) block_count = 0;
  __syncthreads();
  const unsigned mask = __ballot_sync(0xffffffffu, here);
  int warp_base = 0;
  if (lane == 0 && mask) warp_base = atomicAdd(&block_count, __popc(mask));
  warp_base = __shfl_sync(0xffffffffu, warp_base, 0);
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0 && block_count)
    block_base = atomicAdd(count, block_count);
  __syncthreads();
  if (here) list[block_base + warp_base + __popc(mask & ((1u << lane) - 1))] = p;
}

/* THINC's fluxes (thinc_flux) over WENO5's: for every listed interface cell c (list[0 ..
 * *count)) and direction d, one thread overwrites the fluxes of the faces normal to d that c
 * is upwind of, the low face (index c) where the face velocity is negative and the high one
 * (c + s_d) where it is not, among the faces of owned cells (along d: faces 0 .. n_d;
 * across: owned rows).  Items go direction after direction, so a warp's threads take the
 * same direction.  One writer per face, so the fluxes do not depend on the list's order.
 * A grid-stride loop: the list's length stays on the device. */
__global__ void thinc_fluxes_kernel(weno5_stencil_t st, const double *f, const double *u,
                                    const double *v, const double *w, const ptrdiff_t *list,
                                    const int *count, int n0, int n1, int n2, double beta,
                                    double dt, double *flux_x, double *flux_y, double *flux_z)
{
  const int n[3] = {n0, n1, n2}, total = *count;
  const double *const a[3] = {u, v, w};
  double *const flux[3] = {flux_x, flux_y, flux_z};
  for (int t = blockIdx.x * blockDim.x + threadIdx.x; t < 3 * total;
       t += gridDim.x * blockDim.x) {
    const int d = t / total, e1 = (d + 1) % 3, e2 = (d + 2) % 3;
    const ptrdiff_t c = list[t - d * total], r = c % st.s[2];
    const int at[3] = {(int)(r % st.s[1]) - EFSI_HALO, (int)(r / st.s[1]) - EFSI_HALO,
                       (int)(c / st.s[2]) - EFSI_HALO};
    if (at[e1] < 0 || at[e1] >= n[e1] || at[e2] < 0 || at[e2] >= n[e2]) continue;
    const ptrdiff_t s = st.s[d];
    const double *ad = a[d];
    if (at[d] >= 0 && ad[c] < 0) flux[d][c] = thinc_flux(&st, f, c, d, ad[c], beta, dt);
    if (at[d] < n[d] && ad[c + s] >= 0)
      flux[d][c + s] = thinc_flux(&st, f, c + s, d, ad[c + s], beta, dt);
  }
}

void advection_weno5_conservative_cuda(const efsi_grid *g, const double *f, const double *u,
                                       const double *v, const double *w, double thinc_beta,
                                       double dt, double *out, efsi_scratch *scratch)
{
  int lo[3], hi[3];
  box_owned(g, 0, lo, hi);
  const weno5_stencil_t st = weno5_stencil(g, LOC_CENTRE);
  /* Face by face, each face once (the cell kernel of the CPU computes each twice): WENO5's
   * fluxes on the faces of the owned cells, one direction at a time; with THINC, the
   * interface cells of the owned cells and their face neighbours listed and their faces'
   * fluxes overwritten (full warps: only listed cells pay for THINC's exponentials); then
   * each cell's difference of its faces' fluxes. */
  double *flux_x = (double *)scratch_work(scratch, transport_scratch_bytes(g, thinc_beta > 0));
  double *flux_y = flux_x + g->size, *flux_z = flux_y + g->size;
  double *const flux[3] = {flux_x, flux_y, flux_z};
  const double *const a[3] = {u, v, w};
  for (int d = 0; d < 3; d++) {
    int face_hi[3] = {hi[0], hi[1], hi[2]};
    face_hi[d]++;
    const ptrdiff_t s = st.s[d];
    double *fd = flux[d];
    const double *ad = a[d];
    for_box(g, lo, face_hi, "advection_weno5_fluxes",
            [=] __device__(ptrdiff_t q) { fd[q] = weno5_flux(f, ad, q, s); });
  }
  if (thinc_beta > 0) {
    const int wide_lo[3] = {-1, -1, -1}, wide_hi[3] = {g->n[0] + 1, g->n[1] + 1, g->n[2] + 1};
    /* after the fluxes: the list, then its length */
    ptrdiff_t *list = (ptrdiff_t *)(flux_z + g->size);
    int *count = (int *)(list + g->size);
    cudaStream_t stream = cuda_compute_stream();
    CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(int), stream));
    const int ni = wide_hi[0] - wide_lo[0], nj = wide_hi[1] - wide_lo[1];
    thinc_list_kernel<<<cuda_box_grid(ni, nj, wide_hi[2] - wide_lo[2]),
                        dim3(CUDA_BLOCK_X, CUDA_BLOCK_Y), 0, stream>>>(
        ni, nj, grid_index(g, -1, -1, -1), g->stride[1], g->stride[2], f, list, count);
    cuda_launched("advection_thinc_list");
    /* enough threads for every item where the GPU holds them all at once: 2048 resident
     * threads a multiprocessor, 128 a block */
    thinc_fluxes_kernel<<<16 * cuda_multiprocessors(), 128, 0, stream>>>(
        st, f, u, v, w, list, count, g->n[0], g->n[1], g->n[2], thinc_beta, dt, flux_x, flux_y,
        flux_z);
    cuda_launched("advection_thinc_fluxes");
  }
  for_box(g, lo, hi, "advection_flux_divergence", [=] __device__(ptrdiff_t p) {
    out[p] = flux_divergence_at(&st, flux_x, flux_y, flux_z, p);
  });
}
