/* Helpers for LLVM OpenMP kernel-mode (ompx) kernel files: the warp width,
 * a bare launch, a grid-stride loop, and a block sum through shuffles and
 * team-shared memory. Include after <omp.h> and <ompx.h>. */
#ifndef PP_OMPX_UTIL_H
#define PP_OMPX_UTIL_H
#include "pp/omp_device.h"
#include "pp/portable.h"

/* Lanes of a warp/wavefront. Known in device code only; host code uses it just
 * to size team memory, where the larger NVIDIA count (more warps) is safe. */
#if defined(__AMDGPU__) || defined(__AMDGCN__)
#define PP_OMPX_WARP 64
#else
#define PP_OMPX_WARP 32
#endif

/* Team-shared bytes pp_ompx_block_sum needs for tpb threads. */
#define PP_OMPX_SUM_BYTES(tpb) (((tpb) / 32 + 1) * (int)sizeof(double))

/* A bare kernel launch on ProxyPort's device: nb blocks of tpb threads. */
#define PP_OMPX_LAUNCH(nb, tpb, ...)                                                     \
  PP_PRAGMA(omp target teams ompx_bare num_teams(nb) thread_limit(tpb)                   \
            device(pp_omp_device) __VA_ARGS__)

/* Grid-stride loop over [0, n) from this thread. */
#define PP_OMPX_FOR(i, n)                                                                \
  for (size_t i = (size_t)ompx_block_id_x() * ompx_block_dim_x() + ompx_thread_id_x(),  \
              i##_stride = (size_t)ompx_grid_dim_x() * ompx_block_dim_x();               \
       i < (size_t)(n); i += i##_stride)

#pragma omp begin declare target
/* Sum of v over a warp: lane 0 ends with the total. */
static inline double pp_ompx_warp_sum(double v) {
  for (int d = PP_OMPX_WARP / 2; d > 0; d /= 2) v += ompx_shfl_down_sync_d(~0ull, v, d, PP_OMPX_WARP);
  return v;
}
/* Sum of v over the block: shuffles within each warp, then warp 0 adds the
 * warps' sums from team-shared memory (PP_OMPX_SUM_BYTES). Valid in thread 0. */
static inline double pp_ompx_block_sum(double v, double *shared) {
  int t = ompx_thread_id_x(), nwarps = (ompx_block_dim_x() + PP_OMPX_WARP - 1) / PP_OMPX_WARP;
  v = pp_ompx_warp_sum(v);
  if (t % PP_OMPX_WARP == 0) shared[t / PP_OMPX_WARP] = v;
  ompx_sync_block_acq_rel();
  v = 0;
  if (t < PP_OMPX_WARP) {
    if (t < nwarps) v = shared[t];
    v = pp_ompx_warp_sum(v);
  }
  return v;
}
#pragma omp end declare target

#endif
