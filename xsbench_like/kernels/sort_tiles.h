/* xsbench_like: the device LSD radix sort of the kernel-level GPU models
 * (cuda, hip, ompx), written once; the including file supplies only the
 * model's spelling of a few primitives, so cuda and ompx run the same
 * algorithm, instruction for instruction where the compilers agree.
 *
 * Sort of (uint64 key, double value) pairs by key bits [lo, hi), one pass
 * per 8-bit digit (the last one narrower), least significant first, in the
 * shape of the paper "Onesweep: A Faster Least Significant Digit Radix Sort
 * for GPUs", all of it one kernel launch (xs_tile_sort_block): a block takes
 * the next number from the sort's block counter, so every lower number is on
 * the device, running or done. The first numbers count, the others are the
 * passes' tiles in order:
 *   1. counting (xs_tile_hist_all, xs_tile_hist_blocks(n) blocks): every
 *      pass's digit counts over all the keys (a pass's counts do not depend
 *      on the order the earlier passes leave), per block in shared memory
 *      (warp-aggregated by ballots), then added to hist[pass][digit];
 *   2. pass p (xs_tile_scatter, XS_TILES(n) blocks), once the step before
 *      it is done on every block (a counter of blocks done per step): the
 *      keys are cut into tiles of XS_TILE_KEYS (XS_TILE_KPT keys per thread);
 *      a tile ranks its keys stably by digit in shared memory (ballots and
 *      popcounts within a warp, per-warp digit counts scanned across warps,
 *      running counts across rounds of one key per thread), publishes its
 *      digit counts, places its keys in shared memory in tile-sorted order,
 *      then finds where its keys of digit g go by decoupled look-back: thread
 *      g walks the lower tiles' status words of digit g (XS_TILE_WINDOW at a
 *      time) back to the first that holds an inclusive prefix, adding the
 *      counts of those that hold only their own; it publishes its own
 *      inclusive prefix and scatters, keys then values (these staged in
 *      shared memory too), so that consecutive threads write consecutive
 *      addresses within a digit's run.
 * A block that waits holds only numbers above those it waits for, so the
 * blocks it waits for are running: no deadlock at any occupancy. One launch
 * instead of one per pass saves the host a launch and, in OpenMP, a
 * synchronization per pass.
 * A status word is (epoch, flag, value): the epoch, a number the host gives
 * each pass, marks words of earlier passes as not yet published, so the
 * words are never cleared between passes (xs_tile_epochs). The last tile of
 * a pass clears its hist row, and the last pass's the counters, for the next
 * sort, once its look-back proves every tile has read them. Stable, as LSD
 * needs.
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
 *   XS_TILE_LOAD32(p) the same for the unsigned counter *p;
 *   XS_TILE_FENCE()   a device-wide memory fence;
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
/* hist: [XS_TILE_MAX_PASSES][XS_TILE_TPB] digit counts, then the counters: the
 * sort's block counter, then per step the blocks done (counting, then pass 0, ...). */
#define XS_TILE_HIST_WORDS (XS_TILE_MAX_PASSES * XS_TILE_TPB + 1 + XS_TILE_MAX_PASSES)
#define XS_TILE_HIST_BLOCKS 1024 /* most blocks of xs_tile_hist_all (each takes every 1024th tile) */
#ifndef XS_TILE_WINDOW
#define XS_TILE_WINDOW 4 /* status words a look-back loads at once */
#endif
#define XS_TILE_SORT_NOTE "device LSD radix sort of kernels/sort_tiles.h (8-bit digits, one " \
  "kernel per sort: digit counting, then each pass's " PP_STR(XS_TILE_KEYS) "-key tiles once the step " \
  "before is done, ranked in shared memory by ballots, decoupled look-back, coalesced writes)"
/* Shared bytes of a block of the sort: the key/value staging area (also the
 * per-warp counts, two buffers of [warps][256], during ranking; 16 KiB for
 * 32-lane warps, 8 KiB for 64), a scan buffer, two digit tables and the
 * block's number (XS_TILE_TAKEN); counting uses the first XS_TILE_HIST_SHMEM. */
#define XS_TILE_SHMEM (XS_TILE_KEYS * 8 + 4 * XS_TILE_TPB * 4 + 8)
#define XS_TILE_HIST_SHMEM (XS_TILE_MAX_PASSES * XS_TILE_TPB * 4)
#define XS_TILE_TAKEN(shmem) ((unsigned *)((char *)(shmem) + XS_TILE_SHMEM - 8))

/* Status word: epoch (24 bits), flag (2), value (38: a count or a prefix, <= n). */
#define XS_TILE_AGGREGATE 1ull /* the value is the tile's own count of the digit */
#define XS_TILE_PREFIX 2ull    /* the value is the count of the digit in tiles 0..this one */
#define XS_TILE_EPOCHS (1ull << 24)
#define XS_TILE_VALUE(s) ((s) & ((1ull << 38) - 1))
#define XS_TILE_FLAG(s) (((s) >> 38) & 3ull)
#define XS_TILE_EPOCH(s) ((s) >> 40)
#define XS_TILE_STATUS(ep, flag, v) ((unsigned long long)(ep) << 40 | (flag) << 38 | (unsigned long long)(v))

/* Host side: the epochs of a sort's `passes` passes' status words, the
 * first returned, the others following it; *clear set when the epochs wrapped
 * and the words must be zeroed first (every 2^24 - 1 passes or so). */
