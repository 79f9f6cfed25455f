/* spmv, omp model: standard OpenMP 5 target offload only, in three forms
 * (--omp-form), all over the same row groups of rows_per_team rows:
 *
 *  rows   `target teams distribute parallel for simd` over rows: one
 *         iteration per row, the textbook form. An inner `simd` over a row's
 *         entries would be the standard way to add the third level, but LLVM
 *         19 does not map simd to GPU lanes, so on GPUs this is "CSR scalar"
 *         (uncoalesced: neighbouring threads read rows 27 entries apart).
 *  lanes  the three levels in standard constructs: `teams distribute` over row
 *         groups, a `parallel for simd` over (row, lane) pairs in which
 *         vector_len lanes stride over one row's entries (coalesced, like the native
 *         kernels), the lanes' partial sums in a team-local array (LLVM puts
 *         it in team-shared memory), and a second `parallel for simd` that adds
 *         each row's partials. The implicit barrier between the two loops is
 *         the team-wide synchronization.
 *  teams  the same algorithm written SPMD style: one `parallel` region per team,
 *         omp_get_team_num()/omp_get_thread_num() for the mapping and
 *         `omp barrier` between the two phases (still only standard OpenMP).
 * (clang 19 -Rpass=openmp-opt: both lanes and teams kernels are turned into
 * SPMD mode and `part` becomes 8 KiB of static team-shared memory.)
 * There are no shuffles in standard OpenMP, so lane reductions always go
 * through team memory. Every `simd` here is PP_OMP_SIMD (pp/omp_loop.h: GCC
 * runs a warp's lanes only in simd loops; PP_OMP_SIMD=OFF drops it); the
 * teams form has none (its loops stride by omp_get_thread_num()). grid_loop
 * picks num_teams = params.teams instead of one team per row group, as in the
 * kernel-mode and native backends. */
#include <limits.h>
#include <omp.h>
#include <stdlib.h>
#include "pp/omp_loop.h"
#include "minife.h"

typedef struct plan {
  spmv_params p;
  int lg; /* log2(vector_len) */
} plan;

static void make_plan(plan *pl, const spmv_params *p) {
  pl->p = spmv_params_resolve(p);
  pl->lg = 0;
  while ((1 << pl->lg) < pl->p.vector_len) pl->lg++;
}

static void *prepare(int64_t nrows, int64_t ncols, int64_t nnz, const int64_t *rowptr,
                     const int32_t *col, const double *val, const spmv_params *p) {
  (void)nrows, (void)ncols, (void)nnz, (void)rowptr, (void)col, (void)val;
  plan *pl = malloc(sizeof *pl);
  make_plan(pl, p);
  return pl;
}

static int clamp_teams(int64_t n) { return n > INT_MAX ? INT_MAX : n < 1 ? 1 : (int)n; }

static void spmv(void *vplan, int64_t nrows, const int64_t *rowptr, const int32_t *col,
                 const double *val, const double *x, double *y) {
  plan def;
  const plan *pl = vplan;
  if (!pl) make_plan(&def, NULL), pl = &def;
  const int rpt = pl->p.rows_per_team, vl = pl->p.vector_len, lg = pl->lg, T = rpt * vl;
  const int64_t ngroups = (nrows + rpt - 1) / rpt;
  if (nrows == 0) return;

  if (pl->p.omp_form == SPMV_OMP_ROWS) {
    const int64_t want = (nrows + T - 1) / T;
    const int nt = clamp_teams(pl->p.grid_loop && pl->p.teams < want ? pl->p.teams : want);
#pragma omp target teams distribute parallel for PP_OMP_SIMD num_teams(pp_omp_teams(nt, T)) \
    thread_limit(PP_OMP_TL(T)) device(pp_omp_device) is_device_ptr(rowptr, col, val, x, y)
    for (int64_t i = 0; i < nrows; i++)
      y[i] = spmv_row_partial(col, val, x, rowptr[i], rowptr[i + 1], 0, 1);
    return;
  }

  const int nt = clamp_teams(pl->p.grid_loop && pl->p.teams < ngroups ? pl->p.teams : ngroups);
  if (pl->p.omp_form == SPMV_OMP_LANES) {
#pragma omp target teams distribute num_teams(pp_omp_teams(nt, T)) thread_limit(PP_OMP_TL(T)) dist_schedule(static, 1) \
    device(pp_omp_device) is_device_ptr(rowptr, col, val, x, y)
    for (int64_t g = 0; g < ngroups; g++) {
      double part[SPMV_MAX_TEAM]; /* team-local: shared by the team's threads */
#pragma omp parallel for PP_OMP_SIMD
      for (int t = 0; t < T; t++) {
        const int64_t row = g * rpt + (t >> lg);
        part[t] = row < nrows ? spmv_row_partial(col, val, x, rowptr[row], rowptr[row + 1],
                                                 t & (vl - 1), vl)
                              : 0.0;
      }
#pragma omp parallel for PP_OMP_SIMD
      for (int r = 0; r < rpt; r++) {
        const int64_t row = g * rpt + r;
        if (row < nrows) {
          double s = 0;
          for (int l = 0; l < vl; l++) s += part[r * vl + l];
          y[row] = s;
        }
      }
    }
    return;
  }

  /* SPMV_OMP_TEAMS. Loops stride by the team's actual thread count, so the
   * result is right whatever number of threads the runtime grants. */
#pragma omp target teams num_teams(pp_omp_teams(nt, T)) thread_limit(PP_OMP_TL(T)) device(pp_omp_device) \
    is_device_ptr(rowptr, col, val, x, y)
  {
    double part[SPMV_MAX_TEAM];
#pragma omp parallel
    {
      const int tid = omp_get_thread_num(), nth = omp_get_num_threads();
      for (int64_t g = omp_get_team_num(); g < ngroups; g += omp_get_num_teams()) {
        for (int t = tid; t < T; t += nth) {
          const int64_t row = g * rpt + (t >> lg);
          part[t] = row < nrows ? spmv_row_partial(col, val, x, rowptr[row], rowptr[row + 1],
                                                   t & (vl - 1), vl)
                                : 0.0;
        }
#pragma omp barrier
        for (int r = tid; r < rpt; r += nth) {
          const int64_t row = g * rpt + r;
          if (row < nrows) {
            double s = 0;
            for (int l = 0; l < vl; l++) s += part[r * vl + l];
            y[row] = s;
          }
        }
#pragma omp barrier
      }
    }
  }
}

static void release(void *plan) { free(plan); }

static const spmv_kernels table = {.prepare = prepare, .spmv = spmv, .release = release, .vendor = NULL};
const spmv_kernels *spmv_kernels_omp(void) { return &table; }
