/* The run-time reference of check.c: plain CG on the host, written apart
 * from the models' kernels and the CSR matrix (q1.c's matrix-free operator,
 * simple loops, the ranks' sums through MPI), run for as many iterations
 * as the solver took. Its true residual and x error are what a correct
 * solver reaches after those iterations, up to rounding: the check that
 * catches a wrong scalar (a dot, a step length) that leaves x and the
 * recursive residual consistent and within CG's convergence bound. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "pp/pp.h"
#include "problem.h"

static double dot(const double *x, const double *y, int64_t n) {
  double s = 0;
#pragma omp parallel for schedule(static) reduction(+ : s)
  for (int64_t i = 0; i < n; i++) s += x[i] * y[i];
  pp_mpi_sum(&s, 1);
  return s;
}

int cg_reference_run(const cg_problem *pb, int iters, double *relres, double *xerr) {
  const int64_t n = pb->row_end - pb->row_begin, plane = pb->plane;
  const size_t nb = sizeof(double) * (size_t)(n ? n : 1);
  double *x = malloc(nb), *r = malloc(nb), *ap = malloc(nb);
  double *pg = calloc((size_t)(n + 2 * plane), sizeof(double)), *p = pg + plane;
  int ok = x && r && ap && pg;
  if (pp_mpi_all(ok)) {
    q1_operator op;
    q1_operator_init(&op, pb->N);
    for (int64_t i = 0; i < n; i++) x[i] = 0, r[i] = pb->b[i], p[i] = r[i];
    double rr = dot(r, r, n);
    for (int k = 0; k < iters && rr > 0; k++) {
      cg_halo_planes(&pb->halo, p, n, plane, pg, p + n);
      q1_apply(&op, pb->row_begin, pb->row_end, pg, ap);
      const double pap = dot(p, ap, n);
      if (!(pap > 0)) break; /* p = 0: converged exactly */
      const double alpha = rr / pap;
#pragma omp parallel for schedule(static)
      for (int64_t i = 0; i < n; i++) x[i] += alpha * p[i], r[i] -= alpha * ap[i];
      const double rr_new = dot(r, r, n), beta = rr_new / rr;
#pragma omp parallel for schedule(static)
      for (int64_t i = 0; i < n; i++) p[i] = r[i] + beta * p[i];
      rr = rr_new;
    }
    /* the true residual and the error, as check.c computes them for the solver's x */
    memcpy(p, x, nb);
    cg_halo_planes(&pb->halo, p, n, plane, pg, p + n);
    q1_apply(&op, pb->row_begin, pb->row_end, pg, ap);
    double tt = 0, ee = 0;
#pragma omp parallel for schedule(static) reduction(+ : tt, ee)
    for (int64_t i = 0; i < n; i++) {
      const double t = pb->b[i] - ap[i], e = x[i] - pb->xstar[i];
      tt += t * t, ee += e * e;
    }
    double g[2] = {tt, ee};
    pp_mpi_sum(g, 2);
    *relres = sqrt(g[0]) / pb->normb;
    *xerr = sqrt(g[1]) / pb->normxstar;
  } else {
    ok = 0;
  }
  free(x), free(r), free(ap), free(pg);
  return ok;
}