static inline unsigned long long xs_tile_epochs(unsigned long long *epoch, int passes, int *clear) {
  *clear = *epoch + (unsigned long long)passes >= XS_TILE_EPOCHS;
  if (*clear) *epoch = 0;
  const unsigned long long first = *epoch + 1;
  *epoch += (unsigned long long)passes;
  return first;
}
/* The passes of a sort of bits [lo_bit, hi_bit), the counting blocks for n
 * keys, and the blocks of the sort's launch. */
PP_HD static inline int xs_tile_passes(int lo_bit, int hi_bit) { return (hi_bit - lo_bit + XS_TILE_BITS - 1) / XS_TILE_BITS; }
PP_HD static inline long long xs_tile_hist_blocks(long long n) {
  return XS_TILES(n) < XS_TILE_HIST_BLOCKS ? XS_TILES(n) : XS_TILE_HIST_BLOCKS;
}
PP_HD static inline long long xs_tile_sort_blocks(long long n, int passes) {
  return xs_tile_hist_blocks(n) + (long long)passes * XS_TILES(n);
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

/* Step 2, tile `tile` of one pass, thread t of a block: stable scatter of the
 * tile's pairs from (k0, v0) to (k1, v1). hist: the pass's [XS_TILE_TPB] digit
 * counts; look: [tiles][XS_TILE_TPB] status words; ep: the pass's epoch;
 * reset: `resets` words the last tile's thread 0 zeroes once every tile has
 * published. shmem: XS_TILE_SHMEM bytes, 8-byte aligned. The pairs carry no
 * restrict: in one launch a pass reads what the pass before wrote, which a
 * read-only (non-coherent) load might not see. */
XS_TILE_FN void xs_tile_scatter(const uint64_t *k0, const double *v0, uint64_t *k1, double *v1, long long n,
                                int shift, int bits, unsigned *PP_RESTRICT hist, unsigned long long *look,
                                unsigned long long ep, long long tiles, long long tile, unsigned *reset,
                                int resets, int t, void *shmem) {
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
    if (tile == tiles - 1) { /* every tile has read hist[t] and passed its wait */
      hist[t] = 0;
      if (t == 0)
        for (int i = 0; i < resets; i++) reset[i] = 0;
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

/* The end of a step on this block: its stores, then the step's count. */
XS_TILE_FN void xs_tile_step_done(unsigned *done, int t) {
  XS_TILE_SYNC();
  if (t == 0) {
    XS_TILE_FENCE();
    (void)XS_TILE_GL_ADD(done, 1u);
  }
}
/* Waits until `need` blocks have done the step before (their stores seen). */
XS_TILE_FN void xs_tile_step_wait(const unsigned *done, unsigned need, int t) {
  if (t == 0) {
    while (XS_TILE_LOAD32(done) < need) XS_TILE_SPIN();
    XS_TILE_FENCE();
  }
  XS_TILE_SYNC();
}

/* A block of the sort's one launch of xs_tile_sort_blocks(n, passes) blocks
 * (the file's comment), thread t: pairs (k0, v0) sorted by key bits [lo_bit,
 * hi_bit), pass p from the pair of buffers p's parity names to the other (so
 * the result is in (k1, v1) when the passes are odd). hist: XS_TILE_HIST_WORDS
 * words, zero at the first sort (each sort leaves them so); look: the status
 * words of XS_TILES(n) tiles; ep0: the first pass's epoch (xs_tile_epochs).
 * shmem: XS_TILE_SHMEM bytes, 8-byte aligned. */
XS_TILE_FN void xs_tile_sort_block(uint64_t *k0, double *v0, uint64_t *k1, double *v1, long long n,
                                   int lo_bit, int hi_bit, unsigned *hist, unsigned long long *look,
                                   unsigned long long ep0, int t, void *shmem) {
  unsigned *counter = hist + XS_TILE_MAX_PASSES * XS_TILE_TPB, *done = counter + 1; /* done[step] */
  unsigned *taken = XS_TILE_TAKEN(shmem);
  if (t == 0) *taken = XS_TILE_GL_ADD(counter, 1u);
  XS_TILE_SYNC();
  const long long b = *taken, counting = xs_tile_hist_blocks(n), tiles = XS_TILES(n);
  const int passes = xs_tile_passes(lo_bit, hi_bit);
  if (b < counting) {
    xs_tile_hist_all(k0, n, lo_bit, hi_bit, hist, counting, b, t, (unsigned *)shmem);
    xs_tile_step_done(&done[0], t);
    return;
  }
  const int p = (int)((b - counting) / tiles);
  const long long tile = (b - counting) % tiles;
  xs_tile_step_wait(&done[p], (unsigned)(p ? tiles : counting), t);
  const int shift = lo_bit + p * XS_TILE_BITS, last = p == passes - 1;
  const int bits = hi_bit - shift < XS_TILE_BITS ? hi_bit - shift : XS_TILE_BITS;
  const int odd = p & 1;
  xs_tile_scatter(odd ? k1 : k0, odd ? v1 : v0, odd ? k0 : k1, odd ? v0 : v1, n, shift, bits,
                  hist + p * XS_TILE_TPB, look, ep0 + (unsigned long long)p, tiles, tile,
                  last ? counter : NULL, last ? passes + 1 : 0, t, shmem);
  if (!last) xs_tile_step_done(&done[p + 1], t);
}

#endif
