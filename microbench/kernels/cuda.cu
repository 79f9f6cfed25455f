/* microbench, native model, written once in CUDA dialect (pp/gpu_native.h):
 * nvcc builds it as cuda, hipcc as hip (kernels/hip.hip). Grid-stride loops:
 * one element per thread without blocks; the streaming kernels' blocks come
 * from --per-thread (the driver's mb_stream_blocks). */
#include "microbench.h"
#include "pp/gpu_native.h"

#ifdef PP_NATIVE_HIP
#define MB_TABLE_GETTER mb_kernels_hip
#else
#define MB_TABLE_GETTER mb_kernels_cuda
#endif

static unsigned blocks_for(size_t n, int tpb, int blocks) {
  if (blocks > 0) return blocks;
  size_t b = (n + (size_t)tpb - 1) / (size_t)tpb;
  return b > 0x7fffffff ? 0x7fffffffu : (unsigned)b;
}

/* The streaming kernels' grid-stride loop over [0, n): MB_PER_THREAD
 * iterations a step with no branch between them, the rest one by one. With
 * the restrict pointers below a step's loads are in flight together; without
 * them each load waits for the store before it. (ompx keeps the plain loop:
 * kernels/ompx.c says why.) */
#define STREAM_FOR(i, n, body)                                                              \
  do {                                                                                      \
    const size_t s_ = (size_t)gridDim.x * blockDim.x, n_ = (n);                             \
    size_t i0_ = (size_t)blockIdx.x * blockDim.x + threadIdx.x;                             \
    for (; i0_ + (MB_PER_THREAD - 1) * s_ < n_; i0_ += MB_PER_THREAD * s_) {                \
      PP_PRAGMA(unroll)                                                                     \
      for (int k_ = 0; k_ < MB_PER_THREAD; k_++) {                                          \
        const size_t i = i0_ + (size_t)k_ * s_;                                             \
        body;                                                                               \
      }                                                                                     \
    }                                                                                       \
    for (size_t i = i0_; i < n_; i += s_) body;                                             \
  } while (0)

__global__ void k_init(double *PP_RESTRICT z, size_t n) { STREAM_FOR(i, n, z[i] = mb_init()); }
__global__ void k_zaxpy_d(double *PP_RESTRICT z, double a, const double *PP_RESTRICT x,
                          const double *PP_RESTRICT y, size_t n) {
  STREAM_FOR(i, n, z[i] = mb_zaxpy_d(a, x[i], y[i]));
}
__global__ void k_zaxpy_f(float *PP_RESTRICT z, float a, const float *PP_RESTRICT x,
                          const float *PP_RESTRICT y, size_t n) {
  STREAM_FOR(i, n, z[i] = mb_zaxpy_f(a, x[i], y[i]));
}
__global__ void k_zaxpy_i(int *PP_RESTRICT z, int a, const int *PP_RESTRICT x, const int *PP_RESTRICT y,
                          size_t n) {
  STREAM_FOR(i, n, z[i] = mb_zaxpy_i(a, x[i], y[i]));
}
__global__ void k_copy(double *PP_RESTRICT z, const double *PP_RESTRICT a, size_t n) {
  STREAM_FOR(i, n, z[i] = mb_copy(a[i]));
}
__global__ void k_mul(double *PP_RESTRICT z, const double *PP_RESTRICT c, size_t n) {
  STREAM_FOR(i, n, z[i] = mb_mul(c[i]));
}
__global__ void k_add(double *PP_RESTRICT z, const double *PP_RESTRICT a, const double *PP_RESTRICT b,
                      size_t n) {
  STREAM_FOR(i, n, z[i] = mb_add(a[i], b[i]));
}
__global__ void k_triad(double *PP_RESTRICT z, const double *PP_RESTRICT b, const double *PP_RESTRICT c,
                        size_t n) {
  STREAM_FOR(i, n, z[i] = mb_triad(b[i], c[i]));
}
__global__ void k_atomic_update(const double *x, size_t n, double *acc) {
  PP_GRID_FOR(i, n) mb_atomic_update(acc, x[i]);
}
__global__ void k_atomic_capture(const double *x, size_t n, double *out, unsigned long long *count) {
  PP_GRID_FOR(i, n) mb_atomic_capture(x[i], out, count);
}
__global__ void k_launch_empty(int *flag) {
  if (threadIdx.x == 0) mb_launch_empty(flag);
}
__global__ void k_launch_step(double *a, int len) { PP_GRID_FOR(i, (size_t)len) a[i] = mb_launch_step(a[i]); }

