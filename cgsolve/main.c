/* cgsolve driver: unpreconditioned CG on the miniFE matrix, as miniFE runs it
 * (x0 = 0, b = A x* for a known x*, at most --max-iters iterations), on every
 * selected model with the same matrix; per-kernel breakdown, validation on
 * the host, optional MPI slab decomposition (halo.c). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cgsolve.h"
#include "pp/pp.h"

/* Validation (a): the recursive residual r_k may drift from b - A x_k by
 * rounding, about k * eps * ||A|| ||x|| / ||b|| (~1e-13 after 200 iterations
 * here); a wrong kernel or halo gives O(1). */
#define CG_GAP_TOL 1e-10
/* Validation (c): every model's final true relative residual agrees with the
 * first model's at the same size (rounding differences measured: 6e-13 after
 * 200 iterations at N = 150, host vs omp), while that residual lies well
 * above the rounding floor (~1e-15) below which CG's residuals are noise. */
#define CG_AGREE_TOL 1e-6
#define CG_AGREE_FLOOR 1e-10

/* The first model's result at the current size, for (c). */
typedef struct reference { int have; pp_model m; double relres; } reference;

enum { K_SPMV, K_DOT, K_AXPBY, K_HALO, K_COUNT };
static const char *const kname[K_COUNT] = {"cg_spmv", "cg_dot", "cg_axpby", "cg_halo"};
enum { STOP_ITERS, STOP_TOL, STOP_BREAKDOWN };

typedef struct config {
  minife_deck deck;        /* --deck */
  long long max_iters;
  double tol;              /* relative residual; 0: run max_iters iterations */
  double expect;           /* (b) bound on the final relative residual, NaN: default */
  long long print_every;
  const char *history;
  int weak;
} config;

/* ---- options ------------------------------------------------------------ */

static const char *parse_double(const char *v, double lo, double hi, double *out) {
  static char msg[128];
  char *end;
  double x = strtod(v, &end);
  if (end == v || *end || !(x >= lo && x <= hi)) {
    snprintf(msg, sizeof msg, "'%s' is not a number in [%g, %g]", v, lo, hi);
    return msg;
  }
  *out = x;
  return NULL;
}
static const char *opt_deck(const char *v, void *ctx) {
  minife_deck_read("cgsolve", v, &((config *)ctx)->deck);
  return NULL;
}
static const char *opt_iters(const char *v, void *ctx) {
  return pp_parse_int(v, 1, 1000000, &((config *)ctx)->max_iters);
}
static const char *opt_tol(const char *v, void *ctx) {
  return parse_double(v, 0, 1, &((config *)ctx)->tol);
}
static const char *opt_expect(const char *v, void *ctx) {
  return parse_double(v, 0, 1, &((config *)ctx)->expect);
}
static const char *opt_print(const char *v, void *ctx) {
  return pp_parse_int(v, 1, 100000000, &((config *)ctx)->print_every);
}
static const char *opt_history(const char *v, void *ctx) {
  ((config *)ctx)->history = v;
  return NULL;
}
static const char *opt_scaling(const char *v, void *ctx) {
  config *c = ctx;
  if (!strcmp(v, "strong")) c->weak = 0;
  else if (!strcmp(v, "weak")) c->weak = 1;
  else return "use strong or weak";
  return NULL;
}

/* Bad input found by every rank alike: rank 0 prints before any rank ends
 * the job (pp_usage_error's MPI_Abort from another rank could kill rank 0
 * before it printed), then all exit 2. */
static void collective_usage_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
static void collective_usage_error(const char *fmt, ...) {
  if (pp_mpi_rank() == 0) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "cgsolve: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, " (see --help)\n");
    fflush(stderr);
    va_end(ap);
  }
  pp_mpi_barrier();
  pp_mpi_exit(2);
}

/* ---- the problem: this rank's slab of the matrix, b and x* ---------------- */

typedef struct problem {
  int N;                   /* global elements per side */
  int64_t nglobal, nnz_global, row_begin, row_end;
  int64_t *rank_begin;     /* first global row of every rank, [P] = nglobal */
  csr_matrix A;            /* this rank's rows, local columns */
  cg_halo halo;
  double *b, *xstar;       /* this rank's rows */
  double normb, normxstar; /* global */
  double ncols_global;     /* sum over ranks of local columns (x entries read) */
} problem;

