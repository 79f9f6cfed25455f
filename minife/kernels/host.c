/* spmv, host model: one row per iteration of a parallel loop over rows.
 * Launch parameters do not apply. */
#include <stddef.h>
#include "minife.h"

static void *prepare(int64_t nrows, int64_t ncols, int64_t nnz, const int64_t *rowptr,
                     const int32_t *col, const double *val, const spmv_params *p) {
  (void)nrows, (void)ncols, (void)nnz, (void)rowptr, (void)col, (void)val, (void)p;
  return NULL;
}

static void spmv(void *plan, int64_t nrows, const int64_t *PP_RESTRICT rowptr,
                 const int32_t *PP_RESTRICT col, const double *PP_RESTRICT val,
                 const double *PP_RESTRICT x, double *PP_RESTRICT y) {
  (void)plan;
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < nrows; i++) y[i] = spmv_row_partial(col, val, x, rowptr[i], rowptr[i + 1], 0, 1);
}

static void release(void *plan) { (void)plan; }

static const spmv_kernels table = {.prepare = prepare, .spmv = spmv, .release = release, .vendor = NULL};
const spmv_kernels *spmv_kernels_host(void) { return &table; }
