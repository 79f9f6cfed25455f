/* cgsolve, ompx model: LLVM OpenMP kernel mode, the same launch shapes and
 * algorithms as the native kernels (cuda.cu): axpby one element per thread;
 * dot the shared ompx reduction (pp/reduce.h: one launch, the last block
 * adding the blocks' sums, the result mapped back), update the same around
 * cg_update_item. */
#include <omp.h>
#include <ompx.h>
#include "cgsolve.h"
#include "pp/reduce.h"
#include "pp/ompx_util.h"

static int blocks_for(int64_t n, int cap) {
  int64_t b = (n + CG_TPB - 1) / CG_TPB;
  return b < 1 ? 1 : b > cap ? cap : (int)b;
}


static double dot(const double *x, const double *y, int64_t n, double *part) {
  return pp_reduce_ompx()->dot(x, y, (size_t)n, CG_TPB, 0, part);
}

static void axpby(double *w, double alpha, const double *x, double beta, const double *y,
                  int64_t n) {
  int nb = blocks_for(n, 0x7fffffff);
  PP_OMPX_LAUNCH(nb, CG_TPB, is_device_ptr(w, x, y)) {
    int64_t i = (int64_t)ompx_block_id_x() * CG_TPB + ompx_thread_id_x();
    if (i < n) w[i] = cg_axpby_item(alpha, x[i], beta, y[i]);
  }
}

/* The shared reduction's one launch (PP_OMPX_GRID_REDUCE) around cg_update_item. */
static double update(double *x, double *r, double alpha, const double *p, const double *Ap,
                     int64_t n, double *part) {
  const int nb = pp_reduce_blocks((size_t)n, CG_TPB, 0);
  double rr = 0;
  PP_OMPX_GRID_REDUCE(rr, nb, CG_TPB, n, part, is_device_ptr(x, r, p, Ap),
                      cg_update_item(alpha, p[i], Ap[i], &x[i], &r[i]))
  return rr;
}

static const cg_kernels table = {.dot = dot, .axpby = axpby, .update = update};
const cg_kernels *cg_kernels_ompx(void) { return &table; }
