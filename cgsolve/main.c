/* cgsolve driver: unpreconditioned CG on the miniFE matrix, as miniFE runs it
 * (x0 = 0, b = A x* for a known x*, at most --max-iters iterations), on every
 * selected model with the same matrix: options, the run of each model, its
 * rows. The problem is in problem.c, the solve in solve.c, the validation in
 * check.c (with the matrix-free operator of q1.c), the MPI halo in halo.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pp/outfile.h"
#include "pp/pp.h"
#include "problem.h"

static const char *const kname[K_COUNT] = {"cg_spmv", "cg_dot", "cg_axpby", "cg_update", "cg_halo"};

/* ---- options ------------------------------------------------------------ */

static const char *opt_deck(const char *v, void *ctx) {
  minife_deck_read("cgsolve", v, &((cg_config *)ctx)->deck);
  return NULL;
}
static const char *opt_iters(const char *v, void *ctx) {
  return pp_parse_int(v, 1, 1000000, &((cg_config *)ctx)->max_iters);
}
static const char *opt_tol(const char *v, void *ctx) {
  return pp_parse_double(v, 0, 1, &((cg_config *)ctx)->tol);
}
static const char *opt_expect(const char *v, void *ctx) {
  return pp_parse_double(v, 0, 1, &((cg_config *)ctx)->expect);
}
static const char *opt_print(const char *v, void *ctx) {
  return pp_parse_int(v, 1, 100000000, &((cg_config *)ctx)->print_every);
}
static const char *opt_history(const char *v, void *ctx) {
  ((cg_config *)ctx)->history = v;
  return NULL;
}
static const char *opt_halo(const char *v, void *ctx) {
  return cg_halo_parse_request(v, &((cg_config *)ctx)->halo);
}
static const char *opt_overlap(const char *v, void *ctx) {
  static const char *const forms[] = {"off", "on", "auto", NULL}; /* CG_OVERLAP_* */
  return pp_parse_choice(v, forms, &((cg_config *)ctx)->overlap);
}
static const char *opt_variant(const char *v, void *ctx) {
  static const char *const forms[] = {"classic", "chronopoulos-gear", NULL};
  return pp_parse_choice(v, forms, &((cg_config *)ctx)->variant);
}
static const char *opt_update(const char *v, void *ctx) {
  static const char *const forms[] = {"fused", "split", NULL};
  return pp_parse_choice(v, forms, &((cg_config *)ctx)->split);
}
static const char *opt_scaling(const char *v, void *ctx) {
  static const char *const modes[] = {"strong", "weak", NULL};
  return pp_parse_choice(v, modes, &((cg_config *)ctx)->weak);
}

/* Bytes and flops of the kernels, whole problem (all ranks), per call. The
 * SpMV is counted at its minimum traffic: row offsets, column indices and
 * values once, x once (with ghosts), y written. */
static double spmv_bytes(const cg_problem *pb) {
  return 8.0 * ((double)pb->nglobal + pp_mpi_size()) + 12.0 * (double)pb->nnz_global +
         8.0 * pb->ncols_global + 8.0 * (double)pb->nglobal;
}
static double kernel_bytes(const cg_problem *pb, int k) {
  double n = (double)pb->nglobal;
  switch (k) {
  case K_SPMV: return spmv_bytes(pb);
  case K_DOT: return 16 * n; /* two operands read (r.r counted as two, like BabelStream) */
  case K_AXPBY: return 24 * n;
  case K_UPDATE: return 48 * n; /* x, r, p, Ap read; x, r written */
  default: { /* halo: what all ranks send */
    double h = cg_halo_bytes(&pb->halo);
    pp_mpi_sum(&h, 1);
    return h;
  }
  }
}
static double kernel_flops(const cg_problem *pb, int k) {
  double n = (double)pb->nglobal;
  switch (k) {
  case K_SPMV: return 2.0 * (double)pb->nnz_global;
  case K_DOT: return 2 * n;
  case K_AXPBY: return 3 * n;
  case K_UPDATE: return 8 * n; /* as the two axpby and the dot it replaces */
  default: return 0;
  }
}

/* One model's measurement: the solver, the agreement anchor, the verdict. */
typedef struct cg_run {
  cg_solver S;
  cg_first *first;
  cg_history *history;
  cg_verdict v;
} cg_run;

static void solve(void *ctx) { cg_solve(&((cg_run *)ctx)->S); }

