/* xsbench_like: the device LSD radix sort of the kernel-level GPU models
 * (cuda, hip, ompx), written once; the including file supplies only the
 * model's spelling of a few primitives, so cuda and ompx run the same
 * algorithm, instruction for instruction where the compilers agree.
 *
 * Sort of (uint64 key, double value) pairs by key bits [lo, hi), one pass
 * per 8-bit digit (the last one narrower), least significant first. The keys
 * are cut into tiles of XS_TILE_KEYS (one block of XS_TILE_TPB threads, each
 * thread XS_TILE_KPT keys). A pass is three kernels:
 *   1. xs_tile_hist: per tile, its digit counts, written digit-major
 *      (counts[g * tiles + tile]); warp-aggregated atomics in shared memory;
 *   2. an exclusive scan of those counts (the model's scan kernels): entry
 *      (g, tile) becomes where the tile's first key of digit g goes;
 *   3. xs_tile_scatter: per tile, a stable local ranking by digit, in rounds
 *      of one key per thread (rounds in key order, warps in order within a
 *      round): within a warp a key's rank among equal digits comes from one
 *      ballot per digit bit and a popcount; per-warp digit counts in shared
 *      memory, scanned across warps, plus running per-digit counts across
 *      rounds. The keys (then the values) are placed in shared memory in
 *      tile-sorted order and written from there, so consecutive threads write
 *      consecutive addresses within each digit's run.
 * Stable, as LSD needs.
 *
 * The includer defines, before including:
 *   XS_TILE_FN        qualifiers of a device function (cuda: __device__ ...);
 *   XS_TILE_WARP      lanes of a warp (32 NVIDIA, 64 AMD);
 *   XS_TILE_SYNC()    block barrier with shared-memory ordering;
 *   XS_TILE_BALLOT(p) uint64_t mask of the warp's lanes with p != 0 (all lanes
 *                     of the warp call it together);
 *   XS_TILE_POPC(x)   popcount of a uint64_t;
 *   XS_TILE_SH_ADD(p, v)  atomic add of v to the shared unsigned *p.
 * OpenMP device code must include it inside begin/end declare target. */
#ifndef XS_SORT_TILES_H
#define XS_SORT_TILES_H
#include "xsbench_like.h"

#define XS_TILE_TPB 256 /* threads per tile; also the largest radix (thread g owns digit g) */
#define XS_TILE_KPT 8   /* keys per thread: 2048-key tiles, 16 KiB of keys in shared memory */
#define XS_TILE_KEYS (XS_TILE_TPB * XS_TILE_KPT)
#define XS_TILE_BITS 8
#define XS_TILES(n) (((n) + XS_TILE_KEYS - 1) / XS_TILE_KEYS)
#define XS_TILE_COUNTS(n) ((long long)XS_TILE_TPB * XS_TILES(n))
#define XS_TILE_SCAN_BLOCKS(n) ((XS_TILE_COUNTS(n) + XS_SCAN_BLOCK - 1) / XS_SCAN_BLOCK)
#define XS_TILE_SORT_NOTE "device LSD radix sort of kernels/sort_tiles.h (8-bit digits, " \
  PP_STR(XS_TILE_KEYS) "-key tiles ranked in shared memory by ballots, coalesced writes)"
/* Shared bytes of xs_tile_scatter: the key/value staging area (also the
 * per-warp counts, two buffers of [warps][256], during ranking; 16 KiB for
 * 32-lane warps, 8 KiB for 64), a scan buffer and two digit tables. */
#define XS_TILE_SHMEM (XS_TILE_KEYS * 8 + 4 * XS_TILE_TPB * 4)
#define XS_TILE_HIST_SHMEM (XS_TILE_TPB * 4)

/* Loops over a thread's keys fully unrolled, so its keys and positions stay
 * in registers (clang's OpenMP device code kept them on the stack). */
#define XS_TILE_UNROLL _Pragma("unroll")

typedef union xs_tile_kv {
  uint64_t u;
  double d;
} xs_tile_kv;

/* Lanes of this warp (converged) whose digit equals g, among the valid ones. */
XS_TILE_FN uint64_t xs_tile_peers(unsigned g, int valid, int bits) {
  uint64_t m = XS_TILE_BALLOT(valid);
  for (int b = 0; b < bits; b++) {
    const int on = (g >> b) & 1;
    const uint64_t v = XS_TILE_BALLOT(on);
    m &= on ? v : ~v;
  }
  return m;
}

/* Pass step 1, block `tile`, thread t: the tile's counts of each of the
 * 2^bits digits into counts[g * tiles + tile]. sh: XS_TILE_HIST_SHMEM bytes. */
XS_TILE_FN void xs_tile_hist(const uint64_t *PP_RESTRICT key, long long n, int shift, int bits,
                             unsigned *PP_RESTRICT counts, long long tiles, long long tile, int t,
                             unsigned *sh) {
  const int lane = t % XS_TILE_WARP;
  const uint64_t below = (1ull << lane) - 1;
  const long long base = tile * XS_TILE_KEYS;
  sh[t] = 0;
  XS_TILE_SYNC();
  XS_TILE_UNROLL
  for (int r = 0; r < XS_TILE_KPT; r++) {
    const long long i = base + r * XS_TILE_TPB + t;
    const int valid = i < n;
    const unsigned g = valid ? xs_radix_digit(key[i], shift, bits) : 0u;
    const uint64_t peers = xs_tile_peers(g, valid, bits);
    if (valid && !(peers & below)) XS_TILE_SH_ADD(&sh[g], (unsigned)XS_TILE_POPC(peers));
  }
  XS_TILE_SYNC();
  if (t < (1 << bits)) counts[(long long)t * tiles + tile] = sh[t];
}

