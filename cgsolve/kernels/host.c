/* cgsolve, host model: the reference vector kernels, C with OpenMP threads. */
#include "cgsolve.h"
#include "pp/reduce.h"

/* The shared host reduction (pp/reduce.h): fixed blocks summed in order, so
 * the reference residual history does not depend on the thread count. */
static double dot(const double *x, const double *y, int64_t n, double *scratch) {
  return pp_reduce_host()->dot(x, y, (size_t)n, CG_TPB, 0, scratch);
}

static void axpby(double *w, double alpha, const double *x, double beta, const double *y,
                  int64_t n) {
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; i++) w[i] = cg_axpby_item(alpha, x[i], beta, y[i]);
}

/* Two axpby and the reference dot, not fused: the host's r.r must be the
 * reproducible blocked sum whatever the form. */
static double update(double *x, double *r, double alpha, const double *p, const double *Ap,
                     int64_t n, double *scratch) {
  axpby(x, 1.0, x, alpha, p, n);
  axpby(r, 1.0, r, -alpha, Ap, n);
  return dot(r, r, n, scratch);
}

static const cg_kernels table = {.dot = dot, .axpby = axpby, .update = update};
const cg_kernels *cg_kernels_host(void) { return &table; }
