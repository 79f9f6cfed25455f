/* xsbench_like: the device LSD radix sort of the kernel-level GPU models
 * (cuda, hip, ompx), written once; the including file supplies only the
 * model's spelling of a few primitives, so cuda and ompx run the same
 * algorithm, instruction for instruction where the compilers agree.
 *
 * Sort of (uint64 key, double value) pairs by key bits [lo, hi), one pass
 * per 8-bit digit (the last one narrower), least significant first, in the
 * shape of the paper "Onesweep: A Faster Least Significant Digit Radix Sort
 * for GPUs": one kernel per sort and one per pass, no scan kernels between.
 *   1. xs_tile_hist_all, once per sort: every pass's digit counts over all
 *      the keys (a pass's counts do not depend on the order the earlier
 *      passes leave), per block in shared memory (warp-aggregated by
 *      ballots), then added to hist[pass][digit] in device memory;
 *   2. xs_tile_scatter, once per pass: the keys are cut into tiles of
 *      XS_TILE_KEYS (one block of XS_TILE_TPB threads, XS_TILE_KPT keys
 *      each); a block takes the next tile number from a counter (so every
 *      lower tile is on the device, already running or done), ranks its keys
 *      stably by digit in shared memory (ballots and popcounts within a warp,
 *      per-warp digit counts scanned across warps, running counts across
 *      rounds of one key per thread), publishes its digit counts, places its
 *      keys in shared memory in tile-sorted order, then finds where its keys
 *      of digit g go by decoupled look-back: thread g walks the lower tiles'
 *      status words of digit g (XS_TILE_WINDOW at a time) back to the first
 *      that holds an inclusive prefix, adding the counts of those that hold
 *      only their own; it publishes its own inclusive prefix and scatters,
 *      keys then values (these staged in shared memory too), so that
 *      consecutive threads write consecutive addresses within a digit's run.
 * A status word is (epoch, flag, value): the epoch, a number the host gives
 * each pass, marks words of earlier passes as not yet published, so the
 * words are never cleared between passes (xs_tile_epoch). The last tile of
 * a pass clears its hist row and tile counter for the next sort, once its
 * look-back proves every tile has read them. Stable, as LSD needs.
 *
 * The includer defines, before including:
 *   XS_TILE_FN        qualifiers of a device function (cuda: __device__ ...);
 *   XS_TILE_WARP      lanes of a warp (32 NVIDIA, 64 AMD);
 *   XS_TILE_SYNC()    block barrier with shared-memory ordering;
 *   XS_TILE_BALLOT(p) uint64_t mask of the warp's lanes with p != 0 (all lanes
 *                     of the warp call it together);
 *   XS_TILE_POPC(x)   popcount of a uint64_t;
 *   XS_TILE_SH_ADD(p, v)  atomic add of v to the shared unsigned *p;
 *   XS_TILE_GL_ADD(p, v)  atomic add of v to the device-memory unsigned *p,
 *                     returning the old value;
 *   XS_TILE_LOAD(p)   a load of the status word *p (unsigned long long) that
 *                     sees other blocks' stores (no stale cached copy);
 *   XS_TILE_PUBLISH(p, v)  a store of status word v to *p, ordered after the
 *                     thread's earlier loads and stores (a release);
 *   XS_TILE_SPIN()    what a thread does while a status word is not ready.
 * OpenMP device code must include it inside begin/end declare target. */
#ifndef XS_SORT_TILES_H
#define XS_SORT_TILES_H
#include "xsbench_like.h"

#define XS_TILE_TPB 256 /* threads per tile; also the largest radix (thread g owns digit g) */
#define XS_TILE_KPT 8   /* keys per thread: 2048-key tiles, 16 KiB of keys in shared memory */
#define XS_TILE_KEYS (XS_TILE_TPB * XS_TILE_KPT)
#define XS_TILE_BITS 8
#define XS_TILES(n) (((n) + XS_TILE_KEYS - 1) / XS_TILE_KEYS)
#define XS_TILE_MAX_PASSES 8 /* 64 key bits in 8-bit digits */
/* Status words of a pass: one per tile and digit. */
#define XS_TILE_LOOKS(n) ((long long)XS_TILE_TPB * XS_TILES(n))
/* hist: [XS_TILE_MAX_PASSES][XS_TILE_TPB] digit counts, then a tile counter per pass. */
#define XS_TILE_HIST_WORDS (XS_TILE_MAX_PASSES * (XS_TILE_TPB + 1))
#define XS_TILE_HIST_BLOCKS 1024 /* most blocks of xs_tile_hist_all (each takes every 1024th tile) */
#ifndef XS_TILE_WINDOW
#define XS_TILE_WINDOW 4 /* status words a look-back loads at once */
#endif
#define XS_TILE_SORT_NOTE "device LSD radix sort of kernels/sort_tiles.h (8-bit digits, one " \
  "histogram kernel per sort and one kernel per pass: " PP_STR(XS_TILE_KEYS) "-key tiles ranked in " \
  "shared memory by ballots, decoupled look-back, coalesced writes)"