/* The solve's flops and bytes follow its call counts (the iterations run). */
static void count(void *ctx, pp_measure *spec) {
  const cg_solver *S = &((cg_run *)ctx)->S;
  double flops = 0, bytes = 2 * 16.0 * (double)S->pb->nglobal; /* the two copies */
  for (int k = 0; k < K_COUNT; k++) {
    if (k == K_HALO) continue;
    flops += (double)pp_part_calls(&S->pt, k) * kernel_flops(S->pb, k);
    bytes += (double)pp_part_calls(&S->pt, k) * kernel_bytes(S->pb, k);
  }
  spec->flops = flops, spec->bytes = bytes;
}

/* cg_check on the extra (instrumented) solve's x and r; history and progress. */
static void verify(void *ctx, pp_row *row) {
  cg_run *r = ctx;
  const cg_solver *S = &r->S;
  cg_history_add(r->history, S);
  r->v = cg_check(S, r->first);
  pp_progress(S->s, "%s: %d iterations, relative residual %.3e (recursive %.3e, bound %.1e), "
              "x err %.2e (bound %.1e), %s", pp_model_name(S->m), S->iters, r->v.relres,
              S->hist[S->iters], r->v.rbound, r->v.xerr, r->v.xbound, r->v.valid ? "PASS" : "FAIL");
  row->valid = r->v.valid;
  snprintf(row->check, sizeof row->check, "%s", r->v.check);
}

/* cg_solve's figures; %copy is its bandwidth over the ranks' copy ceiling. */
static void figures(void *ctx, pp_row *row) {
  const cg_run *r = ctx;
  const cg_solver *S = &r->S;
  const double gbs = row->bytes / row->time.median / 1e9, copy = S->s->copy_gbs[S->m];
  if (isfinite(copy)) row->frac_ceiling = gbs / (copy * row->ranks);
  pp_row_metric(row, "iterations", "count", S->iters);
  pp_row_metric(row, "iter_time", "us", row->time.median / (S->iters ? S->iters : 1) * 1e6);
  pp_row_metric(row, "relres", "rel", r->v.relres);
  pp_row_metric(row, "x_err", "rel", r->v.xerr);
  pp_row_metric(row, "gap", "rel", r->v.gap);
  pp_row_metric(row, "relres_bound", "rel", r->v.rbound);
  pp_row_metric(row, "x_err_bound", "rel", r->v.xbound);
}

static void halo_figures(void *ctx, pp_row *row) {
  (void)ctx;
  pp_row_metric(row, "sent", "bytes", row->bytes);
}

/* The timed solves, then one extra solve with every part call synchronized
 * and timed (its per-call times are the part rows; its progress, history
 * and result are what is printed and validated). */
static void run_model(pp_session *s, const cg_config *c, const cg_problem *pb, pp_model m,
                      cg_first *first, cg_history *history) {
  cg_run r = {.first = first, .history = history};
  cg_solver_init(&r.S, s, c, pb, m);
  pp_measure parts[K_COUNT];
  /* the classic rows keep no variant: they compare with every earlier result */
  const char *variant = c->variant == CG_CHRONOPOULOS_GEAR ? "chronopoulos-gear" : NULL;
  for (int k = 0; k < K_COUNT; k++)
    parts[k] = (pp_measure){.name = kname[k],
                            .variant = variant,
                            .unit = k == K_HALO ? "us/call" : "GB/s",
                            .size = pb->N,
                            .bytes = kernel_bytes(pb, k),
                            .flops = kernel_flops(pb, k),
                            .ranks = PP_RANKS_SPLIT,
                            .figures = k == K_HALO ? halo_figures : NULL};
  const pp_measure whole = {.name = "cg_solve",
                            .variant = variant,
                            .unit = "GFLOP/s",
                            .size = pb->N,
                            .ranks = PP_RANKS_SPLIT,
                            .count = count,
                            .figures = figures};
  pp_progress(s, "%s: %d warm-up and %d timed solves, N = %d", pp_model_name(m), s->opt.warmup,
              s->opt.samples, pb->N);
  pp_measure_parts(s, m, &whole, parts, &r.S.pt, PP_PARTS_EXTRA_RUN, solve, &r, verify);
  cg_solver_free(&r.S);
}

/* pp_app.check: every rank, one verdict. */
static void check_options(pp_options *opt, void *ctx) {
  minife_deck_check("cgsolve", &((cg_config *)ctx)->deck, opt);
}

