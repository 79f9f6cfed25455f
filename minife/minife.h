/* The miniFE library that spmv and cgsolve share: the miniFE-style sparse
 * matrix, the input deck, and the SpMV kernel interface every model
 * implements (with the vendor library's SpMV beside cuda and hip).
 *
 * ---- For the authors of kernels/{host,omp,ompx}.c, cuda.cu, hip.hip -------
 * A model file defines   const spmv_kernels *spmv_kernels_<model>(void);
 * (PP_MODEL_DISPATCH(m, spmv_kernels_) finds it, spmv_kernels_for in
 * registry.c) with the entries of spmv_kernels below; spmv and cgsolve both
 * call it. It holds only the mapping:
 *   - one row's sum is spmv_row_partial (or _ro, the same sum through the
 *     read-only cache), PP_HD below, lane `first` of `stride` over the row's
 *     entries; the lanes' partials are then added by the model (shuffles or
 *     team memory), so every model computes a row from the same products;
 *   - the matrix (CSR: int64 row offsets, int32 local columns, double
 *     values) and x, y are the model's memory (device pointers; for host,
 *     host pointers), uploaded by the driver; x holds nrows + ghost entries
 *     (ncols); spmv writes y[0..nrows) and allocates nothing;
 *   - prepare gets the launch parameters (spmv_params; NULL: defaults) and
 *     may return a plan (the resolved parameters, spmv_params_plan, or a
 *     vendor library's handle) that spmv and release receive; the
 *     hierarchical models (ompx, cuda, hip) derive their grid from
 *     spmv_launch_shape, so they launch exactly the same one;
 *   - spmv need not wait for its kernel: the driver times the runs with the
 *     model's device-synchronized timer, and checks y against a reference
 *     that a plain host loop computes (spmv/problem.c), cgsolve the solve.
 * A vendor library's SpMV (kernels/cusparse.cu, also built as hipsparse)
 * is a second spmv_kernels behind its model's `vendor` getter.
 * ---------------------------------------------------------------------------*/
#ifndef MINIFE_H
#define MINIFE_H
#include <stddef.h>
#include <stdint.h>
#include "pp/portable.h"
#include "pp/model.h"
PP_EXTERN_C_BEGIN

/* CSR, exact stored entries (no padding): 64-bit row offsets, 32-bit column
 * indices, double values. Host memory unless said otherwise. */
typedef struct csr_matrix {
  int64_t nrows;   /* rows stored here (a rank's slab, or all rows) */
  int64_t ncols;   /* columns referenced: local numbering, nrows + ghosts */
  int64_t nnz;
  int64_t *rowptr; /* nrows + 1 */
  int32_t *col;    /* nnz */
  double *val;     /* nnz */
} csr_matrix;

/* The miniFE matrix of an N x N x N hexahedral element cube: (N+1)^3 rows,
 * one per node (x fastest), the 27-point stencil clipped at the faces,
 * trilinear (Q1) Laplacian values, Dirichlet boundary nodes as identity rows
 * and columns (off-diagonals stored as zeros). Generates global rows
 * [row_begin, row_end) with GLOBAL column indices (ncols = (N+1)^3).
 * Parallel on host threads. Returns 0, or -1 if memory ran out. */
int minife_matrix(int N, int64_t row_begin, int64_t row_end, csr_matrix *A);
void csr_free(csr_matrix *A);
/* Bytes of a matrix with nrows rows and nnz entries, for memory checks. */
double csr_bytes(int64_t nrows, int64_t nnz);
/* Largest N whose (N+1)^3 column indices fit in int32 (the col type). */
#define MINIFE_MAX_N 1289
/* (N+1)^3: rows (and columns) of the whole matrix. */
int64_t minife_rows(int N);
/* Exact stored entries before global row r (r in [0, (N+1)^3]): the closed
 * form of the row offsets, so any slab is generated without a global scan.
 * The whole matrix has minife_row_offset(N, (N+1)^3) = (3N+1)^3 entries. */
int64_t minife_row_offset(int N, int64_t r);
/* Exact stored entries of rows [b, e). */
int64_t minife_nnz(int N, int64_t b, int64_t e);
/* 1 if global row (node) r lies on the cube's surface (a Dirichlet node). */
int minife_is_boundary(int N, int64_t r);
/* Value of the assembled interior stencil between nodes whose coordinates
 * differ in `d` directions (d = 0..3), for unit elements: 8/3, 0, -1/6, -1/12. */
