/* microbench, omp model: standard OpenMP 5 target offload only. Each loop is
 * one combined `target teams distribute parallel for`, by default with one
 * iteration per thread (num_teams = n / tpb); --blocks picks the team count
 * (see OMP_LOOP and validate/results/nvidia-h200/NOTES.md). */
#include <omp.h>
#include "microbench.h"
#include "pp/omp_device.h"

static int teams_for(size_t n, int tpb) {
  if (mb_blocks > 0) return mb_blocks;
  size_t t = (n + (size_t)tpb - 1) / (size_t)tpb;
  return t > 0x7fffffff ? 0x7fffffff : (int)t;
}

/* The combined construct, with the launch shape and the device. */
#define OMP_FOR(n, tpb, ...)                                                              \
  PP_PRAGMA(omp target teams distribute parallel for num_teams(pp_omp_teams(teams_for(n, tpb), tpb)) \
            thread_limit(tpb) device(pp_omp_device) __VA_ARGS__)

/* A loop over [0, n). Default: one team per tpb iterations (clang then runs one
 * parallel region, with its barriers, per team). With --blocks N: N teams, each
 * one contiguous block of the loop (dist_schedule(static)) that its threads
 * stride through (schedule(static, 1), coalesced): one parallel region per team. */
#ifdef PP_OFFLOAD_CPU
/* LLVM 19's host offload device writes only 2 of 100000 elements with
 * schedule(static, 1) in this construct (seen here); contiguous per thread is
 * right for CPUs anyway. */
#define OMP_BLOCKED dist_schedule(static)
#else
#define OMP_BLOCKED dist_schedule(static) schedule(static, 1)
#endif
#define OMP_LOOP(n, tpb, clauses, body)                                                   \
  do {                                                                                    \
    if (mb_blocks > 0) {                                                                  \
      OMP_FOR(n, tpb, OMP_BLOCKED clauses)                                                \
      for (size_t i = 0; i < (n); i++) body;                                              \
    } else {                                                                              \
      OMP_FOR(n, tpb, clauses)                                                            \
      for (size_t i = 0; i < (n); i++) body;                                              \
    }                                                                                     \
  } while (0)

static void fill_zero(double *a, size_t n, int tpb) {
  OMP_LOOP(n, tpb, is_device_ptr(a), a[i] = 0.0);
}
static void axpy_d(double *z, double a, const double *x, const double *y, size_t n, int tpb) {
  OMP_LOOP(n, tpb, is_device_ptr(z, x, y), z[i] = mb_axpy_d(a, x[i], y[i]));
}
static void axpy_f(float *z, float a, const float *x, const float *y, size_t n, int tpb) {
  OMP_LOOP(n, tpb, is_device_ptr(z, x, y), z[i] = mb_axpy_f(a, x[i], y[i]));
}
static void axpy_i(int *z, int a, const int *x, const int *y, size_t n, int tpb) {
  OMP_LOOP(n, tpb, is_device_ptr(z, x, y), z[i] = mb_axpy_i(a, x[i], y[i]));
}
static void copy(double *c, const double *a, size_t n, int tpb) {
  OMP_LOOP(n, tpb, is_device_ptr(c, a), c[i] = a[i]);
}
static void mul(double *b, const double *c, size_t n, int tpb) {
  OMP_LOOP(n, tpb, is_device_ptr(b, c), b[i] = mb_mul(c[i]));
}
static void add(double *c, const double *a, const double *b, size_t n, int tpb) {
  OMP_LOOP(n, tpb, is_device_ptr(c, a, b), c[i] = a[i] + b[i]);
}
static void triad(double *a, const double *b, const double *c, size_t n, int tpb) {
  OMP_LOOP(n, tpb, is_device_ptr(a, b, c), a[i] = mb_triad(b[i], c[i]));
}
static double dot(const double *a, const double *b, size_t n, int tpb, double *scratch) {
  (void)scratch;
  double s = 0;
  OMP_LOOP(n, tpb, is_device_ptr(a, b) reduction(+ : s), s += a[i] * b[i]);
  return s;
}
static double atomic_sum(const double *x, size_t n, int tpb, double *acc) {
  double r = 0;
#pragma omp target device(pp_omp_device) is_device_ptr(acc)
  acc[0] = 0;
  OMP_FOR(n, tpb, is_device_ptr(x, acc))
  for (size_t i = 0; i < n; i++) {
#pragma omp atomic update
    acc[0] += x[i];
  }
#pragma omp target device(pp_omp_device) is_device_ptr(acc) map(from : r)
  r = acc[0];
  return r;
}
static long long atomic_compact(const double *x, size_t n, int tpb, double *out,
                                unsigned long long *count) {
  unsigned long long r = 0;
#pragma omp target device(pp_omp_device) is_device_ptr(count)
  count[0] = 0;
  OMP_FOR(n, tpb, is_device_ptr(x, out, count))
  for (size_t i = 0; i < n; i++) {
    if (x[i] > 0) {
      unsigned long long k;
#pragma omp atomic capture
      k = count[0]++;
      out[k] = x[i];
    }
  }
#pragma omp target device(pp_omp_device) is_device_ptr(count) map(from : r)
  r = count[0];
  return (long long)r;
}
static double reduce_sum(const double *x, size_t n, int tpb, double *scratch) {
  (void)scratch;
  double s = 0;
  OMP_LOOP(n, tpb, is_device_ptr(x) reduction(+ : s), s += x[i]);
  return s;
}
static void empty(int *flag, int value, int tpb) {
#pragma omp target teams distribute parallel for num_teams(1) thread_limit(tpb) \
    device(pp_omp_device) is_device_ptr(flag)
  for (int i = 0; i < 1; i++) flag[0] = value;
}
static void chain(double *a, int async, int tpb) {
  int teams = pp_omp_teams(teams_for(MB_CHAIN_LEN, tpb), tpb);
  for (int k = 0; k < MB_CHAIN_KERNELS; k++) {
    if (async) {
      /* deferred target tasks, ordered by their dependence on a */
#pragma omp target teams distribute parallel for num_teams(teams) thread_limit(tpb) \
    device(pp_omp_device) is_device_ptr(a) nowait depend(inout : a[0])
      for (int i = 0; i < MB_CHAIN_LEN; i++) a[i] += 1.0;
    } else {
#pragma omp target teams distribute parallel for num_teams(teams) thread_limit(tpb) \
    device(pp_omp_device) is_device_ptr(a)
      for (int i = 0; i < MB_CHAIN_LEN; i++) a[i] += 1.0;
    }
  }
#pragma omp taskwait
}

static const mb_kernels table = {fill_zero, axpy_d, axpy_f, axpy_i, copy, mul, add, triad,
                                 dot, atomic_sum, atomic_compact, reduce_sum, empty, chain};
const mb_kernels *mb_kernels_omp(void) { return &table; }
