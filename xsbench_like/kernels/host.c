/* host model: OpenMP threads over lookups (XSBench's CPU mapping, dynamic
 * chunks of 100), every event variant, and the history method. */
#include <stdlib.h>
#include <string.h>
#include "xsbench_like.h"

typedef struct work {
  long long cap;
  double *energy, *val_alt;
  int *mat;
  uint64_t *key, *key_alt;
} work;

static void *prepare(const xs_data *d, long long n) {
  (void)d;
  work *w = calloc(1, sizeof *w);
  size_t m = (size_t)(n > 0 ? n : 1);
  if (!w) return NULL;
  w->cap = n;
  w->energy = malloc(m * sizeof(double)), w->val_alt = malloc(m * sizeof(double));
  w->mat = malloc(m * sizeof(int));
  w->key = malloc(m * sizeof(uint64_t)), w->key_alt = malloc(m * sizeof(uint64_t));
  if (!w->energy || !w->val_alt || !w->mat || !w->key || !w->key_alt) {
    free(w->energy), free(w->val_alt), free(w->mat), free(w->key), free(w->key_alt), free(w);
    return NULL;
  }
  return w;
}

static void release(void *p) {
  work *w = p;
  if (!w) return;
  free(w->energy), free(w->val_alt), free(w->mat), free(w->key), free(w->key_alt), free(w);
}

static unsigned long long baseline(const xs_data *d, void *p, long long first, long long n) {
  (void)p;
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

static void sample(work *w, long long first, long long n) {
#pragma omp parallel for schedule(static)
  for (long long i = 0; i < n; i++) xs_sample(first + i, &w->energy[i], &w->mat[i]);
}

/* Lookups i in [lo, hi) whose material is selected: mat == m (m >= 0), any
 * (m == -1), non-fuel (m == -2). */
static unsigned long long lookups(const xs_data *d, const work *w, long long lo, long long hi, int m) {
  unsigned long long sum = 0;
#pragma omp parallel for schedule(dynamic, 100) reduction(+ : sum)
  for (long long i = lo; i < hi; i++) {
    const int mat = w->mat[i];
    if (m == -1 || mat == m || (m == -2 && !xs_is_fuel(mat))) sum += xs_lookup(d, w->energy[i], mat);
  }
  return sum;
}

static unsigned long long sampling(const xs_data *d, void *p, long long first, long long n) {
  sample(p, first, n);
  return lookups(d, p, 0, n, -1);
}

static unsigned long long material(const xs_data *d, void *p, long long first, long long n) {
  sample(p, first, n);
  unsigned long long sum = 0;
  for (int m = 0; m < XS_MATERIALS; m++) sum += lookups(d, p, 0, n, m);
  return sum;
}

static unsigned long long fuel(const xs_data *d, void *p, long long first, long long n) {
  sample(p, first, n);
  return lookups(d, p, 0, n, 0) + lookups(d, p, 0, n, -2);
}

/* LSD radix sort, 8-bit digits over key bits [lo_bit, hi_bit), stable. */
static void sort_pairs(void *p, uint64_t *key, double *val, long long n, int lo_bit, int hi_bit) {
  work *w = p;
  uint64_t *k0 = key, *k1 = w->key_alt;
  double *v0 = val, *v1 = w->val_alt;
  for (int shift = lo_bit; shift < hi_bit; shift += 8) {
    const int bits = hi_bit - shift < 8 ? hi_bit - shift : 8;
    long long count[257] = {0};
    for (long long i = 0; i < n; i++) count[xs_radix_digit(k0[i], shift, bits) + 1]++;
    for (int b = 0; b < 256; b++) count[b + 1] += count[b];
    for (long long i = 0; i < n; i++) {
      long long to = count[xs_radix_digit(k0[i], shift, bits)]++;
      k1[to] = k0[i], v1[to] = v0[i];
    }
    uint64_t *tk = k0; k0 = k1; k1 = tk;
    double *tv = v0; v0 = v1; v1 = tv;
  }
  if (k0 != key) {
    memcpy(key, k0, (size_t)n * sizeof *key);
    memcpy(val, v0, (size_t)n * sizeof *val);
  }
}

/* Sample, sort by key bits [lo_bit, 64), then one pass per material range. */
static unsigned long long sorted(const xs_data *d, work *w, long long first, long long n, int lo_bit) {
  sample(w, first, n);
#pragma omp parallel for schedule(static)
  for (long long i = 0; i < n; i++) w->key[i] = xs_sort_key(w->mat[i], w->energy[i]);
  sort_pairs(w, w->key, w->energy, n, lo_bit, 64);
  long long start[XS_MATERIALS + 1] = {0};
  for (long long i = 0; i < n; i++) start[xs_key_mat(w->key[i]) + 1]++;
  for (int m = 0; m < XS_MATERIALS; m++) start[m + 1] += start[m];
  unsigned long long sum = 0;
  for (int m = 0; m < XS_MATERIALS; m++) {
    const long long lo = start[m], hi = start[m + 1];
#pragma omp parallel for schedule(dynamic, 100) reduction(+ : sum)
    for (long long i = lo; i < hi; i++) sum += xs_lookup(d, w->energy[i], xs_key_mat(w->key[i]));
  }
  return sum;
}

static unsigned long long sorted_material(const xs_data *d, void *p, long long first, long long n) {
  return sorted(d, p, first, n, XS_KEY_MAT_SHIFT);
}
static unsigned long long sorted_energy(const xs_data *d, void *p, long long first, long long n) {
  return sorted(d, p, first, n, XS_KEY_ENERGY_LO_BIT);
}

static unsigned long long history(const xs_data *d, void *p, long long first, long long n,
                                  long long lookups_per_particle) {
  (void)p;
  unsigned long long sum = 0;
#pragma omp parallel for schedule(dynamic, 100) reduction(+ : sum)
  for (long long i = 0; i < n; i++) sum += xs_history_particle(d, first + i, lookups_per_particle);
  return sum;
}

const xs_kernels *xs_kernels_host(void) {
  static const xs_kernels k = {
      prepare, release,
      {baseline, sampling, material, fuel, sorted_material, sorted_energy},
      sort_pairs, history,
      {NULL, NULL, NULL, NULL, "serial LSD radix sort (8-bit digits)", "serial LSD radix sort (8-bit digits)"}, NULL};
  return &k;
}
