/* cgsolve's validation, on the host and independent of the model's kernels,
 * of the CSR matrix and of the halo exchange lists: x and the recursive
 * residual r are downloaded, and the true residual b - A x is recomputed with
 * the matrix-free operator of q1.c (ghost planes from the neighbours).
 *
 * Checks (all must hold, on every rank's data):
 *  gap     ||(b - A x) - r|| / ||b|| <= 1e-10: the recursive residual is the
 *          true one (rounding drift is ~k eps kappa^(1/2) ||x|| / ||b||, 1e-13
 *          after 200 iterations here; a wrong kernel or halo gives O(1));
 *  relres  ||b - A x|| / ||b|| <= CG's convergence bound after the iterations
 *          run, 2 sqrt(kappa) ((sqrt(kappa) - 1) / (sqrt(kappa) + 1))^k, with
 *          kappa from q1.c's exact lambda_min and a Gershgorin lambda_max
 *          (4/3 above the true one, a margin for finite precision), floored
 *          at 1e-12 (rounding), and <= --expect-relres when given;
 *  break   a breakdown (p.Ap <= 0) only with relres <= 1e-12 (only p = 0
 *          gives one, A being SPD);
 *  xerr    ||x - x*|| / ||x*|| <= (||b - A x|| + slack) / (lambda_min ||x*||),
 *          since x - x* = -A^-1 (b - A x); slack = 256 eps (||b|| + lambda_max
 *          ||x||) covers the rounding of the computed residual;
 *  ref     with a deck that records a reference (inputs/minife/reference/)
 *          for this N, seed and iteration count: relres and xerr within 1e-6
 *          (relative) of it, or both <= 1e-10 where the reference is there;
 *  run     otherwise, where rows x iterations <= 2^31: the same against a
 *          plain host CG of as many iterations (reference.c), once per size
 *          and iteration count (a wrong dot or step length keeps x and r
 *          consistent and, after few iterations, inside the bound above);
 *  agree   each model's relres within 1e-6 of the first model's at the size
 *          that passed its own checks (a wrong model must not fail the right
 *          ones after it), when above 1e-10 (correct models differ by rounding
 *          only, orders of magnitude below 1e-6). */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pp/pp.h"
#include "problem.h"

#define CG_GAP_TOL 1e-10
#define CG_FLOOR 1e-12        /* a residual this small is rounding: converged */
#define CG_REF_TOL 1e-6       /* relative distance to the recorded reference */
#define CG_REF_FLOOR 1e-10    /* below it, residuals are compared as "converged" */
#define CG_AGREE_TOL 1e-6
#define CG_AGREE_FLOOR 1e-10
#define CG_ROUND (256 * DBL_EPSILON)
#define CG_RUN_REF_BUDGET 2147483648.0 /* rows x iterations of the run-time reference */

