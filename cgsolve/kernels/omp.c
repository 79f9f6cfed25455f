/* cgsolve, omp model: standard OpenMP 5 target offload only. One combined
 * `target teams distribute parallel for simd` (PP_OMP_SIMD, pp/omp_loop.h)
 * per kernel, one element per thread (num_teams = n / CG_TPB, the form
 * microbench measured best); the dot is the
 * shared omp reduction (pp/reduce.h: the construct's reduction clause). */
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

static const cg_kernels table = {dot, axpby};
const cg_kernels *cg_kernels_omp(void) { return &table; }
