/* Reductions, omp model: standard OpenMP, the construct's reduction clause. */
#include <omp.h>
#include "pp/omp_loop.h"
#include "pp/reduce.h"

/* Teams of the reduction: `blocks` as asked, else the first pass's count of
 * ompx/cuda (pp_reduce_blocks: at most PP_REDUCE_MAX_BLOCKS), each a
 * contiguous block (PP_OMP_LOOP's blocked shape): LLVM combines the teams'
 * partials after the loop, a cost that grows with the team count (65536
 * teams at 2^24, tpb 256). */
static int reduce_teams(size_t n, int tpb, int blocks) {
  return blocks > 0 ? blocks : pp_reduce_blocks(n, tpb, 0);
}

static double dot(const double *x, const double *y, size_t n, int tpb, int blocks,
                  double *scratch) {
  (void)scratch;
  double s = 0;
  PP_OMP_LOOP(n, tpb, reduce_teams(n, tpb, blocks), is_device_ptr(x, y) reduction(+ : s) map(tofrom : s),
              s += pp_dot_item(x[i], y[i]));
  return s;
}
static double sum(const double *x, size_t n, int tpb, int blocks, double *scratch) {
  (void)scratch;
  double s = 0;
  PP_OMP_LOOP(n, tpb, reduce_teams(n, tpb, blocks), is_device_ptr(x) reduction(+ : s) map(tofrom : s), s += x[i]);
  return s;
}

static double finish(double *part, int nb, int tpb) {
  return sum(part, (size_t)nb, tpb, 0, NULL);
}

static const pp_reduce_ops ops = {dot, sum, finish};
const pp_reduce_ops *pp_reduce_omp(void) { return &ops; }
