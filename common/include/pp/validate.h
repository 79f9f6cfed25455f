/* Result checks shared by the apps. Each returns the error measure; the
 * caller compares it with a tolerance it states in the report. */
#ifndef PP_VALIDATE_H
#define PP_VALIDATE_H
#include <stddef.h>
#include "pp/portable.h"
PP_EXTERN_C_BEGIN

/* ||x - ref||_2 / ||ref||_2 (absolute norm when ||ref|| is 0). NaN in x gives NaN. */
double pp_rel_err_l2(const double *x, const double *ref, size_t n);
/* max_i |x_i - ref_i| / max(|ref_i|, floor) */
double pp_max_rel_err(const double *x, const double *ref, size_t n, double floor);
/* Number of i with x[i] != ref[i] (bitwise-equal integers). */
size_t pp_count_mismatch_i(const int *x, const int *ref, size_t n);
/* Fills a[0..n-1] with a value that no correct kernel writes, so unwritten
 * elements are caught (NaN for floating point). */
void pp_poison_d(double *a, size_t n);
/* 1 if err is a number and err <= tol. */
int pp_within(double err, double tol);

PP_EXTERN_C_END
#endif
