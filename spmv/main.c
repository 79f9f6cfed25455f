/* spmv driver: for each size N, generate the miniFE matrix once on the host,
 * run y = A x on every selected model (and the vendor library next to the
 * native model) through the common measurement path (pp/measure.h), check y
 * against a host reference and report bandwidth by two byte counts. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pp/pp.h"
#include "problem.h"

typedef struct config {
  spmv_params p;
  int vendor;       /* run cuSPARSE / hipSPARSE next to the native model */
  minife_deck deck; /* --deck */
} config;

static const char *parse_rpt(const char *v, void *ctx) {
  long long x;
  const char *err = pp_parse_int(v, 1, SPMV_MAX_TEAM, &x);
  if (!err) ((config *)ctx)->p.rows_per_team = (int)x;
  return err;
}
static const char *parse_vl(const char *v, void *ctx) {
  long long x;
  const char *err = pp_parse_int(v, 1, 64, &x);
  if (err) return err;
  if (x & (x - 1)) return "vector length must be a power of two (1..64)";
  ((config *)ctx)->p.vector_len = (int)x;
  return NULL;
}
/* Two-way options: the first name sets the flag, the second clears it. */
static const char *parse_flag(const char *v, const char *on, const char *off, int *flag) {
  const char *const names[] = {on, off, NULL};
  int k;
  const char *err = pp_parse_choice(v, names, &k);
  if (!err) *flag = k == 0;
  return err;
}
static const char *parse_reduce(const char *v, void *ctx) {
  return parse_flag(v, "shuffle", "shared", &((config *)ctx)->p.shuffle);
}
static const char *parse_grid(const char *v, void *ctx) {
  return parse_flag(v, "loop", "blocks", &((config *)ctx)->p.grid_loop);
}
static const char *parse_teams(const char *v, void *ctx) {
  long long x;
  const char *err = pp_parse_int(v, 1, 1 << 30, &x);
  if (!err) ((config *)ctx)->p.teams = (int)x;
  return err;
}
static const char *parse_form(const char *v, void *ctx) {
  const char *const names[] = {spmv_omp_form_name(SPMV_OMP_ROWS), spmv_omp_form_name(SPMV_OMP_LANES),
                               spmv_omp_form_name(SPMV_OMP_TEAMS), NULL};
  int k;
  const char *err = pp_parse_choice(v, names, &k);
  if (!err) ((config *)ctx)->p.omp_form = SPMV_OMP_ROWS + k;
  return err;
}
static const char *parse_loads(const char *v, void *ctx) {
  return parse_flag(v, "plain", "ro", &((config *)ctx)->p.plain_loads);
}
static const char *parse_no_vendor(const char *v, void *ctx) {
  (void)v;
  ((config *)ctx)->vendor = 0;
  return NULL;
}
static const char *parse_deck(const char *v, void *ctx) {
  minife_deck_read("spmv", v, &((config *)ctx)->deck);
  return NULL;
}

/* ---- one backend ---------------------------------------------------------- */

typedef struct run {
  const spmv_problem *pb;
  const pp_session *s;
  pp_model m;
  const spmv_kernels *k;
  void *plan;
  int vendor; /* the vendor library's row: its own planted fault */
  int64_t nrows;
  const int64_t *rowptr;
  const int32_t *col;
  const double *val, *x;
  double *y;
} run;

static void call(void *ctx) {
  run *r = ctx;
  r->k->spmv(r->plan, r->nrows, r->rowptr, r->col, r->val, r->x, r->y);
}

/* y downloaded and compared with the host reference. Planted faults (tests):
 * one wrong element of y, 1e-6 relative (~3e-8 of ||y|| on the tiny deck),
 * for our kernels' rows or the vendor library's. */
static void verify(void *ctx, pp_row *row) {
  const run *r = ctx;
  const int64_t n = r->pb->A.nrows;
  const size_t ybytes = (size_t)n * sizeof(double);
  double *y = pp_host_alloc("spmv", ybytes, "y");
  if (r->m == PP_HOST) memcpy(y, r->y, ybytes);
  else r->s->ops[r->m]->to_host(y, r->y, ybytes);
  if (n > 0 && pp_fault_fire(r->vendor ? "spmv-vendor-y" : "spmv-y")) y[n / 2] *= 1 + 1e-6;
  pp_check_within(row, "rel L2 err", pp_rel_err_l2(y, r->pb->yref, (size_t)n), SPMV_TOL);
  free(y);
}

