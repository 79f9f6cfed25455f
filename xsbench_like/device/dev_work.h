/* xsbench_like: the scratch of the device models (omp, ompx, cuda, hip), in
 * device memory: the work arrays variants.c composes over, the radix sorts'
 * (omp's digit counts and scan-block sums; the tile sort's digit counts, tile
 * counters and status words, device/sort_tiles.h), and where the
 * kernel-level models keep the checksum and the material ranges (omp reduces
 * and maps instead: NULL). */
#ifndef XS_DEV_WORK_H
#define XS_DEV_WORK_H
#include "xsbench_like.h"

/* Sorted ranges whose lookups wait for one launch (ompx's concurrent launch):
 * range r is [lo[r], hi[r]) of material want[r], its teams from team[r]. */
typedef struct xs_range_queue {
  const xs_data *d;
  const double *energy;
  int n;
  int want[XS_MATERIALS];
  long long lo[XS_MATERIALS], hi[XS_MATERIALS], team[XS_MATERIALS + 1];
} xs_range_queue;

typedef struct xs_dev_work {
  xs_work a;               /* first: the xs_work * the kernel table passes */
  unsigned *counts, *bsum; /* omp's sort: digit counts, their scan blocks' sums (else NULL) */
  unsigned *hist;          /* tile sort: [XS_TILE_HIST_WORDS] digit counts and tile counters */
  unsigned long long *look; /* tile sort: [XS_TILE_LOOKS(look_n)] status words */
  long long look_n;        /* the keys the status words were sized for */
  unsigned long long epoch; /* tile sort: the last pass's epoch (host) */
  int tile_pass;           /* tile sort: the pass of the sort under way (host) */
  unsigned long long *sum; /* [XS_SUM_SLOTS] the device checksum, in slots, only growing */
  unsigned long long sum_seen; /* what the slots held at the last sum_read (host) */
  long long *start;        /* [XS_MATERIALS + 1] material ranges after a sort */
  unsigned long long *band_count; /* band sampling's reservations, only growing (cuda, hip, ompx) */
  unsigned long long band_seen;   /* what it held after the last band sampling (host) */
  xs_range_queue queued;   /* ompx: sorted ranges waiting for ranges_join (host) */
  int unsorted_blocks;     /* GPU models: blocks of the model's TPB for lookups in random energy order
                              (a 1/XS_UNSORTED_WARP_SHARE of the resident warps); 0: uncapped */
} xs_dev_work;

/* A simulation's checksum from the slots brought back: what they gained
 * since the last read (exact: unsigned sums wrap modulo 2^64 alike), so the
 * slots are cleared once, by prepare, not by a launch per simulation. */
static inline unsigned long long xs_sum_gained(xs_dev_work *g, const unsigned long long slot[XS_SUM_SLOTS]) {
  unsigned long long s = 0;
  for (int i = 0; i < XS_SUM_SLOTS; i++) s += slot[i];
  const unsigned long long gained = s - g->sum_seen;
  g->sum_seen = s;
  return gained;
}
#endif
