/* The miniFE problem that spmv and cgsolve share: the sparse matrix, its
 * generator and the input deck. The SpMV kernel interface is spmv.h. */
#ifndef MINIFE_H
#define MINIFE_H
#include <stddef.h>
#include <stdint.h>
#include "pp/portable.h"
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
/* Upper bound of the stored entries of rows [b, e) of the N-cube (it returns
 * the exact count, minife_nnz). */
int64_t minife_nnz_bound(int N, int64_t b, int64_t e);
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
/* After the command line: the deck's N becomes the only size (exit 2 when
 * --size was given too) and the deck is recorded in the report. */
void minife_deck_apply(const minife_deck *d, struct pp_session *s);

PP_EXTERN_C_END
#endif
