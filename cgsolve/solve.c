/* One model's CG: the slab uploaded to the model's memory, the solve loop
 * with its parts bracketed for pp_measure_parts, and the planted faults of
 * the tests. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pp/pp.h"
#include "halo_helper.h"
#include "problem.h"

static const cg_kernels *cg_kernels_for(pp_model m) { return PP_MODEL_DISPATCH(m, cg_kernels_); }

/* Planted faults (tests: each must make validation fail), read once: the
 * name of each asked for, NULL otherwise; fired (pp_fault_fire) where it
 * changes a value. */
static struct { const char *spmv_zero, *dot, *breakdown, *update; } fault;
static const char *asked(const char *name) { return pp_fault(name) ? name : NULL; }

void cg_solver_init(cg_solver *S, pp_session *s, const cg_config *c, const cg_problem *pb,
                    pp_model m) {
  memset(S, 0, sizeof *S);
  fault.spmv_zero = asked("spmv-zero"); /* the SpMV writes zeros */
  /* p.Ap comes back 1.5 times too large (cg-dot-omp / -host: in that model only) */
  fault.dot = asked("cg-dot");
  if (!fault.dot) fault.dot = m == PP_OMP ? asked("cg-dot-omp") : m == PP_HOST ? asked("cg-dot-host") : NULL;
  fault.breakdown = asked("cg-breakdown"); /* p.Ap = 0 at iteration 3 */
  fault.update = asked("cg-update");       /* the fused update's r.r comes back halved */
  S->s = s, S->c = c, S->pb = pb, S->m = m, S->ops = s->ops[m];
  /* a path that sends whole planes needs them contiguous (slabs); staged otherwise */
  const cg_halo_path *chosen = cg_halo_paths[c->path[m]];
  S->path = chosen->whole_planes && !cg_halo_contiguous(&pb->halo) ? cg_halo_paths[CG_PATH_STAGED] : chosen;
  /* the helper thread makes MPI calls: it needs MPI_THREAD_SERIALIZED */
  S->overlap = cg_overlaps(c, S->path);
  S->sk = spmv_kernels_for(m), S->ck = cg_kernels_for(m);
  const csr_matrix *A = &pb->A;
  const pp_device_ops *o = S->ops;
  S->n = A->nrows;
  size_t nb = (size_t)(S->n ? S->n : 1) * sizeof(double), cb = (size_t)A->ncols * sizeof(double);
  S->rowptr = pp_device_upload(o, A->rowptr, (size_t)(A->nrows + 1) * sizeof(int64_t));
  S->col = pp_device_upload(o, A->col, (size_t)(A->nnz ? A->nnz : 1) * sizeof(int32_t));
  S->val = pp_device_upload(o, A->val, (size_t)(A->nnz ? A->nnz : 1) * sizeof(double));
  S->b = pp_device_upload(o, pb->b, nb);
  const int cg1 = c->variant == CG_CHRONOPOULOS_GEAR; /* its SpMV reads r: r has ghosts */
  S->x = o->alloc(cb > nb ? cb : nb), S->p = o->alloc(cb > nb ? cb : nb);
  S->r = o->alloc(cg1 && cb > nb ? cb : nb), S->Ap = o->alloc(nb);
  if (cg1) S->w = o->alloc(nb), S->s_ = o->alloc(nb);
  S->scratch = pp_reduce_scratch_alloc(o); /* CG_SCRATCH_LEN doubles, zeroed */
  S->plan = S->sk->prepare(A->nrows, A->ncols, A->nnz, S->rowptr, S->col, S->val, NULL);
  S->hist = malloc(sizeof(double) * (size_t)(c->max_iters + 1));
  /* axpby: 3 per iteration + 1 (Chronopoulos-Gear split: 4) */
  pp_parts_init(&S->pt, o, K_COUNT, 4 * c->max_iters + 4, 1);
}

