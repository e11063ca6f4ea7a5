/* The SMAC path's exact Poisson solve on one GPU (docs/smac.md, "The SMAC path on the GPU";
 * the CPU's is verify/poisson_fft.c): lap(x) = rhs - <rhs>, <x> = 0, with the compact
 * 7-point Laplacian, x periodic, y and z periodic or wall.  The owned cells are packed into
 * a block A[k][j][i]; x is diagonalised by a real-to-complex FFT (cuFFT D2Z, modes
 * m = 0..Nx/2, each with the eigenvalue -(4/h^2) sin^2(pi m/N)); z by a complex FFT of the
 * strided lines in place (periodic) or, after a transpose that makes its lines contiguous, a
 * DCT-II (wall: FFTW's REDFT10, computed as the FFT of the even extension of length 2N times
 * exp(-i pi k/2N)); along y,
 * with x and z diagonal, either one more FFT and a division by the eigenvalues (periodic)
 * or the Neumann tridiagonal system per (m_x, m_z), both as the CPU does them.  Then the
 * inverse transforms (DCT-III as an inverse FFT of length 2N, Z2D) and the unpacking with
 * the transforms' normalisation.  On several GPUs the ranks' blocks are gathered through host
 * memory onto rank 0's GPU, solved there by the same plans, and scattered back, so the
 * solution is one GPU's to the bit on any number of GPUs. */
#include <cufft.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/cuda/cuda.cuh"

extern "C" {
#include "base/device.h"
#include "verify/poisson_cuda.h"
}

