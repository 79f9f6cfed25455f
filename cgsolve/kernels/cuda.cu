/* cgsolve, native model, written once in CUDA dialect (pp/gpu_native.h):
 * nvcc builds it as cuda, hipcc as hip (kernels/hip.hip). axpby one element
 * per thread; dot as a grid-stride pass leaving one partial per block (warp
 * shuffles, then the warps' sums through shared memory), then one block that
 * sums the partials, then an 8-byte copy of the result. */
#include "cgsolve.h"
#include "pp/gpu_native.h"

#ifdef PP_NATIVE_HIP
#define CG_TABLE_GETTER cg_kernels_hip
#else
#define CG_TABLE_GETTER cg_kernels_cuda
#endif

static unsigned blocks_for(int64_t n, int64_t cap) {
  int64_t b = (n + CG_TPB - 1) / CG_TPB;
  return b < 1 ? 1u : b > cap ? (unsigned)cap : (unsigned)b;
}

__global__ void __launch_bounds__(CG_TPB) k_dot(const double *x, const double *y, int64_t n,
                                                double *part) {
  int64_t stride = (int64_t)gridDim.x * CG_TPB;
  double v = 0;
  for (int64_t i = (int64_t)blockIdx.x * CG_TPB + threadIdx.x; i < n; i += stride)
    v += cg_dot_item(x[i], y[i]);
  v = pp_block_sum(v);
  if (threadIdx.x == 0) part[blockIdx.x] = v;
}
__global__ void __launch_bounds__(CG_TPB) k_dot_finish(double *part, int nb) {
  double v = 0;
  for (int i = threadIdx.x; i < nb; i += CG_TPB) v += part[i];
  v = pp_block_sum(v);
  if (threadIdx.x == 0) part[nb] = v;
}
__global__ void __launch_bounds__(CG_TPB) k_axpby(double *w, double alpha, const double *x,
                                                  double beta, const double *y, int64_t n) {
  int64_t i = (int64_t)blockIdx.x * CG_TPB + threadIdx.x;
  if (i < n) w[i] = cg_axpby_item(alpha, x[i], beta, y[i]);
}

static double dot(const double *x, const double *y, int64_t n, double *part) {
  unsigned nb = blocks_for(n, CG_DOT_MAX_BLOCKS);
  k_dot<<<nb, CG_TPB>>>(x, y, n, part);
  PP_GPU_CHECK_LAUNCH("dot");
  k_dot_finish<<<1, CG_TPB>>>(part, (int)nb);
  PP_GPU_CHECK_LAUNCH("dot finish");
  double r;
  PP_GPU_CHECK(gpuMemcpy(&r, part + nb, sizeof r, gpuMemcpyDeviceToHost));
  return r;
}

static void axpby(double *w, double alpha, const double *x, double beta, const double *y,
                  int64_t n) {
  k_axpby<<<blocks_for(n, 0x7fffffff), CG_TPB>>>(w, alpha, x, beta, y, n);
  PP_GPU_CHECK_LAUNCH("axpby");
}

static const cg_kernels table = {dot, axpby};
extern "C" const cg_kernels *CG_TABLE_GETTER(void) { return &table; }
