/* host model: OpenMP threads over lookups (XSBench's CPU mapping, dynamic
 * chunks of 100), the primitives of every event variant, and the history
 * method. Each lookup pass reduces its checksum to work.host_sum. */
#include <stdint.h>
#include "xsbench_like.h"

#define DIGIT_BITS 8

static void sample_lookup(const xs_data *d, xs_work *w, long long first, long long n) {
  unsigned long long sum = 0;
#pragma omp parallel for schedule(dynamic, 100) reduction(+ : sum)
  for (long long i = 0; i < n; i++) {
    double e;
    int mat;
    xs_sample(first + i, &e, &mat);
    sum += xs_lookup(d, e, mat);
  }
  w->host_sum += sum;
}

static void sample(xs_work *w, long long first, long long n, int keyed) {
  double *energy = w->energy;
  int *mat = w->mat;
  uint64_t *key = w->key;
#pragma omp parallel for schedule(static)
  for (long long i = 0; i < n; i++) {
    int m;
    xs_sample(first + i, &energy[i], &m);
    if (keyed) key[i] = xs_sort_key(m, energy[i]);
    else mat[i] = m;
  }
}

static void lookups(const xs_data *d, xs_work *w, const double *energy, const int *mat, long long lo,
                    long long hi, int want) {
  unsigned long long sum = 0;
#pragma omp parallel for schedule(dynamic, 100) reduction(+ : sum)
  for (long long i = lo; i < hi; i++) {
    const int m = mat ? mat[i] : want;
    if (xs_picked(m, want)) sum += xs_lookup(d, energy[i], m);
  }
  w->host_sum += sum;
}

/* One stable counting pass of the LSD radix sort, serial. */
static void radix_pass(xs_work *w, const uint64_t *k0, const double *v0, uint64_t *k1, double *v1,
                       long long n, int shift, int bits) {
  (void)w;
  long long count[(1 << DIGIT_BITS) + 1] = {0};
  for (long long i = 0; i < n; i++) count[xs_radix_digit(k0[i], shift, bits) + 1]++;
  for (int b = 0; b < 1 << DIGIT_BITS; b++) count[b + 1] += count[b];
  for (long long i = 0; i < n; i++) {
    const long long to = count[xs_radix_digit(k0[i], shift, bits)]++;
    k1[to] = k0[i], v1[to] = v0[i];
  }
}

static int sort_pairs(xs_work *w, uint64_t *key, double *val, long long n, int lo_bit, int hi_bit) {
  return xs_radix_sort_passes(radix_pass, w, key, val, n, lo_bit, hi_bit, DIGIT_BITS);
}

static void mat_ranges(xs_work *w, const uint64_t *key, long long n, long long start[XS_MATERIALS + 1]) {
  (void)w;
  for (int m = 0; m <= XS_MATERIALS; m++) start[m] = xs_mat_start(key, n, m);
}

static unsigned long long history(const xs_data *d, long long first, long long n,
                                  long long lookups_per_particle) {
  unsigned long long sum = 0;
#pragma omp parallel for schedule(dynamic, 100) reduction(+ : sum)
  for (long long i = 0; i < n; i++) sum += xs_history_particle(d, first + i, lookups_per_particle);
  return sum;
}

const xs_kernels *xs_kernels_host(void) {
  static const xs_kernels k = {
      .max_lookups = INT64_MAX,
      .sample_lookup = sample_lookup,
      .sample = sample,
      .lookups = lookups,
      .sort_pairs = sort_pairs,
      .mat_ranges = mat_ranges,
      .history = history,
      .sort_note = "serial LSD radix sort (8-bit digits)",
  };
  return &k;
}
