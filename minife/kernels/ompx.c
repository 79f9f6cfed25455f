/* spmv, ompx model: LLVM OpenMP kernel mode, the algorithm of the native
 * kernels (kernels/cuda.cu) in OpenMP spelling. A team is a block of
 * rows_per_team x vector_len threads: thread t works on row t / vector_len of
 * the team's row group as lane t % vector_len. With clang >= 20 the team is a
 * two-dimensional block, thread_limit(vector_len, rows_per_team, 1): lane x,
 * row y (pp/ompx_util.h, PP_OMPX_MULTIDIM; PP_OMPX_GRID=flat keeps one
 * dimension); clang 19 has only the one-dimensional form, as kernels/cuda.cu
 * keeps. The threads are numbered alike in both, so are warps and results.
 * Lanes stride over one row's entries (coalesced), then reduce their partial
 * sums by shuffles (ompx_shfl_down_sync_d) or through team-shared memory
 * (ompx_dyn_cgroup_mem + block barriers). Either one team per row group
 * (loop elimination) or a fixed grid looping over the row groups.
 * Loads: by default through the read-only data cache (spmv_row_partial_ro),
 * as nvcc compiles the native kernel; plain_loads turns that off. */
#include <limits.h>
#include <omp.h>
#include <ompx.h>
#include <stdlib.h>
#include "pp/omp_device.h"
#include "pp/ompx_util.h"
#include "minife.h"

/* Widest row a shuffle reduction spans. The launch is chosen on the host,
 * which cannot tell an NVIDIA warp (32) from an AMD wavefront (64), so rows of
 * 64 lanes (AMD only) reduce through team memory here. */
#define SHFL_MAX_LANES 32

/* This thread's number t in the team and its lane (t = lane + vl * row in both
 * forms of the block), its row of the team's group, and the team's threads. */
#if PP_OMPX_MULTIDIM
#define GROUP_THREAD(t, lane, vl, lg)                                                    \
  const int lane = ompx_thread_id_x(), t = lane + (ompx_thread_id_y() << (lg))
#define GROUP_ROW(t, lg) ompx_thread_id_y()
#define TEAM_THREADS() (ompx_block_dim_x() * ompx_block_dim_y())
#else
#define GROUP_THREAD(t, lane, vl, lg) const int t = ompx_thread_id_x(), lane = t & ((vl) - 1)
#define GROUP_ROW(t, lg) ((t) >> (lg))
#define TEAM_THREADS() ompx_block_dim_x()
#endif

#pragma omp begin declare target
/* A lane's partial sum of its row (0 past the last row). `ro` is a constant
 * at every call, so each kernel has one kind of load. */
static inline double lane_partial(int ro, int64_t row, int lane, int vl, int64_t nrows,
                                  const int64_t *PP_RESTRICT rowptr, const int32_t *PP_RESTRICT col,
                                  const double *PP_RESTRICT val, const double *PP_RESTRICT x) {
  if (row >= nrows) return 0.0;
  return ro ? spmv_row_partial_ro(col, val, x, SPMV_RO_L(rowptr + row), SPMV_RO_L(rowptr + row + 1),
                                  lane, vl)
            : spmv_row_partial(col, val, x, rowptr[row], rowptr[row + 1], lane, vl);
}

/* Lane reduction by shuffles within each row's vl lanes (vl <= warp; a
 * row's lanes are consecutive threads of one warp). Lane 0 stores. */
static inline void group_shfl(int ro, int64_t g, int rpt, int vl, int lg, int64_t nrows,
                              const int64_t *rowptr, const int32_t *col, const double *val,
                              const double *x, double *y) {
  GROUP_THREAD(t, lane, vl, lg);
  const int64_t row = g * rpt + GROUP_ROW(t, lg);
  /* the threads of this warp (the team's last warp may be partial) */
  const int in_warp = TEAM_THREADS() - (t & ~(SHFL_MAX_LANES - 1));
  const uint64_t mask = in_warp >= SHFL_MAX_LANES ? ~0ull : (1ull << in_warp) - 1;
  double s = lane_partial(ro, row, lane, vl, nrows, rowptr, col, val, x);
  for (int off = vl >> 1; off > 0; off >>= 1) s += ompx_shfl_down_sync_d(mask, s, off, vl);
  if (lane == 0 && row < nrows) y[row] = s;
}

