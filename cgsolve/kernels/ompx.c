/* cgsolve, ompx model: LLVM OpenMP kernel mode, the same launch shapes and
 * algorithms as the native kernels (cuda.cu): axpby one element per thread;
 * dot as a grid-stride pass that leaves one partial per block (warp
 * shuffles, then the warps' sums through team-shared memory), then one block
 * that sums the partials. The result comes back by a plain device-to-host
 * copy, not a target region, so a dot costs two launches and one copy. */
#include <omp.h>
#include <ompx.h>
#include "cgsolve.h"
#include "pp/ompx_util.h"

#define SHARED_BYTES PP_OMPX_SUM_BYTES(CG_TPB)

static int blocks_for(int64_t n, int cap) {
  int64_t b = (n + CG_TPB - 1) / CG_TPB;
  return b < 1 ? 1 : b > cap ? cap : (int)b;
}


static double dot(const double *x, const double *y, int64_t n, double *part) {
  int nb = blocks_for(n, CG_DOT_MAX_BLOCKS);
  PP_OMPX_LAUNCH(nb, CG_TPB, is_device_ptr(x, y, part) ompx_dyn_cgroup_mem(SHARED_BYTES)) {
    double *sh = (double *)llvm_omp_target_dynamic_shared_alloc();
    int64_t stride = (int64_t)ompx_grid_dim_x() * CG_TPB;
    double v = 0;
    for (int64_t i = (int64_t)ompx_block_id_x() * CG_TPB + ompx_thread_id_x(); i < n; i += stride)
      v += cg_dot_item(x[i], y[i]);
    v = pp_ompx_block_sum(v, sh);
    if (ompx_thread_id_x() == 0) part[ompx_block_id_x()] = v;
  }
  PP_OMPX_LAUNCH(1, CG_TPB, is_device_ptr(part) ompx_dyn_cgroup_mem(SHARED_BYTES)) {
    double *sh = (double *)llvm_omp_target_dynamic_shared_alloc();
    double v = 0;
    for (int i = ompx_thread_id_x(); i < nb; i += CG_TPB) v += part[i];
    v = pp_ompx_block_sum(v, sh);
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
  PP_OMPX_LAUNCH(nb, CG_TPB, is_device_ptr(w, x, y)) {
    int64_t i = (int64_t)ompx_block_id_x() * CG_TPB + ompx_thread_id_x();
    if (i < n) w[i] = cg_axpby_item(alpha, x[i], beta, y[i]);
  }
}

static const cg_kernels table = {dot, axpby};
const cg_kernels *cg_kernels_ompx(void) { return &table; }