/* x*: a reproducible function of the global row, in [-1, 1). */
static double xstar_at(uint64_t seed, int64_t g) { return 2.0 * pp_hash_uniform(seed, (uint64_t)g) - 1.0; }

/* Global cube side: N itself (strong), or a cube with about P times the
 * nodes of an N-cube (weak): (N_g + 1)^3 ~ P (N + 1)^3. */
static int global_n(const config *c, int N) {
  if (!c->weak) return N;
  return (int)lround((N + 1) * cbrt((double)pp_mpi_size())) - 1;
}

static void problem_make(pp_session *s, int N, problem *pb) {
  memset(pb, 0, sizeof *pb);
  int P = pp_mpi_size(), me = pp_mpi_rank();
  pb->N = N;
  if (N > MINIFE_MAX_N)
    collective_usage_error("weak scaling: the global cube N = %d exceeds %d (int32 column indices)", N, MINIFE_MAX_N);
  if (P > N + 1)
    collective_usage_error("N = %d has %d z-planes of nodes, fewer than the %d ranks", N, N + 1, P);
  const int64_t plane = (int64_t)(N + 1) * (N + 1);
  pb->nglobal = minife_rows(N);
  pb->nnz_global = minife_nnz(N, 0, pb->nglobal);
  pb->rank_begin = malloc(sizeof(int64_t) * (size_t)(P + 1));
  for (int r = 0; r <= P; r++) pb->rank_begin[r] = (int64_t)(N + 1) * r / P * plane;
  pb->row_begin = pb->rank_begin[me], pb->row_end = pb->rank_begin[me + 1];
  int64_t n = pb->row_end - pb->row_begin, nnz = minife_nnz(N, pb->row_begin, pb->row_end);
  int64_t ncols = n + (me > 0) * plane + (me + 1 < P) * plane; /* at most one plane each side */

  /* Memory: the matrix and five vectors on the device; on the host the matrix,
   * b, x*, the downloaded x and r, plus a model's "device" copy when it runs
   * on the CPU (host, omp offloading to the host), times the ranks sharing
   * this node. */
  char what[96];
  snprintf(what, sizeof what, "N = %d (%lld rows, %lld entries on rank %d)", N, (long long)n,
           (long long)nnz, me);
  double dev = csr_bytes(n, nnz) + 8.0 * (3.0 * ncols + 2.0 * n + CG_SCRATCH_LEN);
  double host = csr_bytes(n, nnz) + 8.0 * (ncols + 4.0 * n);
  for (int m = 0; m < PP_MODEL_COUNT; m++) /* models run one at a time */
    if (s->ops[m] && !s->info[m].is_gpu) {
      host += dev;
      break;
    }
  host *= pp_mpi_local_size();
  pp_session_check_fits(s, what, dev, host);

  pp_progress(s, "generating the N = %d matrix (%lld rows, %lld entries)", N,
              (long long)pb->nglobal, (long long)pb->nnz_global);
  if (minife_matrix(N, pb->row_begin, pb->row_end, &pb->A) != 0)
    pp_device_fail(PP_HOST, "matrix generation", "out of host memory");
  pb->b = malloc(sizeof(double) * (size_t)(n ? n : 1));
  pb->xstar = malloc(sizeof(double) * (size_t)(n ? n : 1));
  if (!pb->b || !pb->xstar) pp_device_fail(PP_HOST, "alloc", "out of host memory for b and x*");
  /* b = A x* with the global column indices, before they are renumbered. */
  const csr_matrix *A = &pb->A;
  uint64_t seed = s->opt.seed;
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
  double g[2] = {bb, xx}, nc = 0;
  pp_mpi_sum(g, 2);
  pb->normb = sqrt(g[0]), pb->normxstar = sqrt(g[1]);
  if (cg_halo_setup(&pb->halo, &pb->A, pb->row_begin, pb->row_end, pb->rank_begin) != 0)
    pp_mpi_exit(3);
  nc = (double)pb->A.ncols;
  pp_mpi_sum(&nc, 1);
  pb->ncols_global = nc;
}

static void problem_free(problem *pb) {
  csr_free(&pb->A);
  cg_halo_free(&pb->halo);
  free(pb->b), free(pb->xstar), free(pb->rank_begin);
}

