/* The miniFE matrix: trilinear (Q1) finite-element Laplacian of a cube of
 * N x N x N unit hexahedra, one row per node, x fastest.
 *
 * Element stiffness. On the unit cube the Q1 shape function of corner c is
 * phi_c(x) = prod_d l_{c_d}(x_d) with l_0(t) = 1 - t, l_1(t) = t, so
 *   K_ab = int grad phi_a . grad phi_b = sum_d S(a_d,b_d) prod_{e != d} M(a_e,b_e)
 * with the 1D stiffness S = [1 -1; -1 1] and 1D mass M = [1/3 1/6; 1/6 1/3].
 * K_ab depends only on the number d of coordinates in which corners a and b
 * differ: d=0: 3*(1/9) = 1/3; d=1: -1/9 + 2/18 = 0; d=2: -2/18 + 1/36 = -1/12;
 * d=3: -3/36 = -1/12 (rows sum to 1/3 - 3/12 - 1/12 = 0). (Checked against
 * 2-point Gauss quadrature by spmv_matrix_check.) Elements of side h scale K
 * by h; we use unit elements, so interior and Dirichlet rows have diagonals
 * of the same order (8/3 and 1).
 *
 * Assembly. Two interior nodes differing in d directions share 2^(3-d) of
 * the 8 elements around each, so the assembled interior stencil is
 * 8/3 (self), 0 (6 face neighbours), -1/6 (12 edge diagonals), -1/12
 * (8 corner diagonals); interior row sums are zero. Surface nodes are
 * Dirichlet: identity rows, and their columns are zeroed in the other rows;
 * the zeros stay stored (as miniFE keeps its structure), so every row has the
 * 27-point stencil clipped at the faces: 8/12/18/27 entries.
 *
 * Row offsets have a closed form (the entry count of a node is a product of
 * per-direction counts 2 or 3), so rows are filled in parallel with no scan. */
#define _DEFAULT_SOURCE /* madvise */
#include <stdlib.h>
#include "minife.h"
#ifdef __linux__
#include <sys/mman.h>
#endif

/* Entries of a node in one direction: itself plus neighbours inside [0, N]. */
static inline int64_t cnt1(int64_t i, int64_t N) { return 1 + (i > 0) + (i < N); }
/* Sum of cnt1 over [0, i), i in [0, N+1]. */
static inline int64_t pre1(int64_t i, int64_t N) {
  return i == 0 ? 0 : i <= N ? 3 * i - 1 : 3 * N + 1;
}

int64_t minife_rows(int N) { return (int64_t)(N + 1) * (N + 1) * (N + 1); }

int64_t minife_row_offset(int N, int64_t r) {
  const int64_t n1 = N + 1, S = 3 * (int64_t)N + 1;
  const int64_t i = r % n1, j = (r / n1) % n1, k = r / (n1 * n1);
  return S * S * pre1(k, N) + cnt1(k, N) * (S * pre1(j, N) + cnt1(j, N) * pre1(i, N));
}

int64_t minife_nnz(int N, int64_t b, int64_t e) {
  return minife_row_offset(N, e) - minife_row_offset(N, b);
}

double csr_bytes(int64_t nrows, int64_t nnz) {
  return (double)(nrows + 1) * sizeof(int64_t) + (double)nnz * (sizeof(int32_t) + sizeof(double));
}

int minife_is_boundary(int N, int64_t r) {
  const int64_t n1 = N + 1, i = r % n1, j = (r / n1) % n1, k = r / (n1 * n1);
  return i == 0 || i == N || j == 0 || j == N || k == 0 || k == N;
}

/* Q1 element stiffness between corners differing in d directions (unit cube). */
static double q1_element(int d) {
  const double S[2] = {1.0, -1.0}, M[2] = {1.0 / 3.0, 1.0 / 6.0};
  double k = 0;
  for (int dir = 0; dir < 3; dir++) { /* directions 0..d-1 differ */
    double t = S[dir < d];
    for (int o = 0; o < 3; o++)
      if (o != dir) t *= M[o < d];
    k += t;
  }
  return k;
}

