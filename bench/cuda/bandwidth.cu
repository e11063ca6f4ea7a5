/* The GPU's two ceilings for bench/bench --device gpu (docs/performance-gpu.md): the memory
 * bandwidth of a plain copy kernel (bytes read plus bytes written over 2 GiB of double
 * precision data, the median of 20 timed runs after a warm-up) and the FP64 rate of a
 * register-resident multiply-add loop.  Prints one JSON object.
 *   bench/efsi-gpu-bandwidth [--json] */
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  fprintf(stderr, "efsi-gpu-bandwidth: %s: %s\n", #call, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void copy_kernel(const double *__restrict__ x, double *__restrict__ y, size_t n)
{
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    y[i] = x[i];
}

/* 8 independent chains of fused multiply-adds per thread: 2 flops each. */
__global__ void fma_kernel(double *out, int iterations)
{
  double a[8];
  for (int c = 0; c < 8; c++) a[c] = threadIdx.x * 1e-9 + c;
  const double m = 0.999999, s = 1e-7;
  for (int k = 0; k < iterations; k++)
#pragma unroll
    for (int c = 0; c < 8; c++) a[c] = fma(a[c], m, s);
  double sum = 0;
  for (int c = 0; c < 8; c++) sum += a[c];
  if (sum == 12345.678) out[0] = sum;   /* keeps the loop alive */
}

static double median(std::vector<float> v)
{
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main()
{
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const size_t n = (size_t)1 << 27;            /* 1 GiB per buffer */
  double *x, *y;
  CHECK(cudaMalloc(&x, n * sizeof(double)));
  CHECK(cudaMalloc(&y, n * sizeof(double)));
  CHECK(cudaMemset(x, 1, n * sizeof(double)));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  const int blocks = prop.multiProcessorCount * 8;
  std::vector<float> copies;
  for (int r = 0; r < 22; r++) {
    CHECK(cudaEventRecord(start));
    copy_kernel<<<blocks, 512>>>(x, y, n);
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    if (r >= 2) copies.push_back(ms);
  }
  const double copy_gbs = 2.0 * n * sizeof(double) / (median(copies) * 1e-3) * 1e-9;
  const int iterations = 4096, threads = 256, fma_blocks = prop.multiProcessorCount * 16;
  std::vector<float> fmas;
  for (int r = 0; r < 7; r++) {
    CHECK(cudaEventRecord(start));
    fma_kernel<<<fma_blocks, threads>>>(y, iterations);
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    if (r >= 2) fmas.push_back(ms);
  }
  const double flops = 2.0 * 8 * iterations * (double)threads * fma_blocks;
  const double fp64 = flops / (median(fmas) * 1e-3) * 1e-9;
  printf("{\"device\": \"%s\", \"multiprocessors\": %d, \"memory_gib\": %.1f, "
         "\"bandwidth_gbs\": %.1f, \"fp64_gflops\": %.0f}\n", prop.name,
         prop.multiProcessorCount, prop.totalGlobalMem / 1073741824.0, copy_gbs, fp64);
  cudaFree(x);
  cudaFree(y);
  return 0;
}
