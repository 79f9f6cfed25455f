#include <math.h>
#include "pp/validate.h"

double pp_rel_err_l2(const double *x, const double *ref, size_t n) {
  double num = 0, den = 0;
  for (size_t i = 0; i < n; i++) {
    double d = x[i] - ref[i];
    num += d * d;
    den += ref[i] * ref[i];
  }
  if (isnan(num)) return NAN;
  return den > 0 ? sqrt(num / den) : sqrt(num);
}

double pp_max_rel_err(const double *x, const double *ref, size_t n, double floor_) {
  double worst = 0;
  for (size_t i = 0; i < n; i++) {
    double den = fabs(ref[i]) > floor_ ? fabs(ref[i]) : floor_;
    double e = fabs(x[i] - ref[i]) / den;
    if (isnan(e)) return NAN;
    if (e > worst) worst = e;
  }
  return worst;
}

size_t pp_count_mismatch_i(const int *x, const int *ref, size_t n) {
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) bad += x[i] != ref[i];
  return bad;
}

void pp_poison_d(double *a, size_t n) {
  for (size_t i = 0; i < n; i++) a[i] = NAN;
}

int pp_within(double err, double tol) { return !isnan(err) && err <= tol; }