/* Appends "name v<=tol" to the failed or passed list. */
static void part(char *fail, char *pass, size_t len, int ok, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
static void part(char *fail, char *pass, size_t len, int ok, const char *fmt, ...) {
  char buf[96];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  char *dst = ok ? pass : fail;
  size_t used = strlen(dst);
  snprintf(dst + used, len - used, "%s%s", used ? "; " : "", buf);
}

/* relres and xerr against a reference's: "vs NAME d<=tol", or converged. */
static int against(char *fail, char *pass, size_t len, const char *name, double relres, double xerr,
                   double ref_relres, double ref_xerr) {
  int t;
  if (ref_relres > CG_REF_FLOOR) {
    const double dr = fabs(relres / ref_relres - 1), dx = fabs(xerr / ref_xerr - 1);
    t = pp_within(fmax(dr, dx), CG_REF_TOL);
    part(fail, pass, len, t, "vs %s %.0e<=%.0e", name, fmax(dr, dx), CG_REF_TOL);
  } else {
    t = pp_within(relres, CG_REF_FLOOR);
    part(fail, pass, len, t, "%s: converged", name);
  }
  return t;
}

/* The run-time reference of this problem after `iters` iterations, computed
 * once for every model (the last one kept). */
static int run_reference(const cg_problem *pb, int iters, double *relres, double *xerr) {
  static struct { const cg_problem *pb; int N, iters, ok; double relres, xerr; } last;
  if (last.pb != pb || last.N != pb->N || last.iters != iters) {
    last.pb = pb, last.N = pb->N, last.iters = iters;
    last.ok = cg_reference_run(pb, iters, &last.relres, &last.xerr);
  }
  *relres = last.relres, *xerr = last.xerr;
  return last.ok;
}

/* CG's bound on ||r_k|| / ||r_0|| in exact arithmetic. */
static double cg_bound(double kappa, int k) {
  const double s = sqrt(kappa);
  return 2 * s * pow((s - 1) / (s + 1), k);
}

cg_verdict cg_check(const cg_solver *S, cg_first *first) {
  const cg_problem *pb = S->pb;
  const cg_config *c = S->c;
  const int64_t n = S->n, plane = pb->plane;
  double *xg = calloc((size_t)(n + 2 * plane), sizeof(double)), *x = xg + plane;
  double *r = malloc(sizeof(double) * (size_t)(n ? n : 1));
  double *ax = malloc(sizeof(double) * (size_t)(n ? n : 1));
  if (!xg || !r || !ax) pp_device_fail(PP_HOST, "alloc", "out of host memory for validation");
  S->ops->to_host(x, S->x, (size_t)n * sizeof(double));
  S->ops->to_host(r, S->r, (size_t)n * sizeof(double));
  /* Planted faults (tests): a wrong final x or recursive residual, or a wrong
   * x handed to the comparison with x*. */
  if (n && pp_fault_fire("cg-x")) x[n / 2] += 1e-3;
  if (n && pp_fault_fire("cg-residual")) r[n / 2] += 1e-6 * pb->normb;
  const double xshift = n && pp_fault_fire("cg-xerr") ? 1e-3 : 0;

  cg_halo_planes(&pb->halo, x, n, plane, xg, x + n);
  q1_operator op;
  q1_operator_init(&op, pb->N);
  q1_apply(&op, pb->row_begin, pb->row_end, xg, ax);
  double tt = 0, dd = 0, ee = 0, xx = 0;
#pragma omp parallel for schedule(static) reduction(+ : tt, dd, ee, xx)
  for (int64_t i = 0; i < n; i++) {
    const double t = pb->b[i] - ax[i], e = x[i] + xshift - pb->xstar[i];
    tt += t * t, dd += (t - r[i]) * (t - r[i]), ee += e * e, xx += x[i] * x[i];
  }
  free(xg), free(r), free(ax);
  double g[4] = {tt, dd, ee, xx};
  pp_mpi_sum(g, 4);

  cg_verdict v;
  memset(&v, 0, sizeof v);
  v.relres = sqrt(g[0]) / pb->normb;
  v.gap = sqrt(g[1]) / pb->normb;
  v.xerr = sqrt(g[2]) / pb->normxstar;
  const double lmin = q1_lambda_min(pb->N), lmax = q1_lambda_max_bound(&op);
  v.rbound = fmax(cg_bound(lmax / lmin, S->iters), CG_FLOOR);
  if (!isnan(c->expect)) v.rbound = fmin(v.rbound, c->expect);
  v.xbound = (sqrt(g[0]) + CG_ROUND * (pb->normb + lmax * sqrt(g[3]))) / (lmin * pb->normxstar);

  char fail[160] = "", pass[160] = "";
  const size_t L = sizeof fail;
  int ok = 1, t;
  ok &= t = pp_within(v.relres, v.rbound);
  part(fail, pass, L, t, "relres %.1e<=%.0e", v.relres, v.rbound);
  if (S->stop == CG_STOP_BREAKDOWN) {
    ok &= t = pp_within(v.relres, CG_FLOOR);
    part(fail, pass, L, t, "breakdown at it %d", S->iters + 1);
  }
  if (c->tol > 0) {
    ok &= t = S->stop == CG_STOP_TOL && S->hist[S->iters] <= c->tol;
    part(fail, pass, L, t, "%s tol %.0e in %d it", t ? "reached" : "MISSED", c->tol, S->iters);
  }
  ok &= t = pp_within(v.gap, CG_GAP_TOL);
  part(fail, pass, L, t, "gap %.0e<=%.0e", v.gap, CG_GAP_TOL);
  ok &= t = pp_within(v.xerr, v.xbound);
  part(fail, pass, L, t, "x err %.1e<=%.0e", v.xerr, v.xbound);
  const minife_deck *d = &c->deck;
  if (d->cg_iters && d->n == pb->N && d->cg_seed == S->s->opt.seed && c->tol == 0 &&
      S->iters == d->cg_iters) {
    ok &= against(fail, pass, L, "ref", v.relres, v.xerr, d->cg_relres, d->cg_xerr);
  } else if ((double)pb->nglobal * S->iters <= CG_RUN_REF_BUDGET) {
    double rr, rx;
    if (run_reference(pb, S->iters, &rr, &rx)) ok &= against(fail, pass, L, "run", v.relres, v.xerr, rr, rx);
    else part(fail, pass, L, 1, "no run ref (host memory)");
  }
  if (first->have && first->relres > CG_AGREE_FLOOR) {
    const double dd2 = fabs(v.relres - first->relres) / first->relres;
    ok &= t = pp_within(dd2, CG_AGREE_TOL);
    part(fail, pass, L, t, "vs %s %.0e<=%.0e", pp_model_name(first->m), dd2, CG_AGREE_TOL);
  } else if (!first->have && ok) { /* the anchor: the first model that passed its own checks */
    first->have = 1, first->m = S->m, first->relres = v.relres;
  }
  v.valid = pp_mpi_all(ok);
  snprintf(v.check, sizeof v.check, "%s%s%s", fail, fail[0] && pass[0] ? "; " : "", pass);
  return v;
}