double minife_stencil_value(int d);

/* Launch shape and algorithm variants of the hierarchical kernels
 * (ompx, cuda, hip); omp and host take what they can use. */
typedef struct spmv_params {
  int rows_per_team;   /* rows per team/block (threads y) */
  int vector_len;      /* lanes per row (threads x): 1..32 (64 on AMD), power of two */
  int shuffle;         /* 1: lane reduction by shuffles, 0: through team-shared memory */
  int grid_loop;       /* 1: grid sized to the device, loop over row groups;
                          0: one team per row group (loop elimination) */
  /* Added after the four above (zero means "default" for both): */
  int teams;           /* grid_loop: teams/blocks launched; 0 = SPMV_GRID_TEAMS */
  int omp_form;        /* omp model's loop form, SPMV_OMP_*; 0 = SPMV_OMP_DEFAULT */
  int plain_loads;     /* ompx: 1 = plain loads; 0 = read-only cache loads (NVIDIA) */
} spmv_params;

/* One launch shape for cuda, hip and ompx, so the comparison is about the
 * model: 4 lanes x 64 rows, close to the fastest shape of each in a sweep of
 * the shapes (spmv/sweep.sh; see docs/performance.md, spmv). */
#define SPMV_DEFAULT_ROWS_PER_TEAM 64
#define SPMV_DEFAULT_VECTOR_LEN 4
#define SPMV_DEFAULT_SHUFFLE 1
#define SPMV_DEFAULT_GRID_LOOP 0
/* Teams of a grid loop when params.teams is 0: one fixed count for every
 * model, so ompx and the native kernels launch the same grid (a few waves of
 * 256-thread blocks on a large GPU). */
#define SPMV_GRID_TEAMS 2048
/* Largest team: rows_per_team * vector_len threads. */
#define SPMV_MAX_TEAM 1024
/* Forms of the standard-OpenMP kernel (kernels/omp.c says what each is). */
enum { SPMV_OMP_DEFAULT = 0, SPMV_OMP_ROWS = 1, SPMV_OMP_LANES = 2, SPMV_OMP_TEAMS = 3 };
/* The defaults, with SPMV_OMP_DEFAULT resolved. */
spmv_params spmv_params_default(void);
/* p with every zero/invalid field replaced by its default. */
spmv_params spmv_params_resolve(const spmv_params *p);
const char *spmv_omp_form_name(int form);

/* The miniFE apps' --deck FILE: a deck setting `N = ...` and, optionally,
 * cgsolve's recorded reference (keys cg_iters, cg_seed, cg_relres, cg_xerr,
 * all or none): the true relative residual and ||x - x*|| / ||x*|| that an
 * independent CG (inputs/minife/reference/cg_reference.py) reached after
 * cg_iters iterations from x0 = 0 with x* drawn from seed cg_seed. */
typedef struct minife_deck {
  const char *path; /* NULL: no deck */
  int n;
  long long cg_iters; /* 0: no reference */
  unsigned long long cg_seed;
  double cg_relres, cg_xerr;
} minife_deck;
/* Reads the deck (exits 2 naming file, line and value on bad input, and on
 * a key other than the above). */
void minife_deck_read(const char *app, const char *path, minife_deck *d);
struct pp_session;
struct pp_options;
/* In the app's check (pp_app.check): the deck's N becomes the only size;
 * exit 2 when --size was given too. */
void minife_deck_check(const char *app, const minife_deck *d, struct pp_options *opt);
/* After the session started: the deck is recorded in the report. */
void minife_deck_apply(const minife_deck *d, struct pp_session *s);

/* The launch shape the hierarchical models (ompx, cuda, hip) derive from the
 * params: one definition, so they launch exactly the same grid. */
typedef struct spmv_shape {
  int rpt, vl, lg, tpb; /* rows per team, lanes per row, log2(lanes), threads */
  int64_t ngroups;      /* row groups of rpt rows */
  int loop;             /* 1: a grid of nb teams loops over the groups */
  int64_t nb;           /* teams/blocks launched */
  int shuffle;          /* 1: lanes reduce by shuffles (vl <= max_shuffle_lanes) */
} spmv_shape;
spmv_shape spmv_launch_shape(const spmv_params *p, int64_t nrows, int max_shuffle_lanes);
/* The plan of the hierarchical models: their resolved params (heap copy). */
void *spmv_params_plan(const spmv_params *p);
spmv_params spmv_plan_params(const void *plan); /* NULL plan: the defaults */
void spmv_plan_free(void *plan);

