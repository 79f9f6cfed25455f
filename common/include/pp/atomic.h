/* Atomic read-modify-writes for per-item math that every model shares: an
 * OpenMP atomic in host, omp and ompx code, the native atomic in CUDA/HIP
 * device code. Use them inside PP_BEGIN_DEVICE / PP_END_DEVICE functions. */
#ifndef PP_ATOMIC_H
#define PP_ATOMIC_H
#include "pp/portable.h"
#ifdef __HIPCC__
#include <hip/hip_runtime.h> /* atomicAdd (nvcc includes its runtime itself) */
#endif

/* (clang's OpenMP NVPTX device pass defines __CUDA_ARCH__ too, not __CUDACC__) */
#if (defined(__CUDACC__) && defined(__CUDA_ARCH__)) || defined(__HIP_DEVICE_COMPILE__)
#define PP_ATOMIC_NATIVE_ 1 /* device pass of nvcc/hipcc */
#elif defined(__CUDACC__) || defined(__HIPCC__)
#define PP_ATOMIC_HOST_PASS_ 1 /* host pass of nvcc/hipcc: never called there */
#endif

PP_BEGIN_DEVICE
/* *p += v, atomically. */
PP_HD static inline void pp_atomic_add_d(double *p, double v) {
#if defined(PP_ATOMIC_NATIVE_)
  atomicAdd(p, v);
#elif defined(PP_ATOMIC_HOST_PASS_)
  *p += v; /* native files run this only on the device */
#else
#pragma omp atomic update
  *p += v;
#endif
}

/* Returns *p and adds v to it, atomically (claims v slots at once). */
PP_HD static inline unsigned long long pp_atomic_fetch_add_u64(unsigned long long *p,
                                                              unsigned long long v) {
#if defined(PP_ATOMIC_NATIVE_)
  return atomicAdd(p, v);
#elif defined(PP_ATOMIC_HOST_PASS_)
  unsigned long long k = *p; /* native files run this only on the device */
  *p += v;
  return k;
#else
  unsigned long long k;
#pragma omp atomic capture
  {
    k = *p;
    *p += v;
  }
  return k;
#endif
}

/* Returns *p and increments it, atomically (a slot index for compaction). */
PP_HD static inline unsigned long long pp_atomic_fetch_inc(unsigned long long *p) {
  return pp_atomic_fetch_add_u64(p, 1ull);
}
PP_END_DEVICE

#endif