#define CUFFT_CHECK(call) do { cufftResult r_ = (call); if (r_ != CUFFT_SUCCESS) \
  efsi_abort(EFSI_EXIT_RUNTIME, "%s:%d: %s failed: cuFFT error %d", __FILE__, __LINE__, \
             #call, (int)r_); } while (0)

struct efsi_poisson_cuda {
  efsi_grid g;                       /* this rank's block */
  MPI_Comm comm;                     /* the decomposition's (several ranks) */
  int rank, size;
  /* several ranks: this rank's owned cells packed (device, and host for MPI); on rank 0 the
   * gathered blocks in rank order, the whole grid in block order, and where each rank's
   * block starts and how large it is */
  double *local, *local_host, *gathered, *whole_host;
  int *count, *displ, (*box)[6];     /* box: offset and cells of each rank's block */
  int n[3], mx;                      /* cells of the whole grid, and x modes n0/2 + 1 */
  int periodic[3];
  double *block;                     /* A[k][j][i], n0 n1 n2 doubles */
  cufftDoubleComplex *spectrum;      /* C[k][j][m] */
  cufftDoubleComplex *lines;         /* z or y lines made contiguous (twice the length at a
                                        z wall: the even extension) */
  double *sweep;                     /* Thomas coefficients, one per (line, j) */
  double *eigen[3];                  /* eigenvalue of mode m along d */
  double scale;                      /* 1 / product of the transforms' normalisations */
  cufftHandle x_forward, x_backward, z_plan, y_plan;
};

static double *device_doubles(size_t n)
{
  double *p;
  CUDA_CHECK(cudaMalloc((void **)&p, (n > 0 ? n : 1) * sizeof *p));
  return p;
}

static cufftDoubleComplex *device_complex(size_t n)
{
  cufftDoubleComplex *p;
  CUDA_CHECK(cudaMalloc((void **)&p, (n > 0 ? n : 1) * sizeof *p));
  return p;
}

static dim3 blocks_for(long n) { return dim3((unsigned)((n + 255) / 256)); }

/* A[k][j][i] <-> the owned cells of a field (to_block = 1: field -> block). */
__global__ void block_kernel(int n0, int n1, long cells, ptrdiff_t origin, ptrdiff_t s1,
                             ptrdiff_t s2, double *field, double *block, double scale,
                             int to_block)
{
  const long q = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (q >= cells) return;
  const int i = (int)(q % n0);
  const long rest = q / n0;
  const int j = (int)(rest % n1), k = (int)(rest / n1);
  const ptrdiff_t p = origin + i + s1 * j + s2 * k;
  if (to_block) block[q] = field[p];
  else field[p] = scale * block[q];
}

/* C[k][j][m] <-> lines along z at a wall, L[(j mx + m) 2 n2 + k], where the forward transform
 * mirrors the line into its second half (the even extension). */
__global__ void z_lines_kernel(int mx, int n1, int n2, cufftDoubleComplex *c,
                               cufftDoubleComplex *lines, int mirror, int to_lines)
{
  const long q = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (q >= (long)mx * n1 * n2) return;
  const int m = (int)(q % mx);
  const long rest = q / mx;
  const int j = (int)(rest % n1), k = (int)(rest / n1);
  const long line = (long)j * mx + m, len = 2L * n2;
  cufftDoubleComplex *at = &lines[line * len + k];
  if (to_lines) {
    *at = c[q];
    if (mirror) lines[line * len + 2 * n2 - 1 - k] = c[q];
  } else {
    c[q] = *at;
  }
}

/* At a z wall, after the forward FFT of the extension: X_k = exp(-i pi k/2N) F_k (REDFT10);
 * before the inverse: G_k = w_k X_k exp(i pi k/2N), G_{2N-k} = X_k exp(-i pi k/2N),
 * G_N = 0 (w_0 = 1/2 folds the two k = 0 terms), so that the inverse FFT gives REDFT01. */
__global__ void dct_twiddle_kernel(long nlines, int n2, cufftDoubleComplex *lines, int forward)
{
  const long q = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (q >= nlines * n2) return;
  const long line = q / n2;
  const int k = (int)(q % n2);
  cufftDoubleComplex *l = lines + line * 2 * n2;
  const double angle = M_PI * k / (2.0 * n2);
  const double c = cos(angle), s = sin(angle);
  const cufftDoubleComplex x = l[k];
  if (forward) {
    l[k].x = c * x.x + s * x.y;           /* x exp(-i angle) */
    l[k].y = c * x.y - s * x.x;
  } else {
    const double w = k == 0 ? 0.5 : 1.0;
    l[k].x = w * (c * x.x - s * x.y);     /* w x exp(+i angle) */
    l[k].y = w * (c * x.y + s * x.x);
    if (k > 0) {
      l[2 * n2 - k].x = c * x.x + s * x.y;
      l[2 * n2 - k].y = c * x.y - s * x.x;
    } else {
      l[n2].x = 0.0;
      l[n2].y = 0.0;
    }
  }
}

/* Periodic y: C[k][j][m] <-> Y[(k mx + m) n1 + j]; on the way back, divided by the sum of
 * the three eigenvalues (the zero mode set to 0, which is <x> = 0). */
__global__ void y_lines_kernel(int mx, int n1, int n2, cufftDoubleComplex *c,
                               cufftDoubleComplex *lines, int to_lines)
{
  const long q = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (q >= (long)mx * n1 * n2) return;
  const int m = (int)(q % mx);
  const long rest = q / mx;
  const int j = (int)(rest % n1), k = (int)(rest / n1);
  cufftDoubleComplex *at = &lines[((long)k * mx + m) * n1 + j];
  if (to_lines) *at = c[q];
  else c[q] = *at;
}

__global__ void divide_kernel(int mx, int n1, int n2, cufftDoubleComplex *lines,
                              const double *ex, const double *ey, const double *ez, double scale)
{
  const long q = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (q >= (long)mx * n1 * n2) return;
  const int j = (int)(q % n1);
  const long line = q / n1;
  const int m = (int)(line % mx), k = (int)(line / mx);
  if (m == 0 && k == 0 && j == 0) {
    lines[q].x = 0.0;
    lines[q].y = 0.0;
    return;
  }
  const double factor = scale / (ex[m] + ez[k] + ey[j]);
  lines[q].x *= factor;
  lines[q].y *= factor;
}

/* Wall in y: the Neumann system of each line (m, k) of C, as verify/poisson_fft.c solves it
 * (thomas_neumann, solve_tridiagonal_y), on the real and imaginary parts alike: the same
 * operations in the same order as there, so the same bits, arranged for the GPU.  One thread
 * a line holds both parts (a warp reads 32 neighbouring complex values at once), scales the
 * right-hand side inside the forward sweep, and keeps the Thomas coefficients in
 * sweep[j * lines + line] (a warp's in one segment).  A line is a chain of n1 dependent steps
 * and there are only mx n2 lines (8320 at 128^3), too few threads to hide a load's latency:
 * each sweep reads TRIDIAGONAL_CHUNK values of its line before it works on them, so that
 * their loads overlap. */
enum { TRIDIAGONAL_CHUNK = 8 };

__global__ void tridiagonal_kernel(int mx, int n1, int n2, cufftDoubleComplex *c,
                                   const double *ex, const double *ez, double hh,
                                   double r_scale, double *sweep)
{
  const long line = blockIdx.x * (long)blockDim.x + threadIdx.x, lines = (long)mx * n2;
  if (line >= lines) return;
  const int m = (int)(line % mx), k = (int)(line / mx);
  cufftDoubleComplex *const r = c + (long)k * n1 * mx + m;   /* R(j) = r[j mx] */
  const int pinned = m == 0 && k == 0;
  const double diag = -2.0 + hh * (ex[m] + ez[k]);
  double mean_x = 0.0, mean_y = 0.0;
  if (pinned) {
    for (int j = 0; j < n1; j++) {
      mean_x += r[(long)j * mx].x;
      mean_y += r[(long)j * mx].y;
    }
    mean_x /= n1;
    mean_y /= n1;
  }
  /* forward: R(j) = ((R(j) - mean) r_scale - R(j-1)) cc(j) */
  const double b0 = pinned ? 1.0 : diag + 1.0 + (n1 == 1);
  double cc = (pinned ? 0.0 : 1.0) / b0;
  sweep[line] = cc;
  double x = (r[0].x - mean_x) * r_scale, y = (r[0].y - mean_y) * r_scale;
  if (pinned) x = y = 0.0;
  x /= b0;
  y /= b0;
  r[0].x = x;
  r[0].y = y;
  for (int j0 = 1; j0 < n1; j0 += TRIDIAGONAL_CHUNK) {
    cufftDoubleComplex v[TRIDIAGONAL_CHUNK];
#pragma unroll
    for (int t = 0; t < TRIDIAGONAL_CHUNK; t++)
      if (j0 + t < n1) v[t] = r[(long)(j0 + t) * mx];
#pragma unroll
    for (int t = 0; t < TRIDIAGONAL_CHUNK; t++) {
      const int j = j0 + t;
      if (j >= n1) break;
      cc = 1.0 / (diag + (j == n1 - 1) - cc);
      sweep[j * lines + line] = cc;
      x = ((v[t].x - mean_x) * r_scale - x) * cc;
      y = ((v[t].y - mean_y) * r_scale - y) * cc;
      v[t].x = x;
      v[t].y = y;
    }
#pragma unroll
    for (int t = 0; t < TRIDIAGONAL_CHUNK; t++)
      if (j0 + t < n1) r[(long)(j0 + t) * mx] = v[t];
  }
  /* backward: R(j) -= cc(j) R(j+1) */
  for (int j1 = n1 - 2; j1 >= 0; j1 -= TRIDIAGONAL_CHUNK) {
    cufftDoubleComplex v[TRIDIAGONAL_CHUNK];
    double cj[TRIDIAGONAL_CHUNK];
#pragma unroll
    for (int t = 0; t < TRIDIAGONAL_CHUNK; t++)
      if (j1 - t >= 0) {
        v[t] = r[(long)(j1 - t) * mx];
        cj[t] = sweep[(j1 - t) * lines + line];
      }
#pragma unroll
    for (int t = 0; t < TRIDIAGONAL_CHUNK; t++) {
      if (j1 - t < 0) break;
      x = v[t].x - cj[t] * x;
      y = v[t].y - cj[t] * y;
      v[t].x = x;
      v[t].y = y;
    }
#pragma unroll
    for (int t = 0; t < TRIDIAGONAL_CHUNK; t++)
      if (j1 - t >= 0) r[(long)(j1 - t) * mx] = v[t];
  }
  if (pinned) {
    double x_mean = 0.0, y_mean = 0.0;
    for (int j = 0; j < n1; j++) {
      x_mean += r[(long)j * mx].x;
      y_mean += r[(long)j * mx].y;
    }
    x_mean /= n1;
    y_mean /= n1;
    for (int j = 0; j < n1; j++) {
      r[(long)j * mx].x -= x_mean;
      r[(long)j * mx].y -= y_mean;
    }
  }
}

static void launched(const char *name) { cuda_launched(name); }

static double *host_doubles(size_t n)
{
  double *p = (double *)malloc((n > 0 ? n : 1) * sizeof *p);
  if (!p) efsi_abort(EFSI_EXIT_RUNTIME, "poisson (GPU): out of host memory for %zu doubles", n);
  return p;
}

/* Several ranks: the buffers of the gather, and on rank 0 where each block goes. */
static void create_gather(efsi_poisson_cuda *ps, const efsi_grid *g)
{
  const long local = (long)g->n[0] * g->n[1] * g->n[2];
  const double whole = (double)g->global_n[0] * g->global_n[1] * g->global_n[2];
  if (whole > INT_MAX)
    efsi_abort(EFSI_EXIT_INPUT, "pressure.method = smac on several GPUs gathers the grid on one "
               "GPU: at most %d cells, the grid has %.0f", INT_MAX, whole);
  ps->local = device_doubles((size_t)local);
  CUDA_CHECK(cudaMallocHost((void **)&ps->local_host, (size_t)(local > 0 ? local : 1) * sizeof(double)));
  int mine[6] = {g->offset[0], g->offset[1], g->offset[2], g->n[0], g->n[1], g->n[2]};
  if (ps->rank == 0) {
    ps->box = (int (*)[6])calloc((size_t)ps->size, sizeof *ps->box);
    ps->count = (int *)calloc((size_t)ps->size, sizeof *ps->count);
    ps->displ = (int *)calloc((size_t)ps->size, sizeof *ps->displ);
    if (!ps->box || !ps->count || !ps->displ)
      efsi_abort(EFSI_EXIT_RUNTIME, "poisson (GPU): out of memory");
    ps->gathered = host_doubles((size_t)whole);
    ps->whole_host = host_doubles((size_t)whole);
  }
  MPI_CHECK(MPI_Gather(mine, 6, MPI_INT, ps->box, 6, MPI_INT, 0, ps->comm));
  if (ps->rank == 0)
    for (int r = 0, at = 0; r < ps->size; r++) {
      ps->count[r] = ps->box[r][3] * ps->box[r][4] * ps->box[r][5];
      ps->displ[r] = at;
      at += ps->count[r];
    }
}

efsi_poisson_cuda *poisson_cuda_create(const efsi_grid *g, const efsi_decomp *dec)
{
  efsi_poisson_cuda *ps = (efsi_poisson_cuda *)calloc(1, sizeof *ps);
  if (!ps) efsi_abort(EFSI_EXIT_RUNTIME, "poisson (GPU): out of memory");
  ps->g = *g;
  ps->comm = dec->comm;
  ps->rank = dec->rank;
  ps->size = dec->size;
  for (int dir = 0; dir < 3; dir++) {
    ps->n[dir] = g->global_n[dir];
    ps->periodic[dir] = dir == 0 || dec->periodic[dir];
  }
  if (ps->size > 1) create_gather(ps, g);
  /* the spectral solve runs on rank 0 alone */
  if (ps->rank != 0) return ps;
  const int n0 = ps->n[0], n1 = ps->n[1], n2 = ps->n[2];
  ps->mx = n0 / 2 + 1;
  const long modes = (long)ps->mx * n1 * n2;
  ps->block = device_doubles((size_t)n0 * n1 * n2);
  ps->spectrum = device_complex((size_t)modes);
  ps->lines = device_complex((size_t)modes * 2);
  ps->scale = 1.0;
  for (int d = 0; d < 3; d++) {
    const int n = ps->n[d], period = ps->periodic[d] ? n : 2 * n;
    double *host = (double *)malloc((size_t)n * sizeof *host);
    for (int m = 0; m < n; m++) {
      const double s = sin(M_PI * m / period);
      host[m] = -4.0 * g->inv_h[d] * g->inv_h[d] * s * s;
    }
    ps->eigen[d] = device_doubles((size_t)n);
    CUDA_CHECK(cudaMemcpy(ps->eigen[d], host, (size_t)n * sizeof *host, cudaMemcpyHostToDevice));
    free(host);
    if (d != 1 || ps->periodic[1]) ps->scale /= period;
  }
  if (!ps->periodic[1]) ps->sweep = device_doubles((size_t)ps->mx * n2 * n1);
  cudaStream_t stream = cuda_compute_stream();
  CUFFT_CHECK(cufftPlanMany(&ps->x_forward, 1, &ps->n[0], NULL, 1, n0, NULL, 1, ps->mx,
                            CUFFT_D2Z, n1 * n2));
  CUFFT_CHECK(cufftPlanMany(&ps->x_backward, 1, &ps->n[0], NULL, 1, ps->mx, NULL, 1, n0,
                            CUFFT_Z2D, n1 * n2));
  if (ps->periodic[2]) {   /* in place on C[k][j][m]: lines of stride mx n1 */
    int zlen = n2;
    CUFFT_CHECK(cufftPlanMany(&ps->z_plan, 1, &zlen, &zlen, ps->mx * n1, 1, &zlen, ps->mx * n1,
                              1, CUFFT_Z2Z, ps->mx * n1));
  } else {                 /* the even extensions, contiguous */
    int zlen = 2 * n2;
    CUFFT_CHECK(cufftPlanMany(&ps->z_plan, 1, &zlen, NULL, 1, zlen, NULL, 1, zlen, CUFFT_Z2Z,
                              ps->mx * n1));
  }
  if (ps->periodic[1])
    CUFFT_CHECK(cufftPlanMany(&ps->y_plan, 1, &ps->n[1], NULL, 1, n1, NULL, 1, n1, CUFFT_Z2Z,
                              ps->mx * n2));
  CUFFT_CHECK(cufftSetStream(ps->x_forward, stream));
  CUFFT_CHECK(cufftSetStream(ps->x_backward, stream));
  CUFFT_CHECK(cufftSetStream(ps->z_plan, stream));
  if (ps->periodic[1]) CUFFT_CHECK(cufftSetStream(ps->y_plan, stream));
  return ps;
}

void poisson_cuda_free(efsi_poisson_cuda *ps)
{
  if (!ps) return;
  cudaFree(ps->local);
  cudaFreeHost(ps->local_host);
  free(ps->gathered);
  free(ps->whole_host);
  free(ps->box);
  free(ps->count);
  free(ps->displ);
  if (ps->rank != 0) {
    free(ps);
    return;
  }
  cufftDestroy(ps->x_forward);
  cufftDestroy(ps->x_backward);
  cufftDestroy(ps->z_plan);
  if (ps->periodic[1]) cufftDestroy(ps->y_plan);
  cudaFree(ps->block);
  cudaFree(ps->spectrum);
  cudaFree(ps->lines);
  cudaFree(ps->sweep);
  for (int d = 0; d < 3; d++) cudaFree(ps->eigen[d]);
  free(ps);
}

/* Along z, forward or backward: periodic, a complex FFT of the strided lines of C in place
 * (cuFFT's advanced layout: no copies); at a wall, the DCT-II / DCT-III pair through the
 * lines' even extensions. */
static void transform_z(efsi_poisson_cuda *ps, int forward)
{
  cudaStream_t stream = cuda_compute_stream();
  const int mx = ps->mx, n1 = ps->n[1], n2 = ps->n[2], wall = !ps->periodic[2];
  const long modes = (long)mx * n1 * n2;
  if (!wall) {
    CUFFT_CHECK(cufftExecZ2Z(ps->z_plan, ps->spectrum, ps->spectrum,
                             forward ? CUFFT_FORWARD : CUFFT_INVERSE));
    return;
  }
  z_lines_kernel<<<blocks_for(modes), 256, 0, stream>>>(mx, n1, n2, ps->spectrum, ps->lines,
                                                         forward, 1);
  launched("poisson: z lines");
  if (!forward) {
    dct_twiddle_kernel<<<blocks_for(modes), 256, 0, stream>>>((long)mx * n1, n2, ps->lines, 0);
    launched("poisson: DCT-III twiddle");
  }
  CUFFT_CHECK(cufftExecZ2Z(ps->z_plan, ps->lines, ps->lines,
                           forward ? CUFFT_FORWARD : CUFFT_INVERSE));
  if (forward) {
    dct_twiddle_kernel<<<blocks_for(modes), 256, 0, stream>>>((long)mx * n1, n2, ps->lines, 1);
    launched("poisson: DCT-II twiddle");
  }
  z_lines_kernel<<<blocks_for(modes), 256, 0, stream>>>(mx, n1, n2, ps->spectrum, ps->lines,
                                                         0, 0);
  launched("poisson: z lines back");
}

/* The owned cells of a field of this rank's grid <-> a block A[k][j][i] on the device. */
static void pack(const efsi_poisson_cuda *ps, double *field, double *block, int to_block)
{
  const efsi_grid *g = &ps->g;
  const long cells = (long)g->n[0] * g->n[1] * g->n[2];
  block_kernel<<<blocks_for(cells), 256, 0, cuda_compute_stream()>>>(
      g->n[0], g->n[1], cells, grid_index(g, 0, 0, 0), g->stride[1], g->stride[2], field, block,
      1.0, to_block);
  launched(to_block ? "poisson: pack" : "poisson: unpack");
}

/* Rank 0: the gathered blocks (rank order) <-> the whole grid's block (to_whole = 1: into it). */
static void arrange(efsi_poisson_cuda *ps, int to_whole)
{
  const long n0 = ps->n[0], n1 = ps->n[1];
  for (int r = 0; r < ps->size; r++) {
    const int *b = ps->box[r];
    double *part = ps->gathered + ps->displ[r];
    for (int k = 0; k < b[5]; k++)
      for (int j = 0; j < b[4]; j++) {
        double *row = ps->whole_host + ((long)(b[2] + k) * n1 + b[1] + j) * n0 + b[0];
        double *own = part + ((long)k * b[4] + j) * b[3];
        if (to_whole) memcpy(row, own, (size_t)b[3] * sizeof *row);
        else memcpy(own, row, (size_t)b[3] * sizeof *row);
      }
  }
}

static void solve_block(efsi_poisson_cuda *ps);

void poisson_cuda_solve(efsi_poisson_cuda *ps, const double *rhs, double *x)
{
  if (ps->size == 1) {
    pack(ps, (double *)rhs, ps->block, 1);
    solve_block(ps);
    pack(ps, x, ps->block, 0);
    return;
  }
  /* several GPUs: through host memory to rank 0's GPU and back (docs/smac.md) */
  const efsi_grid *g = &ps->g;
  const int local = g->n[0] * g->n[1] * g->n[2];
  pack(ps, (double *)rhs, ps->local, 1);
  device_download(ps->local_host, ps->local, (size_t)local);
  MPI_CHECK(MPI_Gatherv(ps->local_host, local, MPI_DOUBLE, ps->gathered, ps->count, ps->displ,
                        MPI_DOUBLE, 0, ps->comm));
  if (ps->rank == 0) {
    const size_t whole = (size_t)ps->n[0] * ps->n[1] * ps->n[2];
    arrange(ps, 1);
    device_upload(ps->block, ps->whole_host, whole);
    solve_block(ps);
    device_download(ps->whole_host, ps->block, whole);
    arrange(ps, 0);
  }
  MPI_CHECK(MPI_Scatterv(ps->gathered, ps->count, ps->displ, MPI_DOUBLE, ps->local_host, local,
                         MPI_DOUBLE, 0, ps->comm));
  device_upload(ps->local, ps->local_host, (size_t)local);
  pack(ps, x, ps->local, 0);
}

/* The spectral solve of the whole grid's block, in place (rank 0). */
static void solve_block(efsi_poisson_cuda *ps)
{
  cudaStream_t stream = cuda_compute_stream();
  const efsi_grid *g = &ps->g;
  const int n1 = ps->n[1], n2 = ps->n[2], mx = ps->mx;
  const long modes = (long)mx * n1 * n2;
  CUFFT_CHECK(cufftExecD2Z(ps->x_forward, ps->block, ps->spectrum));
  transform_z(ps, 1);
  if (ps->periodic[1]) {
    y_lines_kernel<<<blocks_for(modes), 256, 0, stream>>>(mx, n1, n2, ps->spectrum, ps->lines, 1);
    launched("poisson: y lines");
    CUFFT_CHECK(cufftExecZ2Z(ps->y_plan, ps->lines, ps->lines, CUFFT_FORWARD));
    divide_kernel<<<blocks_for(modes), 256, 0, stream>>>(mx, n1, n2, ps->lines, ps->eigen[0],
                                                         ps->eigen[1], ps->eigen[2], ps->scale);
    launched("poisson: divide by the eigenvalues");
    CUFFT_CHECK(cufftExecZ2Z(ps->y_plan, ps->lines, ps->lines, CUFFT_INVERSE));
    y_lines_kernel<<<blocks_for(modes), 256, 0, stream>>>(mx, n1, n2, ps->spectrum, ps->lines, 0);
    launched("poisson: y lines back");
  } else {
    const double hh = g->h[1] * g->h[1];
    tridiagonal_kernel<<<blocks_for((long)mx * n2), 256, 0, stream>>>(
        mx, n1, n2, ps->spectrum, ps->eigen[0], ps->eigen[2], hh, hh * ps->scale, ps->sweep);
    launched("poisson: tridiagonal along y");
  }
  transform_z(ps, 0);
  CUFFT_CHECK(cufftExecZ2D(ps->x_backward, ps->spectrum, ps->block));
}