int main(int argc, char **argv) {
  static cg_config cfg = {.max_iters = 200, .expect = NAN, .halo = CG_HALO_AUTO, .overlap = CG_OVERLAP_AUTO};
  static const pp_app_option options[] = {
      {"--deck", "FILE|NAME", "input deck with 'N = ...': a file, or a deck of inputs/minife by name\n"
                               "                     (tiny, n150, n255, n325), instead of --size", opt_deck},
      {"--max-iters", "N", "most CG iterations per solve (default 200, as miniFE)", opt_iters},
      {"--tol", "X", "stop at relative residual ||r||/||b|| <= X; 0 (default): run --max-iters", opt_tol},
      {"--expect-relres", "X", "validation: the final true relative residual must also be <= X",
       opt_expect},
      {"--print-every", "K", "print the residual every K iterations (rank 0, stderr)", opt_print},
      {"--history", "FILE", "write every iteration's relative residual as CSV (at the end): "
                            "model,N,ranks,iteration,relres", opt_history},
      {"--update", "FORM", "fused (default): x, r and r.r in one kernel (cg_update); split: two "
                           "axpby and a dot, as miniFE", opt_update},
      {"--cg-variant", "FORM", "classic (default): two sums over ranks per iteration (p.Ap, r.r);\n"
       "                     chronopoulos-gear: one (r.r and w.r, w = A r), one more vector update", opt_variant},
      {"--halo", "PATH", "MPI only. auto (default): MPI on the model's own memory where it is host\n"
       "                     memory or the MPI library reports GPU support, else CUDA IPC (NVIDIA) or\n"
       "                     HIP IPC (AMD) between the GPUs of one node, else staged through host\n"
       "                     memory; host: always staged; mpi-device, cuda-ipc, hip-ipc: that path or\n"
       "                     exit 2 with the reason", opt_halo},
      {"--overlap", "MODE", "MPI only. on: the exchange runs on a helper thread while the rows that\n"
       "                     read no ghost are computed; off; auto (default): on where the halo is\n"
       "                     staged through host memory, off on the device paths (little to hide)", opt_overlap},
      {"--scaling", "MODE", "strong (default): N is the global cube; weak: N per rank, the "
                            "global cube has ~P times the nodes", opt_scaling},
      {NULL, NULL, NULL, NULL}};
  /* The faults this app plants (pp_fault calls, and ROW-missed for each row it times). */
  static const char *const faults[] = {"spmv-zero", "cg-dot", "cg-dot-omp", "cg-dot-host", "cg-breakdown",
                                       "cg-update", "cg-x", "cg-residual", "cg-xerr", "cg_solve-missed", NULL};
  static const pp_app app = {
      .name = "cgsolve",
      .summary = "unpreconditioned conjugate gradients on the miniFE matrix",
      .size_help = "elements per side of the cube, N (rows (N+1)^3)",
      .default_sizes = "30",
      .max_size = MINIFE_MAX_N,
      .options = options,
      .ctx = &cfg,
      .check = check_options,
      .faults = faults,
      .epilog =
      "CG as miniFE runs it: x0 = 0, b = A x* for x*_i = 2 u(seed, i) - 1, at most --max-iters\n"
      "iterations, each: halo exchange of p (MPI only), Ap = A p (the spmv app's kernel at its\n"
      "default launch parameters), alpha = r.r / p.Ap (cg_dot), the update x += alpha p,\n"
      "r -= alpha Ap with the new r.r in one kernel (cg_update; --update split: two axpby and\n"
      "a dot, as miniFE), p = r + beta p (cg_axpby). Same arithmetic either way; the fused\n"
      "form moves 48n bytes instead of 64n and synchronizes once instead of three times.\n"
      "--cg-variant chronopoulos-gear: halo of r, w = A r, r.r and w.r summed over ranks in one\n"
      "call, p = r + beta p and s = w + beta s, x += alpha p, r -= alpha s (one sum per iteration).\n"
      "Every timed solve restarts from x0 = 0. Rows:\n"
      "  cg_solve   one whole solve; FOM GFLOP/s (spmv 2 nnz, dot 2n, axpby 3n, update 8n\n"
      "             flops), with iterations, time per iteration, GB/s and the validation figures\n"
      "  cg_spmv    per call, GB/s of its minimum traffic (row offsets, columns, values, x, y\n"
      "             once each); cg_dot 16n bytes (incl. the MPI sum); cg_axpby 24n bytes;\n"
      "             cg_update 48n bytes (incl. the MPI sum);\n"
      "  cg_halo    us per exchange (MPI only: the boundary plane staged through host memory\n"
      "             and sent to each neighbour, the ghosts uploaded).\n"
      "The per-kernel rows come from one extra solve that synchronizes around every call;\n"
      "the cg_solve times do not. Validation on the host (check.c), with the true residual\n"
      "b - A x recomputed by a matrix-free Q1 operator that shares no code with the CSR\n"
      "generator or the SpMV kernels: relres = ||b - A x||/||b|| <= CG's convergence bound\n"
      "2 sqrt(k) ((sqrt(k)-1)/(sqrt(k)+1))^iters (k: a bound on the condition number;\n"
      "floor 1e-12) and <= --expect-relres; a breakdown (p.Ap <= 0) only when converged;\n"
      "gap ||(b - A x) - r||/||b|| <= 1e-10 (r: the recursive residual); ||x - x*||/||x*||\n"
      "<= the bound that relres and lambda_min(A) imply; with a deck that records a\n"
      "reference (inputs/minife/reference/) for this N, seed and iteration count, relres\n"
      "and x err within 1e-6 of it; every model's relres within 1e-6 of the first's.\n"
"MPI: rank r owns the z-planes [r(N+1)/P, (r+1)(N+1)/P) of nodes; dots are global.\n"
      "Weak scaling: --size is N per rank; the global cube has N_g = round((N+1) P^(1/3)) - 1,\n"
      "so (N_g+1)^3 ~ P (N+1)^3 rows (a cube, as the miniFE generator makes).\n"};

  pp_session s;
  pp_session_start(&s, argc, argv, &app);
  minife_deck_apply(&cfg.deck, &s);
  cg_history history;
  cg_history_start(&history, &s, cfg.history);
  pp_report_param(s.report, "matrix", "miniFE Q1 Laplacian, N^3 hexahedra, (N+1)^3 rows, Dirichlet surface");
  pp_report_param(s.report, "solver", "CG (%s), no preconditioner, x0 = 0, b = A x*, max %lld iterations, tol %g, %s",
                  cfg.variant == CG_CHRONOPOULOS_GEAR ? "Chronopoulos-Gear: one sum over ranks per iteration"
                                                      : "classic: two sums over ranks per iteration",
                  cfg.max_iters, cfg.tol,
                  cfg.split ? "update split (two axpby and a dot)" : "update fused (x, r and r.r in one kernel)");
  pp_report_param(s.report, "decomposition", "%d rank%s, z-plane slabs, %s scaling", pp_mpi_size(),
                  pp_mpi_size() > 1 ? "s" : "", cfg.weak ? "weak" : "strong");
  /* the halo path of every model: --halo mpi-device on a GPU model needs a GPU-aware MPI */
  pp_usage_check_all("cgsolve", cg_halo_choose_all(&s, &cfg));
  if (cfg.overlap == CG_OVERLAP_ON && pp_mpi_size() > 1 && !pp_mpi_serialized())
    pp_report_param(s.report, "overlap", "not done: the MPI library did not provide MPI_THREAD_SERIALIZED");
  if (cfg.overlap == CG_OVERLAP_ON && pp_mpi_size() > 1 && !cg_overlap_possible())
    pp_report_param(s.report, "overlap", "not done: built without a threads library");

  /* every size is checked (and refused with exit 2) before the first is generated */
  for (int i = 0; i < s.opt.sizes.n; i++) cg_problem_check(&s, cg_global_n(&cfg, s.opt.sizes.v[i]));
  for (int i = 0; i < s.opt.sizes.n; i++) {
    cg_problem pb;
    cg_first first = {0, PP_HOST, 0};
    int N = cg_global_n(&cfg, s.opt.sizes.v[i]);
    if (cfg.weak) {
      char key[48];
      snprintf(key, sizeof key, "weak scaling, N = %lld", s.opt.sizes.v[i]);
      pp_report_param(s.report, key, "per rank: global cube N = %d, %.3g rows per rank", N,
                      (double)minife_rows(N) / pp_mpi_size());
    }
    cg_problem_make(&s, N, &pb);
    for (int m = 0; m < PP_MODEL_COUNT; m++)
      if (s.ops[m]) run_model(&s, &cfg, &pb, (pp_model)m, &first, &history);
    cg_problem_free(&pb);
  }
  const int written = cg_history_finish(&history, app.name);
  const int rc = pp_session_finish(&s);
  return written || rc == 2 ? rc : PP_EXIT_OUTPUT;
}