/* ---- one model's solver --------------------------------------------------- */

typedef struct solver {
  const pp_session *s;
  const config *c;
  const problem *pb;
  pp_model m;
  const pp_device_ops *ops;
  const spmv_kernels *sk;
  const cg_kernels *ck;
  void *plan;
  int64_t n;
  int64_t *rowptr; int32_t *col; double *val; /* device */
  double *b, *x, *r, *p, *Ap, *scratch;       /* device; x and p have ghosts */
  int iters, stop;
  double *hist;            /* relative recursive residual after each iteration */
  long long calls[K_COUNT];
  int instrument;          /* time every call (synchronized), print progress */
  double *tcall[K_COUNT];  /* seconds of each call of the instrumented solve */
  long long cap;           /* entries of each tcall */
  double t0;
} solver;

static void k_begin(solver *S) {
  if (!S->instrument) return;
  S->ops->sync();
  S->t0 = pp_wtime();
}
static void k_end(solver *S, int k) {
  long long i = S->calls[k]++;
  if (!S->instrument) return;
  S->ops->sync();
  if (i < S->cap) S->tcall[k][i] = pp_wtime() - S->t0;
}
static void do_halo(solver *S, double *v) {
  if (pp_mpi_size() == 1) return;
  k_begin(S);
  cg_halo_exchange(&S->pb->halo, S->ops, v);
  k_end(S, K_HALO);
}
static void do_spmv(solver *S, const double *x, double *y) {
  k_begin(S);
  S->sk->spmv(S->plan, S->n, S->rowptr, S->col, S->val, x, y);
  k_end(S, K_SPMV);
}
/* The global dot: this rank's part on the device, summed over ranks. */
static double do_dot(solver *S, const double *x, const double *y) {
  k_begin(S);
  double v = S->ck->dot(x, y, S->n, S->scratch);
  pp_mpi_sum(&v, 1);
  k_end(S, K_DOT);
  return v;
}
static void do_axpby(solver *S, double *w, double a, const double *x, double b, const double *y) {
  k_begin(S);
  S->ck->axpby(w, a, x, b, y, S->n);
  k_end(S, K_AXPBY);
}

/* One solve from x0 = 0; every solve restarts from scratch. */
static void solve(void *ctx) {
  solver *S = ctx;
  const config *c = S->c;
  size_t bytes = (size_t)S->n * sizeof(double);
  for (int k = 0; k < K_COUNT; k++) S->calls[k] = 0;
  do_axpby(S, S->x, 0.0, S->b, 0.0, S->b); /* x0 = 0 (b is finite) */
  S->ops->copy(S->r, S->b, bytes);         /* r0 = b - A x0 = b */
  S->ops->copy(S->p, S->r, bytes);
  double rr = do_dot(S, S->r, S->r), norm0 = sqrt(rr);
  S->hist[0] = 1.0;
  S->iters = 0;
  S->stop = rr == 0 ? STOP_TOL : STOP_ITERS;
  for (int k = 1; k <= c->max_iters && S->stop == STOP_ITERS; k++) {
    do_halo(S, S->p);
    do_spmv(S, S->p, S->Ap);
    double pAp = do_dot(S, S->p, S->Ap);
    if (!(pAp > 0)) { /* p = 0 after full convergence (A is SPD) */
      S->stop = STOP_BREAKDOWN;
      break;
    }
    double alpha = rr / pAp;
    do_axpby(S, S->x, 1.0, S->x, alpha, S->p);
    do_axpby(S, S->r, 1.0, S->r, -alpha, S->Ap);
    double rr_new = do_dot(S, S->r, S->r), rel = sqrt(rr_new) / norm0;
    S->iters = k;
    S->hist[k] = rel;
    if (S->instrument && c->print_every && (k % c->print_every == 0) && pp_mpi_rank() == 0)
      fprintf(stderr, "[cgsolve] %s N=%d iteration %d: relative residual %.6e\n",
              pp_model_name(S->m), S->pb->N, k, rel);
    if (rel <= c->tol) {
      S->stop = STOP_TOL;
      break;
    }
    do_axpby(S, S->p, 1.0, S->r, rr_new / rr, S->p);
    rr = rr_new;
  }
}

