#include <omp.h>
#include <ompx.h>
#include <stdio.h>
#include <stdlib.h>
#include "pp/ompx_util.h"
int pp_omp_device = 0;
#define NB 16
#define TPB 256
#pragma omp begin declare target
/* pp_ompx_grid_sum without the explicit flush (the seq_cst atomic is one) */
static inline void grid_sum_noflush(double v, double *part, unsigned *ticket, double *shared, double *total) {
  const int t = ompx_thread_id_x(), nb = ompx_grid_dim_x();
  int *last = (int *)&shared[ompx_block_dim_x() / 32 + 1];
  if (t == 0) {
    part[ompx_block_id_x()] = v;
    unsigned k;
#pragma omp atomic capture seq_cst
    k = (*ticket)++;
    *last = k == (unsigned)nb - 1u;
  }
  ompx_sync_block_acq_rel();
  if (!*last) return;
  double s = 0;
  for (int i = t; i < nb; i += ompx_block_dim_x()) s += ((volatile double *)part)[i];
  s = pp_ompx_block_sum(s, shared);
  if (t == 0) { *total = s; *ticket = 0u; }
}
#pragma omp end declare target
int main(void) {
  const size_t n = 4096;
  double *x = omp_target_alloc(n * sizeof(double), 0), *part = omp_target_alloc(64 * sizeof(double), 0);
  double *hx = malloc(n * sizeof(double)), zero[64] = {0}, hp[64];
  for (size_t i = 0; i < n; i++) hx[i] = 1.0;
  omp_target_memcpy(x, hx, n * sizeof(double), 0, 0, 0, omp_get_initial_device());
  omp_target_memcpy(part, zero, sizeof zero, 0, 0, 0, omp_get_initial_device());
  unsigned *ticket = (unsigned *)(part + NB + 4);
  for (int rep = 0; rep < 3; rep++) {
    double r = -1;
#pragma omp target teams ompx_bare num_teams(NB) thread_limit(TPB) is_device_ptr(x, part, ticket) map(from : r) \
    ompx_dyn_cgroup_mem(PP_OMPX_GRID_SUM_BYTES(TPB))
    {
      double *sh = (double *)llvm_omp_target_dynamic_shared_alloc();
      double v = 0;
      PP_OMPX_FOR(i, n) v += x[i];
      grid_sum_noflush(pp_ompx_block_sum(v, sh), part, ticket, sh, &r);
    }
    omp_target_memcpy(hp, part, sizeof hp, 0, 0, omp_get_initial_device(), 0);
    printf("no flush, rep %d: r = %g (want 4096); block sums %g %g; ticket %u\n", rep, r, hp[0], hp[NB - 1],
           *(unsigned *)(hp + NB + 4));
  }
  return 0;
}
