/* cgsolve's driver pieces: the configuration, this rank's slab of the
 * problem (problem.c), one model's solver (solve.c), the validation
 * (check.c) and the matrix-free operator it uses (q1.c). */
#ifndef CGSOLVE_PROBLEM_H
#define CGSOLVE_PROBLEM_H
#include "cgsolve.h"
#include "halo_path.h"
#include "pp/session.h"
#include "pp/measure.h"

typedef struct cg_config {
  minife_deck deck;        /* --deck (with its recorded reference, if any) */
  long long max_iters;
  double tol;              /* relative residual; 0: run max_iters iterations */
  double expect;           /* --expect-relres, NaN: not given */
  long long print_every;
  const char *history;
  int weak;
  int split;               /* --update split: two axpby and a dot instead of update */
  int variant;             /* --cg-variant: CG_CLASSIC or CG_CHRONOPOULOS_GEAR */
  int halo;                /* --halo: CG_HALO_AUTO or a path (CG_PATH_*, halo_path.h) */
  int path[PP_MODEL_COUNT];  /* the halo path each model takes (CG_PATH_*; cg_halo_choose_all) */
  int overlap;             /* --overlap: CG_OVERLAP_* */
} cg_config;
/* --overlap: the exchange on a helper thread while the interior rows compute; auto (the
 * default): where the halo is staged through the host, the one path with much to hide. */
enum { CG_OVERLAP_OFF, CG_OVERLAP_ON, CG_OVERLAP_AUTO };
/* Classic CG sums over ranks twice per iteration (p.Ap, then r.r);
 * Chronopoulos and Gear's form ("s-step iterative methods for symmetric
 * linear systems") computes w = A r and sums r.r and w.r together, once,
 * for one more vector update per iteration. Equal in exact arithmetic. */
enum { CG_CLASSIC, CG_CHRONOPOULOS_GEAR };

/* ---- problem.c: this rank's slab of the matrix, b and x* ----------------- */
typedef struct cg_problem {
  int N;                   /* global elements per side */
  int64_t nglobal, nnz_global, row_begin, row_end, plane;
  int64_t *rank_begin;     /* first global row of every rank, [P] = nglobal */
  csr_matrix A;            /* this rank's rows, local columns */
  cg_halo halo;
  double *b, *xstar;       /* this rank's rows */
  double normb, normxstar; /* global */
  double ncols_global;     /* sum over ranks of local columns (x entries read) */
} cg_problem;

/* The global cube side of size argument `size` (weak scaling: ~P times the nodes). */
int cg_global_n(const cg_config *c, long long size);
/* Exits 2 (collectively, once) when the global N cannot be split or this
 * rank's slab does not fit: called for every size before any is generated. */
void cg_problem_check(pp_session *s, int N);
void cg_problem_make(pp_session *s, int N, cg_problem *pb);
void cg_problem_free(cg_problem *pb);

/* ---- solve.c: one model's CG ------------------------------------------------ */
/* The solve's parts (pp_parts indices), each timed alone in the extra run. */
enum { K_SPMV, K_DOT, K_AXPBY, K_UPDATE, K_HALO, K_COUNT };
enum { CG_STOP_ITERS, CG_STOP_TOL, CG_STOP_BREAKDOWN };

typedef struct cg_solver {
  const pp_session *s;
  const cg_config *c;
  const cg_problem *pb;
  pp_model m;
  const pp_device_ops *ops;
  const spmv_kernels *sk;
  const cg_kernels *ck;
  void *plan;
  int64_t n;
  int64_t *rowptr; int32_t *col; double *val; /* device */
  double *b, *x, *r, *p, *Ap, *scratch;       /* device; x, p (and r) have ghosts */
  double *w, *s_;          /* Chronopoulos-Gear: w = A r, s = A p (recurrence); NULL otherwise */
  const cg_halo_path *path; /* the halo path (halo_path.h) */
  int overlap;             /* the timed solves overlap the exchange with the interior rows */
  struct cg_helper *helper; /* --overlap's helper thread, started by the first overlapped SpMV */
  int iters, stop;
  double *hist;            /* relative recursive residual after each iteration */
  /* Call counts of every solve; per-call times (wall clock: the dot has an
   * MPI sum, the halo is MPI) and progress printing while pt.on. */
  pp_parts pt;
} cg_solver;

