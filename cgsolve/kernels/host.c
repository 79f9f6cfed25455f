/* cgsolve, host model: the reference vector kernels, C with OpenMP threads. */
#include "cgsolve.h"

/* The dot sums fixed blocks of the vector, each in index order, then the
 * block sums in block order: the result does not depend on the thread count,
 * so the reference residual history is reproducible from run to run. */
static double dot(const double *x, const double *y, int64_t n, double *scratch) {
  int64_t nb = n < CG_DOT_MAX_BLOCKS ? (n > 0 ? n : 1) : CG_DOT_MAX_BLOCKS;
#pragma omp parallel for schedule(static)
  for (int64_t b = 0; b < nb; b++) {
    double s = 0;
    for (int64_t i = b * n / nb; i < (b + 1) * n / nb; i++) s += cg_dot_item(x[i], y[i]);
    scratch[b] = s;
  }
  double s = 0;
  for (int64_t b = 0; b < nb; b++) s += scratch[b];
  return s;
}

static void axpby(double *w, double alpha, const double *x, double beta, const double *y,
                  int64_t n) {
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; i++) w[i] = cg_axpby_item(alpha, x[i], beta, y[i]);
}

static const cg_kernels table = {dot, axpby};
const cg_kernels *cg_kernels_host(void) { return &table; }
