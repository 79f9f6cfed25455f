/* microbench: the kernels every model implements, and their per-element math. */
#ifndef MICROBENCH_H
#define MICROBENCH_H
#include <stddef.h>
#include "pp/portable.h"
#include "pp/model.h"
PP_EXTERN_C_BEGIN

/* The stream scalar: 3/8 rather than BabelStream's 0.4, so that with inputs
 * that are multiples of 1/8 every result (axpy, stream kernels, dot, sums) is
 * exactly representable and each model is checked bit for bit, whatever its
 * summation order or FMA contraction. */
#define MB_SCALAR 0.375
#define MB_AXPY_A 1.25
/* Launches in the launch-overhead chain, and elements each one updates. */
#define MB_CHAIN_KERNELS 100
#define MB_CHAIN_LEN 1024

/* Every pointer is device memory of the model. n elements, tpb threads per
 * block/team (the model maps it to its launch shape). Reductions return the
 * result on the host; `scratch` is device memory of mb_scratch_len(n, tpb)
 * doubles for partial results. */
typedef struct mb_kernels {
  void (*fill_zero)(double *a, size_t n, int tpb);
  void (*axpy_d)(double *z, double a, const double *x, const double *y, size_t n, int tpb);
  void (*axpy_f)(float *z, float a, const float *x, const float *y, size_t n, int tpb);
  void (*axpy_i)(int *z, int a, const int *x, const int *y, size_t n, int tpb);
  void (*copy)(double *c, const double *a, size_t n, int tpb);
  void (*mul)(double *b, const double *c, size_t n, int tpb);
  void (*add)(double *c, const double *a, const double *b, size_t n, int tpb);
  void (*triad)(double *a, const double *b, const double *c, size_t n, int tpb);
  double (*dot)(const double *a, const double *b, size_t n, int tpb, double *scratch);
  /* sum of x through one atomic accumulator per element (acc: 1 device double) */
  double (*atomic_sum)(const double *x, size_t n, int tpb, double *acc);
  /* copies the positive x[i] to out[k], k taken by atomic capture on *count;
   * returns the count */
  long long (*atomic_compact)(const double *x, size_t n, int tpb, double *out,
                              unsigned long long *count);
  /* tree reduction: the sum of x */
  double (*reduce_sum)(const double *x, size_t n, int tpb, double *scratch);
  /* one launch of a kernel whose only work is flag[0] = value */
  void (*empty)(int *flag, int value, int tpb);
  /* MB_CHAIN_KERNELS launches, each a[i] += 1 over MB_CHAIN_LEN elements;
   * async: launched back to back and synchronized once at the end */
  void (*chain)(double *a, int async, int tpb);
} mb_kernels;

/* Blocks/teams of the streaming and atomic kernels (each thread strides over
 * the array); 0 = one block per tpb elements. Set from --blocks. */
extern int mb_blocks;

/* Reductions in kernel mode and the native models launch at most this many
 * blocks (each thread strides over the array), so all three share one shape. */
#define MB_REDUCE_MAX_BLOCKS 2048
/* Scratch doubles the reductions may use. */
static inline size_t mb_scratch_len(size_t n, int tpb) { return n / (size_t)tpb + 1024; }

/* The models' kernel tables (NULL-free; only the built ones exist). */
const mb_kernels *mb_kernels_host(void);
const mb_kernels *mb_kernels_omp(void);
const mb_kernels *mb_kernels_ompx(void);
const mb_kernels *mb_kernels_cuda(void);
const mb_kernels *mb_kernels_hip(void);

PP_BEGIN_DEVICE
PP_HD static inline double mb_axpy_d(double a, double x, double y) { return a * x + y; }
PP_HD static inline float mb_axpy_f(float a, float x, float y) { return a * x + y; }
PP_HD static inline int mb_axpy_i(int a, int x, int y) { return a * x + y; }
PP_HD static inline double mb_mul(double c) { return MB_SCALAR * c; }
PP_HD static inline double mb_triad(double b, double c) { return b + MB_SCALAR * c; }
PP_END_DEVICE

PP_EXTERN_C_END
#endif