/* halo_choose.c. Collective: the halo path of every model under --halo into
 * c->path[] and the report; returns the line that refuses a request that
 * cannot be honoured (for pp_usage_check_all), or NULL. */
const char *cg_halo_choose_all(const pp_session *s, cg_config *c);
/* 1 when --overlap can run (a threads library in the build). */
int cg_overlap_possible(void);
/* 1 when the solves of a model whose halo takes path p overlap it (--overlap, more than one
 * rank, MPI_THREAD_SERIALIZED, threads). */
int cg_overlaps(const cg_config *c, const cg_halo_path *p);
/* Uploads the slab and allocates the vectors of model m. */
void cg_solver_init(cg_solver *S, pp_session *s, const cg_config *c, const cg_problem *pb,
                    pp_model m);
void cg_solver_free(cg_solver *S);
/* One solve from x0 = 0 (a pp_run_fn). */
void cg_solve(void *solver);

/* ---- history.c: --history FILE ------------------------------------------------ */
typedef struct cg_history {
  const char *path; /* NULL: not asked */
  char *buf;        /* the CSV so far (rank 0) */
  size_t len, cap;
} cg_history;
/* Exits 2 (collectively) when `path` cannot be written; starts the CSV. */
void cg_history_start(cg_history *h, const pp_session *s, const char *path);
/* Appends the solver's residual history: one line per iteration. */
void cg_history_add(cg_history *h, const cg_solver *S);
/* Writes the file at once (rank 0). Collective: 1, or 0 on every rank when
 * it could not be written (message printed; nothing partial is left). */
int cg_history_finish(cg_history *h, const char *app);

/* ---- check.c: validation on the host ------------------------------------------ */
typedef struct cg_verdict {
  double relres;  /* ||b - A x|| / ||b||, A applied matrix-free (q1.c) */
  double gap;     /* ||(b - A x) - r|| / ||b||, r the recursive residual */
  double xerr;    /* ||x - x*|| / ||x*|| */
  double rbound;  /* bound on relres: CG's convergence bound, or --expect-relres */
  double xbound;  /* bound on xerr implied by relres and lambda_min(A) */
  int valid;      /* every check passed on every rank */
  char check[96]; /* the checks, failed ones first */
} cg_verdict;

/* The first model's result at the current size, for the agreement check. */
typedef struct cg_first { int have; pp_model m; double relres; } cg_first;

/* Validates the solver's final x and r; collective. */
cg_verdict cg_check(const cg_solver *S, cg_first *first);

/* ---- reference.c: plain host CG for check.c ----------------------------------- */
/* relres and xerr (as cg_verdict's) of `iters` CG iterations from x0 = 0;
 * 0 on every rank when some rank had no memory for it. Collective. */
int cg_reference_run(const cg_problem *pb, int iters, double *relres, double *xerr);

/* ---- q1.c: the miniFE operator, matrix-free, independent of the CSR generator
 * and of the SpMV kernels: y = A x from the Q1 element stiffness computed by
 * its own Gauss quadrature, element by element. */
typedef struct q1_operator {
  int N;             /* elements per side */
  double Ke[8][8];   /* element stiffness, corner c = cx + 2 cy + 4 cz */
} q1_operator;
void q1_operator_init(q1_operator *op, int N);
/* y[l] = (A x)[row_begin + l] for the owned rows [row_begin, row_end) (whole
 * z-planes); xg[g - (row_begin - plane)] is x at global row g for g in
 * [row_begin - plane, row_end + plane) (planes outside the cube unused). */
void q1_apply(const q1_operator *op, int64_t row_begin, int64_t row_end, const double *xg,
              double *y);
/* Extreme eigenvalues of A: lambda_min exactly (from the 1D stiffness and
 * mass of the tensor-product Q1 space), lambda_max bounded above (Gershgorin). */
double q1_lambda_min(int N);
double q1_lambda_max_bound(const q1_operator *op);

#endif