/* min_traffic: every array once, at the FOM's pace (all ranks); it is the
 * %copy column. */
static void figures(void *ctx, pp_row *row) {
  const run *r = ctx;
  const double min_gbs = row->ranks * r->pb->bytes_min / row->time.median / 1e9;
  const double copy = r->s->copy_gbs[r->m];
  pp_row_metric(row, "min_traffic", "GB/s", min_gbs);
  if (isfinite(copy) && copy > 0) {
    row->frac_ceiling = min_gbs / (copy * row->ranks);
    pp_row_metric(row, "min_traffic_of_copy", "fraction", row->frac_ceiling);
  }
}

/* Measures kernels k on model m's copies of the problem (y poisoned first:
 * a row a kernel never writes stays NaN); returns the stored row's index.
 * `vendor`: k is that vendor library's, whose plan is described in `note`. */
static int bench(pp_session *s, pp_model m, const spmv_kernels *k, const spmv_vendor *vendor,
                 const run *arrays, const spmv_params *p, char *note, size_t note_len) {
  const spmv_problem *pb = arrays->pb;
  const csr_matrix *A = &pb->A;
  run r = *arrays;
  r.k = k, r.vendor = vendor != NULL;
  r.plan = k->prepare(A->nrows, A->ncols, A->nnz, r.rowptr, r.col, r.val, p);
  if (m == PP_HOST) pp_poison_d(r.y, (size_t)A->nrows);
  else pp_device_poison_d(s->ops[m], r.y, (size_t)A->nrows);
  const pp_measure spec = {.name = vendor ? vendor->row : "spmv",
                           .unit = "GB/s",
                           .size = pb->N,
                           .bytes = pb->bytes_paper,
                           .flops = pb->flops,
                           .ranks = PP_RANKS_REPLICATED,
                           .figures = figures};
  pp_row *row = pp_measure_run(s, m, &spec, call, &r, verify);
  const int index = (int)(row - pp_report_row(s->report, 0));
  if (vendor) snprintf(note, note_len, "%s", vendor->describe(r.plan));
  k->release(r.plan);
  return index;
}

/* Runs model m (and its vendor library) on the problem; the stored rows'
 * indices go to idx (returns how many: the first is the spmv row). */
static int run_model(pp_session *s, pp_model m, const spmv_problem *pb, const config *cfg,
                     int *idx, char *vendor_note, size_t note_len) {
  const spmv_kernels *k = spmv_kernels_for(m);
  const pp_device_ops *o = s->ops[m];
  const csr_matrix *A = &pb->A;
  run arr = {.pb = pb, .s = s, .m = m, .nrows = A->nrows, /* y below; k, plan, vendor per row */
             .rowptr = A->rowptr, .col = A->col, .val = A->val, .x = pb->x};
  size_t ybytes = (size_t)A->nrows * sizeof(double);
  if (m == PP_HOST) {
    arr.y = pp_host_alloc("spmv", ybytes, "y"); /* the host runs on the generated arrays themselves */
  } else {
    arr.rowptr = pp_device_upload(o, A->rowptr, (size_t)(A->nrows + 1) * sizeof(int64_t));
    arr.col = pp_device_upload(o, A->col, (size_t)A->nnz * sizeof(int32_t));
    arr.val = pp_device_upload(o, A->val, (size_t)A->nnz * sizeof(double));
    arr.x = pp_device_upload(o, pb->x, (size_t)A->ncols * sizeof(double));
    arr.y = o->alloc(ybytes);
  }
  int n = 0;
  idx[n++] = bench(s, m, k, NULL, &arr, &cfg->p, NULL, 0);
  const spmv_vendor *v = k->vendor && cfg->vendor ? k->vendor() : NULL;
  if (v) idx[n++] = bench(s, m, v->k, v, &arr, &cfg->p, vendor_note, note_len);
  if (m == PP_HOST) {
    free(arr.y);
  } else {
    o->free((void *)arr.rowptr), o->free((void *)arr.col), o->free((void *)arr.val);
    o->free((void *)arr.x), o->free(arr.y);
  }
  return n;
}

