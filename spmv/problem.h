/* The spmv app's problem: the miniFE matrix of one size, x, and the host
 * reference y (problem.c). */
#ifndef SPMV_PROBLEM_H
#define SPMV_PROBLEM_H
#include "pp/session.h"
#include "minife.h"

/* Relative L2 error of y allowed. Summation orders differ between models
 * (lanes, shuffle trees), so y differs in the last bits: ~1e-16 relative. */
#define SPMV_TOL 1e-12

typedef struct spmv_problem {
  int N;
  csr_matrix A;     /* host */
  double *x, *yref; /* host */
  double bytes_paper, bytes_min, flops;
} spmv_problem;

/* Exits 2, before anything is allocated, when the N matrix with its vectors
 * does not fit the opened devices or host memory. `vendor`: cuSPARSE or
 * hipSPARSE runs too. */
void spmv_problem_check_fits(pp_session *s, int N, int vendor);
/* Generates the matrix, x and the host reference; records the sizes in the report. */
void spmv_problem_make(pp_session *s, int N, spmv_problem *pb);
void spmv_problem_free(spmv_problem *pb);

#endif
