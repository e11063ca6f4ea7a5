/* The step's update of a volume fraction on the GPU, next = f - dt div(a f) (formulas in
 * stencils/weno5.h; phi_advance, stencils/kernel_list.h).  Another algorithm than the CPU's
 * (stencils/transport.c), because a thread per cell would compute each face twice and make
 * every warp pay for THINC's exponentials where one cell needs them: here each face's WENO5
 * flux once, THINC's over it for a list of the interface cells only, then each cell's
 * difference of its faces and the update.  The fluxes and the list live in four arrays the
 * caller lends (the solver's stress arrays, free while the solid moves). */
#include "stencils/cuda/launch.cuh"

extern "C" {
#include "stencils/kernel_list.h"
#include "stencils/loop.h"
}

/* One thread per point (i, j, k) of the box -1..n in every direction (box b, from the point
 * (-1, -1, -1)): WENO5's flux (weno5_flux) on each face of the owned cells that the point
 * is, along each direction d (0 <= i_d <= n_d, 0 <= i_e < n_e across), in flux_d; and with
 * THINC (thinc 1) the point appended to list[*length ..] when it is an interface cell
 * (thinc_interface): a warp's cells take consecutive places, and a block's warps one range
 * taken by one atomic a block (an atomic a cell, on one address, costs as much as the
 * fluxes themselves).  The list's order is the blocks' arrival, which changes nothing: each
 * listed cell writes its own faces (thinc_fluxes_kernel).  One launch where there were
 * three (a direction's fluxes each) and a fourth for the list. */
__global__ void phi_fluxes_kernel(weno5_stencil_t st, int n0, int n1, int n2, cuda_box b,
                                  const double *f, const double *u, const double *v,
                                  const double *w, double *flux_x, double *flux_y,
                                  double *flux_z, int thinc, int *length, ptrdiff_t *list)
{
  int i, j;
  const int inside = cuda_box_place(b, &i, &j);
  const ptrdiff_t p = cuda_box_index(b, i, j);
  i -= 1, j -= 1;
  const int k = (int)blockIdx.z - 1;
  if (inside) {
    const int across_x = j >= 0 && j < n1 && k >= 0 && k < n2;
    const int across_y = i >= 0 && i < n0 && k >= 0 && k < n2;
    const int across_z = i >= 0 && i < n0 && j >= 0 && j < n1;
    if (i >= 0 && across_x) flux_x[p] = weno5_flux(f, u, p, st.s[0]);
    if (j >= 0 && across_y) flux_y[p] = weno5_flux(f, v, p, st.s[1]);
    if (k >= 0 && across_z) flux_z[p] = weno5_flux(f, w, p, st.s[2]);
  }
  if (!thinc) return;   /* the same for every thread of the launch */
  __shared__ int block_count, block_base;
  const int lane = threadIdx.x & 31;   /* blockDim.x is a multiple of 32 */
  const int here = inside && thinc_interface(f[p]);
  if (threadIdx.x == 0 && threadIdx.y == 0) block_count = 0;
  __syncthreads();
  const unsigned mask = __ballot_sync(0xffffffffu, here);
  int warp_base = 0;
  if (lane == 0 && mask) warp_base = atomicAdd(&block_count, __popc(mask));
  warp_base = __shfl_sync(0xffffffffu, warp_base, 0);
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0 && block_count)
    block_base = atomicAdd(length, block_count);
  __syncthreads();
  if (here) list[block_base + warp_base + __popc(mask & ((1u << lane) - 1))] = p;
}

/* THINC's fluxes (thinc_flux) over WENO5's: for every listed interface cell c (list[0 ..
 * *length)) and direction d, one thread overwrites the fluxes of the faces normal to d that c
 * is upwind of, the low face (index c) where the face velocity is negative and the high one
 * (c + s_d) where it is not, among the faces of owned cells (along d: faces 0 .. n_d;
 * across: owned rows).  Items go direction after direction, so a warp's threads take the
 * same direction.  One writer per face, so the fluxes do not depend on the list's order.
 * A grid-stride loop: the list's length stays on the device. */
__global__ void thinc_fluxes_kernel(weno5_stencil_t st, const double *f, const double *u,
                                    const double *v, const double *w, const int *length,
                                    const ptrdiff_t *list, int n0, int n1, int n2, double beta,
                                    double dt, double *flux_x, double *flux_y, double *flux_z)
{
  const int n[3] = {n0, n1, n2}, total = *length;
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

void phi_advance_cuda(const efsi_grid *g, const double *f, const double *u, const double *v,
                      const double *w, double thinc_beta, double dt, double *next,
                      double *const work[4])
{
  int lo[3], hi[3];
  box_owned(g, 0, lo, hi);
  const weno5_stencil_t st = weno5_stencil(g, LOC_CENTRE);
  /* Face by face, each face once (the cell kernel of the CPU computes each twice): WENO5's
   * fluxes on the faces of the owned cells and, with THINC, the list of the interface cells
   * of the owned cells and their face neighbours, in one launch; then the listed cells'
   * faces' fluxes overwritten (full warps: only listed cells pay for THINC's exponentials);
   * then each cell's difference of its faces' fluxes, and the update f + dt rate. */
  double *flux_x = work[0], *flux_y = work[1], *flux_z = work[2];
  /* the list's length in the fourth array's first place, set to zero first, then the list
   * (a point index a double's place; at most the (n + 2)^3 cells of the box, fewer than the
   * array's places) */
  static_assert(sizeof(ptrdiff_t) == sizeof(double), "one index in a double's place");
  int *length = (int *)work[3];
  ptrdiff_t *list = (ptrdiff_t *)work[3] + 1;
  const int thinc = thinc_beta > 0;
  cudaStream_t stream = cuda_compute_stream();
  if (thinc) CUDA_CHECK(cudaMemsetAsync(length, 0, sizeof *length, stream));
  const int n0 = g->n[0], n1 = g->n[1], n2 = g->n[2];
  const cuda_box box = cuda_box_of(n0 + 2, n1 + 2, grid_index(g, -1, -1, -1), g->stride[1],
                                   g->stride[2]);
  phi_fluxes_kernel<<<cuda_box_blocks(box, n2 + 2), dim3(CUDA_BLOCK_X, CUDA_BLOCK_Y), 0,
                      stream>>>(st, n0, n1, n2, box, f, u, v, w, flux_x, flux_y, flux_z, thinc,
                                length, list);
  cuda_launched("phi_advance_fluxes");
  if (thinc) {
    /* enough threads for every item where the GPU holds them all at once: 2048 resident
     * threads a multiprocessor, 128 a block */
    thinc_fluxes_kernel<<<16 * cuda_multiprocessors(), 128, 0, stream>>>(
        st, f, u, v, w, length, list, n0, n1, n2, thinc_beta, dt, flux_x, flux_y, flux_z);
    cuda_launched("phi_advance_thinc_fluxes");
  }
  for_box(g, lo, hi, "phi_advance_update", [=] __device__(ptrdiff_t p) {
    next[p] = axpy_at(f[p], dt, flux_divergence_at(&st, flux_x, flux_y, flux_z, p));
  });
}
