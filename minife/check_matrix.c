/* spmv_matrix_check N [--selftest]: checks the generated miniFE matrix
 * against an independent construction and its expected properties:
 *  - the Q1 element stiffness computed by 2-point Gauss quadrature (exact for
 *    these integrands) equals the closed form used by matrix.c;
 *  - every stored entry equals an element-by-element assembly of that
 *    quadrature matrix with the Dirichlet rows/columns applied, and the
 *    stored structure is exactly the set of node pairs sharing an element;
 *  - nnz = (3N+1)^3, rows with 8/12/18/27 entries counted at corners, edges,
 *    faces and inside, columns strictly increasing;
 *  - symmetry (exact), identity boundary rows, zero row sums of rows whose
 *    neighbours are all interior, weak diagonal dominance;
 *  - row slabs [b, e) (2 and 3 ranks' worth) equal the same rows of the whole.
 * --selftest corrupts copies of the matrix in four ways and passes only if
 * the checks catch every one (so the checks can fail). Exit 0 pass, 1 fail. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "minife.h"

static int verbose = 1;
#define FAIL(...) (verbose ? (printf("FAIL "), printf(__VA_ARGS__), printf("\n")) : 0, ++fails)

/* d/dt and value of the 1D linear shape function l_c (c = 0: 1-t, 1: t). */
static double l1(int c, double t) { return c ? t : 1 - t; }
static double dl1(int c) { return c ? 1 : -1; }

/* Ke[a][b] of the unit cube, corners a = ax + 2 ay + 4 az, by quadrature. */
static void element_by_quadrature(double Ke[8][8]) {
  const double g[2] = {0.5 - 0.5 / sqrt(3.0), 0.5 + 0.5 / sqrt(3.0)}; /* weights 1/2 each */
  for (int a = 0; a < 8; a++)
    for (int b = 0; b < 8; b++) {
      double s = 0;
      for (int q = 0; q < 8; q++) {
        const double x[3] = {g[q & 1], g[(q >> 1) & 1], g[q >> 2]};
        for (int d = 0; d < 3; d++) {
          double ga = dl1((a >> d) & 1), gb = dl1((b >> d) & 1);
          for (int e = 0; e < 3; e++)
            if (e != d) ga *= l1((a >> e) & 1, x[e]), gb *= l1((b >> e) & 1, x[e]);
          s += ga * gb / 8;
        }
      }
      Ke[a][b] = s;
    }
}

/* Reference: 27 slots per row (offset (di,dj,dk) -> slot), assembled element by element. */
typedef struct ref { double *v; unsigned char *present; } ref;

static int slot(int di, int dj, int dk) { return (di + 1) + 3 * (dj + 1) + 9 * (dk + 1); }

static ref assemble(int N, double Ke[8][8]) {
  const int64_t n1 = N + 1, n = minife_rows(N);
  ref R = {calloc((size_t)n * 27, sizeof(double)), calloc((size_t)n * 27, 1)};
  for (int ez = 0; ez < N; ez++)
    for (int ey = 0; ey < N; ey++)
      for (int ex = 0; ex < N; ex++)
        for (int a = 0; a < 8; a++)
          for (int b = 0; b < 8; b++) {
            int da[3] = {a & 1, (a >> 1) & 1, a >> 2}, db[3] = {b & 1, (b >> 1) & 1, b >> 2};
            int64_t ra = (ex + da[0]) + n1 * (ey + da[1]) + n1 * n1 * (ez + da[2]);
            int s = slot(db[0] - da[0], db[1] - da[1], db[2] - da[2]);
            R.v[ra * 27 + s] += Ke[a][b];
            R.present[ra * 27 + s] = 1;
          }
  /* Dirichlet: boundary rows become identity rows, boundary columns zero */
  for (int64_t r = 0; r < n; r++)
    for (int s = 0; s < 27; s++) {
      if (!R.present[r * 27 + s]) continue;
      int64_t c = r + (s % 3 - 1) + n1 * (s / 3 % 3 - 1) + n1 * n1 * (s / 9 - 1);
      if (minife_is_boundary(N, r)) R.v[r * 27 + s] = s == 13 ? 1.0 : 0.0;
      else if (minife_is_boundary(N, c)) R.v[r * 27 + s] = 0.0;
    }
  return R;
}

