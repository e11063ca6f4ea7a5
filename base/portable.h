/* Per-point formulas are written once, in headers, and compiled both by the CPU kernels
 * (C11, OpenMP, SIMD) and by the CUDA kernels (CUDA C++): EFSI_POINT marks such a function
 * (inlined on both: a call inside a point loop stops its vectorisation), and restrict is
 * spelled for both languages; a double's bits are read and written by one pair of functions;
 * pi is defined here once. */
#ifndef EFSI_PORTABLE_H
#define EFSI_PORTABLE_H

#include <stdint.h>
#include <string.h>

#if defined(__CUDACC__)
#define EFSI_POINT static __host__ __device__ __forceinline__
#define restrict __restrict__
#elif defined(__GNUC__)
#define EFSI_POINT static inline __attribute__((always_inline))
#else
#define EFSI_POINT static inline
#endif

/* Before a short loop inside a point formula (over the three directions, say): unrolled
 * completely, as if written out, so that the point loop around it still vectorises (GCC's
 * vectoriser gives up on a loop nested in the point loop). */
#define EFSI_PRAGMA_STRING(text) #text
#if defined(__CUDA_ARCH__)
#define EFSI_UNROLL(n) _Pragma(EFSI_PRAGMA_STRING(unroll n))
#elif defined(__CUDACC__)
#define EFSI_UNROLL(n) /* the host pass of a CUDA source runs none of these loops */
#elif defined(__GNUC__)
#define EFSI_UNROLL(n) _Pragma(EFSI_PRAGMA_STRING(GCC unroll n))
#else
#define EFSI_UNROLL(n)
#endif

/* pi rounded to the nearest double, the one definition of efsi's sources (C11 has none:
 * M_PI is POSIX, not C). */
#define EFSI_PI 3.14159265358979323846

/* The bits of a double and the double of bits (memcpy: the one conversion both C and CUDA
 * C++ define, which the compilers turn into a register move). */
EFSI_POINT uint64_t double_bits(double x)
{
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  return bits;
}

EFSI_POINT double bits_double(uint64_t bits)
{
  double x;
  memcpy(&x, &bits, sizeof x);
  return x;
}

#endif