/* A streaming kernel over n elements, launch errors checked. */
#define LAUNCH(name, n, tpb, blocks, ...)                                                \
  do {                                                                                   \
    k_##name<<<blocks_for(n, tpb, blocks), tpb>>>(__VA_ARGS__);                          \
    PP_GPU_CHECK_LAUNCH(#name);                                                          \
  } while (0)

static void init(double *z, size_t n, int tpb, int blocks) { LAUNCH(init, n, tpb, blocks, z, n); }
static void zaxpy_d(double *z, double a, const double *x, const double *y, size_t n, int tpb, int blocks) {
  LAUNCH(zaxpy_d, n, tpb, blocks, z, a, x, y, n);
}
static void zaxpy_f(float *z, float a, const float *x, const float *y, size_t n, int tpb, int blocks) {
  LAUNCH(zaxpy_f, n, tpb, blocks, z, a, x, y, n);
}
static void zaxpy_i(int *z, int a, const int *x, const int *y, size_t n, int tpb, int blocks) {
  LAUNCH(zaxpy_i, n, tpb, blocks, z, a, x, y, n);
}
static void copy(double *z, const double *a, size_t n, int tpb, int blocks) {
  LAUNCH(copy, n, tpb, blocks, z, a, n);
}
static void mul(double *z, const double *c, size_t n, int tpb, int blocks) {
  LAUNCH(mul, n, tpb, blocks, z, c, n);
}
static void add(double *z, const double *a, const double *b, size_t n, int tpb, int blocks) {
  LAUNCH(add, n, tpb, blocks, z, a, b, n);
}
static void triad(double *z, const double *b, const double *c, size_t n, int tpb, int blocks) {
  LAUNCH(triad, n, tpb, blocks, z, b, c, n);
}
static double atomic_update(const double *x, size_t n, int tpb, int blocks, double *acc) {
  double r;
  PP_GPU_CHECK(gpuMemset(acc, 0, sizeof *acc));
  LAUNCH(atomic_update, n, tpb, blocks, x, n, acc);
  PP_GPU_CHECK(gpuMemcpy(&r, acc, sizeof r, gpuMemcpyDeviceToHost));
  return r;
}
static long long atomic_capture(const double *x, size_t n, int tpb, int blocks, double *out,
                                unsigned long long *count) {
  unsigned long long r;
  PP_GPU_CHECK(gpuMemset(count, 0, sizeof *count));
  LAUNCH(atomic_capture, n, tpb, blocks, x, n, out, count);
  PP_GPU_CHECK(gpuMemcpy(&r, count, sizeof r, gpuMemcpyDeviceToHost));
  return (long long)r;
}
static void launch_empty(int *flag, int tpb) {
  k_launch_empty<<<1, tpb>>>(flag);
  PP_GPU_CHECK_LAUNCH("launch_empty");
  PP_GPU_CHECK(gpuDeviceSynchronize());
}
static void chain(double *a, int async, int tpb, int blocks) {
  unsigned nb = blocks_for(MB_CHAIN_LEN, tpb, blocks);
  for (int k = 0; k < MB_CHAIN_KERNELS; k++) {
    k_launch_step<<<nb, tpb>>>(a, MB_CHAIN_LEN); /* one stream: launches stay in order */
    PP_GPU_CHECK_LAUNCH("launch chain");
    if (!async) PP_GPU_CHECK(gpuDeviceSynchronize());
  }
  PP_GPU_CHECK(gpuDeviceSynchronize());
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
extern "C" const mb_kernels *MB_TABLE_GETTER(void) { return &table; }