static int check(int N, const csr_matrix *A, const ref *R) {
  int fails = 0;
  const int64_t n1 = N + 1, n = minife_rows(N);
  const int64_t want_nnz = (3 * (int64_t)N + 1) * (3 * (int64_t)N + 1) * (3 * (int64_t)N + 1);
  if (A->nrows != n || A->ncols != n) FAIL("shape %lld x %lld, want %lld", (long long)A->nrows, (long long)A->ncols, (long long)n);
  if (A->nnz != want_nnz || A->rowptr[n] != want_nnz)
    FAIL("nnz %lld (rowptr end %lld), want (3N+1)^3 = %lld", (long long)A->nnz, (long long)A->rowptr[n], (long long)want_nnz);
  if (fails) return fails;
  int64_t hist[28] = {0};
  for (int64_t r = 0; r < n && fails < 20; r++) {
    const int64_t b = A->rowptr[r], e = A->rowptr[r + 1];
    if (e - b < 1 || e - b > 27) { FAIL("row %lld has %lld entries", (long long)r, (long long)(e - b)); continue; }
    hist[e - b]++;
    int present = 0;
    for (int s = 0; s < 27; s++) present += R->present[r * 27 + s];
    if (present != e - b) FAIL("row %lld stores %lld entries, %d node pairs share an element", (long long)r, (long long)(e - b), present);
    double sum = 0, off = 0, diag = NAN;
    int all_interior = 1;
    for (int64_t k = b; k < e; k++) {
      const int64_t c = A->col[k];
      if (k > b && c <= A->col[k - 1]) FAIL("row %lld: columns not strictly increasing at %lld", (long long)r, (long long)k);
      const int64_t d = c - r;
      int di = (int)((c % n1) - (r % n1)), dj = (int)((c / n1 % n1) - (r / n1 % n1)), dk = (int)((c / (n1 * n1)) - (r / (n1 * n1)));
      if (abs(di) > 1 || abs(dj) > 1 || abs(dk) > 1 || di + n1 * dj + n1 * n1 * dk != d) {
        FAIL("row %lld: column %lld is not a stencil neighbour", (long long)r, (long long)c);
        continue;
      }
      const int s = slot(di, dj, dk);
      if (!R->present[r * 27 + s]) FAIL("row %lld: column %lld shares no element", (long long)r, (long long)c);
      if (fabs(A->val[k] - R->v[r * 27 + s]) > 1e-14)
        FAIL("row %lld col %lld: %.17g, assembled %.17g", (long long)r, (long long)c, A->val[k], R->v[r * 27 + s]);
      /* symmetry: a_cr stored and equal */
      const int32_t *lo = A->col + A->rowptr[c], *hi = A->col + A->rowptr[c + 1];
      while (lo < hi && *lo != r) lo++;
      if (lo == hi) FAIL("a(%lld,%lld) stored, a(%lld,%lld) not", (long long)r, (long long)c, (long long)c, (long long)r);
      else if (A->val[lo - A->col] != A->val[k]) FAIL("a(%lld,%lld) != a(%lld,%lld)", (long long)r, (long long)c, (long long)c, (long long)r);
      sum += A->val[k];
      if (c == r) diag = A->val[k];
      else off += fabs(A->val[k]);
      all_interior &= !minife_is_boundary(N, c);
    }
    if (minife_is_boundary(N, r)) {
      if (!(diag == 1.0 && off == 0.0)) FAIL("boundary row %lld is not an identity row", (long long)r);
    } else {
      if (all_interior && fabs(sum) > 1e-14) FAIL("interior row %lld sums to %.3g, not 0", (long long)r, sum);
      if (!(diag > 0 && diag >= off - 1e-14)) FAIL("row %lld not weakly diagonally dominant", (long long)r);
    }
  }
  const int64_t m = N - 1;
  if (hist[8] != 8 || hist[12] != 12 * m || hist[18] != 6 * m * m || hist[27] != m * m * m)
    FAIL("rows with 8/12/18/27 entries: %lld/%lld/%lld/%lld, want 8/%lld/%lld/%lld", (long long)hist[8],
         (long long)hist[12], (long long)hist[18], (long long)hist[27], (long long)(12 * m), (long long)(6 * m * m), (long long)(m * m * m));
  return fails;
}

/* Slabs of P ranks equal the whole matrix's rows. */
static int check_slabs(int N, const csr_matrix *A, int P) {
  int fails = 0;
  const int64_t n = minife_rows(N);
  for (int p = 0; p < P; p++) {
    const int64_t b = n * p / P, e = n * (p + 1) / P;
    csr_matrix S;
    if (minife_matrix(N, b, e, &S)) { FAIL("slab generation failed"); continue; }
    const int64_t base = A->rowptr[b];
    int bad = S.nrows != e - b || S.nnz != A->rowptr[e] - base || S.nnz != minife_nnz(N, b, e);
    for (int64_t r = 0; !bad && r <= S.nrows; r++) bad |= S.rowptr[r] != A->rowptr[b + r] - base;
    for (int64_t k = 0; !bad && k < S.nnz; k++)
      bad |= S.col[k] != A->col[base + k] || S.val[k] != A->val[base + k];
    if (bad) FAIL("slab %d of %d (rows %lld..%lld) differs from the whole matrix", p, P, (long long)b, (long long)e);
    csr_free(&S);
  }
  return fails;
}

