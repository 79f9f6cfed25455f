/* The miniFE operator applied matrix-free, for validation only. It shares no
 * code and no tables with the CSR generator (minife/matrix.c) or the SpMV
 * kernels: the element stiffness comes from the trilinear shape functions'
 * gradients integrated by 2x2x2-point Gauss quadrature (exact for these
 * degree-2 integrands), and A x is summed element by element.
 *
 * Convention (as the generator's, read from minife/matrix.c): node (i,j,k) of
 * the N^3 cube of unit hexahedra is row i + (N+1)(j + (N+1)k); surface nodes
 * are Dirichlet: their rows are the identity and their columns are absent
 * from every other row. So (A x)_i = x_i on the surface, and inside it is the
 * assembled stiffness applied to x with the surface values taken as zero. */
#include <math.h>
#include "problem.h"

/* 1D linear shape function of end c (0 or 1) at t in [0,1], and its derivative. */
static double shape1(int c, double t) { return c ? t : 1.0 - t; }
static double dshape1(int c) { return c ? 1.0 : -1.0; }

void q1_operator_init(q1_operator *op, int N) {
  const double h = 1.0; /* element side: unit elements */
  const double g[2] = {0.5 - 0.5 / sqrt(3.0), 0.5 + 0.5 / sqrt(3.0)}; /* Gauss points on [0,1] */
  const double w = h * h * h / 8.0;                                 /* weight x det J */
  op->N = N;
  for (int a = 0; a < 8; a++)
    for (int b = 0; b < 8; b++) op->Ke[a][b] = 0;
  for (int q = 0; q < 8; q++) {
    const double t[3] = {g[q & 1], g[(q >> 1) & 1], g[(q >> 2) & 1]};
    double grad[8][3];
    for (int a = 0; a < 8; a++) {
      const int c[3] = {a & 1, (a >> 1) & 1, (a >> 2) & 1};
      for (int d = 0; d < 3; d++) { /* d/dx_d of prod_e shape1(c_e, t_e), x = h t */
        double v = dshape1(c[d]) / h;
        for (int e = 0; e < 3; e++)
          if (e != d) v *= shape1(c[e], t[e]);
        grad[a][d] = v;
      }
    }
    for (int a = 0; a < 8; a++)
      for (int b = 0; b < 8; b++)
        op->Ke[a][b] += w * (grad[a][0] * grad[b][0] + grad[a][1] * grad[b][1] + grad[a][2] * grad[b][2]);
  }
}

void q1_apply(const q1_operator *op, int64_t row_begin, int64_t row_end, const double *xg,
              double *y) {
  const int64_t N = op->N, n1 = N + 1, plane = n1 * n1, base = row_begin - plane;
#pragma omp parallel for schedule(static)
  for (int64_t g = row_begin; g < row_end; g++) {
    const int64_t i = g % n1, j = (g / n1) % n1, k = g / plane;
    if (i == 0 || i == N || j == 0 || j == N || k == 0 || k == N) {
      y[g - row_begin] = xg[g - base];
      continue;
    }
    /* The 8 elements around an interior node; the node is corner `a` of the
     * element whose lowest corner is (i - 1 + ex, j - 1 + ey, k - 1 + ez). */
    double s = 0;
    for (int e = 0; e < 8; e++) {
      const int ex = e & 1, ey = (e >> 1) & 1, ez = (e >> 2) & 1;
      const int a = (1 - ex) + 2 * (1 - ey) + 4 * (1 - ez);
      const int64_t x0 = i - 1 + ex, y0 = j - 1 + ey, z0 = k - 1 + ez;
      for (int c = 0; c < 8; c++) {
        const int64_t xi = x0 + (c & 1), yj = y0 + ((c >> 1) & 1), zk = z0 + ((c >> 2) & 1);
        if (xi == 0 || xi == N || yj == 0 || yj == N || zk == 0 || zk == N) continue; /* Dirichlet */
        s += op->Ke[a][c] * xg[xi + n1 * yj + plane * zk - base];
      }
    }
    y[g - row_begin] = s;
  }
}

/* The interior block of A is the Q1 stiffness on the tensor-product space of
 * 1D hat functions on nodes 1..N-1 (h = 1): K = K1(x)M1(x)M1 + M1(x)K1(x)M1
 * + M1(x)M1(x)K1 with K1 = tridiag(-1, 2, -1), M1 = tridiag(1/6, 2/3, 1/6).
 * K1 and M1 share the eigenvectors sin(j pi i / N), with eigenvalues
 * k = 2 - 2c and m = (2 + c) / 3 for c = cos(j pi / N), j = 1..N-1. So the
 * eigenvalues of K are k1 m2 m3 + m1 k2 m3 + m1 m2 k3, a multilinear function
 * of (c1, c2, c3): its extremes over the box [-c0, c0]^3 (c0 = cos(pi/N)) lie
 * at corners, and the corners are eigenvalues themselves. The surface rows
 * add the eigenvalue 1. */
double q1_lambda_min(int N) {
  if (N < 2) return 1.0; /* no interior node */
  const double c0 = cos(acos(-1.0) / N);
  double lmin = 1.0;
  for (int v = 0; v < 8; v++) {
    double k[3], m[3];
    for (int d = 0; d < 3; d++) {
      const double c = (v >> d) & 1 ? c0 : -c0;
      k[d] = 2 - 2 * c, m[d] = (2 + c) / 3;
    }
    const double l = k[0] * m[1] * m[2] + m[0] * k[1] * m[2] + m[0] * m[1] * k[2];
    if (l < lmin) lmin = l;
  }
  return lmin;
}

/* Gershgorin: an interior row is the sum over its 8 elements of one row of
 * Ke, so its absolute row sum is at most 8 max_a sum_c |Ke[a][c]|. This
 * overestimates lambda_max (16/3 against about 4), which only loosens the
 * convergence bound. */
double q1_lambda_max_bound(const q1_operator *op) {
  double worst = 0;
  for (int a = 0; a < 8; a++) {
    double s = 0;
    for (int c = 0; c < 8; c++) s += fabs(op->Ke[a][c]);
    if (s > worst) worst = s;
  }
  return 8 * worst > 1 ? 8 * worst : 1;
}
