/* xsbench_like: the per-lane steps of the omp model's LSD radix sort (the
 * kernel-level models use device/sort_tiles.h).
 *
 * Sort of (uint64 key, double value) pairs by key bits [lo, hi), one pass per
 * XS_DIGIT_BITS-bit digit, least significant first. A pass: lane l takes keys
 * [l*XS_LANE_KEYS, (l+1)*XS_LANE_KEYS) and counts its digits into
 * counts[g * lanes + l] (digit-major); an exclusive scan of that array turns
 * each count into the position of the lane's first key of digit g; the
 * lane then scatters its keys in order, so the pass is stable. A lane keeps
 * its 16 counters in two registers, one byte each (XS_LANE_KEYS <= 255). */
#ifndef XS_SORT_LANES_H
#define XS_SORT_LANES_H
#include "xsbench_like.h"

#define XS_DIGIT_BITS 4
#define XS_RADIX 16
#define XS_LANE_KEYS 32
#define XS_LANES(n) (((n) + XS_LANE_KEYS - 1) / XS_LANE_KEYS)
#define XS_LANE_COUNTS(n) (XS_RADIX * XS_LANES(n))
#define XS_LANE_SCAN_BLOCKS(n) ((XS_LANE_COUNTS(n) + XS_SCAN_BLOCK - 1) / XS_SCAN_BLOCK)

PP_BEGIN_DEVICE
/* Byte counter g of the pair (lo: digits 0-7, hi: digits 8-15). */
PP_HD static inline unsigned xs_lane_get(uint64_t lo, uint64_t hi, unsigned g) {
  return (unsigned)(((g < 8 ? lo : hi) >> (8 * (g & 7))) & 0xff);
}
/* What adding one to counter g adds to lo (half 0) or hi (half 1). Values,
 * not pointers: with the counters' addresses taken, clang 19's x86 offload
 * device code lost the increments (seen at -O1 and above). */
PP_HD static inline uint64_t xs_lane_inc(unsigned g, unsigned half) {
  return (g >> 3) == half ? 1ull << (8 * (g & 7)) : 0;
}

PP_HD static inline void xs_lane_count(const uint64_t *PP_RESTRICT key, long long n, long long l,
                                       long long lanes, int shift, int bits,
                                       unsigned *PP_RESTRICT counts) {
  uint64_t lo = 0, hi = 0;
  const long long b = l * XS_LANE_KEYS, e = b + XS_LANE_KEYS < n ? b + XS_LANE_KEYS : n;
  for (long long i = b; i < e; i++) {
    const unsigned g = xs_radix_digit(key[i], shift, bits);
    lo += xs_lane_inc(g, 0), hi += xs_lane_inc(g, 1);
  }
  for (unsigned g = 0; g < XS_RADIX; g++) counts[g * lanes + l] = xs_lane_get(lo, hi, g);
}

/* offs: the scanned counts. */
PP_HD static inline void xs_lane_scatter(const uint64_t *PP_RESTRICT k0, const double *PP_RESTRICT v0,
                                         uint64_t *PP_RESTRICT k1, double *PP_RESTRICT v1,
                                         long long n, long long l, long long lanes, int shift,
                                         int bits, const unsigned *PP_RESTRICT offs) {
  uint64_t lo = 0, hi = 0;
  const long long b = l * XS_LANE_KEYS, e = b + XS_LANE_KEYS < n ? b + XS_LANE_KEYS : n;
  for (long long i = b; i < e; i++) {
    const uint64_t k = k0[i];
    const unsigned g = xs_radix_digit(k, shift, bits);
    const unsigned pos = offs[g * lanes + l] + xs_lane_get(lo, hi, g);
    lo += xs_lane_inc(g, 0), hi += xs_lane_inc(g, 1);
    k1[pos] = k, v1[pos] = v0[i];
  }
}

PP_END_DEVICE
#endif