/* Lane reduction through team-shared memory: a tree with a block barrier per
 * level (every thread of the block reaches every barrier). */
static inline void group_shared(int ro, int64_t g, int rpt, int vl, int lg, int64_t nrows,
                                const int64_t *rowptr, const int32_t *col, const double *val,
                                const double *x, double *y, double *sh) {
  GROUP_THREAD(t, lane, vl, lg);
  const int64_t row = g * rpt + GROUP_ROW(t, lg);
  sh[t] = lane_partial(ro, row, lane, vl, nrows, rowptr, col, val, x);
  ompx_sync_block_acq_rel();
  for (int off = vl >> 1; off > 0; off >>= 1) {
    if (lane < off) sh[t] += sh[t + off];
    ompx_sync_block_acq_rel();
  }
  if (lane == 0 && row < nrows) y[row] = sh[t];
}
#pragma omp end declare target

static void *prepare(int64_t nrows, int64_t ncols, int64_t nnz, const int64_t *rowptr,
                     const int32_t *col, const double *val, const spmv_params *p) {
  (void)nrows, (void)ncols, (void)nnz, (void)rowptr, (void)col, (void)val;
  return spmv_params_plan(p);
}

/* A bare launch: nb teams of rpt * vl threads (vl x rpt where blocks have two
 * dimensions). */
#if PP_OMPX_MULTIDIM
#define OMPX_LAUNCH(...)                                                                 \
  PP_OMPX_LAUNCH_XY(nb, vl, rpt, is_device_ptr(rowptr, col, val, x, y) __VA_ARGS__)
#else
#define OMPX_LAUNCH(...)                                                                 \
  PP_PRAGMA(omp target teams ompx_bare num_teams(nb) thread_limit(tpb)                  \
            device(pp_omp_device) is_device_ptr(rowptr, col, val, x, y) __VA_ARGS__)
#endif

/* The four kernels (reduction x grid) with loads of kind RO (0 or 1). */
#define LAUNCH_ALL(RO)                                                                  \
  if (shfl && !loop) {                                                                  \
    OMPX_LAUNCH()                                                                       \
    group_shfl(RO, ompx_block_id_x(), rpt, vl, lg, nrows, rowptr, col, val, x, y);      \
  } else if (shfl) {                                                                    \
    OMPX_LAUNCH()                                                                       \
    for (int64_t g = ompx_block_id_x(); g < ngroups; g += ompx_grid_dim_x())            \
      group_shfl(RO, g, rpt, vl, lg, nrows, rowptr, col, val, x, y);                    \
  } else if (!loop) {                                                                   \
    OMPX_LAUNCH(ompx_dyn_cgroup_mem(shbytes))                                           \
    group_shared(RO, ompx_block_id_x(), rpt, vl, lg, nrows, rowptr, col, val, x, y,     \
                 (double *)llvm_omp_target_dynamic_shared_alloc());                     \
  } else {                                                                              \
    OMPX_LAUNCH(ompx_dyn_cgroup_mem(shbytes)) {                                         \
      double *sh = (double *)llvm_omp_target_dynamic_shared_alloc();                    \
      for (int64_t g = ompx_block_id_x(); g < ngroups; g += ompx_grid_dim_x())          \
        group_shared(RO, g, rpt, vl, lg, nrows, rowptr, col, val, x, y, sh);            \
    }                                                                                   \
  }

static void spmv(void *vplan, int64_t nrows, const int64_t *rowptr, const int32_t *col,
                 const double *val, const double *x, double *y) {
  const spmv_params p = spmv_plan_params(vplan);
  if (nrows == 0) return;
  const spmv_shape sh = spmv_launch_shape(&p, nrows, SHFL_MAX_LANES);
  const int rpt = sh.rpt, vl = sh.vl, lg = sh.lg, tpb = sh.tpb, loop = sh.loop, shfl = sh.shuffle;
  const int64_t ngroups = sh.ngroups;
  const int nb = (int)sh.nb;
  const int shbytes = tpb * (int)sizeof(double);
  if (p.plain_loads) {
    LAUNCH_ALL(0)
  } else {
    LAUNCH_ALL(1)
  }
}


static const spmv_kernels table = {
    .prepare = prepare,
    .spmv = spmv,
    .release = spmv_plan_free,
    .vendor = NULL,
};
const spmv_kernels *spmv_kernels_ompx(void) { return &table; }
