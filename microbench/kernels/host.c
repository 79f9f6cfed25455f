/* microbench, host model: the reference, plain C with OpenMP threads (tpb unused). */
#include "microbench.h"

#define FOR_N _Pragma("omp parallel for schedule(static)") for (size_t i = 0; i < n; i++)

static void fill_zero(double *a, size_t n, int tpb) {
  (void)tpb;
  FOR_N a[i] = 0.0;
}
static void axpy_d(double *z, double a, const double *x, const double *y, size_t n, int tpb) {
  (void)tpb;
  FOR_N z[i] = mb_axpy_d(a, x[i], y[i]);
}
static void axpy_f(float *z, float a, const float *x, const float *y, size_t n, int tpb) {
  (void)tpb;
  FOR_N z[i] = mb_axpy_f(a, x[i], y[i]);
}
static void axpy_i(int *z, int a, const int *x, const int *y, size_t n, int tpb) {
  (void)tpb;
  FOR_N z[i] = mb_axpy_i(a, x[i], y[i]);
}
static void copy(double *c, const double *a, size_t n, int tpb) {
  (void)tpb;
  FOR_N c[i] = a[i];
}
static void mul(double *b, const double *c, size_t n, int tpb) {
  (void)tpb;
  FOR_N b[i] = mb_mul(c[i]);
}
static void add(double *c, const double *a, const double *b, size_t n, int tpb) {
  (void)tpb;
  FOR_N c[i] = a[i] + b[i];
}
static void triad(double *a, const double *b, const double *c, size_t n, int tpb) {
  (void)tpb;
  FOR_N a[i] = mb_triad(b[i], c[i]);
}
static double dot(const double *a, const double *b, size_t n, int tpb, double *scratch) {
  (void)tpb, (void)scratch;
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (size_t i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}
static double atomic_sum(const double *x, size_t n, int tpb, double *acc) {
  (void)tpb;
  acc[0] = 0;
  FOR_N {
#pragma omp atomic update
    acc[0] += x[i];
  }
  return acc[0];
}
static long long atomic_compact(const double *x, size_t n, int tpb, double *out,
                                unsigned long long *count) {
  (void)tpb;
  count[0] = 0;
  FOR_N {
    if (x[i] > 0) {
      unsigned long long k;
#pragma omp atomic capture
      k = count[0]++;
      out[k] = x[i];
    }
  }
  return (long long)count[0];
}
static double reduce_sum(const double *x, size_t n, int tpb, double *scratch) {
  (void)tpb, (void)scratch;
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (size_t i = 0; i < n; i++) s += x[i];
  return s;
}
static void empty(int *flag, int value, int tpb) {
  (void)tpb;
  volatile int *f = flag; /* keep the store: it is the whole kernel */
  f[0] = value;
}
static void chain(double *a, int async, int tpb) {
  (void)tpb, (void)async; /* the host has no asynchronous launch */
  for (int k = 0; k < MB_CHAIN_KERNELS; k++) {
#pragma omp parallel for
    for (int i = 0; i < MB_CHAIN_LEN; i++) a[i] += 1.0;
  }
}

static const mb_kernels table = {fill_zero, axpy_d, axpy_f, axpy_i, copy, mul, add, triad,
                                 dot, atomic_sum, atomic_compact, reduce_sum, empty, chain};
const mb_kernels *mb_kernels_host(void) { return &table; }
