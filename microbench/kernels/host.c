/* microbench, host model: the reference, plain C with OpenMP threads (tpb and blocks unused). */
#include "microbench.h"

#define FOR_N _Pragma("omp parallel for schedule(static)") for (size_t i = 0; i < n; i++)

static void init(double *z, size_t n, int tpb, int blocks) {
  (void)tpb, (void)blocks;
  FOR_N z[i] = mb_init();
}
static void zaxpy_d(double *z, double a, const double *x, const double *y, size_t n, int tpb, int blocks) {
  (void)tpb, (void)blocks;
  FOR_N z[i] = mb_zaxpy_d(a, x[i], y[i]);
}
static void zaxpy_f(float *z, float a, const float *x, const float *y, size_t n, int tpb, int blocks) {
  (void)tpb, (void)blocks;
  FOR_N z[i] = mb_zaxpy_f(a, x[i], y[i]);
}
static void zaxpy_i(int *z, int a, const int *x, const int *y, size_t n, int tpb, int blocks) {
  (void)tpb, (void)blocks;
  FOR_N z[i] = mb_zaxpy_i(a, x[i], y[i]);
}
static void copy(double *z, const double *a, size_t n, int tpb, int blocks) {
  (void)tpb, (void)blocks;
  FOR_N z[i] = mb_copy(a[i]);
}
static void mul(double *z, const double *c, size_t n, int tpb, int blocks) {
  (void)tpb, (void)blocks;
  FOR_N z[i] = mb_mul(c[i]);
}
static void add(double *z, const double *a, const double *b, size_t n, int tpb, int blocks) {
  (void)tpb, (void)blocks;
  FOR_N z[i] = mb_add(a[i], b[i]);
}
static void triad(double *z, const double *b, const double *c, size_t n, int tpb, int blocks) {
  (void)tpb, (void)blocks;
  FOR_N z[i] = mb_triad(b[i], c[i]);
}
static double atomic_update(const double *x, size_t n, int tpb, int blocks, double *acc) {
  (void)tpb, (void)blocks;
  acc[0] = 0;
  FOR_N mb_atomic_update(acc, x[i]);
  return acc[0];
}
static long long atomic_capture(const double *x, size_t n, int tpb, int blocks, double *out,
                                unsigned long long *count) {
  (void)tpb, (void)blocks;
  count[0] = 0;
  FOR_N mb_atomic_capture(x[i], out, count);
  return (long long)count[0];
}
static void launch_empty(int *flag, int tpb) {
  (void)tpb;
  mb_launch_empty(flag);
}
static void chain(double *a, int tpb, int blocks) {
  (void)tpb, (void)blocks;
  for (int k = 0; k < MB_CHAIN_KERNELS; k++) {
#pragma omp parallel for
    for (int i = 0; i < MB_CHAIN_LEN; i++) a[i] = mb_launch_step(a[i]);
  }
}
/* The host has no asynchronous launch: both chains are the same loop. */
static void launch_sync(double *a, int tpb, int blocks) { chain(a, tpb, blocks); }
static void launch_async(double *a, int tpb, int blocks) { chain(a, tpb, blocks); }

static const mb_kernels table = {
    .init = init,
    .zaxpy_d = zaxpy_d,
    .zaxpy_f = zaxpy_f,
    .zaxpy_i = zaxpy_i,
    .copy = copy,
    .mul = mul,
    .add = add,
    .triad = triad,
    .atomic_update = atomic_update,
    .atomic_capture = atomic_capture,
    .launch_empty = launch_empty,
    .launch_sync = launch_sync,
    .launch_async = launch_async,
};
const mb_kernels *mb_kernels_host(void) { return &table; }
