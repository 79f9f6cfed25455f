/* microbench, ompx model: LLVM OpenMP kernel mode. The launch shape and the
 * algorithms are the native kernels' (kernels/cuda.cu): one element per
 * thread, and block reductions through warp shuffles and team-shared memory. */
#include <omp.h>
#include <ompx.h>
#include "microbench.h"
#include "pp/ompx_util.h"

static int blocks_for(size_t n, int tpb) {
  if (mb_blocks > 0) return mb_blocks;
  size_t b = (n + (size_t)tpb - 1) / (size_t)tpb;
  return b > 0x7fffffff ? 0x7fffffff : (int)b;
}

#define OMPX_LAUNCH PP_OMPX_LAUNCH
#define OMPX_FOR PP_OMPX_FOR

static void fill_zero(double *a, size_t n, int tpb) {
  int nb = blocks_for(n, tpb);
  OMPX_LAUNCH(nb, tpb, is_device_ptr(a))
  OMPX_FOR(i, n) a[i] = 0.0;
}
static void axpy_d(double *z, double a, const double *x, const double *y, size_t n, int tpb) {
  int nb = blocks_for(n, tpb);
  OMPX_LAUNCH(nb, tpb, is_device_ptr(z, x, y))
  OMPX_FOR(i, n) z[i] = mb_axpy_d(a, x[i], y[i]);
}
static void axpy_f(float *z, float a, const float *x, const float *y, size_t n, int tpb) {
  int nb = blocks_for(n, tpb);
  OMPX_LAUNCH(nb, tpb, is_device_ptr(z, x, y))
  OMPX_FOR(i, n) z[i] = mb_axpy_f(a, x[i], y[i]);
}
static void axpy_i(int *z, int a, const int *x, const int *y, size_t n, int tpb) {
  int nb = blocks_for(n, tpb);
  OMPX_LAUNCH(nb, tpb, is_device_ptr(z, x, y))
  OMPX_FOR(i, n) z[i] = mb_axpy_i(a, x[i], y[i]);
}
static void copy(double *c, const double *a, size_t n, int tpb) {
  int nb = blocks_for(n, tpb);
  OMPX_LAUNCH(nb, tpb, is_device_ptr(c, a))
  OMPX_FOR(i, n) c[i] = a[i];
}
static void mul(double *b, const double *c, size_t n, int tpb) {
  int nb = blocks_for(n, tpb);
  OMPX_LAUNCH(nb, tpb, is_device_ptr(b, c))
  OMPX_FOR(i, n) b[i] = mb_mul(c[i]);
}
static void add(double *c, const double *a, const double *b, size_t n, int tpb) {
  int nb = blocks_for(n, tpb);
  OMPX_LAUNCH(nb, tpb, is_device_ptr(c, a, b))
  OMPX_FOR(i, n) c[i] = a[i] + b[i];
}
static void triad(double *a, const double *b, const double *c, size_t n, int tpb) {
  int nb = blocks_for(n, tpb);
  OMPX_LAUNCH(nb, tpb, is_device_ptr(a, b, c))
  OMPX_FOR(i, n) a[i] = mb_triad(b[i], c[i]);
}


/* Final pass: one block sums the nb partials into part[nb]; returns it. */
static double finish_sum(double *part, int nb, int tpb) {
  double r = 0;
  int shbytes = PP_OMPX_SUM_BYTES(tpb);
  OMPX_LAUNCH(1, tpb, is_device_ptr(part) ompx_dyn_cgroup_mem(shbytes)) {
    double *sh = (double *)llvm_omp_target_dynamic_shared_alloc();
    double v = 0;
    for (int i = ompx_thread_id_x(); i < nb; i += ompx_block_dim_x()) v += part[i];
    v = pp_ompx_block_sum(v, sh);
    if (ompx_thread_id_x() == 0) part[nb] = v;
  }
#pragma omp target device(pp_omp_device) is_device_ptr(part) map(from : r)
  r = part[nb];
  return r;
}

static int reduce_blocks(size_t n, int tpb) {
  int nb = blocks_for(n, tpb);
  return nb < MB_REDUCE_MAX_BLOCKS ? nb : MB_REDUCE_MAX_BLOCKS;
}

static double dot(const double *a, const double *b, size_t n, int tpb, double *part) {
  int nb = reduce_blocks(n, tpb), shbytes = PP_OMPX_SUM_BYTES(tpb);
  OMPX_LAUNCH(nb, tpb, is_device_ptr(a, b, part) ompx_dyn_cgroup_mem(shbytes)) {
    double *sh = (double *)llvm_omp_target_dynamic_shared_alloc();
    double v = 0;
    OMPX_FOR(i, n) v += a[i] * b[i];
    v = pp_ompx_block_sum(v, sh);
    if (ompx_thread_id_x() == 0) part[ompx_block_id_x()] = v;
  }
  return finish_sum(part, nb, tpb);
}
static double reduce_sum(const double *x, size_t n, int tpb, double *part) {
  int nb = reduce_blocks(n, tpb), shbytes = PP_OMPX_SUM_BYTES(tpb);
  OMPX_LAUNCH(nb, tpb, is_device_ptr(x, part) ompx_dyn_cgroup_mem(shbytes)) {
    double *sh = (double *)llvm_omp_target_dynamic_shared_alloc();
    double v = 0;
    OMPX_FOR(i, n) v += x[i];
    v = pp_ompx_block_sum(v, sh);
    if (ompx_thread_id_x() == 0) part[ompx_block_id_x()] = v;
  }
  return finish_sum(part, nb, tpb);
}
static double atomic_sum(const double *x, size_t n, int tpb, double *acc) {
  double r = 0;
  int nb = blocks_for(n, tpb);
#pragma omp target device(pp_omp_device) is_device_ptr(acc)
  acc[0] = 0;
  OMPX_LAUNCH(nb, tpb, is_device_ptr(x, acc))
  OMPX_FOR(i, n) {
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
  int nb = blocks_for(n, tpb);
#pragma omp target device(pp_omp_device) is_device_ptr(count)
  count[0] = 0;
  OMPX_LAUNCH(nb, tpb, is_device_ptr(x, out, count))
  OMPX_FOR(i, n) {
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
static void empty(int *flag, int value, int tpb) {
  OMPX_LAUNCH(1, tpb, is_device_ptr(flag))
  if (ompx_thread_id_x() == 0) flag[0] = value;
}
static void chain(double *a, int async, int tpb) {
  int nb = blocks_for(MB_CHAIN_LEN, tpb);
  for (int k = 0; k < MB_CHAIN_KERNELS; k++) {
    if (async) {
      OMPX_LAUNCH(nb, tpb, is_device_ptr(a) nowait depend(inout : a[0]))
      OMPX_FOR(i, MB_CHAIN_LEN) a[i] += 1.0;
    } else {
      OMPX_LAUNCH(nb, tpb, is_device_ptr(a))
      OMPX_FOR(i, MB_CHAIN_LEN) a[i] += 1.0;
    }
  }
#pragma omp taskwait
}

static const mb_kernels table = {fill_zero, axpy_d, axpy_f, axpy_i, copy, mul, add, triad,
                                 dot, atomic_sum, atomic_compact, reduce_sum, empty, chain};
const mb_kernels *mb_kernels_ompx(void) { return &table; }
