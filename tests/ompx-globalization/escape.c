/* Fixture of tests/test_ompx_globalization.py: a bare kernel helper that takes
 * the address of an element of a pointer parameter (&shared[k]), which clang
 * 19 reports as a globalized variable (OMP110-OMP113). The test requires that
 * remark here before it trusts the absence of one in the real kernel files. */
#include <omp.h>
#include <ompx.h>

#pragma omp begin declare target
static inline void flag_after(double *shared, int k) {
  int *flag = (int *)&shared[k];
  if (ompx_thread_id_x() == 0) *flag = 1;
  ompx_sync_block_acq_rel();
}
#pragma omp end declare target

void escape_fixture(double *out) {
#pragma omp target teams ompx_bare num_teams(1) thread_limit(64) is_device_ptr(out) ompx_dyn_cgroup_mem(64)
  {
    double *sh = (double *)llvm_omp_target_dynamic_shared_alloc();
    flag_after(sh, 2);
    if (ompx_thread_id_x() == 0) out[0] = sh[2];
  }
}