void cg_solver_free(cg_solver *S) {
  cg_helper_stop(S->helper);
  S->sk->release(S->plan);
  if (S->path->forget) S->path->forget(S->p), S->path->forget(S->r);
  void *dev[] = {S->rowptr, S->col, S->val, S->b, S->x, S->p, S->r, S->Ap, S->scratch, S->w, S->s_};
  for (size_t i = 0; i < sizeof dev / sizeof dev[0]; i++)
    if (dev[i]) S->ops->free(dev[i]);
  pp_parts_free(&S->pt);
  free(S->hist);
}

static void do_halo(cg_solver *S, double *v) {
  if (pp_mpi_size() == 1) return;
  pp_part_begin(&S->pt);
  S->ops->sync(); /* the planes final: no path's read of them waits for the model's kernels */
  cg_halo_exchange(&S->pb->halo, S->path, S->ops, v);
  pp_part_end(&S->pt, K_HALO);
}
static void do_spmv(cg_solver *S, const double *x, double *y) {
  pp_part_begin(&S->pt);
  S->sk->spmv(S->plan, S->n, S->rowptr, S->col, S->val, x, y);
  if (fault.spmv_zero) S->ck->axpby(y, 0.0, S->b, 0.0, S->b, S->n), pp_fault_fire(fault.spmv_zero);
  pp_part_end(&S->pt, K_SPMV);
}
/* --overlap on: the exchange runs on the helper thread (halo_helper.c)
 * while this thread computes the rows that read no ghost (the slab's inner
 * planes); then the first and last planes. The instrumented solve overlaps
 * too (its x is the one validated): its cg_spmv call is the whole block, its
 * cg_halo call the exposed part of the exchange (the wait for the helper
 * once the interior rows are done). */
/* One call of `part` that took `dt` seconds, timed by the caller (the
 * overlapped block, where pp_part_begin/end cannot nest). */
static void part_record(pp_parts *pt, int part, double dt) {
  const long long i = pt->calls[part]++;
  if (pt->on && i < pt->cap) pt->t[part][i] = dt;
}
int cg_overlap_possible(void) {
#ifdef CG_HAVE_THREADS
  return 1;
#else
  return 0;
#endif
}

int cg_overlaps(const cg_config *c, const cg_halo_path *p) {
  const int asked = c->overlap == CG_OVERLAP_ON || (c->overlap == CG_OVERLAP_AUTO && p->overlap_auto);
  return asked && pp_mpi_size() > 1 && pp_mpi_serialized() && cg_overlap_possible();
}

static void halo_spmv(cg_solver *S, double *v, double *y) {
  const cg_halo *h = &S->pb->halo;
  const int64_t n = S->n, plane = S->pb->plane;
  const int64_t lo = h->nbr[0] >= 0 ? plane : 0, hi = h->nbr[1] >= 0 ? plane : 0;
  if (S->overlap && !S->helper && n - lo - hi > 0)
    S->overlap = (S->helper = cg_helper_start()) != NULL; /* no thread: exchange, then SpMV */
  if (!S->helper || n - lo - hi <= 0) { /* no overlap, or no helper thread */
    do_halo(S, v);
    do_spmv(S, v, y);
    return;
  }
  /* One sync before the hand-off serves both: the timed block's start, and the planes
   * final before the helper's copies read them, so that they never wait for the
   * interior rows (cg_halo_exchange). */
  S->ops->sync();
  const double t0 = S->pt.on ? pp_wtime() : 0;
  cg_helper_post(S->helper, h, S->path, S->ops, v);
  S->sk->spmv(S->plan, n - lo - hi, S->rowptr + lo, S->col, S->val, v, y + lo);
  /* timed: the interior rows done first (the model's launches may be asynchronous), so that
   * cg_halo is the part of the exchange they did not hide, not a wait beside them */
  if (S->pt.on) S->ops->sync();
  const double w0 = pp_wtime();
  cg_helper_wait(S->helper);
  const double wait = pp_wtime() - w0;
  if (lo) S->sk->spmv(S->plan, lo, S->rowptr, S->col, S->val, v, y);
  if (hi) S->sk->spmv(S->plan, hi, S->rowptr + n - hi, S->col, S->val, v, y + n - hi);
  if (fault.spmv_zero) S->ck->axpby(y, 0.0, S->b, 0.0, S->b, S->n), pp_fault_fire(fault.spmv_zero);
  if (S->pt.on) S->ops->sync();
  part_record(&S->pt, K_HALO, wait);
  part_record(&S->pt, K_SPMV, S->pt.on ? pp_wtime() - t0 : 0);
}

