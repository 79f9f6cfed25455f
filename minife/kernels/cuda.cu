/* spmv, native model, written once in CUDA dialect (pp/gpu_native.h): nvcc
 * builds it as cuda, hipcc as hip (kernels/hip.hip). The algorithm and index
 * arithmetic of the ompx kernel: a block of rows_per_team x vector_len
 * threads, thread t on row t / vector_len of the block's row group as lane
 * t % vector_len (one dimension, as kernel mode in clang 19 has only that;
 * the ompx file makes the block vector_len x rows_per_team with clang >= 20,
 * which numbers the threads alike); lanes stride over a row's entries, then reduce by shuffles or
 * through shared memory; one block per row group, or a fixed grid that loops. */
#include <limits.h>
#include <stdlib.h>
#include "pp/gpu_native.h"
#include "minife.h"

#ifdef PP_NATIVE_HIP
#define SPMV_TABLE_GETTER spmv_kernels_hip
#define SPMV_VENDOR spmv_vendor_hipsparse
#define SHFL_DOWN(mask, v, off, w) __shfl_down((v), (off), (w))
#else
#define SPMV_TABLE_GETTER spmv_kernels_cuda
#define SPMV_VENDOR spmv_vendor_cusparse
#define SHFL_DOWN(mask, v, off, w) __shfl_down_sync((mask), (v), (off), (w))
#endif

__device__ __forceinline__ double lane_partial(int64_t row, int lane, int vl, int64_t nrows,
                                               const int64_t *__restrict__ rowptr,
                                               const int32_t *__restrict__ col,
                                               const double *__restrict__ val,
                                               const double *__restrict__ x) {
  return row < nrows ? spmv_row_partial(col, val, x, rowptr[row], rowptr[row + 1], lane, vl) : 0.0;
}

/* LOOP: grid-stride loop over row groups (else one group per block);
 * SHFL: lane reduction by shuffles (else shared memory with block barriers). */
template <bool LOOP, bool SHFL>
__global__ void k_spmv(int rpt, int vl, int lg, int64_t ngroups, int64_t nrows,
                       const int64_t *__restrict__ rowptr, const int32_t *__restrict__ col,
                       const double *__restrict__ val, const double *__restrict__ x,
                       double *__restrict__ y) {
  extern __shared__ double sh[];
  const int t = threadIdx.x, lane = t & (vl - 1);
  /* the threads of this warp (the block's last warp may be partial) */
  const int in_warp = (int)blockDim.x - (t & ~(PP_WARP - 1));
  const unsigned mask = in_warp >= 32 ? 0xffffffffu : (1u << in_warp) - 1;
  (void)mask; /* HIP's shuffles take no mask */
  for (int64_t g = blockIdx.x; g < ngroups; g += gridDim.x) {
    const int64_t row = g * rpt + (t >> lg);
    double s = lane_partial(row, lane, vl, nrows, rowptr, col, val, x);
    if (SHFL) {
      for (int off = vl >> 1; off > 0; off >>= 1) s += SHFL_DOWN(mask, s, off, vl);
    } else {
      sh[t] = s;
      __syncthreads();
      for (int off = vl >> 1; off > 0; off >>= 1) {
        if (lane < off) sh[t] += sh[t + off];
        __syncthreads();
      }
      s = sh[t];
    }
    if (lane == 0 && row < nrows) y[row] = s;
    if (!LOOP) break; /* loop elimination: the compiler drops the loop */
  }
}

static void *prepare(int64_t nrows, int64_t ncols, int64_t nnz, const int64_t *rowptr,
                     const int32_t *col, const double *val, const spmv_params *p) {
  (void)nrows, (void)ncols, (void)nnz, (void)rowptr, (void)col, (void)val;
  return spmv_params_plan(p);
}

static void spmv(void *vplan, int64_t nrows, const int64_t *rowptr, const int32_t *col,
                 const double *val, const double *x, double *y) {
  const spmv_params p = spmv_plan_params(vplan);
  if (nrows == 0) return;
  const spmv_shape sh = spmv_launch_shape(&p, nrows, PP_WARP);
  const unsigned nb = (unsigned)sh.nb;
  const size_t shbytes = sh.shuffle ? 0 : (size_t)sh.tpb * sizeof(double);
#define SPMV_ARGS sh.rpt, sh.vl, sh.lg, sh.ngroups, nrows, rowptr, col, val, x, y
  if (sh.shuffle && !sh.loop) k_spmv<false, true><<<nb, sh.tpb, shbytes>>>(SPMV_ARGS);
  else if (sh.shuffle) k_spmv<true, true><<<nb, sh.tpb, shbytes>>>(SPMV_ARGS);
  else if (!sh.loop) k_spmv<false, false><<<nb, sh.tpb, shbytes>>>(SPMV_ARGS);
  else k_spmv<true, false><<<nb, sh.tpb, shbytes>>>(SPMV_ARGS);
#undef SPMV_ARGS
  PP_GPU_CHECK_LAUNCH("spmv");
}

static const spmv_kernels table = {
    .prepare = prepare,
    .spmv = spmv,
    .release = spmv_plan_free,
    .vendor = SPMV_VENDOR,
};
extern "C" const spmv_kernels *SPMV_TABLE_GETTER(void) { return &table; }
