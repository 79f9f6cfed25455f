/* xsbench_like: the event variants (XSBench CUDA's -k), composed once from
 * each model's primitives (xsbench_like.h). One call is one simulation, timed
 * as XSBench times it: sampling, any sort, the lookups and the checksum; with
 * w->phases each of those is bracketed for the driver's timer (--phases). */
#include "pp/measure.h"
#include "xsbench_like.h"

static void phase_begin(xs_work *w) {
  if (w->phases) pp_part_begin(w->phases);
}
static void phase_end(xs_work *w, int phase) {
  if (w->phases) pp_part_end(w->phases, phase);
}

/* The split variants: one sampling, then `calls` lookups calls over all the
 * sampled lookups, call c taking those want[c] selects (want NULL: material
 * c). */
static const int pick_all[] = {XS_PICK_ALL};
static const int pick_fuel[] = {XS_PICK_FUEL, XS_PICK_OTHER};

static unsigned long long split(const xs_kernels *k, const xs_data *d, xs_work *w, long long first,
                                long long n, const int *want, int calls) {
  unsigned long long sum = 0;
  phase_begin(w);
  k->sample(w, first, n, 0);
  phase_end(w, XS_PHASE_SAMPLE);
  phase_begin(w);
  for (int c = 0; c < calls; c++)
    sum += k->lookups(d, w, w->energy, w->mat, 0, n, want ? want[c] : c);
  phase_end(w, XS_PHASE_LOOKUPS);
  return sum;
}

/* The sort of n sampled pairs by key bits [lo_bit, 64), the material ranges
 * (a host round trip before the lookups), a lookups call per non-empty range
 * of the pairs where the sort left them: one after another as XSBench launches
 * them, or, with w->ranges_concurrent, at once until ranges_join (the largest
 * range, the fuel's, is material 0 and goes first; the others fill the
 * device beside its last wave); with w->ranges_single, no ranges and one
 * sorted_lookups call over all the pairs, in the same order. */
static unsigned long long sort_and_look(const xs_kernels *k, const xs_data *d, xs_work *w,
                                        long long n, int lo_bit) {
  uint64_t *key = w->key;
  double *energy = w->energy;
  long long start[XS_MATERIALS + 1];
  unsigned long long sum = 0;
  phase_begin(w);
  if (k->sort_pairs(w, key, energy, n, lo_bit, 64)) key = w->key_alt, energy = w->val_alt;
  phase_end(w, XS_PHASE_SORT);
  w->energies_unsorted = lo_bit >= XS_KEY_MAT_SHIFT;
  if (w->ranges_single) { /* the keys hold the materials: no ranges */
    phase_begin(w);
    sum = k->sorted_lookups(d, w, key, energy, n);
    phase_end(w, XS_PHASE_LOOKUPS);
  } else {
    phase_begin(w);
    k->mat_starts(w, key, n, start);
    phase_end(w, XS_PHASE_RANGES);
    phase_begin(w);
    for (int m = 0; m < XS_MATERIALS; m++)
      if (start[m + 1] > start[m]) sum += k->lookups(d, w, energy, NULL, start[m], start[m + 1], m);
    if (w->ranges_concurrent) k->ranges_join(w);
    phase_end(w, XS_PHASE_LOOKUPS);
  }
  w->energies_unsorted = 0;
  return sum;
}
/* Sampling with keys, then the sort and the lookups. */
static unsigned long long sorted(const xs_kernels *k, const xs_data *d, xs_work *w, long long first,
                                 long long n, int lo_bit) {
  phase_begin(w);
  k->sample(w, first, n, 1);
  phase_end(w, XS_PHASE_SAMPLE);
  return sort_and_look(k, d, w, n, lo_bit);
}
static int sort_lo_bit(int v) {
  return v == XS_SORTED_MATERIAL ? XS_KEY_MAT_SHIFT : XS_KEY_ENERGY_LO_BIT;
}

/* The device checksum brought back (models that sum on the device). */
static unsigned long long sum_read(const xs_kernels *k, xs_work *w) {
  if (!k->sum_read) return 0;
  phase_begin(w);
  const unsigned long long s = k->sum_read(w);
  phase_end(w, XS_PHASE_SUM);
  return s;
}

const char *xs_event_absent(const xs_kernels *k, int v) {
  const int sorts = (XS_SORTED_VARIANTS >> v) & 1;
  const int has = v == XS_BASELINE
                      ? k->fused != NULL
                      : k->sample && k->lookups && (!sorts || (k->sort_pairs && k->mat_starts));
  return has ? NULL : k->absent_note ? k->absent_note : "not implemented by this model";
}

unsigned long long xs_event(const xs_kernels *k, const xs_data *d, xs_work *w, int v,
                            long long first, long long n) {
  unsigned long long sum = 0;
  if (n > 0) {
    switch ((xs_variant)v) {
    case XS_BASELINE: /* sampling and lookups in one kernel: one phase */
      phase_begin(w);
      sum = k->fused(d, w, first, n);
      phase_end(w, XS_PHASE_LOOKUPS);
      break;
    case XS_SAMPLING: sum = split(k, d, w, first, n, pick_all, 1); break;
    case XS_MATERIAL: sum = split(k, d, w, first, n, NULL, XS_MATERIALS); break;
    case XS_FUEL: sum = split(k, d, w, first, n, pick_fuel, 2); break;
    case XS_SORTED_MATERIAL:
    case XS_SORTED_ENERGY: sum = sorted(k, d, w, first, n, sort_lo_bit(v)); break;
    case XS_VARIANT_COUNT: break;
    }
  }
  return sum + sum_read(k, w);
}

unsigned long long xs_event_band(const xs_kernels *k, const xs_data *d, xs_work *w, int v,
                                 long long total, double lo, double hi, long long cap,
                                 long long *kept) {
  unsigned long long sum = 0;
  phase_begin(w);
  *kept = total > 0 ? k->sample_band(w, total, lo, hi, cap) : 0;
  phase_end(w, XS_PHASE_SAMPLE);
  const long long n = *kept < cap ? *kept : cap;
  if (n > 0) sum = sort_and_look(k, d, w, n, sort_lo_bit(v));
  return sum + sum_read(k, w);
}