/* The global dot: this rank's part on the device, summed over ranks. */
static double do_dot(cg_solver *S, const double *x, const double *y) {
  pp_part_begin(&S->pt);
  double v = S->ck->dot(x, y, S->n, S->scratch);
  pp_mpi_sum(&v, 1);
  pp_part_end(&S->pt, K_DOT);
  return v;
}
static void do_axpby(cg_solver *S, double *w, double a, const double *x, double b, const double *y) {
  pp_part_begin(&S->pt);
  S->ck->axpby(w, a, x, b, y, S->n);
  pp_part_end(&S->pt, K_AXPBY);
}
/* x += alpha p, r -= alpha Ap; returns the global r.r of the new r. */
static double do_update(cg_solver *S, double alpha) {
  if (S->c->split) {
    do_axpby(S, S->x, 1.0, S->x, alpha, S->p);
    do_axpby(S, S->r, 1.0, S->r, -alpha, S->Ap);
    return do_dot(S, S->r, S->r);
  }
  pp_part_begin(&S->pt);
  double v = S->ck->update(S->x, S->r, alpha, S->p, S->Ap, S->n, S->scratch);
  if (fault.update) v *= 0.5, pp_fault_fire(fault.update);
  pp_mpi_sum(&v, 1);
  pp_part_end(&S->pt, K_UPDATE);
  return v;
}

/* Chronopoulos-Gear: x += alpha p, r -= alpha s, then w = A r, and this
 * rank's r.r and w.r summed over ranks in one call. */
static void cg1_sums(cg_solver *S, double sums[2]) {
  halo_spmv(S, S->r, S->w);
  pp_part_begin(&S->pt);
  sums[1] = S->ck->dot(S->w, S->r, S->n, S->scratch);
  if (fault.dot) sums[1] *= 1.5, pp_fault_fire(fault.dot);
  pp_mpi_sum(sums, 2); /* the iteration's one reduction over ranks */
  pp_part_end(&S->pt, K_DOT);
}
static double cg1_update_local(cg_solver *S, double alpha) {
  if (S->c->split) {
    do_axpby(S, S->x, 1.0, S->x, alpha, S->p);
    do_axpby(S, S->r, 1.0, S->r, -alpha, S->s_);
    pp_part_begin(&S->pt);
    double v = S->ck->dot(S->r, S->r, S->n, S->scratch);
    pp_part_end(&S->pt, K_DOT);
    return v;
  }
  pp_part_begin(&S->pt);
  double v = S->ck->update(S->x, S->r, alpha, S->p, S->s_, S->n, S->scratch);
  pp_part_end(&S->pt, K_UPDATE);
  return v;
}

static void record(cg_solver *S, int k, double rel) {
  S->iters = k;
  S->hist[k] = rel;
  if (S->pt.on && S->c->print_every && (k % S->c->print_every == 0) && pp_mpi_rank() == 0)
    fprintf(stderr, "[cgsolve] %s N=%d iteration %d: relative residual %.6e\n",
            pp_model_name(S->m), S->pb->N, k, rel);
}

