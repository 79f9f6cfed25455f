/* Sample statistics of repeated timings. */
#ifndef PP_STATS_H
#define PP_STATS_H
#include <stdint.h>
#include "pp/portable.h"
PP_EXTERN_C_BEGIN

typedef struct pp_stats {
  int n;
  double min, max, median, mean, stddev; /* stddev: sample (n-1) */
  double ci_lo, ci_hi;  /* bootstrap percentile interval of the mean */
  double confidence;    /* e.g. 0.95 */
} pp_stats;

typedef struct pp_bootstrap {
  int resamples;      /* 0 disables the interval (ci = mean) */
  double confidence;  /* in (0,1) */
  uint64_t seed;      /* fixed, so a run's interval is reproducible */
} pp_bootstrap;

/* Computes the statistics of x[0..n-1] (n >= 1). x is not modified. */
void pp_stats_compute(const double *x, int n, const pp_bootstrap *bs, pp_stats *out);

/* Median of x[0..n-1] (n >= 1); x is not modified. */
double pp_median(const double *x, int n);

PP_EXTERN_C_END
#endif
