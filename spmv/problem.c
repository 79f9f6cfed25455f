/* The spmv app's problem: memory estimate, the matrix and x, and the host
 * reference y = A x, written out here rather than through kernels/host.c so
 * that a broken host kernel is caught. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pp/pp.h"
#include "problem.h"
#ifdef _OPENMP
#include <omp.h>
#endif

/* A model's copy: matrix, x, y. */
static double device_bytes(int N, int vendor) {
  const int64_t n = minife_rows(N), nnz = minife_nnz(N, 0, n);
  double b = csr_bytes(n, nnz) + 2.0 * 8 * (double)n;
  if (vendor) b += 4.0 * (double)(n + 1); /* a possible int32 copy of the offsets */
  return b;
}

/* The generated matrix, x, yref and the host model's y; plus one model's
 * copy when a model other than host keeps its "device" arrays in host memory
 * (omp offloading to the CPU): models run one at a time. */
static double host_bytes(const pp_session *s, int N) {
  const int64_t n = minife_rows(N);
  double b = csr_bytes(n, minife_nnz(N, 0, n)) + 3.0 * 8 * (double)n;
  for (int m = 0; m < PP_MODEL_COUNT; m++)
    if (m != PP_HOST && s->ops[m] && !s->info[m].is_gpu) return b + device_bytes(N, 0);
  return b;
}

void spmv_problem_check_fits(pp_session *s, int N, int vendor) {
  char what[64];
  snprintf(what, sizeof what, "the N=%d matrix with x and y", N);
  pp_session_check_fits(s, what, device_bytes(N, vendor), host_bytes(s, N));
}

void spmv_problem_make(pp_session *s, int N, spmv_problem *pb) {
  memset(pb, 0, sizeof *pb);
  pb->N = N;
  const int64_t n = minife_rows(N), nnz = minife_nnz(N, 0, n);
  int threads = 1;
#ifdef _OPENMP
  threads = omp_get_max_threads();
#endif
  pp_progress(s, "N=%d: generating the matrix (%lld rows, %lld entries, %.2f GB) on %d threads", N,
              (long long)n, (long long)nnz, csr_bytes(n, nnz) / 1e9, threads);
  double t0 = pp_wtime();
  if (minife_matrix(N, 0, n, &pb->A) != 0) {
    fprintf(stderr, "spmv: out of host memory generating the N=%d matrix (%.2f GB)\n", N,
            csr_bytes(n, nnz) / 1e9);
    pp_mpi_exit(3);
  }
  double tgen = pp_wtime() - t0;
  pb->x = malloc((size_t)n * sizeof(double));
  pb->yref = malloc((size_t)n * sizeof(double));
  if (!pb->x || !pb->yref) {
    fprintf(stderr, "spmv: out of host memory for the vectors\n");
    pp_mpi_exit(3);
  }
  const uint64_t seed = s->opt.seed;
  double *x = pb->x, *yref = pb->yref;
  const csr_matrix *A = &pb->A;
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; i++) x[i] = pp_hash_uniform(seed, (uint64_t)i);
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; i++) {
    double sum = 0;
    for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; k++) sum += A->val[k] * x[A->col[k]];
    yref[i] = sum;
  }
  pp_progress(s, "N=%d: matrix generated in %.2f s, reference in %.2f s", N, tgen,
              pp_wtime() - t0 - tgen);
  /* papers' count: offsets + columns + values + one x read per entry + y */
  pb->bytes_paper = 8.0 * (n + 1) + 20.0 * nnz + 8.0 * n;
  /* minimum DRAM traffic: every array once */
  pb->bytes_min = csr_bytes(n, nnz) + 8.0 * n + 8.0 * n;
  pb->flops = 2.0 * nnz;
  char key[32];
  snprintf(key, sizeof key, "N=%d", N);
  pp_report_param(s->report, key, "%lld rows, %lld entries, matrix %.4g GB, bytes/run %.4g (papers') "
                  "%.4g (min); generated in %.2f s",
                  (long long)n, (long long)nnz, csr_bytes(n, nnz) / 1e9, pb->bytes_paper,
                  pb->bytes_min, tgen);
}

void spmv_problem_free(spmv_problem *pb) {
  csr_free(&pb->A);
  free(pb->x), free(pb->yref);
}
