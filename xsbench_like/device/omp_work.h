/* xsbench_like, omp and ompx: their scratch (device/dev_work.h) in OpenMP
 * device memory, the sort's arrays sized by the caller's sort; with `slots`
 * the checksum slots and material ranges too. */
#ifndef XS_OMP_WORK_H
#define XS_OMP_WORK_H
#include <limits.h>
#include <stdlib.h>
#include "pp/omp_device.h"
#include "dev_work.h"

static inline void xs_omp_work_free(xs_work *w) {
  xs_dev_work *g = (xs_dev_work *)w;
  if (!g) return;
  pp_omp_free(w->energy), pp_omp_free(w->val_alt), pp_omp_free(w->mat), pp_omp_free(w->key), pp_omp_free(w->key_alt);
  pp_omp_free(g->counts), pp_omp_free(g->bsum), pp_omp_free(g->sum), pp_omp_free(g->start);
  pp_omp_free(g->band_count), pp_omp_free(g->hist), pp_omp_free(g->look);
  free(g);
}

/* Scratch for up to n <= XS_OMP_MAX_LOOKUPS lookups, with `counts` and
 * `bsums` of omp's sort (0: none; ompx adds its tile sort's own), and with
 * `slots` the checksum slots, material ranges and band counter (the caller
 * clears the slots and the counter: both only grow; pp_omp_alloc exits 3 when
 * the device has no room). */
#define XS_OMP_MAX_LOOKUPS UINT_MAX /* the sorts' 32-bit offsets */
static inline xs_work *xs_omp_work_new(long long n, size_t counts, size_t bsums, int slots) {
  xs_dev_work *g = calloc(1, sizeof *g);
  if (!g) return NULL;
  const size_t m = (size_t)(n > 0 ? n : 1);
  g->a.energy = pp_omp_alloc(m * sizeof(double)), g->a.val_alt = pp_omp_alloc(m * sizeof(double));
  g->a.mat = pp_omp_alloc(m * sizeof(int));
  g->a.key = pp_omp_alloc(m * sizeof(uint64_t)), g->a.key_alt = pp_omp_alloc(m * sizeof(uint64_t));
  if (counts) g->counts = pp_omp_alloc(counts * sizeof(unsigned)), g->bsum = pp_omp_alloc(bsums * sizeof(unsigned));
  if (slots) {
    g->sum = pp_omp_alloc(XS_SUM_SLOTS * sizeof *g->sum);
    g->start = pp_omp_alloc((XS_MATERIALS + 1) * sizeof *g->start);
    g->band_count = pp_omp_alloc(sizeof *g->band_count);
  }
  return &g->a;
}
#endif