/* Options against each other (pp_app.check: every rank, one verdict). */
static void check_options(pp_options *opt, void *ctx) {
  const config *cfg = ctx;
  minife_deck_check("spmv", &cfg->deck, opt);
  if (cfg->p.rows_per_team * cfg->p.vector_len > SPMV_MAX_TEAM)
    pp_usage_error("spmv", "--rows-per-team x --vector-len = %d threads per team; at most %d",
                   cfg->p.rows_per_team * cfg->p.vector_len, SPMV_MAX_TEAM);
}

int main(int argc, char **argv) {
  static config cfg;
  cfg.p = spmv_params_default();
  cfg.vendor = 1;
  static const pp_app_option options[] = {
      {"--deck", "FILE|NAME", "input deck with 'N = ...': a file, or a deck of inputs/minife by name\n"
                               "                     (tiny, n150, n255, n325); replaces --size", parse_deck},
      {"--rows-per-team", "N", "rows per team/block, threads y (default " PP_STR(SPMV_DEFAULT_ROWS_PER_TEAM) ")", parse_rpt},
      {"--vector-len", "N", "lanes per row, threads x: 1..32 on NVIDIA, ..64 on AMD, power of two (default " PP_STR(SPMV_DEFAULT_VECTOR_LEN) ")", parse_vl},
      {"--reduce", "KIND", "lane reduction: shuffle | shared (team-shared memory) (default shuffle;\n"
                           "                     rows wider than a warp always use shared)", parse_reduce},
      {"--grid", "KIND", "blocks: one team per row group | loop: fixed grid looping over groups (default blocks)", parse_grid},
      {"--teams", "N", "teams/blocks of the grid loop (default " PP_STR(SPMV_GRID_TEAMS) ")", parse_teams},
      {"--omp-form", "FORM", "omp kernel: rows | lanes | teams (default: the fastest measured with\n"
       "                     the compiler: teams with clang, rows with GCC; minife/params.c)", parse_form},
      {"--ompx-loads", "KIND", "ompx loads: ro (read-only data cache, as nvcc does for the cuda\n"
                               "                     kernel; NVIDIA only) | plain (default ro)", parse_loads},
      {"--no-vendor", NULL, "do not run cuSPARSE/hipSPARSE next to cuda/hip", parse_no_vendor},
      {NULL, NULL, NULL, NULL}};
  /* The faults this app plants (pp_fault calls, and ROW-missed for each row it times). */
  static const char *const faults[] = {"spmv-y", "spmv-vendor-y", "spmv-missed", "spmv_cusparse-missed",
                                       "spmv_hipsparse-missed", NULL};
  static const pp_app app = {
      .name = "spmv",
      .summary = "sparse matrix-vector product y = A x on the miniFE matrix",
      .size_help = "N, hexahedral elements per cube side: (N+1)^3 rows (decks: inputs/minife/*.deck)",
      .default_sizes = "50",
      .max_size = MINIFE_MAX_N,
      .options = options,
      .ctx = &cfg,
      .check = check_options,
      .faults = faults,
      .epilog =
      "The matrix: miniFE's trilinear (Q1) finite-element Laplacian on an N^3 cube of unit\n"
      "hexahedra, one row per node, the 27-point stencil clipped at the faces, surface nodes\n"
      "Dirichlet (identity rows and columns, zeros kept stored). CSR: int64 row offsets,\n"
      "int32 columns, double values. Decks: tiny (tests), N=150/255/325 (matrix 1.1/5.5/11.4 GB).\n"
      "Kernels: host rows in parallel; omp standard OpenMP (--omp-form); ompx, cuda and hip\n"
      "the same hierarchical algorithm (--rows-per-team x --vector-len threads per team,\n"
      "--reduce, --grid); spmv_cusparse/spmv_hipsparse the vendor library on the same data.\n"
      "Figures: GB/s (FOM) counts the papers' bytes: row offsets + columns + values + one x\n"
      "read per entry + y written. min_traffic counts every array once; its fraction of the\n"
      "measured copy bandwidth is the %copy column. rate (GFLOP/s) counts 2 flops per entry.\n"
      "Validation: relative L2 error of y against a host reference on x_i in [0,1), <= 1e-12.\n"};

  pp_session s;
  pp_session_start(&s, argc, argv, &app);
  minife_deck_apply(&cfg.deck, &s);
  int vendor = 0; /* a vendor library runs beside an opened model */
  for (int m = 0; m < PP_MODEL_COUNT; m++)
    if (s.ops[m] && spmv_kernels_for((pp_model)m)->vendor) vendor = cfg.vendor;

  /* every size is checked before the first is generated */
  for (int i = 0; i < s.opt.sizes.n; i++) spmv_problem_check_fits(&s, (int)s.opt.sizes.v[i], vendor);

  const spmv_params p = spmv_params_resolve(&cfg.p);
  pp_report_param(s.report, "matrix", "miniFE Q1 Laplacian, unit hex elements, 27-point stencil, "
                  "Dirichlet surface (identity rows/cols, zeros stored); CSR int64/int32/double");
  pp_report_param(s.report, "x", "x_i = uniform hash of (seed %llu, i) in [0,1); y poisoned (NaN) "
                  "before the runs", (unsigned long long)s.opt.seed);
  pp_report_param(s.report, "validation", "relative L2 error of y vs a host reference <= %.0e", SPMV_TOL);
  pp_report_param(s.report, "GB/s (FOM)", "papers' bytes: 8(n+1) offsets + 12 nnz (col+val) + 8 nnz "
                  "(x per entry) + 8 n (y)");
  pp_report_param(s.report, "min_traffic", "8(n+1) + 12 nnz + 8 n (x once) + 8 n (y); "
                  "%%copy = min_traffic / copy ceiling");
  pp_report_param(s.report, "rate (GFLOP/s)", "2 nnz per run");
  pp_report_param(s.report, "launch", "ompx/cuda/hip: rows_per_team=%d x vector_len=%d (%d threads), "
                  "reduce=%s, grid=%s; ompx loads %s", p.rows_per_team, p.vector_len,
                  p.rows_per_team * p.vector_len, p.shuffle ? "shuffle" : "shared",
                  p.grid_loop ? "loop" : "blocks (one team per row group)",
                  p.plain_loads ? "plain" : "read-only cache");
  if (p.grid_loop) pp_report_param(s.report, "grid-loop teams", "%d", p.teams);
  pp_report_param(s.report, "omp form", "%s (same rows_per_team x vector_len)", spmv_omp_form_name(p.omp_form));

  for (int si = 0; si < s.opt.sizes.n; si++) {
    spmv_problem pb;
    spmv_problem_make(&s, (int)s.opt.sizes.v[si], &pb);
    int idx[2 * PP_MODEL_COUNT], nr = 0;
    char note[256] = "";
    for (int m = 0; m < PP_MODEL_COUNT; m++) {
      if (!s.ops[m]) continue;
      pp_progress(&s, "N=%d: %s", pb.N, pp_model_name((pp_model)m));
      nr += run_model(&s, (pp_model)m, &pb, &cfg, idx + nr, note, sizeof note);
    }
    if (note[0]) pp_report_param(s.report, "vendor", "%s", note);
    /* every GPU row relative to the vendor library, when it ran (rank-combined FOMs) */
    double vendor_fom = NAN;
    for (int i = 0; i < nr; i++) {
      const pp_row *row = pp_report_row(s.report, idx[i]);
      if (strcmp(row->kernel, "spmv")) vendor_fom = row->fom;
    }
    for (int i = 0; i < nr && isfinite(vendor_fom); i++) {
      pp_row *row = pp_report_row(s.report, idx[i]);
      if (row->model != PP_HOST && !strcmp(row->kernel, "spmv"))
        pp_row_metric(row, "vs_vendor", "ratio", row->fom / vendor_fom);
    }
    spmv_problem_free(&pb);
  }
  return pp_session_finish(&s);
}
