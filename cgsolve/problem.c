/* cgsolve's problem: this rank's z-plane slab of the miniFE matrix (the
 * generator of minife/matrix.c), b = A x* for a known x*, and the halo. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pp/pp.h"
#include "problem.h"

/* x*: a reproducible function of the global row, in [-1, 1). */
static double xstar_at(uint64_t seed, int64_t g) { return 2.0 * pp_hash_uniform(seed, (uint64_t)g) - 1.0; }

/* Strong scaling: N itself; weak: a cube with about P times the nodes of an
 * N-cube, (N_g + 1)^3 ~ P (N + 1)^3. */
int cg_global_n(const cg_config *c, long long size) {
  if (!c->weak) return (int)size;
  return (int)lround((double)(size + 1) * cbrt((double)pp_mpi_size())) - 1;
}

/* Rank r owns the z-planes [r (N+1) / P, (r+1) (N+1) / P). */
static int64_t slab_begin(int N, int r) {
  const int64_t plane = (int64_t)(N + 1) * (N + 1);
  return (int64_t)(N + 1) * r / pp_mpi_size() * plane;
}

void cg_problem_check(pp_session *s, int N) {
  const int P = pp_mpi_size(), me = pp_mpi_rank();
  static char msg[160];
  const char *bad = NULL; /* every rank reaches the same verdict here */
  if (N > MINIFE_MAX_N)
    snprintf(msg, sizeof msg, "weak scaling: the global cube N = %d exceeds %d (int32 column indices)",
             N, MINIFE_MAX_N), bad = msg;
  else if (P > N + 1)
    snprintf(msg, sizeof msg, "N = %d has %d z-planes of nodes, fewer than the %d ranks", N, N + 1, P),
        bad = msg;
  pp_usage_check_all(s->app->name, bad);

  /* Memory: the slab's matrix and five vectors on the device; on the host the
   * matrix, b, x*, and validation's x with its ghost planes, r and b - A x,
   * plus a model's "device" copy when it runs on the CPU (host, omp
   * offloading to the host), times the ranks sharing this node. Each rank
   * checks its own slab (collectively: the message is printed once). */
  const int64_t plane = (int64_t)(N + 1) * (N + 1);
  const int64_t b = slab_begin(N, me), e = slab_begin(N, me + 1), n = e - b;
  const int64_t nnz = minife_nnz(N, b, e), ncols = n + (me > 0) * plane + (me + 1 < P) * plane;
  char what[96];
  snprintf(what, sizeof what, "N = %d (%lld rows, %lld entries on rank %d)", N, (long long)n,
           (long long)nnz, me);
  double dev = csr_bytes(n, nnz) + 8.0 * (3.0 * ncols + 2.0 * n + CG_SCRATCH_LEN);
  double host = csr_bytes(n, nnz) + 8.0 * (5.0 * n + 2.0 * plane);
  for (int m = 0; m < PP_MODEL_COUNT; m++) /* models run one at a time */
    if (s->ops[m] && !s->info[m].is_gpu) {
      host += dev;
      break;
    }
  host *= pp_mpi_local_size();
  pp_session_check_fits(s, what, dev, host);
}

void cg_problem_make(pp_session *s, int N, cg_problem *pb) {
  memset(pb, 0, sizeof *pb);
  const int P = pp_mpi_size(), me = pp_mpi_rank();
  pb->N = N;
  pb->plane = (int64_t)(N + 1) * (N + 1);
  pb->nglobal = minife_rows(N);
  pb->nnz_global = minife_nnz(N, 0, pb->nglobal);
  pb->rank_begin = malloc(sizeof(int64_t) * (size_t)(P + 1));
  if (!pb->rank_begin) pp_device_fail(PP_HOST, "alloc", "out of host memory");
  for (int r = 0; r <= P; r++) pb->rank_begin[r] = slab_begin(N, r);
  pb->row_begin = pb->rank_begin[me], pb->row_end = pb->rank_begin[me + 1];
  const int64_t n = pb->row_end - pb->row_begin;

  pp_progress(s, "generating the N = %d matrix (%lld rows, %lld entries)", N,
              (long long)pb->nglobal, (long long)pb->nnz_global);
  if (minife_matrix(N, pb->row_begin, pb->row_end, &pb->A) != 0)
    pp_device_fail(PP_HOST, "matrix generation", "out of host memory");
  pb->b = malloc(sizeof(double) * (size_t)(n ? n : 1));
  pb->xstar = malloc(sizeof(double) * (size_t)(n ? n : 1));
  if (!pb->b || !pb->xstar) pp_device_fail(PP_HOST, "alloc", "out of host memory for b and x*");
  /* b = A x* with the global column indices, before they are renumbered. */
  const csr_matrix *A = &pb->A;
  const uint64_t seed = s->opt.seed;
  double bb = 0, xx = 0;
#pragma omp parallel for schedule(static) reduction(+ : bb, xx)
  for (int64_t i = 0; i < n; i++) {
    double sum = 0;
    for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; k++) sum += A->val[k] * xstar_at(seed, A->col[k]);
    pb->b[i] = sum;
    pb->xstar[i] = xstar_at(seed, pb->row_begin + i);
    bb += sum * sum;
    xx += pb->xstar[i] * pb->xstar[i];
  }
  double g[2] = {bb, xx}, nc;
  pp_mpi_sum(g, 2);
  pb->normb = sqrt(g[0]), pb->normxstar = sqrt(g[1]);
  if (cg_halo_setup(&pb->halo, &pb->A, pb->row_begin, pb->row_end, pb->rank_begin) != 0)
    pp_mpi_exit(3);
  nc = (double)pb->A.ncols;
  pp_mpi_sum(&nc, 1);
  pb->ncols_global = nc;
}

void cg_problem_free(cg_problem *pb) {
  csr_free(&pb->A);
  cg_halo_free(&pb->halo);
  free(pb->b), free(pb->xstar), free(pb->rank_begin);
}
