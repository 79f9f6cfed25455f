/* xsbench_like: the band sampler of cuda, hip and ompx (--split energy), one
 * block's work. A block takes XS_BAND_TPB * XS_BAND_LANE consecutive lookups,
 * a warp of them XS_TILE_WARP * XS_BAND_LANE, lane t those t, t + warp, ...
 * (xs_band_lane_at with the warp's stride), so that a step's lanes hold
 * consecutive lookups:
 *   1. a count pass over the lane's lookups in [lo, hi);
 *   2. the warps' counts summed, scanned by thread 0 and reserved by one
 *      atomic add on `count`, a counter that only grows: the block's places
 *      start at what it returns minus `seen`, what it held before this launch
 *      (so nothing is cleared between launches);
 *   3. a write pass from the lane's same start: each step's kept states queue
 *      in the warp's ring in shared memory in lane order (a ballot's prefix),
 *      and whenever a warp's worth is queued every lane draws the material of
 *      one and writes it (xs_band_put), so a lookup outside the band costs its
 *      warp no material draw and the warp writes a warp's width of consecutive
 *      places at once; the ring's rest is written at the end.
 * The includer defines, before including, those of device/sort_tiles.h it
 * uses (XS_TILE_FN, XS_TILE_WARP, XS_TILE_SYNC, XS_TILE_BALLOT, XS_TILE_POPC)
 * and:
 *   XS_BAND_WARP_SUM(v)   the sum of the int v over the warp's lanes, in lane 0
 *                         at least (all lanes call it together);
 *   XS_BAND_WARP_SYNC()   a barrier of the warp's lanes ordering their
 *                         shared-memory accesses;
 *   XS_BAND_RESERVE(p, v) atomic add of v to the device-memory unsigned long
 *                         long *p, returning the old value.
 * OpenMP device code must include it inside begin/end declare target. */
#ifndef XS_SAMPLE_BAND_H
#define XS_SAMPLE_BAND_H
#include "xsbench_like.h"

#define XS_BAND_TPB 256 /* threads of a block */
#define XS_BAND_PER_BLOCK ((long long)XS_BAND_TPB * XS_BAND_LANE)
#define XS_BAND_MAX_WARPS (XS_BAND_TPB / 32)
#define XS_BAND_RING (2 * XS_TILE_WARP) /* fewer than a warp's width wait, at most that many join */
/* shared memory: the warps' places, then each warp's ring */
#define XS_BAND_SHMEM ((XS_BAND_MAX_WARPS + 2 * XS_BAND_TPB) * 8)
#define XS_BAND_BLOCKS(total) (((total) + XS_BAND_PER_BLOCK - 1) / XS_BAND_PER_BLOCK)

/* Block `block` of a launch of XS_BAND_BLOCKS(total) blocks, thread t; sh:
 * XS_BAND_SHMEM bytes, 8-byte aligned. */
XS_TILE_FN void xs_band_block(long long total, double lo, double hi, long long cap, double *energy,
                              uint64_t *key, unsigned long long *count, unsigned long long seen,
                              long long block, int t, unsigned long long *sh) {
  const int warps = XS_BAND_TPB / XS_TILE_WARP, w = t / XS_TILE_WARP, lane = t % XS_TILE_WARP;
  unsigned long long *place = sh;
  uint64_t *q = (uint64_t *)(sh + XS_BAND_MAX_WARPS) + w * XS_BAND_RING;
  const long long first = block * XS_BAND_PER_BLOCK + (long long)w * XS_TILE_WARP * XS_BAND_LANE + lane;
  /* the lane's steps below total, counted before the loops: LLVM 19's OpenMPOpt
     hoisted a per-step l.i < total to the first step (docs/performance.md) */
  const long long left = first >= total ? 0 : (total - first + XS_TILE_WARP - 1) / XS_TILE_WARP;
  const int steps = left < XS_BAND_LANE ? (int)left : XS_BAND_LANE;
  const xs_band_lane start = xs_band_lane_at(first, XS_TILE_WARP);
  xs_band_lane l = start;
  int kept = 0;
  for (int k = 0; k < XS_BAND_LANE; k++, xs_band_next(&l)) kept += k < steps && xs_in_band(xs_band_energy(&l), lo, hi);
  kept = XS_BAND_WARP_SUM(kept);
  if (lane == 0) place[w] = (unsigned long long)kept;
  XS_TILE_SYNC();
  if (t == 0) {
    unsigned long long run = 0;
    for (int i = 0; i < warps; i++) {
      const unsigned long long c = place[i];
      place[i] = run, run += c;
    }
    const unsigned long long base = XS_BAND_RESERVE(count, run) - seen;
    for (int i = 0; i < warps; i++) place[i] += base;
  }
  XS_TILE_SYNC();
  unsigned long long at = place[w];
  const uint64_t below = (1ull << lane) - 1;
  unsigned head = 0, queued = 0;
  l = start; /* the lane again, without a second skip-ahead */
  for (int k = 0; k < XS_BAND_LANE; k++, xs_band_next(&l)) {
    const int in = k < steps && xs_in_band(xs_band_energy(&l), lo, hi);
    const uint64_t m = XS_TILE_BALLOT(in);
    if (in) q[(head + queued + (unsigned)XS_TILE_POPC(m & below)) % XS_BAND_RING] = l.state;
    queued += (unsigned)XS_TILE_POPC(m);
    if (queued >= XS_TILE_WARP) {
      XS_BAND_WARP_SYNC();
      xs_band_put(q[(head + (unsigned)lane) % XS_BAND_RING], (long long)(at + (unsigned)lane), cap, energy, key);
      XS_BAND_WARP_SYNC(); /* read before the next steps queue over it */
      head = (head + XS_TILE_WARP) % XS_BAND_RING, queued -= XS_TILE_WARP, at += XS_TILE_WARP;
    }
  }
  XS_BAND_WARP_SYNC();
  if ((unsigned)lane < queued)
    xs_band_put(q[(head + (unsigned)lane) % XS_BAND_RING], (long long)(at + (unsigned)lane), cap, energy, key);
}
#endif
