/* microbench, native model, written once in CUDA dialect (pp/gpu_native.h):
 * nvcc builds it as cuda, hipcc as hip (kernels/hip.hip). One element per
 * thread; reductions through warp shuffles and shared memory. */
#include "microbench.h"
#include "pp/gpu_native.h"

#ifdef PP_NATIVE_HIP
#define MB_TABLE_GETTER mb_kernels_hip
#else
#define MB_TABLE_GETTER mb_kernels_cuda
#endif

static unsigned blocks_for(size_t n, int tpb) {
  if (mb_blocks > 0) return mb_blocks;
  size_t b = (n + (size_t)tpb - 1) / (size_t)tpb;
  return b > 0x7fffffff ? 0x7fffffffu : (unsigned)b;
}

#define GRID_FOR PP_GRID_FOR

__global__ void k_fill_zero(double *a, size_t n) { GRID_FOR(i, n) a[i] = 0.0; }
__global__ void k_axpy_d(double *z, double a, const double *x, const double *y, size_t n) {
  GRID_FOR(i, n) z[i] = mb_axpy_d(a, x[i], y[i]);
}
__global__ void k_axpy_f(float *z, float a, const float *x, const float *y, size_t n) {
  GRID_FOR(i, n) z[i] = mb_axpy_f(a, x[i], y[i]);
}
__global__ void k_axpy_i(int *z, int a, const int *x, const int *y, size_t n) {
  GRID_FOR(i, n) z[i] = mb_axpy_i(a, x[i], y[i]);
}
__global__ void k_copy(double *c, const double *a, size_t n) { GRID_FOR(i, n) c[i] = a[i]; }
__global__ void k_mul(double *b, const double *c, size_t n) { GRID_FOR(i, n) b[i] = mb_mul(c[i]); }
__global__ void k_add(double *c, const double *a, const double *b, size_t n) {
  GRID_FOR(i, n) c[i] = a[i] + b[i];
}
__global__ void k_triad(double *a, const double *b, const double *c, size_t n) {
  GRID_FOR(i, n) a[i] = mb_triad(b[i], c[i]);
}

__global__ void k_dot(const double *a, const double *b, size_t n, double *part) {
  double v = 0;
  GRID_FOR(i, n) v += a[i] * b[i];
  v = pp_block_sum(v);
  if (threadIdx.x == 0) part[blockIdx.x] = v;
}
__global__ void k_sum(const double *x, size_t n, double *part) {
  double v = 0;
  GRID_FOR(i, n) v += x[i];
  v = pp_block_sum(v);
  if (threadIdx.x == 0) part[blockIdx.x] = v;
}
/* One block: part[nb] = sum of part[0..nb-1]. */
__global__ void k_finish(double *part, int nb) {
  double v = 0;
  for (int i = threadIdx.x; i < nb; i += blockDim.x) v += part[i];
  v = pp_block_sum(v);
  if (threadIdx.x == 0) part[nb] = v;
}
__global__ void k_atomic_sum(const double *x, size_t n, double *acc) {
  GRID_FOR(i, n) atomicAdd(acc, x[i]);
}
__global__ void k_compact(const double *x, size_t n, double *out, unsigned long long *count) {
  GRID_FOR(i, n) {
    if (x[i] > 0) out[atomicAdd(count, 1ull)] = x[i];
  }
}
__global__ void k_empty(int *flag, int value) {
  if (threadIdx.x == 0) flag[0] = value;
}
__global__ void k_inc(double *a, int len) { GRID_FOR(i, (size_t)len) a[i] += 1.0; }

