/* The SpMV launch parameters: defaults, resolution of what a user gave, and
 * the launch shape and plan the hierarchical kernels (ompx, cuda, hip) call
 * back into. No kernel table and no deck here (registry.c, deck.c). */
#include <limits.h>
#include <stdlib.h>
#include "minife.h"
#include "pp/omp_device.h"

/* The omp form used when none is asked (kernels/omp.c explains the forms):
 * the fastest form of each compiler. With clang `teams`; with GCC `rows`,
 * one `teams distribute parallel for simd` loop whose simd lanes GCC maps
 * onto the warp (its OpenMP thread is a warp, whose 32 lanes it runs only
 * inside simd loops). See docs/performance.md, spmv and Compilers. */
#define SPMV_OMP_FASTEST (PP_OMP_GCC ? SPMV_OMP_ROWS : SPMV_OMP_TEAMS)

spmv_params spmv_params_default(void) {
  spmv_params p = {SPMV_DEFAULT_ROWS_PER_TEAM, SPMV_DEFAULT_VECTOR_LEN, SPMV_DEFAULT_SHUFFLE,
                   SPMV_DEFAULT_GRID_LOOP, SPMV_GRID_TEAMS, SPMV_OMP_FASTEST, 0};
  return p;
}

static int pow2(int v) { return v > 0 && (v & (v - 1)) == 0; }

spmv_params spmv_params_resolve(const spmv_params *in) {
  spmv_params d = spmv_params_default(), p = in ? *in : d;
  if (!pow2(p.vector_len) || p.vector_len > 64) p.vector_len = d.vector_len;
  if (p.rows_per_team < 1) p.rows_per_team = d.rows_per_team;
  if (p.rows_per_team * p.vector_len > SPMV_MAX_TEAM) p.rows_per_team = SPMV_MAX_TEAM / p.vector_len;
  p.shuffle = p.shuffle != 0;
  p.grid_loop = p.grid_loop != 0;
  if (p.teams < 1) p.teams = d.teams;
  p.plain_loads = p.plain_loads != 0;
  if (p.omp_form < SPMV_OMP_ROWS || p.omp_form > SPMV_OMP_TEAMS) p.omp_form = d.omp_form;
  return p;
}

const char *spmv_omp_form_name(int form) {
  switch (form) {
  case SPMV_OMP_ROWS: return "rows";
  case SPMV_OMP_LANES: return "lanes";
  case SPMV_OMP_TEAMS: return "teams";
  default: return spmv_omp_form_name(SPMV_OMP_FASTEST);
  }
}

spmv_shape spmv_launch_shape(const spmv_params *p, int64_t nrows, int max_shuffle_lanes) {
  spmv_shape s;
  s.rpt = p->rows_per_team;
  s.vl = p->vector_len;
  s.tpb = s.rpt * s.vl;
  for (s.lg = 0; (1 << s.lg) < s.vl; s.lg++) {}
  s.ngroups = (nrows + s.rpt - 1) / s.rpt;
  s.loop = p->grid_loop || s.ngroups > INT_MAX; /* more groups than a grid can have: loop */
  s.nb = s.loop ? (s.ngroups < p->teams ? s.ngroups : p->teams) : s.ngroups;
  s.shuffle = p->shuffle && s.vl <= max_shuffle_lanes;
  return s;
}

void *spmv_params_plan(const spmv_params *p) {
  spmv_params *pl = malloc(sizeof *pl);
  if (pl) *pl = spmv_params_resolve(p);
  return pl;
}

spmv_params spmv_plan_params(const void *plan) {
  return plan ? *(const spmv_params *)plan : spmv_params_resolve(NULL);
}

void spmv_plan_free(void *plan) { free(plan); }
