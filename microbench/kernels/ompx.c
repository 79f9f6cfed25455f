/* microbench, ompx model: LLVM OpenMP kernel mode. The launch shape and the
 * algorithms are the native kernels' (kernels/cuda.cu): grid-stride loops,
 * one element per thread without blocks; the streaming kernels' blocks come
 * from --per-thread (the driver's mb_stream_blocks). The loop is the plain
 * one: cuda's four-a-step form (STREAM_FOR there) made clang's kernels
 * slower, restrict pointers or not (clang keeps each load behind the store
 * before it; on an H200 copy at 2^26 3586 against 3909 GB/s). */
#include <omp.h>
#include <ompx.h>
#include "microbench.h"
#include "pp/ompx_util.h"

static int blocks_for(size_t n, int tpb, int blocks) {
  if (blocks > 0) return blocks;
  size_t b = (n + (size_t)tpb - 1) / (size_t)tpb;
  return b > 0x7fffffff ? 0x7fffffff : (int)b;
}

/* for (i in [0, n)) body; as one bare kernel of blocks_for(n, tpb, blocks) blocks. */
#define OMPX_LOOP(n, tpb, blocks, clauses, body)                                        \
  do {                                                                                  \
    int nb_ = blocks_for(n, tpb, blocks);                                               \
    PP_OMPX_LAUNCH(nb_, tpb, clauses)                                                   \
    PP_OMPX_FOR(i, n) body;                                                             \
  } while (0)

static void init(double *z, size_t n, int tpb, int blocks) {
  OMPX_LOOP(n, tpb, blocks, is_device_ptr(z), z[i] = mb_init());
}
static void zaxpy_d(double *z, double a, const double *x, const double *y, size_t n, int tpb, int blocks) {
  OMPX_LOOP(n, tpb, blocks, is_device_ptr(z, x, y), z[i] = mb_zaxpy_d(a, x[i], y[i]));
}
static void zaxpy_f(float *z, float a, const float *x, const float *y, size_t n, int tpb, int blocks) {
  OMPX_LOOP(n, tpb, blocks, is_device_ptr(z, x, y), z[i] = mb_zaxpy_f(a, x[i], y[i]));
}
static void zaxpy_i(int *z, int a, const int *x, const int *y, size_t n, int tpb, int blocks) {
  OMPX_LOOP(n, tpb, blocks, is_device_ptr(z, x, y), z[i] = mb_zaxpy_i(a, x[i], y[i]));
}
static void copy(double *z, const double *a, size_t n, int tpb, int blocks) {
  OMPX_LOOP(n, tpb, blocks, is_device_ptr(z, a), z[i] = mb_copy(a[i]));
}
static void mul(double *z, const double *c, size_t n, int tpb, int blocks) {
  OMPX_LOOP(n, tpb, blocks, is_device_ptr(z, c), z[i] = mb_mul(c[i]));
}
static void add(double *z, const double *a, const double *b, size_t n, int tpb, int blocks) {
  OMPX_LOOP(n, tpb, blocks, is_device_ptr(z, a, b), z[i] = mb_add(a[i], b[i]));
}
static void triad(double *z, const double *b, const double *c, size_t n, int tpb, int blocks) {
  OMPX_LOOP(n, tpb, blocks, is_device_ptr(z, b, c), z[i] = mb_triad(b[i], c[i]));
}
static double atomic_update(const double *x, size_t n, int tpb, int blocks, double *acc) {
  double r = 0;
#pragma omp target device(pp_omp_device) is_device_ptr(acc)
  acc[0] = 0;
  OMPX_LOOP(n, tpb, blocks, is_device_ptr(x, acc), mb_atomic_update(acc, x[i]));
#pragma omp target device(pp_omp_device) is_device_ptr(acc) map(from : r)
  r = acc[0];
  return r;
}
#pragma omp begin declare target
/* mb_atomic_capture aggregated per warp, as nvcc does for CUDA's atomicAdd
 * (LLVM 19 does not): the warp's last lane claims the warp's captures with one
 * atomic, a shuffle hands its base to every lane, each lane writes at base + the
 * captures of the lanes below it. The loop is warp-uniform (whole warps step
 * together, i < n tested per lane) so the ballot's lanes are all present; a
 * partial last warp of the block (tpb not a multiple of the warp) ballots only
 * its lanes. Same results as mb_atomic_capture, up to the order of `out`. */
static inline void capture_by_warp(const double *x, size_t n, double *out,
                                   unsigned long long *count) {
  const int t = ompx_thread_id_x(), lane = t % PP_OMPX_WARP, first = t - lane;
  const int lanes = ompx_block_dim_x() - first < PP_OMPX_WARP ? ompx_block_dim_x() - first
                                                               : PP_OMPX_WARP;
  const uint64_t all = lanes == 64 ? ~0ull : (1ull << lanes) - 1;
  const size_t stride = (size_t)ompx_grid_dim_x() * ompx_block_dim_x();
  for (size_t w = (size_t)ompx_block_id_x() * ompx_block_dim_x() + first; w < n; w += stride) {
    const size_t i = w + (size_t)lane;
    const int keep = i < n && x[i] > 0;
    const uint64_t m = ompx_ballot_sync(all, keep);
    if (m == 0) continue; /* uniform: every lane sees the same m */
    long base = 0;
    if (lane == lanes - 1)
      base = (long)pp_atomic_fetch_add_u64(count, (unsigned long long)__builtin_popcountll(m));
    base = ompx_shfl_down_sync_l(all, base, (unsigned)(lanes - 1 - lane), PP_OMPX_WARP);
    if (keep) out[(unsigned long long)base + (unsigned long long)__builtin_popcountll(m & ((1ull << lane) - 1))] = x[i];
  }
}
#pragma omp end declare target

static long long atomic_capture(const double *x, size_t n, int tpb, int blocks, double *out,
                                unsigned long long *count) {
  unsigned long long r = 0;
#pragma omp target device(pp_omp_device) is_device_ptr(count)
  count[0] = 0;
  int nb_ = blocks_for(n, tpb, blocks);
  PP_OMPX_LAUNCH(nb_, tpb, is_device_ptr(x, out, count))
  capture_by_warp(x, n, out, count);
#pragma omp target device(pp_omp_device) is_device_ptr(count) map(from : r)
  r = count[0];
  return (long long)r;
}
static void launch_empty(int *flag, int tpb) {
  PP_OMPX_LAUNCH(1, tpb, is_device_ptr(flag))
  if (ompx_thread_id_x() == 0) mb_launch_empty(flag);
}
static void chain(double *a, int async, int tpb, int blocks) {
  int nb = blocks_for(MB_CHAIN_LEN, tpb, blocks);
  for (int k = 0; k < MB_CHAIN_KERNELS; k++) {
    if (async) {
      PP_OMPX_LAUNCH(nb, tpb, is_device_ptr(a) nowait depend(inout : a[0]))
      PP_OMPX_FOR(i, MB_CHAIN_LEN) a[i] = mb_launch_step(a[i]);
    } else {
      PP_OMPX_LAUNCH(nb, tpb, is_device_ptr(a))
      PP_OMPX_FOR(i, MB_CHAIN_LEN) a[i] = mb_launch_step(a[i]);
    }
  }
#pragma omp taskwait
}
static void launch_sync(double *a, int tpb, int blocks) { chain(a, 0, tpb, blocks); }
static void launch_async(double *a, int tpb, int blocks) { chain(a, 1, tpb, blocks); }

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
const mb_kernels *mb_kernels_ompx(void) { return &table; }
