/* cgsolve, ompx model: LLVM OpenMP kernel mode, the same launch shapes and
 * algorithms as the native kernels (cuda.cu): axpby one element per thread;
 * dot as a grid-stride pass that leaves one partial per block (warp
 * shuffles, then the warps' sums through team-shared memory), then one block
 * that sums the partials. The result comes back by a plain device-to-host
 * copy, not a target region, so a dot costs two launches and one copy. */
#include <omp.h>
#include <ompx.h>
#include "cgsolve.h"
#include "pp/omp_device.h"

#if defined(__AMDGPU__) || defined(__AMDGCN__)
#define WARP 64
#else
#define WARP 32
#endif
#define NWARPS (CG_TPB / WARP)
#define SHARED_BYTES (NWARPS * (int)sizeof(double))

/* A bare launch of nb blocks of CG_TPB threads, more clauses after. */
#define BARE(nb, ...)                                                                    \
  PP_PRAGMA(omp target teams ompx_bare num_teams(nb) thread_limit(CG_TPB)                \
            device(pp_omp_device) __VA_ARGS__)

static int blocks_for(int64_t n, int cap) {
  int64_t b = (n + CG_TPB - 1) / CG_TPB;
  return b < 1 ? 1 : b > cap ? cap : (int)b;
}

#pragma omp begin declare target
/* Sum over a warp by shuffles: lane 0 ends with the total. */
static double warp_sum(double v) {
  for (int d = WARP / 2; d > 0; d >>= 1) v += ompx_shfl_down_sync_d(~0ull, v, d, WARP);
  return v;
}
/* Sum of v over the block of CG_TPB threads; valid in thread 0. */
static double block_sum(double v, double *warp_part) {
  int t = ompx_thread_id_x();
  v = warp_sum(v);
  if (t % WARP == 0) warp_part[t / WARP] = v;
  ompx_sync_block_acq_rel();
  v = 0;
  if (t < WARP) {
    if (t < NWARPS) v = warp_part[t];
    v = warp_sum(v);
  }
  return v;
}
#pragma omp end declare target

static double dot(const double *x, const double *y, int64_t n, double *part) {
  int nb = blocks_for(n, CG_DOT_MAX_BLOCKS);
  BARE(nb, is_device_ptr(x, y, part) ompx_dyn_cgroup_mem(SHARED_BYTES)) {
    double *sh = (double *)llvm_omp_target_dynamic_shared_alloc();
    int64_t stride = (int64_t)ompx_grid_dim_x() * CG_TPB;
    double v = 0;
    for (int64_t i = (int64_t)ompx_block_id_x() * CG_TPB + ompx_thread_id_x(); i < n; i += stride)
      v += cg_dot_item(x[i], y[i]);
    v = block_sum(v, sh);
    if (ompx_thread_id_x() == 0) part[ompx_block_id_x()] = v;
  }
  BARE(1, is_device_ptr(part) ompx_dyn_cgroup_mem(SHARED_BYTES)) {
    double *sh = (double *)llvm_omp_target_dynamic_shared_alloc();
    double v = 0;
    for (int i = ompx_thread_id_x(); i < nb; i += CG_TPB) v += part[i];
    v = block_sum(v, sh);
    if (ompx_thread_id_x() == 0) part[nb] = v;
  }
  double r = 0;
  if (omp_target_memcpy(&r, part + nb, sizeof r, 0, 0, omp_get_initial_device(), pp_omp_device))
    pp_device_fail(PP_OMPX, "dot", "omp_target_memcpy of the result failed");
  return r;
}

static void axpby(double *w, double alpha, const double *x, double beta, const double *y,
                  int64_t n) {
  int nb = blocks_for(n, 0x7fffffff);
  BARE(nb, is_device_ptr(w, x, y)) {
    int64_t i = (int64_t)ompx_block_id_x() * CG_TPB + ompx_thread_id_x();
    if (i < n) w[i] = cg_axpby_item(alpha, x[i], beta, y[i]);
  }
}

static const cg_kernels table = {dot, axpby};
const cg_kernels *cg_kernels_ompx(void) { return &table; }