/* Validation on the host, independent of the model's kernels and of the
 * halo exchange lists: the true residual b - A x from the downloaded x (ghost
 * values looked up by global index in whole neighbour planes), its distance
 * to the downloaded recursive residual r, and x - x*. */
typedef struct verdict { double relres, gap, xerr; } verdict;

static verdict check_on_host(const solver *S) {
  const problem *pb = S->pb;
  const csr_matrix *A = &pb->A;
  int64_t n = S->n;
  double *x = malloc(sizeof(double) * (size_t)(A->ncols ? A->ncols : 1));
  double *r = malloc(sizeof(double) * (size_t)(n ? n : 1));
  if (!x || !r) pp_device_fail(PP_HOST, "alloc", "out of host memory for validation");
  S->ops->to_host(x, S->x, (size_t)n * sizeof(double));
  S->ops->to_host(r, S->r, (size_t)n * sizeof(double));
  int64_t plane = (int64_t)(pb->N + 1) * (pb->N + 1);
  if (cg_halo_ghost_values(&pb->halo, x, n, plane, pb->row_begin, x + n) != 0)
    pp_device_fail(S->m, "validation", "a ghost column lies outside the neighbours' planes");
  double tt = 0, dd = 0, ee = 0;
#pragma omp parallel for schedule(static) reduction(+ : tt, dd, ee)
  for (int64_t i = 0; i < n; i++) {
    double ax = 0;
    for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; k++) ax += A->val[k] * x[A->col[k]];
    double t = pb->b[i] - ax, e = x[i] - pb->xstar[i];
    tt += t * t, dd += (t - r[i]) * (t - r[i]), ee += e * e;
  }
  double g[3] = {tt, dd, ee};
  pp_mpi_sum(g, 3);
  free(x), free(r);
  verdict v = {sqrt(g[0]) / pb->normb, sqrt(g[1]) / pb->normb, sqrt(g[2]) / pb->normxstar};
  return v;
}

/* Bytes and flops of the kernels, whole problem (all ranks), per call. The
 * SpMV is counted at its minimum traffic: row offsets, column indices and
 * values once, x once (with ghosts), y written. */
static double spmv_bytes(const problem *pb) {
  return 8.0 * ((double)pb->nglobal + pp_mpi_size()) + 12.0 * (double)pb->nnz_global +
         8.0 * pb->ncols_global + 8.0 * (double)pb->nglobal;
}
static double kernel_bytes(const problem *pb, int k) {
  double n = (double)pb->nglobal;
  switch (k) {
  case K_SPMV: return spmv_bytes(pb);
  case K_DOT: return 16 * n; /* two operands read (r.r counted as two, like BabelStream) */
  case K_AXPBY: return 24 * n;
  default: { /* halo: what all ranks send */
    double h = cg_halo_bytes(&pb->halo);
    pp_mpi_sum(&h, 1);
    return h;
  }
  }
}
static double kernel_flops(const problem *pb, int k) {
  double n = (double)pb->nglobal;
  return k == K_SPMV ? 2.0 * (double)pb->nnz_global : k == K_DOT ? 2 * n : k == K_AXPBY ? 3 * n : 0;
}

static void history_write(const solver *S) {
  const config *c = S->c;
  if (!c->history || pp_mpi_rank() != 0) return;
  FILE *f = fopen(c->history, "a");
  if (!f) pp_device_fail(S->m, "history", "cannot append to the --history file");
  for (int k = 0; k <= S->iters; k++)
    fprintf(f, "%s,%d,%d,%d,%.17g\n", pp_model_name(S->m), S->pb->N, pp_mpi_size(), k, S->hist[k]);
  fclose(f);
}

