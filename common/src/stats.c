#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "pp/rng.h"
#include "pp/stats.h"

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Linear interpolation between order statistics of sorted s[0..n-1]. */
static double quantile_sorted(const double *s, int n, double q) {
  double pos = q * (n - 1);
  int lo = (int)floor(pos);
  int hi = lo + 1 < n ? lo + 1 : lo;
  return s[lo] + (pos - lo) * (s[hi] - s[lo]);
}

double pp_median(const double *x, int n) {
  double *s = malloc(sizeof *s * (size_t)n);
  memcpy(s, x, sizeof *s * (size_t)n);
  qsort(s, (size_t)n, sizeof *s, cmp_double);
  double m = quantile_sorted(s, n, 0.5);
  free(s);
  return m;
}

void pp_stats_compute(const double *x, int n, const pp_bootstrap *bs, pp_stats *out) {
  double *s = malloc(sizeof *s * (size_t)n);
  memcpy(s, x, sizeof *s * (size_t)n);
  qsort(s, (size_t)n, sizeof *s, cmp_double);
  double sum = 0;
  for (int i = 0; i < n; i++) sum += s[i];
  double mean = sum / n, ss = 0;
  for (int i = 0; i < n; i++) ss += (s[i] - mean) * (s[i] - mean);
  out->n = n;
  out->min = s[0];
  out->max = s[n - 1];
  out->median = quantile_sorted(s, n, 0.5);
  out->mean = mean;
  out->stddev = n > 1 ? sqrt(ss / (n - 1)) : 0.0;
  out->confidence = bs ? bs->confidence : 0.0;
  out->ci_lo = out->ci_hi = mean;
  if (bs && bs->resamples > 0 && n > 1) {
    /* Percentile bootstrap of the mean: resample with replacement. */
    double *means = malloc(sizeof *means * (size_t)bs->resamples);
    uint64_t state = bs->seed;
    for (int r = 0; r < bs->resamples; r++) {
      double t = 0;
      for (int i = 0; i < n; i++) t += x[pp_splitmix64(&state) % (uint64_t)n];
      means[r] = t / n;
    }
    qsort(means, (size_t)bs->resamples, sizeof *means, cmp_double);
    double tail = (1.0 - bs->confidence) / 2;
    out->ci_lo = quantile_sorted(means, bs->resamples, tail);
    out->ci_hi = quantile_sorted(means, bs->resamples, 1.0 - tail);
    free(means);
  }
  free(s);
}