/* Shared bytes of xs_tile_scatter: the key/value staging area (also the
 * per-warp counts, two buffers of [warps][256], during ranking; 16 KiB for
 * 32-lane warps, 8 KiB for 64), a scan buffer, two digit tables and the
 * block's tile number. */
#define XS_TILE_SHMEM (XS_TILE_KEYS * 8 + 4 * XS_TILE_TPB * 4 + 8)
#define XS_TILE_HIST_SHMEM (XS_TILE_MAX_PASSES * XS_TILE_TPB * 4)

/* Status word: epoch (24 bits), flag (2), value (38: a count or a prefix, <= n). */
#define XS_TILE_AGGREGATE 1ull /* the value is the tile's own count of the digit */
#define XS_TILE_PREFIX 2ull    /* the value is the count of the digit in tiles 0..this one */
#define XS_TILE_EPOCHS (1ull << 24)
#define XS_TILE_VALUE(s) ((s) & ((1ull << 38) - 1))
#define XS_TILE_FLAG(s) (((s) >> 38) & 3ull)
#define XS_TILE_EPOCH(s) ((s) >> 40)
#define XS_TILE_STATUS(ep, flag, v) ((unsigned long long)(ep) << 40 | (flag) << 38 | (unsigned long long)(v))

/* Host side: the epoch of the next pass's status words; *clear set when the
 * epochs wrapped and the words must be zeroed first (after 2^24 - 1 passes). */
static inline unsigned long long xs_tile_epoch(unsigned long long *epoch, int *clear) {
  *clear = ++*epoch >= XS_TILE_EPOCHS;
  if (*clear) *epoch = 1;
  return *epoch;
}
/* Host side: pass `pass`'s digit counts and tile counter in hist
 * (XS_TILE_HIST_WORDS), and the blocks xs_tile_hist_all runs for n keys. */
static inline unsigned *xs_tile_pass_counts(unsigned *hist, int pass) { return hist + pass * XS_TILE_TPB; }
static inline unsigned *xs_tile_pass_ticket(unsigned *hist, int pass) {
  return hist + XS_TILE_MAX_PASSES * XS_TILE_TPB + pass;
}
static inline long long xs_tile_hist_blocks(long long n) {
  return XS_TILES(n) < XS_TILE_HIST_BLOCKS ? XS_TILES(n) : XS_TILE_HIST_BLOCKS;
}

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

/* Step 1, block `block` of `blocks`, thread t: the digit counts of every
 * pass of bits [lo_bit, hi_bit) over tiles block, block + blocks, ..., added
 * to hist[pass * XS_TILE_TPB + digit] (zero before: see the file's comment).
 * sh: XS_TILE_HIST_SHMEM bytes. */
