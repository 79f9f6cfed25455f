/* Reductions, omp model: standard OpenMP, the construct's reduction clause. */
#include <omp.h>
#include "pp/omp_loop.h"
#include "pp/reduce.h"

static double dot(const double *x, const double *y, size_t n, int tpb, int blocks,
                  double *scratch) {
  (void)scratch;
  double s = 0;
  PP_OMP_LOOP(n, tpb, blocks, is_device_ptr(x, y) reduction(+ : s) map(tofrom : s),
              s += pp_dot_item(x[i], y[i]));
  return s;
}
static double sum(const double *x, size_t n, int tpb, int blocks, double *scratch) {
  (void)scratch;
  double s = 0;
  PP_OMP_LOOP(n, tpb, blocks, is_device_ptr(x) reduction(+ : s) map(tofrom : s), s += x[i]);
  return s;
}

static const pp_reduce_ops ops = {dot, sum};
const pp_reduce_ops *pp_reduce_omp(void) { return &ops; }