static void copy(csr_matrix *dst, const csr_matrix *src) {
  *dst = *src;
  dst->rowptr = malloc((size_t)(src->nrows + 1) * sizeof(int64_t));
  dst->col = malloc((size_t)src->nnz * sizeof(int32_t));
  dst->val = malloc((size_t)src->nnz * sizeof(double));
  memcpy(dst->rowptr, src->rowptr, (size_t)(src->nrows + 1) * sizeof(int64_t));
  memcpy(dst->col, src->col, (size_t)src->nnz * sizeof(int32_t));
  memcpy(dst->val, src->val, (size_t)src->nnz * sizeof(double));
}

int main(int argc, char **argv) {
  int N = argc > 1 ? atoi(argv[1]) : 0, selftest = argc > 2 && !strcmp(argv[2], "--selftest");
  if (N < 2 || N > 40) {
    fprintf(stderr, "usage: spmv_matrix_check N [--selftest]   (2 <= N <= 40)\n");
    return 2;
  }
  int fails = 0;
  double Ke[8][8];
  element_by_quadrature(Ke);
  for (int a = 0; a < 8; a++)
    for (int b = 0; b < 8; b++) {
      int d = __builtin_popcount((unsigned)(a ^ b));
      /* the assembled stencil is 2^(3-d) times the element value */
      double closed = minife_stencil_value(d) / (double)(1 << (3 - d));
      if (fabs(Ke[a][b] - closed) > 1e-15) FAIL("Ke[%d][%d] = %.17g by quadrature, %.17g closed form", a, b, Ke[a][b], closed);
    }
  printf("Q1 element stiffness (quadrature): self %.15g, face-adjacent %.3g, face-diagonal %.15g, "
         "body-diagonal %.15g\n", Ke[0][0], Ke[0][1], Ke[0][3], Ke[0][7]);
  printf("assembled interior stencil: %.15g %.3g %.15g %.15g\n", minife_stencil_value(0),
         minife_stencil_value(1), minife_stencil_value(2), minife_stencil_value(3));

  csr_matrix A;
  if (minife_matrix(N, 0, minife_rows(N), &A)) { printf("FAIL generation\n"); return 1; }
  ref R = assemble(N, Ke);
  fails += check(N, &A, &R);
  fails += check_slabs(N, &A, 2);
  fails += check_slabs(N, &A, 3);
  printf("N=%d: %lld rows, %lld entries: %s\n", N, (long long)A.nrows, (long long)A.nnz, fails ? "FAIL" : "PASS");

  if (selftest && !fails) {
    /* Each corruption must be caught. */
    const int64_t n1 = N + 1, mid = (N / 2) + n1 * (N / 2) + n1 * n1 * (N / 2); /* an interior node */
    const int64_t inner = 1 + n1 + n1 * n1;                                        /* next to a corner */
    const char *names[4] = {"interior value off by 1e-10", "two columns swapped",
                            "boundary row off-diagonal nonzero", "Dirichlet column not zeroed"};
    int caught = 0;
    verbose = 0;
    for (int t = 0; t < 4; t++) {
      csr_matrix B;
      copy(&B, &A);
      if (t == 0) B.val[B.rowptr[mid] + 1] += 1e-10;
      if (t == 1) { int32_t c = B.col[B.rowptr[mid]]; B.col[B.rowptr[mid]] = B.col[B.rowptr[mid] + 1]; B.col[B.rowptr[mid] + 1] = c; }
      if (t == 2) B.val[B.rowptr[0] + 1] = -1.0 / 12;
      if (t == 3) B.val[B.rowptr[inner]] = minife_stencil_value(3); /* its corner neighbour (0,0,0) */
      int f = check(N, &B, &R);
      printf("selftest: %-36s %s\n", names[t], f ? "caught" : "NOT CAUGHT");
      caught += f > 0;
      csr_free(&B);
    }
    if (caught != 4) fails++;
  }
  csr_free(&A);
  free(R.v), free(R.present);
  return fails ? 1 : 0;
}