/* Exclusive scan of v over the block's XS_TILE_TPB threads (Hillis-Steele,
 * double-buffered in sh[2 * XS_TILE_TPB]). */
XS_TILE_FN unsigned xs_tile_scan(unsigned v, int t, unsigned *sh) {
  int cur = 0;
  sh[t] = v;
  XS_TILE_SYNC();
  for (int off = 1; off < XS_TILE_TPB; off <<= 1) {
    sh[(cur ^ 1) * XS_TILE_TPB + t] = sh[cur * XS_TILE_TPB + t] + (t >= off ? sh[cur * XS_TILE_TPB + t - off] : 0u);
    cur ^= 1;
    XS_TILE_SYNC();
  }
  return sh[cur * XS_TILE_TPB + t] - v;
}

/* Pass step 3, block `tile`, thread t: stable scatter of the tile's pairs
 * from (k0, v0) to (k1, v1); offs: the scanned counts of step 2.
 * shmem: XS_TILE_SHMEM bytes, 8-byte aligned. */
XS_TILE_FN void xs_tile_scatter(const uint64_t *PP_RESTRICT k0, const double *PP_RESTRICT v0,
                                uint64_t *PP_RESTRICT k1, double *PP_RESTRICT v1, long long n,
                                int shift, int bits, const unsigned *PP_RESTRICT offs,
                                long long tiles, long long tile, int t, void *shmem) {
  const int W = XS_TILE_TPB / XS_TILE_WARP, R = XS_TILE_TPB;
  xs_tile_kv *kv = (xs_tile_kv *)shmem;            /* [XS_TILE_KEYS] staging */
  unsigned *wc = (unsigned *)shmem;                /* [2][W][R] while ranking (aliases kv) */
  unsigned *scan = (unsigned *)(kv + XS_TILE_KEYS); /* [2][R] */
  unsigned *dstart = scan + 2 * R;                 /* [R] tile-local start of digit g */
  unsigned *gbase = dstart + R;                    /* [R] global minus local position of digit g */
  const int lane = t % XS_TILE_WARP, warp = t / XS_TILE_WARP;
  const uint64_t below = (1ull << lane) - 1;
  const long long base = tile * XS_TILE_KEYS;
  const int len = n - base < XS_TILE_KEYS ? (int)(n - base) : XS_TILE_KEYS;
  uint64_t k[XS_TILE_KPT];
  unsigned pos[XS_TILE_KPT]; /* rank among the tile's keys of the same digit, then local position */
  XS_TILE_UNROLL
  for (int r = 0; r < XS_TILE_KPT; r++) {
    const int j = r * XS_TILE_TPB + t;
    k[r] = j < len ? k0[base + j] : 0;
  }
  for (int w = 0; w < 2 * W; w++) wc[w * R + t] = 0;
  unsigned run = 0; /* keys of digit t in the rounds so far */
  XS_TILE_SYNC();
  XS_TILE_UNROLL
  for (int r = 0; r < XS_TILE_KPT; r++) {
    unsigned *c = wc + (r & 1) * W * R, *other = wc + ((r & 1) ^ 1) * W * R;
    const int valid = r * XS_TILE_TPB + t < len;
    const unsigned g = valid ? xs_radix_digit(k[r], shift, bits) : 0u;
    const uint64_t peers = xs_tile_peers(g, valid, bits);
    const unsigned rank = (unsigned)XS_TILE_POPC(peers & below);
    if (valid && rank == 0) c[warp * R + g] = (unsigned)XS_TILE_POPC(peers);
    XS_TILE_SYNC();
    /* thread t: digit t's counts of the round's warps -> their starts; the
     * other buffer (read in the previous round) is cleared for the next */
    for (int w = 0; w < W; w++) {
      const unsigned x = c[w * R + t];
      c[w * R + t] = run, run += x;
      other[w * R + t] = 0;
    }
    XS_TILE_SYNC();
    pos[r] = c[warp * R + g] + rank;
  }
  const unsigned ex = xs_tile_scan(run, t, scan); /* its syncs also end the ranking reads */
  dstart[t] = ex;
  if (t < (1 << bits)) gbase[t] = offs[(long long)t * tiles + tile] - ex;
  XS_TILE_SYNC();
  XS_TILE_UNROLL
  for (int r = 0; r < XS_TILE_KPT; r++)
    if (r * XS_TILE_TPB + t < len) {
      pos[r] += dstart[xs_radix_digit(k[r], shift, bits)];
      kv[pos[r]].u = k[r];
    }
  XS_TILE_SYNC();
  unsigned gpos[XS_TILE_KPT];
  XS_TILE_UNROLL
  for (int r = 0; r < XS_TILE_KPT; r++) {
    const int j = r * XS_TILE_TPB + t;
    if (j < len) {
      const uint64_t u = kv[j].u;
      gpos[r] = gbase[xs_radix_digit(u, shift, bits)] + (unsigned)j;
      k1[gpos[r]] = u;
    }
  }
  XS_TILE_SYNC();
  XS_TILE_UNROLL
  for (int r = 0; r < XS_TILE_KPT; r++) {
    const int j = r * XS_TILE_TPB + t;
    if (j < len) kv[pos[r]].d = v0[base + j];
  }
  XS_TILE_SYNC();
  XS_TILE_UNROLL
  for (int r = 0; r < XS_TILE_KPT; r++) {
    const int j = r * XS_TILE_TPB + t;
    if (j < len) v1[gpos[r]] = kv[j].d;
  }
}

#endif
