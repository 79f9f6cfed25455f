/* cgsolve, omp model: standard OpenMP 5 target offload only. One combined
 * `target teams distribute parallel for simd` (PP_OMP_SIMD, pp/omp_loop.h)
 * per kernel, one element per thread (num_teams = n / CG_TPB, the form
 * microbench measured best); the dot is the
 * shared omp reduction (pp/reduce.h: one region, PP_OMP_GRID_REDUCE of
 * pp/omp_loop.h), and update the same reduction around cg_update_item. */
#include <omp.h>
#include "cgsolve.h"
#include "pp/reduce.h"
#include "pp/omp_loop.h"

static double dot(const double *x, const double *y, int64_t n, double *scratch) {
  return pp_reduce_omp()->dot(x, y, (size_t)n, CG_TPB, 0, scratch);
}

static void axpby(double *w, double alpha, const double *x, double beta, const double *y,
                  int64_t n) {
  PP_OMP_FOR(pp_omp_loop_teams((size_t)n, CG_TPB, 0), CG_TPB, is_device_ptr(w, x, y))
  for (int64_t i = 0; i < n; i++) w[i] = cg_axpby_item(alpha, x[i], beta, y[i]);
}

/* The shared omp reduction (pp/reduce.h, PP_OMP_GRID_REDUCE) around the update. */
static double update(double *x, double *r, double alpha, const double *p, const double *Ap,
                     int64_t n, double *scratch) {
  double s = 0;
  const size_t m = (size_t)n;
  PP_OMP_GRID_REDUCE(s, pp_omp_loop_teams(m, CG_TPB, pp_reduce_blocks(m, CG_TPB, 0)), CG_TPB, m, scratch,
                     is_device_ptr(x, r, p, Ap), cg_update_item(alpha, p[i], Ap[i], &x[i], &r[i]));
  return s;
}

static const cg_kernels table = {.dot = dot, .axpby = axpby, .update = update};
const cg_kernels *cg_kernels_omp(void) { return &table; }