XS_TILE_FN void xs_tile_hist_all(const uint64_t *PP_RESTRICT key, long long n, int lo_bit, int hi_bit,
                                 unsigned *PP_RESTRICT hist, long long blocks, long long block, int t,
                                 unsigned *sh) {
  const int lane = t % XS_TILE_WARP, passes = (hi_bit - lo_bit + XS_TILE_BITS - 1) / XS_TILE_BITS;
  const uint64_t below = (1ull << lane) - 1;
  const long long tiles = XS_TILES(n);
  for (int p = 0; p < passes; p++) sh[p * XS_TILE_TPB + t] = 0;
  XS_TILE_SYNC();
  for (long long tile = block; tile < tiles; tile += blocks) {
    XS_TILE_UNROLL
    for (int r = 0; r < XS_TILE_KPT; r++) {
      const long long i = tile * XS_TILE_KEYS + r * XS_TILE_TPB + t;
      const int valid = i < n;
      const uint64_t u = valid ? key[i] : 0;
      for (int p = 0; p < passes; p++) {
        const int shift = lo_bit + p * XS_TILE_BITS;
        const int bits = hi_bit - shift < XS_TILE_BITS ? hi_bit - shift : XS_TILE_BITS;
        const unsigned g = xs_radix_digit(u, shift, bits);
        const uint64_t peers = xs_tile_peers(g, valid, bits);
        if (valid && !(peers & below)) XS_TILE_SH_ADD(&sh[p * XS_TILE_TPB + g], (unsigned)XS_TILE_POPC(peers));
      }
    }
  }
  XS_TILE_SYNC();
  for (int p = 0; p < passes; p++) {
    const unsigned c = sh[p * XS_TILE_TPB + t];
    if (c) XS_TILE_GL_ADD(&hist[p * XS_TILE_TPB + t], c);
  }
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

/* Step 2, one pass, thread t of a block: stable scatter of a tile's pairs
 * from (k0, v0) to (k1, v1). hist: the pass's [XS_TILE_TPB] digit counts;
 * ticket: the pass's tile counter; look: [tiles][XS_TILE_TPB] status words;
 * ep: the pass's epoch. shmem: XS_TILE_SHMEM bytes, 8-byte aligned. */
XS_TILE_FN void xs_tile_scatter(const uint64_t *PP_RESTRICT k0, const double *PP_RESTRICT v0,
                                uint64_t *PP_RESTRICT k1, double *PP_RESTRICT v1, long long n,
                                int shift, int bits, unsigned *PP_RESTRICT hist,
                                unsigned *PP_RESTRICT ticket, unsigned long long *look,
                                unsigned long long ep, long long tiles, int t, void *shmem) {
  const int W = XS_TILE_TPB / XS_TILE_WARP, R = XS_TILE_TPB;
  xs_tile_kv *kv = (xs_tile_kv *)shmem;            /* [XS_TILE_KEYS] staging */
  unsigned *wc = (unsigned *)shmem;                /* [2][W][R] while ranking (aliases kv) */
  unsigned *scan = (unsigned *)(kv + XS_TILE_KEYS); /* [2][R] */
  unsigned *dstart = scan + 2 * R;                 /* [R] tile-local start of digit g */
  unsigned *gbase = dstart + R;                    /* [R] global minus local position of digit g */
  unsigned *taken = gbase + R;                     /* [1] the block's tile number */
  if (t == 0) *taken = XS_TILE_GL_ADD(ticket, 1u);
  XS_TILE_SYNC();
  const long long tile = *taken;
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
  /* thread t owns digit t: publish the tile's count early (tile 0's is a
   * prefix), so the tiles after it look back no further than this one */
  const int own = t < (1 << bits);
  unsigned long long *mine = look + tile * R + t;
  const unsigned total = own ? hist[t] : 0u; /* read before the release below */
  if (own) XS_TILE_PUBLISH(mine, XS_TILE_STATUS(ep, tile ? XS_TILE_AGGREGATE : XS_TILE_PREFIX, run));
  const unsigned ex = xs_tile_scan(run, t, scan); /* its syncs also end the ranking reads */
  const unsigned digit_start = xs_tile_scan(total, t, scan);
  dstart[t] = ex;
  XS_TILE_SYNC();
  /* the keys to shared memory in tile-sorted order before the look-back: the
   * tiles below have that much longer to publish, and the keys' registers are
   * free during the walk */
  XS_TILE_UNROLL
  for (int r = 0; r < XS_TILE_KPT; r++)
    if (r * XS_TILE_TPB + t < len) {
      pos[r] += dstart[xs_radix_digit(k[r], shift, bits)];
      kv[pos[r]].u = k[r];
    }
  if (own) {
    unsigned long long before = 0; /* keys of digit t in the tiles below */
    for (long long j = tile - 1; j >= 0;) {
      /* the words of XS_TILE_WINDOW tiles below at once: a walk over tiles
       * that hold only their counts costs a load latency per window */
      unsigned long long st[XS_TILE_WINDOW];
      XS_TILE_UNROLL
      for (int q = 0; q < XS_TILE_WINDOW; q++) st[q] = j - q >= 0 ? XS_TILE_LOAD(look + (j - q) * R + t) : 0ull;
      int took = 0, state = 0; /* 0: all counts, 1: a word not ready, 2: a prefix */
      XS_TILE_UNROLL
      for (int q = 0; q < XS_TILE_WINDOW; q++) {
        if (state || j - q < 0) continue;
        if (XS_TILE_EPOCH(st[q]) != ep || !XS_TILE_FLAG(st[q])) {
          state = 1;
          continue;
        }
        before += XS_TILE_VALUE(st[q]), took++;
        if (XS_TILE_FLAG(st[q]) == XS_TILE_PREFIX) state = 2;
      }
      if (state == 2) break;
      j -= took; /* on at the word not ready, or past the window */
      if (state == 1) XS_TILE_SPIN();
    }
    if (tile) XS_TILE_PUBLISH(mine, XS_TILE_STATUS(ep, XS_TILE_PREFIX, before + run));
    gbase[t] = digit_start + (unsigned)before - ex;
    if (tile == tiles - 1) { /* every tile has read hist[t] and taken its number */
      hist[t] = 0;
      if (t == 0) *ticket = 0;
    }
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