static void add_rows(solver *S, const double *samples, const verdict *v, int valid,
                     const char *check) {
  const pp_session *s = S->s;
  const problem *pb = S->pb;
  int P = pp_mpi_size();
  double flops = 0, bytes = 2 * 16.0 * (double)pb->nglobal; /* the two copies */
  for (int k = 0; k < K_COUNT; k++) {
    if (k == K_HALO) continue;
    flops += (double)S->calls[k] * kernel_flops(pb, k);
    bytes += (double)S->calls[k] * kernel_bytes(pb, k);
  }
  pp_row row;
  pp_row_init(&row, "cg_solve", S->m, pb->N);
  pp_row_time(&row, samples, s->opt.samples, &s->opt.bootstrap, flops / 1e9, "GFLOP/s");
  row.flops = flops, row.bytes = bytes, row.ranks = P;
  double gbs = bytes / row.time.median / 1e9;
  if (isfinite(s->copy_gbs[S->m])) row.frac_ceiling = gbs / (s->copy_gbs[S->m] * P);
  pp_row_metric(&row, "iterations", "count", S->iters);
  pp_row_metric(&row, "iter_time", "us", row.time.median / (S->iters ? S->iters : 1) * 1e6);
  pp_row_metric(&row, "bandwidth", "GB/s", gbs);
  pp_row_metric(&row, "relres", "rel", v->relres);
  pp_row_metric(&row, "x_err", "rel", v->xerr);
  pp_row_metric(&row, "gap", "rel", v->gap);
  row.valid = valid;
  snprintf(row.check, sizeof row.check, "%s", check);
  pp_report_add(s->report, &row);

  /* Per-kernel rows from the instrumented solve: each call's time (the slowest
   * rank's), GB/s of the median call, calls per solve and share of the solve. */
  long long ncall[K_COUNT];
  double total = 0;
  for (int k = 0; k < K_COUNT; k++) {
    ncall[k] = S->calls[k] < S->cap ? S->calls[k] : S->cap;
    if (ncall[k]) pp_mpi_max(S->tcall[k], (int)ncall[k]); /* ranks call in lockstep */
    for (long long i = 0; i < ncall[k]; i++) total += S->tcall[k][i];
  }
  for (int k = 0; k < K_COUNT; k++) {
    long long nc = ncall[k];
    if (nc == 0) continue;
    double sum = 0;
    for (long long i = 0; i < nc; i++) sum += S->tcall[k][i];
    double kb = kernel_bytes(pb, k);
    pp_row_init(&row, kname[k], S->m, pb->N);
    if (k == K_HALO) pp_row_time(&row, S->tcall[k], (int)nc, &s->opt.bootstrap, 0, "us/call");
    else pp_row_time(&row, S->tcall[k], (int)nc, &s->opt.bootstrap, kb / 1e9, "GB/s");
    row.bytes = kb, row.flops = kernel_flops(pb, k), row.ranks = P;
    pp_row_metric(&row, "calls", "count", (double)S->calls[k]);
    pp_row_metric(&row, "share", "percent", 100 * sum / total); /* of all timed calls */
    if (k == K_SPMV) pp_row_metric(&row, "rate", "GFLOP/s", row.flops / row.time.median / 1e9);
    if (k == K_HALO) pp_row_metric(&row, "sent", "bytes", kb);
    row.valid = valid;
    snprintf(row.check, sizeof row.check, "part of cg_solve (%s)", valid ? "validated" : "FAILED");
    pp_report_add(s->report, &row);
  }
}

static const cg_kernels *cg_kernels_for(pp_model m) {
  return PP_MODEL_DISPATCH(m, cg_kernels_);
}

