/* xsbench_like's event variants (XSBench CUDA's -k), composed once here from
 * a model's primitives, so every model runs the same steps in the same
 * order: on a GPU each step is the kernel launch(es) the model file maps it
 * to, and only the checksum and the sorted variants' material ranges come
 * back to the host within a simulation. */
#include <stdio.h>
#include <stdlib.h>
#include "pp/fault.h"
#include "pp/kernel.h"
#include "pp/mpi.h"
#include "pp/timer.h"
#include "xs_variants.h"

#define SORT_CHECK_KEYS 100003

void xs_work_alloc(xs_work *w, const pp_device_ops *o, const xs_kernels *k, long long n) {
  const size_t m = (size_t)(n > 0 ? n : 1);
  *w = (xs_work){0};
  w->energy = o->alloc(m * sizeof *w->energy), w->energy_alt = o->alloc(m * sizeof *w->energy_alt);
  w->mat = o->alloc(m * sizeof *w->mat);
  w->key = o->alloc(m * sizeof *w->key), w->key_alt = o->alloc(m * sizeof *w->key_alt);
  if (k->sort_counts) {
    const size_t counts = (size_t)k->sort_counts((long long)m);
    w->counts = o->alloc(counts * sizeof *w->counts);
    w->bsum = o->alloc((counts + XS_SCAN_BLOCK - 1) / XS_SCAN_BLOCK * sizeof *w->bsum);
  }
  w->sum = o->alloc(XS_SUM_SLOTS * sizeof *w->sum);
  w->start = o->alloc((XS_MATERIALS + 1) * sizeof *w->start);
}

void xs_work_free(xs_work *w, const pp_device_ops *o) {
  void *all[] = {w->energy, w->energy_alt, w->mat, w->key, w->key_alt, w->counts,
                 w->bsum,   w->sum,        w->start, w->vendor};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++)
    if (all[i]) o->free(all[i]);
  *w = (xs_work){0};
}

/* -k 1, 2, 3: lookups of the sampled (energy, material) pairs in one pass,
 * a pass per material, or a fuel and a non-fuel pass. */
static void split_lookups(const xs_kernels *k, const xs_data *d, xs_work *w, int v, long long n) {
  if (v == XS_SAMPLING) {
    k->lookups(d, w, w->energy, w->mat, 0, n, XS_PICK_ALL);
  } else if (v == XS_MATERIAL) {
    for (int m = 0; m < XS_MATERIALS; m++) k->lookups(d, w, w->energy, w->mat, 0, n, m);
  } else {
    k->lookups(d, w, w->energy, w->mat, 0, n, XS_PICK_FUEL);
    k->lookups(d, w, w->energy, w->mat, 0, n, XS_PICK_OTHER);
  }
}

/* -k 4, 6: sample with keys, sort by key bits [lo_bit, 64), then a pass per
 * material range of the sorted pairs. */
static void sorted_lookups(const xs_kernels *k, const xs_data *d, xs_work *w, long long first,
                           long long n, int lo_bit) {
  k->sample(w, first, n, 1);
  const int alt = k->sort_pairs(w, w->key, w->energy, n, lo_bit, 64);
  const uint64_t *key = alt ? w->key_alt : w->key;
  const double *energy = alt ? w->energy_alt : w->energy;
  long long start[XS_MATERIALS + 1];
  k->mat_ranges(w, key, n, start);
  for (int m = 0; m < XS_MATERIALS; m++) k->lookups(d, w, energy, NULL, start[m], start[m + 1], m);
}

unsigned long long xs_event(const xs_kernels *k, const xs_data *d, xs_work *w, int v, long long first,
                            long long n) {
  if (k->sum_zero) k->sum_zero(w);
  else w->host_sum = 0;
  if (v == XS_BASELINE) {
    k->sample_lookup(d, w, first, n);
  } else if ((1u << v) & XS_SORTED_VARIANTS) {
    sorted_lookups(k, d, w, first, n, v == XS_SORTED_MATERIAL ? XS_KEY_MAT_SHIFT : XS_KEY_ENERGY_LO_BIT);
  } else {
    k->sample(w, first, n, 0);
    split_lookups(k, d, w, v, n);
  }
  return k->sum_read ? k->sum_read(w) : w->host_sum;
}

/* Keys and values of the first n lookups into the work, from the host. */
static void sort_input(const pp_device_ops *o, xs_work *w, uint64_t *key, double *val, long long n) {
  for (long long i = 0; i < n; i++) {
    int mat;
    xs_sample(i, &val[i], &mat);
    key[i] = xs_sort_key(mat, val[i]);
  }
  o->to_device(w->key, key, (size_t)n * sizeof *key);
  o->to_device(w->energy, val, (size_t)n * sizeof *val);
}

int xs_check_sort(pp_model m, const pp_device_ops *o, const xs_kernels *k, xs_work *w, long long n,
                  int all, char *why, size_t len) {
  if (n > SORT_CHECK_KEYS && !all) n = SORT_CHECK_KEYS;
  const size_t bytes = (size_t)n * 8;
  uint64_t *key = pp_host_alloc("xsbench_like", bytes, "the sort check's keys");
  uint64_t *ref = pp_host_alloc("xsbench_like", bytes, "the sort check's keys");
  double *val = pp_host_alloc("xsbench_like", bytes, "the sort check's values");
  sort_input(o, w, ref, val, n);
  double secs = 0;
  if (all) { /* --sort-check: an untimed run, the input again, a timed run */
    k->sort_pairs(w, w->key, w->energy, n, XS_KEY_ENERGY_LO_BIT, 64);
    sort_input(o, w, ref, val, n);
    o->sync();
    secs = pp_wtime();
  }
  const int alt = k->sort_pairs(w, w->key, w->energy, n, XS_KEY_ENERGY_LO_BIT, 64);
  if (all) o->sync(), secs = pp_wtime() - secs;
  o->to_host(key, alt ? w->key_alt : w->key, bytes);
  o->to_host(val, alt ? w->energy_alt : w->energy, bytes);
  if (pp_fault("xs-sort") && n > 1) { double t = val[0]; val[0] = val[n - 1]; val[n - 1] = t; }
  /* order, each value still with its key, and the same keys (by their sum) */
  int ok = 1;
  unsigned long long in_sum = 0, out_sum = 0;
  for (long long i = 0; i < n; i++) {
    in_sum += ref[i], out_sum += key[i];
    if (i && key[i] >> XS_KEY_ENERGY_LO_BIT < key[i - 1] >> XS_KEY_ENERGY_LO_BIT) ok = 0;
    if (xs_sort_key(xs_key_mat(key[i]), val[i]) != key[i]) ok = 0;
  }
  if (in_sum != out_sum) ok = 0;
  snprintf(why, len, "sort of %lld keys %s", n, ok ? "ok" : "WRONG");
  if (all && pp_mpi_rank() == 0)
    printf("%s sort alone: %lld keys, bits [%d, 64), %.3f ms (host wall clock), %s\n",
           pp_model_name(m), n, XS_KEY_ENERGY_LO_BIT, secs * 1e3, ok ? "ok" : "WRONG");
  free(key), free(ref), free(val);
  return ok;
}