/* A model's SpMV: y = A x with device arrays (model memory). `plan` comes from
 * prepare (may be NULL): a vendor library handle, chosen launch shapes, ...
 * prepare's `p` may be NULL (defaults); prepare copies what it needs from it. */
struct spmv_vendor;
typedef struct spmv_kernels {
  void *(*prepare)(int64_t nrows, int64_t ncols, int64_t nnz, const int64_t *rowptr,
                   const int32_t *col, const double *val, const spmv_params *p);
  void (*spmv)(void *plan, int64_t nrows, const int64_t *rowptr, const int32_t *col,
               const double *val, const double *x, double *y);
  void (*release)(void *plan);
  /* The vendor library's SpMV on this model's arrays (cuSPARSE beside cuda,
   * hipSPARSE beside hip), through a getter; NULL: none. (A getter, not an
   * object: clang's HIP device compile emits an external const object with
   * its host function pointers into the device image, which cannot link.) */
  const struct spmv_vendor *(*vendor)(void);
} spmv_kernels;

typedef struct spmv_vendor {
  const char *row;          /* its report row: "spmv_cusparse" */
  const spmv_kernels *k;    /* its SpMV (k->vendor is NULL) */
  /* What a plan did to the matrix (index conversions, algorithm), for the
   * report: static text valid while the plan lives. Asked after the runs: a
   * plan may change its format on the first call. */
  const char *(*describe)(const void *plan);
} spmv_vendor;

/* Built models' SpMV (only the built ones exist). */
PP_DECLARE_MODEL_GETTERS(spmv_kernels, spmv_kernels_)
/* The table of model m, or NULL when not built. */
const spmv_kernels *spmv_kernels_for(pp_model m);
/* The vendor libraries' (kernels/cusparse.cu), beside their model's table. */
const spmv_vendor *spmv_vendor_cusparse(void); /* with CUDA */
const spmv_vendor *spmv_vendor_hipsparse(void); /* with HIP */

PP_BEGIN_DEVICE
/* The loop of one row's dot product over entries [b, e), lane `first` of
 * `stride`, written once with its loads as parameters. */
#define SPMV_ROW_SUM(LOAD_D, LOAD_I)                      \
  double s = 0;                                           \
  for (int64_t k = b + first; k < e; k += stride)         \
    s += LOAD_D(val + k) * LOAD_D(x + LOAD_I(col + k));   \
  return s
#define SPMV_LOAD(p) (*(p))

/* One row's dot product over entries [b, e): the per-item math every model shares. */
PP_HD static inline double spmv_row_partial(const int32_t *PP_RESTRICT col,
                                            const double *PP_RESTRICT val,
                                            const double *PP_RESTRICT x, int64_t b, int64_t e,
                                            int64_t first, int64_t stride) {
  SPMV_ROW_SUM(SPMV_LOAD, SPMV_LOAD);
}

/* The same sum with col, val and x read through the read-only (non-coherent)
 * data cache where the compiler needs to be told: clang's OpenMP NVPTX code
 * (__nvvm_ldg_*). nvcc does this by itself for the const __restrict__ kernel
 * arguments of the native kernel, so ompx uses it to load the same way. */
#if defined(__NVPTX__) && !defined(__CUDACC__)
#define SPMV_RO_D(p) __nvvm_ldg_d(p)
#define SPMV_RO_I(p) __nvvm_ldg_i(p)
#define SPMV_RO_L(p) __nvvm_ldg_l(p) /* int64_t: long on the LP64 hosts we build for */
#else
#define SPMV_RO_D(p) (*(p))
#define SPMV_RO_I(p) (*(p))
#define SPMV_RO_L(p) (*(p))
#endif
PP_HD static inline double spmv_row_partial_ro(const int32_t *PP_RESTRICT col,
                                               const double *PP_RESTRICT val,
                                               const double *PP_RESTRICT x, int64_t b,
                                               int64_t e, int64_t first, int64_t stride) {
  SPMV_ROW_SUM(SPMV_RO_D, SPMV_RO_I);
}
PP_END_DEVICE

PP_EXTERN_C_END
#endif