static void cg_solve_cg1(cg_solver *S) {
  const cg_config *c = S->c;
  size_t bytes = (size_t)S->n * sizeof(double);
  do_axpby(S, S->x, 0.0, S->b, 0.0, S->b); /* x0 = 0 */
  S->ops->copy(S->r, S->b, bytes);         /* r0 = b */
  double sums[2];                          /* r.r, w.r */
  pp_part_begin(&S->pt);
  sums[0] = S->ck->dot(S->r, S->r, S->n, S->scratch);
  pp_part_end(&S->pt, K_DOT);
  cg1_sums(S, sums);
  double rr = sums[0], norm0 = sqrt(rr), alpha = 0, den = sums[1];
  S->hist[0] = 1.0;
  S->iters = 0;
  S->stop = rr == 0 ? CG_STOP_TOL : CG_STOP_ITERS;
  for (int k = 1; k <= c->max_iters && S->stop == CG_STOP_ITERS; k++) {
    /* den is p.Ap: w.r - beta r.r / alpha_old (w.r at the first iteration) */
    if (fault.breakdown && k == 3) den = 0, pp_fault_fire(fault.breakdown);
    if (!(den > 0)) {
      S->stop = CG_STOP_BREAKDOWN;
      break;
    }
    alpha = rr / den;
    if (k == 1) { /* p0 = r0, s0 = w0 = A r0; later p = r + beta p, s = w + beta s, below */
      S->ops->copy(S->p, S->r, bytes);
      S->ops->copy(S->s_, S->w, bytes);
    }
    sums[0] = cg1_update_local(S, alpha);
    if (fault.update) sums[0] *= 0.5, pp_fault_fire(fault.update);
    cg1_sums(S, sums);
    const double rr_new = sums[0], rel = sqrt(rr_new) / norm0;
    record(S, k, rel);
    if (rel <= c->tol) {
      S->stop = CG_STOP_TOL;
      break;
    }
    const double b_new = rr_new / rr;
    do_axpby(S, S->p, 1.0, S->r, b_new, S->p);
    do_axpby(S, S->s_, 1.0, S->w, b_new, S->s_);
    den = sums[1] - b_new * rr_new / alpha;
    rr = rr_new;
  }
}

void cg_solve(void *ctx) {
  cg_solver *S = ctx;
  if (S->c->variant == CG_CHRONOPOULOS_GEAR) {
    cg_solve_cg1(S);
    return;
  }
  const cg_config *c = S->c;
  size_t bytes = (size_t)S->n * sizeof(double);
  do_axpby(S, S->x, 0.0, S->b, 0.0, S->b); /* x0 = 0 (b is finite) */
  S->ops->copy(S->r, S->b, bytes);         /* r0 = b - A x0 = b */
  S->ops->copy(S->p, S->r, bytes);
  double rr = do_dot(S, S->r, S->r), norm0 = sqrt(rr);
  S->hist[0] = 1.0;
  S->iters = 0;
  S->stop = rr == 0 ? CG_STOP_TOL : CG_STOP_ITERS;
  for (int k = 1; k <= c->max_iters && S->stop == CG_STOP_ITERS; k++) {
    halo_spmv(S, S->p, S->Ap);
    double pAp = do_dot(S, S->p, S->Ap);
    if (fault.dot) pAp *= 1.5, pp_fault_fire(fault.dot);
    if (fault.breakdown && k == 3) pAp = 0, pp_fault_fire(fault.breakdown);
    if (!(pAp > 0)) { /* A is SPD: only p = 0 (r = 0) gives this; check.c decides */
      S->stop = CG_STOP_BREAKDOWN;
      break;
    }
    double rr_new = do_update(S, rr / pAp), rel = sqrt(rr_new) / norm0;
    record(S, k, rel);
    if (rel <= c->tol) {
      S->stop = CG_STOP_TOL;
      break;
    }
    do_axpby(S, S->p, 1.0, S->r, rr_new / rr, S->p);
    rr = rr_new;
  }
}
