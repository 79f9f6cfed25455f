/* microbench, omp model: standard OpenMP 5 target offload only. Each loop is
 * one combined `target teams distribute parallel for simd` in the shape of
 * pp/omp_loop.h (`simd`: PP_OMP_SIMD): by default one iteration per thread
 * (num_teams = n / tpb); --blocks picks the team count (the blocked layout:
 * pp/omp_loop.h, docs/performance.md). */
#include <omp.h>
#include "microbench.h"
#include "pp/omp_loop.h"

static void init(double *z, size_t n, int tpb, int blocks) {
  PP_OMP_LOOP(n, tpb, blocks, is_device_ptr(z), z[i] = mb_init());
}
static void zaxpy_d(double *z, double a, const double *x, const double *y, size_t n, int tpb, int blocks) {
  PP_OMP_LOOP(n, tpb, blocks, is_device_ptr(z, x, y), z[i] = mb_zaxpy_d(a, x[i], y[i]));
}
static void zaxpy_f(float *z, float a, const float *x, const float *y, size_t n, int tpb, int blocks) {
  PP_OMP_LOOP(n, tpb, blocks, is_device_ptr(z, x, y), z[i] = mb_zaxpy_f(a, x[i], y[i]));
}
static void zaxpy_i(int *z, int a, const int *x, const int *y, size_t n, int tpb, int blocks) {
  PP_OMP_LOOP(n, tpb, blocks, is_device_ptr(z, x, y), z[i] = mb_zaxpy_i(a, x[i], y[i]));
}
static void copy(double *z, const double *a, size_t n, int tpb, int blocks) {
  PP_OMP_LOOP(n, tpb, blocks, is_device_ptr(z, a), z[i] = mb_copy(a[i]));
}
static void mul(double *z, const double *c, size_t n, int tpb, int blocks) {
  PP_OMP_LOOP(n, tpb, blocks, is_device_ptr(z, c), z[i] = mb_mul(c[i]));
}
static void add(double *z, const double *a, const double *b, size_t n, int tpb, int blocks) {
  PP_OMP_LOOP(n, tpb, blocks, is_device_ptr(z, a, b), z[i] = mb_add(a[i], b[i]));
}
static void triad(double *z, const double *b, const double *c, size_t n, int tpb, int blocks) {
  PP_OMP_LOOP(n, tpb, blocks, is_device_ptr(z, b, c), z[i] = mb_triad(b[i], c[i]));
}
static double atomic_update(const double *x, size_t n, int tpb, int blocks, double *acc) {
  double r = 0;
#pragma omp target device(pp_omp_device) is_device_ptr(acc)
  acc[0] = 0;
#if PP_OMP_GCC
  /* GCC: without simd. Its simd lanes are a warp's 32 lanes, all adding into
   * the one word (a compare-and-swap loop for a double), which serializes
   * them far beyond the cost of fewer lanes. */
#pragma omp target teams distribute parallel for num_teams(pp_omp_loop_teams(n, tpb, blocks)) \
    thread_limit(PP_OMP_TL(tpb)) device(pp_omp_device) is_device_ptr(x, acc)
#else
  PP_OMP_FOR(pp_omp_loop_teams(n, tpb, blocks), tpb, is_device_ptr(x, acc))
#endif
  for (size_t i = 0; i < n; i++) mb_atomic_update(acc, x[i]);
#pragma omp target device(pp_omp_device) is_device_ptr(acc) map(from : r)
  r = acc[0];
  return r;
}
static long long atomic_capture(const double *x, size_t n, int tpb, int blocks, double *out,
                                unsigned long long *count) {
  unsigned long long r = 0;
#pragma omp target device(pp_omp_device) is_device_ptr(count)
  count[0] = 0;
  /* Aggregated per team in standard OpenMP (LLVM 19 aggregates no atomics,
   * nvcc aggregates a warp's): each team takes chunks of nth elements; its
   * threads capture slots of a team-shared counter, one thread claims the
   * chunk's slots of the global counter with one atomic, every thread writes
   * at that base + its slot. Same results as mb_atomic_capture up to the
   * order of `out`. */
#if PP_OMP_GCC || defined(PP_OFFLOAD_CPU)
  /* GCC: an OpenMP thread is a warp (8 per team at tpb 256), so a chunk is 8
   * elements and two barriers each, which the barriers dominate; the
   * combined construct with its simd lanes' atomics is GCC's better form.
   * The host as the offload device (PP_OFFLOAD_CPU, any compiler): a team's
   * threads are OS threads (as many as the cores, pp_omp_teams), so a chunk
   * is 2 elements on 2 cores and its two barriers cost microseconds each,
   * far more on a busy machine where a barrier waits for a descheduled
   * thread (1.6 s at 2^20 quiet, 9-14 s under load, against the host
   * model's 6 ms); a CPU's atomics need no aggregation, so the per-element
   * form, the host model's, is the CPU's too. GPUs keep the form below. */
  PP_OMP_FOR(pp_omp_loop_teams(n, tpb, blocks), tpb, is_device_ptr(x, out, count))
  for (size_t i = 0; i < n; i++) mb_atomic_capture(x[i], out, count);
#else
  const int teams = pp_omp_loop_teams(n, tpb, blocks);
#pragma omp target teams num_teams(teams) thread_limit(PP_OMP_TL(tpb)) device(pp_omp_device) \
    is_device_ptr(x, out, count)
  {
    unsigned long long here = 0, base = 0; /* team-shared */
#pragma omp parallel
    {
      const size_t t = (size_t)omp_get_thread_num(), nth = (size_t)omp_get_num_threads();
      const size_t nchunk = (n + nth - 1) / nth;
      for (size_t c = (size_t)omp_get_team_num(); c < nchunk; c += (size_t)omp_get_num_teams()) {
        const size_t i = c * nth + t;
        const int keep = i < n && x[i] > 0;
        unsigned long long slot = 0;
        if (keep) {
#pragma omp atomic capture
          slot = here++;
        }
#pragma omp barrier
        if (t == 0) {
          base = pp_atomic_fetch_add_u64(count, here);
          here = 0;
        }
#pragma omp barrier
        if (keep) out[base + slot] = x[i];
      }
    }
  }
#endif
#pragma omp target device(pp_omp_device) is_device_ptr(count) map(from : r)
  r = count[0];
  return (long long)r;
}
static void launch_empty(int *flag, int tpb) {
  PP_OMP_FOR(1, tpb, is_device_ptr(flag))
  for (int i = 0; i < 1; i++) mb_launch_empty(flag);
}
static void chain(double *a, int async, int tpb, int blocks) {
  int teams = pp_omp_loop_teams(MB_CHAIN_LEN, tpb, blocks);
  for (int k = 0; k < MB_CHAIN_KERNELS; k++) {
    if (async) {
      /* deferred target tasks, ordered by their dependence on a */
      PP_OMP_FOR(teams, tpb, is_device_ptr(a) nowait depend(inout : a[0]))
      for (int i = 0; i < MB_CHAIN_LEN; i++) a[i] = mb_launch_step(a[i]);
    } else {
      PP_OMP_FOR(teams, tpb, is_device_ptr(a))
      for (int i = 0; i < MB_CHAIN_LEN; i++) a[i] = mb_launch_step(a[i]);
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
const mb_kernels *mb_kernels_omp(void) { return &table; }