double minife_stencil_value(int d) { return (double)(1 << (3 - d)) * q1_element(d); }

/* Large arrays on 2 MiB boundaries with transparent huge pages asked for:
 * filling gigabytes is otherwise dominated by 4 KiB page faults in the
 * kernel. Memory from here is released by free(). */
static void *big_alloc(size_t bytes) {
  void *p = NULL;
  const size_t align = (size_t)2 << 20;
  if (bytes < align) return malloc(bytes ? bytes : 1);
  if (posix_memalign(&p, align, bytes) != 0) return NULL;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  madvise(p, (bytes + align - 1) / align * align, MADV_HUGEPAGE); /* a hint; failure is harmless */
#endif
  return p;
}

int minife_matrix(int N, int64_t row_begin, int64_t row_end, csr_matrix *A) {
  A->nrows = A->ncols = A->nnz = 0;
  A->rowptr = NULL, A->col = NULL, A->val = NULL;
  const int64_t n1 = N + 1, plane = n1 * n1, total = minife_rows(N);
  if (N < 1 || N > MINIFE_MAX_N || row_begin < 0 || row_end > total || row_begin > row_end)
    return -1;
  const int64_t nrows = row_end - row_begin, base = minife_row_offset(N, row_begin);
  const int64_t nnz = minife_row_offset(N, row_end) - base;
  A->rowptr = big_alloc((size_t)(nrows + 1) * sizeof *A->rowptr);
  A->col = big_alloc((size_t)nnz * sizeof *A->col);
  A->val = big_alloc((size_t)nnz * sizeof *A->val);
  if (!A->rowptr || !A->col || !A->val) {
    csr_free(A);
    return -1;
  }
  A->nrows = nrows, A->ncols = total, A->nnz = nnz;
  double stencil[4];
  for (int d = 0; d < 4; d++) stencil[d] = minife_stencil_value(d);
  int64_t *PP_RESTRICT rowptr = A->rowptr;
  int32_t *PP_RESTRICT col = A->col;
  double *PP_RESTRICT val = A->val;

  /* Static schedule: each thread first-touches the pages it fills. */
#pragma omp parallel for schedule(static)
  for (int64_t l = 0; l < nrows; l++) {
    const int64_t r = row_begin + l, i = r % n1, j = (r / n1) % n1, k = r / plane;
    const int rb = i == 0 || i == N || j == 0 || j == N || k == 0 || k == N;
    int64_t p = minife_row_offset(N, r) - base;
    rowptr[l] = p;
    /* (dk, dj, di) in lexicographic order: columns come out sorted */
    for (int dk = -1; dk <= 1; dk++) {
      const int64_t kk = k + dk;
      if (kk < 0 || kk > N) continue;
      for (int dj = -1; dj <= 1; dj++) {
        const int64_t jj = j + dj;
        if (jj < 0 || jj > N) continue;
        for (int di = -1; di <= 1; di++) {
          const int64_t ii = i + di;
          if (ii < 0 || ii > N) continue;
          const int cb = ii == 0 || ii == N || jj == 0 || jj == N || kk == 0 || kk == N;
          const int d = (di != 0) + (dj != 0) + (dk != 0);
          col[p] = (int32_t)(ii + n1 * jj + plane * kk);
          val[p] = rb ? (d == 0 ? 1.0 : 0.0) : cb ? 0.0 : stencil[d];
          p++;
        }
      }
    }
  }
  rowptr[nrows] = nnz;
  return 0;
}

void csr_free(csr_matrix *A) {
  free(A->rowptr), free(A->col), free(A->val);
  A->rowptr = NULL, A->col = NULL, A->val = NULL;
  A->nrows = A->ncols = A->nnz = 0;
}