static void fill_zero(double *a, size_t n, int tpb) {
  k_fill_zero<<<blocks_for(n, tpb), tpb>>>(a, n);
  PP_GPU_CHECK_LAUNCH("fill_zero");
}
static void axpy_d(double *z, double a, const double *x, const double *y, size_t n, int tpb) {
  k_axpy_d<<<blocks_for(n, tpb), tpb>>>(z, a, x, y, n);
  PP_GPU_CHECK_LAUNCH("axpy_d");
}
static void axpy_f(float *z, float a, const float *x, const float *y, size_t n, int tpb) {
  k_axpy_f<<<blocks_for(n, tpb), tpb>>>(z, a, x, y, n);
  PP_GPU_CHECK_LAUNCH("axpy_f");
}
static void axpy_i(int *z, int a, const int *x, const int *y, size_t n, int tpb) {
  k_axpy_i<<<blocks_for(n, tpb), tpb>>>(z, a, x, y, n);
  PP_GPU_CHECK_LAUNCH("axpy_i");
}
static void copy(double *c, const double *a, size_t n, int tpb) {
  k_copy<<<blocks_for(n, tpb), tpb>>>(c, a, n);
  PP_GPU_CHECK_LAUNCH("copy");
}
static void mul(double *b, const double *c, size_t n, int tpb) {
  k_mul<<<blocks_for(n, tpb), tpb>>>(b, c, n);
  PP_GPU_CHECK_LAUNCH("mul");
}
static void add(double *c, const double *a, const double *b, size_t n, int tpb) {
  k_add<<<blocks_for(n, tpb), tpb>>>(c, a, b, n);
  PP_GPU_CHECK_LAUNCH("add");
}
static void triad(double *a, const double *b, const double *c, size_t n, int tpb) {
  k_triad<<<blocks_for(n, tpb), tpb>>>(a, b, c, n);
  PP_GPU_CHECK_LAUNCH("triad");
}
static unsigned reduce_blocks(size_t n, int tpb) {
  unsigned nb = blocks_for(n, tpb);
  return nb < MB_REDUCE_MAX_BLOCKS ? nb : MB_REDUCE_MAX_BLOCKS;
}
static double finish(double *part, unsigned nb, int tpb) {
  double r;
  k_finish<<<1, tpb>>>(part, (int)nb);
  PP_GPU_CHECK_LAUNCH("reduce finish");
  PP_GPU_CHECK(gpuMemcpy(&r, part + nb, sizeof r, gpuMemcpyDeviceToHost));
  return r;
}
static double dot(const double *a, const double *b, size_t n, int tpb, double *part) {
  unsigned nb = reduce_blocks(n, tpb);
  k_dot<<<nb, tpb>>>(a, b, n, part);
  PP_GPU_CHECK_LAUNCH("dot");
  return finish(part, nb, tpb);
}
static double reduce_sum(const double *x, size_t n, int tpb, double *part) {
  unsigned nb = reduce_blocks(n, tpb);
  k_sum<<<nb, tpb>>>(x, n, part);
  PP_GPU_CHECK_LAUNCH("reduce_sum");
  return finish(part, nb, tpb);
}
static double atomic_sum(const double *x, size_t n, int tpb, double *acc) {
  double r;
  PP_GPU_CHECK(gpuMemset(acc, 0, sizeof *acc));
  k_atomic_sum<<<blocks_for(n, tpb), tpb>>>(x, n, acc);
  PP_GPU_CHECK_LAUNCH("atomic_sum");
  PP_GPU_CHECK(gpuMemcpy(&r, acc, sizeof r, gpuMemcpyDeviceToHost));
  return r;
}
static long long atomic_compact(const double *x, size_t n, int tpb, double *out,
                                unsigned long long *count) {
  unsigned long long r;
  PP_GPU_CHECK(gpuMemset(count, 0, sizeof *count));
  k_compact<<<blocks_for(n, tpb), tpb>>>(x, n, out, count);
  PP_GPU_CHECK_LAUNCH("atomic_compact");
  PP_GPU_CHECK(gpuMemcpy(&r, count, sizeof r, gpuMemcpyDeviceToHost));
  return (long long)r;
}
static void empty(int *flag, int value, int tpb) {
  k_empty<<<1, tpb>>>(flag, value);
  PP_GPU_CHECK_LAUNCH("empty");
  PP_GPU_CHECK(gpuDeviceSynchronize());
}
static void chain(double *a, int async, int tpb) {
  unsigned nb = blocks_for(MB_CHAIN_LEN, tpb);
  for (int k = 0; k < MB_CHAIN_KERNELS; k++) {
    k_inc<<<nb, tpb>>>(a, MB_CHAIN_LEN); /* one stream: launches stay in order */
    PP_GPU_CHECK_LAUNCH("chain");
    if (!async) PP_GPU_CHECK(gpuDeviceSynchronize());
  }
  PP_GPU_CHECK(gpuDeviceSynchronize());
}

static const mb_kernels table = {fill_zero, axpy_d, axpy_f, axpy_i, copy, mul, add, triad,
                                 dot, atomic_sum, atomic_compact, reduce_sum, empty, chain};
extern "C" const mb_kernels *MB_TABLE_GETTER(void) { return &table; }
