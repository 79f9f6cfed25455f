/* Reductions, ompx model (LLVM OpenMP kernel mode): the native kernels' two
 * passes (backend/cuda/reduce_native.cu) with the same launch shapes. */
#include <omp.h>
#include <ompx.h>
#include "pp/ompx_util.h"
#include "pp/reduce.h"

/* First pass: each of nb blocks leaves the sum of its threads' `item` in part[block]. */
#define FIRST_PASS(nb, tpb, clauses, item)                                              \
  PP_OMPX_LAUNCH(nb, tpb, is_device_ptr(part) clauses                                   \
                 ompx_dyn_cgroup_mem(PP_OMPX_SUM_BYTES(tpb))) {                        \
    double *sh = (double *)llvm_omp_target_dynamic_shared_alloc();                      \
    double v = 0;                                                                       \
    PP_OMPX_FOR(i, n) v += item;                                                        \
    v = pp_ompx_block_sum(v, sh);                                                       \
    if (ompx_thread_id_x() == 0) part[ompx_block_id_x()] = v;                           \
  }

/* Second pass: one block sums part[0..nb); the result leaves with the region
 * (map from), which saves the synchronized copy a separate transfer costs. */
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
  int nb = pp_reduce_blocks(n, tpb, blocks);
  FIRST_PASS(nb, tpb, is_device_ptr(x, y), pp_dot_item(x[i], y[i]))
  return finish(part, nb, tpb);
}
static double sum(const double *x, size_t n, int tpb, int blocks, double *part) {
  int nb = pp_reduce_blocks(n, tpb, blocks);
  FIRST_PASS(nb, tpb, is_device_ptr(x), x[i])
  return finish(part, nb, tpb);
}

static const pp_reduce_ops ops = {dot, sum, finish};
const pp_reduce_ops *pp_reduce_ompx(void) { return &ops; }
