/* Portability macros: one definition of per-item math, usable by every model.
 *   PP_HD            marks a function callable on host and device (CUDA/HIP).
 *   PP_BEGIN_DEVICE / PP_END_DEVICE  bracket such functions so OpenMP offload
 *                    compiles them for the device too (begin/end declare target).
 * Per-item math lives in an app header as `PP_HD static inline` functions
 * placed between PP_BEGIN_DEVICE and PP_END_DEVICE. */
#ifndef PP_PORTABLE_H
#define PP_PORTABLE_H

#if defined(__CUDACC__) || defined(__HIPCC__)
#define PP_HD __host__ __device__
#else
#define PP_HD
#endif

#if defined(_OPENMP) && !defined(__CUDACC__) && !defined(__HIPCC__) && defined(__clang__)
#define PP_BEGIN_DEVICE _Pragma("omp begin declare target")
#define PP_END_DEVICE _Pragma("omp end declare target")
#elif defined(_OPENMP) && !defined(__CUDACC__) && !defined(__HIPCC__)
/* GCC 12 lacks OpenMP 5.1's `begin declare target`; the 4.5 form means the same here. */
#define PP_BEGIN_DEVICE _Pragma("omp declare target")
#define PP_END_DEVICE _Pragma("omp end declare target")
#else
#define PP_BEGIN_DEVICE
#define PP_END_DEVICE
#endif

/* A macro's value as a string literal: PP_STR(SPMV_DEFAULT_VECTOR_LEN) -> "4". */
#define PP_STR_(x) #x
#define PP_STR(x) PP_STR_(x)

/* A pragma built from macro arguments: PP_PRAGMA(omp target ... clauses). */
#define PP_PRAGMA(...) _Pragma(#__VA_ARGS__)

#ifdef __cplusplus
#define PP_EXTERN_C_BEGIN extern "C" {
#define PP_EXTERN_C_END }
#define PP_RESTRICT __restrict__
#else
#define PP_EXTERN_C_BEGIN
#define PP_EXTERN_C_END
#define PP_RESTRICT restrict
#endif

#endif
