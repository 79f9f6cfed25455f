/* host model: OpenMP threads over lookups (XSBench's CPU mapping, dynamic
 * chunks of 100), every primitive, and the history method. */
#include <stdlib.h>
#include "xsbench_like.h"

#define DIGIT_BITS 8

static void release(xs_work *w) {
  if (!w) return;
  free(w->energy), free(w->val_alt), free(w->mat), free(w->key), free(w->key_alt), free(w);
}

static xs_work *prepare(const xs_data *d, long long n) {
  (void)d;
  xs_work *w = calloc(1, sizeof *w);
  const size_t m = (size_t)(n > 0 ? n : 1);
  if (!w) return NULL;
  w->energy = malloc(m * sizeof(double)), w->val_alt = malloc(m * sizeof(double));
  w->mat = malloc(m * sizeof(int));
  w->key = malloc(m * sizeof(uint64_t)), w->key_alt = malloc(m * sizeof(uint64_t));
  if (!w->energy || !w->val_alt || !w->mat || !w->key || !w->key_alt) return release(w), NULL;
  return w;
}

static unsigned long long fused(const xs_data *d, xs_work *w, long long first, long long n) {
  (void)w;
  unsigned long long sum = 0;
#pragma omp parallel for schedule(dynamic, 100) reduction(+ : sum)
  for (long long i = 0; i < n; i++) {
    double e;
    int mat;
    xs_sample(first + i, &e, &mat);
    sum += xs_lookup(d, e, mat);
  }
  return sum;
}

static void sample(xs_work *w, long long first, long long n, int keys) {
#pragma omp parallel for schedule(static)
  for (long long i = 0; i < n; i++) {
    int mat;
    xs_sample(first + i, &w->energy[i], &mat);
    if (keys) w->key[i] = xs_sort_key(mat, w->energy[i]);
    else w->mat[i] = mat;
  }
}

/* Band sampling: lanes of XS_BAND_LANE lookups, each reserving its kept ones. */
static long long sample_band(xs_work *w, long long total, double lo, double hi, long long cap) {
  const long long lanes = xs_band_lanes(total);
  unsigned long long count = 0;
#pragma omp parallel for schedule(static)
  for (long long j = 0; j < lanes; j++) {
    const unsigned long long kept = (unsigned long long)xs_band_lane_count(j, total, lo, hi);
    unsigned long long at;
#pragma omp atomic capture
    { at = count; count += kept; }
    xs_band_lane_write(j, total, lo, hi, (long long)at, cap, w->energy, w->key);
  }
  return (long long)count;
}

static unsigned long long lookups(const xs_data *d, xs_work *w, const double *energy, const int *mat,
                                  long long lo, long long hi, int want) {
  (void)w;
  unsigned long long sum = 0;
#pragma omp parallel for schedule(dynamic, 100) reduction(+ : sum)
  for (long long i = lo; i < hi; i++) {
    const int m = mat ? mat[i] : want;
    if (xs_picked(m, want)) sum += xs_lookup(d, energy[i], m);
  }
  return sum;
}

/* --material-launch single: every sorted lookup, its material from its key. */
static unsigned long long sorted_lookups(const xs_data *d, xs_work *w, const uint64_t *key,
                                         const double *energy, long long n) {
  (void)w;
  unsigned long long sum = 0;
#pragma omp parallel for schedule(dynamic, 100) reduction(+ : sum)
  for (long long i = 0; i < n; i++) sum += xs_lookup(d, energy[i], xs_key_mat(key[i]));
  return sum;
}

/* One stable counting pass of the LSD radix sort, serial. */
static void radix_pass(void *ctx, const uint64_t *k0, const double *v0, uint64_t *k1, double *v1,
                       long long n, int shift, int bits) {
  (void)ctx;
  long long count[(1 << DIGIT_BITS) + 1] = {0};
  for (long long i = 0; i < n; i++) count[xs_radix_digit(k0[i], shift, bits) + 1]++;
  for (int b = 0; b < 1 << bits; b++) count[b + 1] += count[b];
  for (long long i = 0; i < n; i++) {
    const long long to = count[xs_radix_digit(k0[i], shift, bits)]++;
    k1[to] = k0[i], v1[to] = v0[i];
  }
}

static int sort_pairs(xs_work *w, uint64_t *key, double *val, long long n, int lo_bit, int hi_bit) {
  return xs_radix_sort_passes(radix_pass, NULL, key, val, w->key_alt, w->val_alt, n, lo_bit, hi_bit,
                              DIGIT_BITS);
}

static void mat_starts(xs_work *w, const uint64_t *key, long long n, long long start[XS_MATERIALS + 1]) {
  (void)w;
  for (int m = 0; m <= XS_MATERIALS; m++) start[m] = xs_mat_start(key, n, m);
}

static unsigned long long history(const xs_data *d, xs_work *w, long long first, long long n,
                                  long long lookups_per_particle) {
  (void)w;
  unsigned long long sum = 0;
#pragma omp parallel for schedule(dynamic, 100) reduction(+ : sum)
  for (long long i = 0; i < n; i++) sum += xs_history_particle(d, first + i, lookups_per_particle);
  return sum;
}

const xs_kernels *xs_kernels_host(void) {
  static const xs_kernels k = {.prepare = prepare, .release = release, .fused = fused, .sample = sample,
                               .sample_band = sample_band, .sort_pairs = sort_pairs,
                               .mat_starts = mat_starts, .lookups = lookups,
                               .sorted_lookups = sorted_lookups, .history = history,
                               .sort_note = "serial LSD radix sort (8-bit digits)"};
  return &k;
}
