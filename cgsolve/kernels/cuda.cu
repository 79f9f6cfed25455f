/* cgsolve, native model, written once in CUDA dialect (pp/gpu_native.h):
 * nvcc builds it as cuda, hipcc as hip (kernels/hip.hip). axpby one element
 * per thread; dot the shared native reduction (pp/reduce.h: a grid-stride
 * pass leaving one partial per block, one block summing them, an 8-byte copy);
 * update that first pass around cg_update_item, then the same finish. */
#include "cgsolve.h"
#include "pp/gpu_native.h"
#include "pp/reduce.h"

#ifdef PP_NATIVE_HIP
#define CG_TABLE_GETTER cg_kernels_hip
#else
#define CG_TABLE_GETTER cg_kernels_cuda
#endif

static unsigned blocks_for(int64_t n, int64_t cap) {
  int64_t b = (n + CG_TPB - 1) / CG_TPB;
  return b < 1 ? 1u : b > cap ? (unsigned)cap : (unsigned)b;
}

__global__ void __launch_bounds__(CG_TPB) k_axpby(double *w, double alpha, const double *x,
                                                  double beta, const double *y, int64_t n) {
  int64_t i = (int64_t)blockIdx.x * CG_TPB + threadIdx.x;
  if (i < n) w[i] = cg_axpby_item(alpha, x[i], beta, y[i]);
}

/* update's first pass: part[block] = the block's r.r (grid-stride, as the
 * shared reduction's first pass; pp/reduce.h). */
__global__ void __launch_bounds__(CG_TPB) k_update(double *x, double *r, double alpha,
                                                   const double *p, const double *Ap, int64_t n,
                                                   double *part) {
  double v = 0;
  PP_GRID_FOR(i, n) v += cg_update_item(alpha, p[i], Ap[i], &x[i], &r[i]);
  v = pp_block_sum(v);
  if (threadIdx.x == 0) part[blockIdx.x] = v;
}

static double dot(const double *x, const double *y, int64_t n, double *part) {
  return pp_reduce_for(PP_NATIVE_MODEL)->dot(x, y, (size_t)n, CG_TPB, 0, part);
}

static void axpby(double *w, double alpha, const double *x, double beta, const double *y,
                  int64_t n) {
  k_axpby<<<blocks_for(n, 0x7fffffff), CG_TPB>>>(w, alpha, x, beta, y, n);
  PP_GPU_CHECK_LAUNCH("axpby");
}

static double update(double *x, double *r, double alpha, const double *p, const double *Ap,
                     int64_t n, double *part) {
  const int nb = pp_reduce_blocks((size_t)n, CG_TPB, 0);
  k_update<<<nb, CG_TPB>>>(x, r, alpha, p, Ap, n, part);
  PP_GPU_CHECK_LAUNCH("update");
  return pp_reduce_for(PP_NATIVE_MODEL)->finish(part, nb, CG_TPB);
}

static const cg_kernels table = {.dot = dot, .axpby = axpby, .update = update};
extern "C" const cg_kernels *CG_TABLE_GETTER(void) { return &table; }