static void run_model(pp_session *s, const config *c, const problem *pb, pp_model m,
                      reference *ref) {
  solver S;
  memset(&S, 0, sizeof S);
  S.s = s, S.c = c, S.pb = pb, S.m = m, S.ops = s->ops[m];
  S.sk = spmv_kernels_for(m), S.ck = cg_kernels_for(m);
  const csr_matrix *A = &pb->A;
  const pp_device_ops *o = S.ops;
  S.n = A->nrows;
  size_t nb = (size_t)(S.n ? S.n : 1) * sizeof(double), cb = (size_t)A->ncols * sizeof(double);
  S.rowptr = pp_device_upload(o, A->rowptr, (size_t)(A->nrows + 1) * sizeof(int64_t));
  S.col = pp_device_upload(o, A->col, (size_t)(A->nnz ? A->nnz : 1) * sizeof(int32_t));
  S.val = pp_device_upload(o, A->val, (size_t)(A->nnz ? A->nnz : 1) * sizeof(double));
  S.b = pp_device_upload(o, pb->b, nb);
  S.x = o->alloc(cb > nb ? cb : nb), S.p = o->alloc(cb > nb ? cb : nb);
  S.r = o->alloc(nb), S.Ap = o->alloc(nb);
  S.scratch = o->alloc(CG_SCRATCH_LEN * sizeof(double));
  S.plan = S.sk->prepare(A->nrows, A->ncols, A->nnz, S.rowptr, S.col, S.val, NULL);
  S.hist = malloc(sizeof(double) * (size_t)(c->max_iters + 1));
  S.cap = 3 * c->max_iters + 4;
  for (int k = 0; k < K_COUNT; k++) S.tcall[k] = malloc(sizeof(double) * (size_t)S.cap);
  double *samples = malloc(sizeof(double) * (size_t)s->opt.samples);

  pp_progress(s, "%s: %d warm-up and %d timed solves, N = %d", pp_model_name(m), s->opt.warmup,
              s->opt.samples, pb->N);
  pp_bench(s, m, solve, &S, samples);
  pp_mpi_max(samples, s->opt.samples); /* a solve lasts until its slowest rank ends */
  /* The instrumented solve: per-kernel times, progress, history, validation. */
  S.instrument = 1;
  solve(&S);
  S.instrument = 0;
  history_write(&S);

  verdict v = check_on_host(&S);
  double rec = S.hist[S.iters];
  int ok_gap = pp_within(v.gap, CG_GAP_TOL);
  double bound = !isnan(c->expect) ? c->expect : 1.0;
  int ok_fall = pp_within(v.relres, bound);
  if (c->tol > 0) ok_fall = ok_fall && S.stop == STOP_TOL && rec <= c->tol;
  char check[96], agree[32] = "";
  int ok_agree = 1;
  if (!ref->have) {
    ref->have = 1, ref->m = m, ref->relres = v.relres;
  } else if (ref->relres > CG_AGREE_FLOOR) {
    double d = fabs(v.relres - ref->relres) / ref->relres;
    ok_agree = pp_within(d, CG_AGREE_TOL);
    snprintf(agree, sizeof agree, "; vs %s %.0e<=%.0e", pp_model_name(ref->m), d, CG_AGREE_TOL);
  }
  if (c->tol > 0)
    snprintf(check, sizeof check, "gap %.1e<=%.0e; %s tol %.0e in %d it; x err %.1e%s", v.gap,
             CG_GAP_TOL, S.stop == STOP_TOL ? "reached" : "MISSED", c->tol, S.iters, v.xerr, agree);
  else
    snprintf(check, sizeof check, "gap %.1e<=%.0e; relres %.2e<=%.0e; x err %.1e%s", v.gap,
             CG_GAP_TOL, v.relres, bound, v.xerr, agree);
  int valid = pp_mpi_all(ok_gap && ok_fall && ok_agree);
  pp_progress(s, "%s: %d iterations, relative residual %.3e (recursive %.3e), %s", pp_model_name(m),
              S.iters, v.relres, rec, valid ? "PASS" : "FAIL");
  add_rows(&S, samples, &v, valid, check);

  S.sk->release(S.plan);
  void *dev[] = {S.rowptr, S.col, S.val, S.b, S.x, S.p, S.r, S.Ap, S.scratch};
  for (size_t i = 0; i < sizeof dev / sizeof dev[0]; i++) o->free(dev[i]);
  for (int k = 0; k < K_COUNT; k++) free(S.tcall[k]);
  free(S.hist), free(samples);
}

