/* Reductions, omp model: standard OpenMP, one region a reduction
 * (PP_OMP_GRID_REDUCE, pp/omp_loop.h: team-level reductions, a ticket, the last
 * team's sum), its result mapped back. */
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
  double s = 0;
  PP_OMP_GRID_REDUCE(s, pp_omp_loop_teams(n, tpb, reduce_teams(n, tpb, blocks)), tpb, n, scratch,
                     is_device_ptr(x, y), pp_dot_item(x[i], y[i]));
  return s;
}
static double sum(const double *x, size_t n, int tpb, int blocks, double *scratch) {
  double s = 0;
  PP_OMP_GRID_REDUCE(s, pp_omp_loop_teams(n, tpb, reduce_teams(n, tpb, blocks)), tpb, n, scratch,
                     is_device_ptr(x), x[i]);
  return s;
}

/* The partials' sum (no cuda-style second pass uses it in this model: its
 * reductions end in their own region). part[nb] onwards is the scratch's
 * result slot and ticket, which a reduction of part cannot use: the plain
 * clause form here. */
static double finish(double *part, int nb, int tpb) {
  double s = 0;
  PP_OMP_LOOP((size_t)nb, tpb, 0, is_device_ptr(part) reduction(+ : s) map(tofrom : s), s += part[i]);
  return s;
}

static const pp_reduce_ops ops = {dot, sum, finish};
const pp_reduce_ops *pp_reduce_omp(void) { return &ops; }
