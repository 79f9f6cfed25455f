/* Reductions, ompx model (LLVM OpenMP kernel mode): the native kernels' first
 * pass (backend/cuda/reduce_native.cu) with the same launch shapes, ended in
 * the same launch by the last block (PP_OMPX_GRID_REDUCE, pp/ompx_util.h):
 * one region, whose result leaves with it (map from), instead of two and a
 * copy. */
#include <omp.h>
#include <ompx.h>
#include "pp/ompx_util.h"
#include "pp/reduce.h"

/* A second pass alone (pp_reduce_ops.finish): one block sums part[0..nb), the
 * result mapped back. */
static double finish(double *part, int nb, int tpb) {
  double r = 0;
  PP_OMPX_LAUNCH(1, tpb, is_device_ptr(part) map(from : r) ompx_dyn_cgroup_mem(PP_OMPX_SUM_BYTES(tpb))) {
    double *sh = (double *)llvm_omp_target_dynamic_shared_alloc();
    double v = 0;
    for (int i = ompx_thread_id_x(); i < nb; i += ompx_block_dim_x()) v += part[i];
    v = pp_ompx_block_sum(v, sh);
    if (ompx_thread_id_x() == 0) r = v;
  }
  return r;
}

static double dot(const double *x, const double *y, size_t n, int tpb, int blocks,
                  double *part) {
  const int nb = pp_reduce_blocks(n, tpb, blocks);
  double r = 0;
  PP_OMPX_GRID_REDUCE(r, nb, tpb, n, part, is_device_ptr(x, y), pp_dot_item(x[i], y[i]))
  return r;
}
static double sum(const double *x, size_t n, int tpb, int blocks, double *part) {
  const int nb = pp_reduce_blocks(n, tpb, blocks);
  double r = 0;
  PP_OMPX_GRID_REDUCE(r, nb, tpb, n, part, is_device_ptr(x), x[i])
  return r;
}

static const pp_reduce_ops ops = {dot, sum, finish};
const pp_reduce_ops *pp_reduce_ompx(void) { return &ops; }