int main(int argc, char **argv) {
  static config cfg = {{NULL, 0}, 200, 0.0, NAN, 0, NULL, 0};
  static const pp_app_option options[] = {
      {"--deck", "FILE", "input deck with 'N = ...' (inputs/minife/*.deck), instead of --size", opt_deck},
      {"--max-iters", "N", "most CG iterations per solve (default 200, as miniFE)", opt_iters},
      {"--tol", "X", "stop at relative residual ||r||/||b|| <= X; 0 (default): run --max-iters", opt_tol},
      {"--expect-relres", "X", "validation: the final true relative residual must be <= X "
                               "(default 1: it fell)", opt_expect},
      {"--print-every", "K", "print the residual every K iterations (rank 0, stderr)", opt_print},
      {"--history", "FILE", "append every iteration's relative residual as CSV: "
                            "model,N,ranks,iteration,relres", opt_history},
      {"--scaling", "MODE", "strong (default): N is the global cube; weak: N per rank, the "
                            "global cube has ~P times the nodes", opt_scaling},
      {NULL, NULL, NULL, NULL}};
  static const pp_app app = {
      "cgsolve", "unpreconditioned conjugate gradients on the miniFE matrix",
      "elements per side of the cube, N (rows (N+1)^3)", "30", MINIFE_MAX_N, options, &cfg,
      "CG as miniFE runs it: x0 = 0, b = A x* for x*_i = 2 u(seed, i) - 1, at most --max-iters\n"
      "iterations, each: halo exchange of p (MPI only), Ap = A p (the spmv app's kernel at its\n"
      "default launch parameters), two dots, three axpby (w = a x + b y). Every timed solve\n"
      "restarts from x0 = 0. Rows:\n"
      "  cg_solve   one whole solve; FOM GFLOP/s (spmv 2 nnz, dot 2n, axpby 3n flops), with\n"
      "             iterations, time per iteration, GB/s and the validation figures\n"
      "  cg_spmv    per call, GB/s of its minimum traffic (row offsets, columns, values, x, y\n"
      "             once each); cg_dot 16n bytes (incl. the MPI sum); cg_axpby 24n bytes;\n"
      "  cg_halo    us per exchange (MPI only: the boundary plane staged through host memory\n"
      "             and sent to each neighbour, the ghosts uploaded).\n"
      "The per-kernel rows come from one extra solve that synchronizes around every call;\n"
      "the cg_solve times do not. Validation, computed on the host: (a) gap =\n"
      "||(b - A x) - r|| / ||b|| <= 1e-10 (true vs recursive residual); (b) the true relative\n"
      "residual <= --expect-relres, and with --tol > 0, --tol reached within --max-iters;\n"
      "(c) each model's true relative residual within 1e-6 (relative) of the first model's\n"
      "at that size, when above 1e-10; ||x - x*|| / ||x*|| is reported.\n"
      "MPI: rank r owns the z-planes [r(N+1)/P, (r+1)(N+1)/P) of nodes; dots are global.\n"
      "Weak scaling: --size is N per rank; the global cube has N_g = round((N+1) P^(1/3)) - 1,\n"
      "so (N_g+1)^3 ~ P (N+1)^3 rows (a cube, as the miniFE generator makes).\n"};

  pp_session s;
  pp_session_start(&s, argc, argv, &app);
  minife_deck_apply(&cfg.deck, &s);
  if (cfg.history && pp_mpi_rank() == 0) {
    FILE *f = fopen(cfg.history, "w");
    if (!f) pp_usage_error(app.name, "--history: cannot write '%s'", cfg.history);
    fprintf(f, "model,N,ranks,iteration,relres\n");
    fclose(f);
  }
  pp_report_param(s.report, "matrix", "miniFE Q1 Laplacian, N^3 hexahedra, (N+1)^3 rows, Dirichlet surface");
  pp_report_param(s.report, "solver", "CG, no preconditioner, x0 = 0, b = A x*, max %lld iterations, tol %g",
                  cfg.max_iters, cfg.tol);
  pp_report_param(s.report, "decomposition", "%d rank%s, z-plane slabs, %s scaling", pp_mpi_size(),
                  pp_mpi_size() > 1 ? "s" : "", cfg.weak ? "weak" : "strong");
  pp_report_param(s.report, "halo", "boundary planes staged through host memory, MPI point to point");

  for (int i = 0; i < s.opt.sizes.n; i++) {
    problem pb;
    reference ref = {0, PP_HOST, 0};
    int N = global_n(&cfg, (int)s.opt.sizes.v[i]);
    if (cfg.weak) {
      char key[48];
      snprintf(key, sizeof key, "weak scaling, N = %lld", s.opt.sizes.v[i]);
      pp_report_param(s.report, key, "per rank: global cube N = %d, %.3g rows per rank", N,
                      (double)minife_rows(N) / pp_mpi_size());
    }
    problem_make(&s, N, &pb);
    for (int m = 0; m < PP_MODEL_COUNT; m++)
      if (s.ops[m]) run_model(&s, &cfg, &pb, (pp_model)m, &ref);
    problem_free(&pb);
  }
  return pp_session_finish(&s);
}
