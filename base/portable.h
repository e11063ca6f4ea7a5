/* Per-point formulas are written once, in headers, and compiled both by the CPU kernels
 * (C11, OpenMP, SIMD) and by the CUDA kernels (CUDA C++): EFSI_POINT marks such a function
 * (inlined on both: a call inside a point loop stops its vectorisation), and restrict is
 * spelled for both languages. */
#ifndef EFSI_PORTABLE_H
#define EFSI_PORTABLE_H

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

#endif
