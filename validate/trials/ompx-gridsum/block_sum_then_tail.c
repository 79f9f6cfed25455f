#include <omp.h>
#include <ompx.h>
#include <stdio.h>
#include <stdlib.h>
#include "pp/ompx_util.h"
int pp_omp_device = 0;
#define NB 16
#define TPB 256
static void show(const char *what, double *part) {
  double hp[64];
  omp_target_memcpy(hp, part, sizeof hp, 0, 0, omp_get_initial_device(), 0);
  printf("%s: blocks' sums %g %g %g; thread0 v %g %g; bsum %g; total slot %g; ticket %u\n", what, hp[0], hp[1],
         hp[NB - 1], hp[32], hp[33], hp[48], hp[NB + 2], *(unsigned *)(hp + NB + 4));
}
int main(void) {
  const size_t n = 4096;
  double *x = omp_target_alloc(n * sizeof(double), 0);
  double *part = omp_target_alloc(64 * sizeof(double), 0);
  double *hx = calloc(n, sizeof(double)), zero[64] = {0};
  for (size_t i = 0; i < n; i++) hx[i] = 1.0;
  omp_target_memcpy(x, hx, n * sizeof(double), 0, 0, 0, omp_get_initial_device());
  unsigned *ticket = (unsigned *)(part + NB + 4);
  /* V1: no mapped scalar: the total goes to part[NB+2] */
  omp_target_memcpy(part, zero, sizeof zero, 0, 0, 0, omp_get_initial_device());
#pragma omp target teams ompx_bare num_teams(NB) thread_limit(TPB) is_device_ptr(x, part, ticket) \
    ompx_dyn_cgroup_mem(PP_OMPX_GRID_SUM_BYTES(TPB))
  {
    double *sh = (double *)llvm_omp_target_dynamic_shared_alloc();
    double v = 0;
    PP_OMPX_FOR(i, n) v += x[i];
    if (ompx_block_id_x() == 0 && ompx_thread_id_x() < 2) part[32 + ompx_thread_id_x()] = v;
    double b = pp_ompx_block_sum(v, sh);
    if (ompx_block_id_x() == 0 && ompx_thread_id_x() == 0) part[48] = b;
    pp_ompx_grid_sum(b, part, ticket, sh, part + NB + 2);
  }
  show("V1 no map(from)", part);
  /* V2: with map(from: r), the same diagnostics */
  omp_target_memcpy(part, zero, sizeof zero, 0, 0, 0, omp_get_initial_device());
  double r = -1;
#pragma omp target teams ompx_bare num_teams(NB) thread_limit(TPB) is_device_ptr(x, part, ticket) map(from : r) \
    ompx_dyn_cgroup_mem(PP_OMPX_GRID_SUM_BYTES(TPB))
  {
    double *sh = (double *)llvm_omp_target_dynamic_shared_alloc();
    double v = 0;
    PP_OMPX_FOR(i, n) v += x[i];
    if (ompx_block_id_x() == 0 && ompx_thread_id_x() < 2) part[32 + ompx_thread_id_x()] = v;
    double b = pp_ompx_block_sum(v, sh);
    if (ompx_block_id_x() == 0 && ompx_thread_id_x() == 0) part[48] = b;
    pp_ompx_grid_sum(b, part, ticket, sh, &r);
  }
  show("V2 map(from: r)", part);
  printf("V2 r = %g\n", r);
  /* V3: two-pass's first pass shape (block sum stored by thread 0), no grid sum */
  omp_target_memcpy(part, zero, sizeof zero, 0, 0, 0, omp_get_initial_device());
#pragma omp target teams ompx_bare num_teams(NB) thread_limit(TPB) is_device_ptr(x, part) \
    ompx_dyn_cgroup_mem(PP_OMPX_SUM_BYTES(TPB))
  {
    double *sh = (double *)llvm_omp_target_dynamic_shared_alloc();
    double v = 0;
    PP_OMPX_FOR(i, n) v += x[i];
    if (ompx_block_id_x() == 0 && ompx_thread_id_x() < 2) part[32 + ompx_thread_id_x()] = v;
    v = pp_ompx_block_sum(v, sh);
    if (ompx_thread_id_x() == 0) part[ompx_block_id_x()] = v;
  }
  show("V3 first pass only", part);
  return 0;
}
