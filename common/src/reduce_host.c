/* Reductions, host model: fixed blocks summed in order (see pp/reduce.h). */
#include "pp/device.h"
#include "pp/dispatch.h"
#include "pp/reduce.h"

const pp_reduce_ops *pp_reduce_for(pp_model m) { return PP_MODEL_DISPATCH(m, pp_reduce_); }

double *pp_reduce_scratch_alloc(const pp_device_ops *ops) {
  static const double zero[PP_REDUCE_SCRATCH_LEN];
  return pp_device_upload(ops, zero, sizeof zero);
}

/* sum_i x[i]*y[i], or sum_i x[i] when y is NULL (the test is hoisted out of
 * the loop by the compiler). */
static double blocked(const double *x, const double *y, size_t n, double *part) {
  size_t nb = n < PP_REDUCE_MAX_BLOCKS ? (n > 0 ? n : 1) : PP_REDUCE_MAX_BLOCKS;
#pragma omp parallel for schedule(static)
  for (size_t b = 0; b < nb; b++) {
    double s = 0;
    size_t lo = b * n / nb, hi = (b + 1) * n / nb;
    if (y)
      for (size_t i = lo; i < hi; i++) s += pp_dot_item(x[i], y[i]);
    else
      for (size_t i = lo; i < hi; i++) s += x[i];
    part[b] = s;
  }
  double s = 0;
  for (size_t b = 0; b < nb; b++) s += part[b];
  return s;
}

static double dot(const double *x, const double *y, size_t n, int tpb, int blocks,
                  double *scratch) {
  (void)tpb, (void)blocks;
  return blocked(x, y, n, scratch);
}
static double sum(const double *x, size_t n, int tpb, int blocks, double *scratch) {
  (void)tpb, (void)blocks;
  return blocked(x, NULL, n, scratch);
}

static double finish(double *part, int nb, int tpb) {
  (void)tpb;
  double s = 0;
  for (int b = 0; b < nb; b++) s += part[b];
  return s;
}

static const pp_reduce_ops ops = {dot, sum, finish};
const pp_reduce_ops *pp_reduce_host(void) { return &ops; }
