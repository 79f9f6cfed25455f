/* Reductions, native model, written once in CUDA dialect (pp/gpu_native.h):
 * nvcc builds it as cuda, hipcc as hip (backend/hip/reduce_hip.hip). */
#include "pp/gpu_native.h"
#include "pp/reduce.h"

#ifdef PP_NATIVE_HIP
#define PP_REDUCE_GETTER pp_reduce_hip
#else
#define PP_REDUCE_GETTER pp_reduce_cuda
#endif

/* First pass: part[block] = this block's sum of x[i]*y[i] (DOT) or x[i]. */
template <bool DOT>
__global__ void k_reduce_pass(const double *x, const double *y, size_t n, double *part) {
  double v = 0;
  PP_GRID_FOR(i, n) v += DOT ? pp_dot_item(x[i], y[i]) : x[i];
  v = pp_block_sum(v);
  if (threadIdx.x == 0) part[blockIdx.x] = v;
}
/* Second pass, one block: part[nb] = sum of part[0..nb). */
__global__ void k_reduce_finish(double *part, int nb) {
  double v = 0;
  for (int i = threadIdx.x; i < nb; i += blockDim.x) v += part[i];
  v = pp_block_sum(v);
  if (threadIdx.x == 0) part[nb] = v;
}

template <bool DOT>
static double reduce(const double *x, const double *y, size_t n, int tpb, int blocks,
                     double *part) {
  unsigned nb = (unsigned)pp_reduce_blocks(n, tpb, blocks);
  k_reduce_pass<DOT><<<nb, tpb>>>(x, y, n, part);
  PP_GPU_CHECK_LAUNCH("reduction");
  k_reduce_finish<<<1, tpb>>>(part, (int)nb);
  PP_GPU_CHECK_LAUNCH("reduction finish");
  double r;
  PP_GPU_CHECK(gpuMemcpy(&r, part + nb, sizeof r, gpuMemcpyDeviceToHost));
  return r;
}

static double dot(const double *x, const double *y, size_t n, int tpb, int blocks,
                  double *part) {
  return reduce<true>(x, y, n, tpb, blocks, part);
}
static double sum(const double *x, size_t n, int tpb, int blocks, double *part) {
  return reduce<false>(x, NULL, n, tpb, blocks, part);
}

static const pp_reduce_ops ops = {dot, sum};
extern "C" const pp_reduce_ops *PP_REDUCE_GETTER(void) { return &ops; }
