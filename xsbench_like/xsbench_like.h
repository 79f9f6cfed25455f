/* xsbench_like: the macroscopic cross-section lookup of XSBench (ANL,
 * version 20), with XSBench's data, random streams and verification
 * checksum reproduced exactly, on every model.
 *
 * ---- For the authors of kernels/{host,omp,ompx}.c, cuda.cu, hip.hip -------
 * A model file defines   const xs_kernels *xs_kernels_<model>(void);
 * (PP_MODEL_DISPATCH(m, xs_kernels_) finds it) and holds only the mapping:
 * the primitives of xs_kernels below, each one step's work on the device
 * (its kernels or target regions, and copies). variants.c composes the
 * event variants (xs_variant, XSBench CUDA's -k) from them once, for every
 * model; a primitive a model leaves NULL makes the variants that need it
 * NOT RUN (absent_note says why). Data `d` and the work arrays are in the model's
 * memory (device pointers; for host, host pointers).
 *   - prepare/release: the model's scratch for up to n lookups (at most
 *     max_lookups where that is set: the driver checks it first), an xs_work
 *     first (C's first-member rule: the xs_work * is the model's struct), at
 *     most XS_WORK_BYTES_PER_LOOKUP * n + XS_WORK_BYTES_FIXED bytes of device
 *     memory (the driver's fit check counts that much);
 *   - the checksum of one simulation is the sum of what fused, lookups and
 *     sorted_lookups return, plus sum_read's: models that add into device
 *     slots (return 0 there) never clear them and bring back in sum_read what
 *     they gained since the last sum_read (xs_sum_gained, device/dev_work.h:
 *     no clearing launch per simulation); models whose kernels return their
 *     sums leave sum_read NULL;
 *   - fused: baseline's sample + lookup of [first, first+n), one kernel;
 *   - sample: lookup first+i's energy into energy[i] and its material into
 *     mat[i], or with `keys` its xs_sort_key() into key[i] instead;
 *   - sample_band: of lookups [0, total), those with energy in [lo, hi),
 *     energy and xs_sort_key() into energy[]/key[] (any order; below `cap`
 *     only), by lanes (xs_band_lane_at ...); returns how many there are,
 *     counted on the device (--split energy of the sorted variants);
 *   - sort_pairs: ascending key/value sort of n (uint64 key, double value)
 *     pairs looking only at key bits [lo_bit, hi_bit) (any order among equal
 *     keys), with the work's key_alt/val_alt as its second buffers; returns 1
 *     when the sorted pairs ended there (no copy back: the caller reads them
 *     where they are). The sorted variants sort bits [XS_KEY_MAT_SHIFT, 64)
 *     (material, -k 4) or [XS_KEY_ENERGY_LO_BIT, 64) (material then energy,
 *     -k 6). It runs on the device in every model (CUB/hipCUB allowed; the
 *     OpenMP models need their own, e.g. an LSD radix sort with
 *     xs_radix_digit and xs_radix_sort_passes) and its time counts. The
 *     driver also calls it alone to check it;
 *   - mat_starts: start[m] = xs_mat_start(key, n, m) for m in
 *     [0, XS_MATERIALS], computed on the device, brought to the host;
 *   - lookups: lookups [lo, hi) of (energy, mat) whose material xs_picked()
 *     selects with `want`, or with mat NULL all of material `want` (a sorted
 *     range); called only with lo < hi;
 *   - sorted_lookups (optional, --material-launch single): the lookups of
 *     all n sorted pairs in one launch, each of the material its key holds
 *     (xs_key_mat), so no material ranges are needed; energies in random
 *     order within a material when w->energies_unsorted (sorted-material);
 *   - history: XSBench's history method, particles [first, first+n), its sum;
 *     NULL except on host (optional elsewhere);
 *   - vendor_sort (optional, NULL elsewhere): switches the work's sort_pairs
 *     to the vendor's library sort (--sort vendor) and returns a note saying
 *     which; the driver calls it only for at most vendor_sort_max lookups,
 *     which it checks before anything is allocated.
 * Everything a lookup computes is below, once; do not re-derive it per model.
 * Bit-exact results need every model to round alike: the interpolation and
 * the weighted sum are explicit fma() (one rounding each, the same on every
 * device and on the host; XSBench's CUDA code gets its FMAs from nvcc's
 * contraction), and this header turns FP contraction off for clang (C, C++,
 * HIP) so that no other FMA is formed.
 * ---------------------------------------------------------------------------*/
#ifndef XSBENCH_LIKE_H
#define XSBENCH_LIKE_H
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include "pp/model.h"
#include "pp/portable.h"
#include "pp/rng.h"
PP_EXTERN_C_BEGIN

#define XS_MATERIALS 12
#define XS_CHANNELS 5                 /* total, elastic, absorption, fission, nu-fission */
#define XS_GRID_SEED 42ull            /* nuclide grid draws */
#define XS_SAMPLE_SEED 1070ull        /* XSBench's STARTING_SEED: lookups and particles */
#define XS_CONC_SEED (1070ull * 1070ull) /* material concentrations */
#define XS_DEFAULT_HASH_BINS 10000
#define XS_HASH_MOD 999983ull         /* XSBench's final reduction of the sum */
#define XS_DEFAULT_EVENT_LOOKUPS 17000000ll
#define XS_DEFAULT_PARTICLES 500000ll
#define XS_DEFAULT_HISTORY_LOOKUPS 34ll
/* Published checksums (XSBench 20, io.c): the only values called "valid". */
#define XS_VALID_EVENT_SMALL 945990ull
#define XS_VALID_EVENT_LARGE 952131ull
#define XS_VALID_HISTORY_SMALL 941535ull
#define XS_VALID_HISTORY_LARGE 954318ull

typedef enum xs_grid { XS_UNIONIZED = 0, XS_NUCLIDE = 1, XS_HASH = 2 } xs_grid;

/* Event-method variants; the comment gives XSBench CUDA's kernel id (-k). */
typedef enum xs_variant {
  XS_BASELINE = 0,        /* -k 0: one fused sample + lookup per thread */
  XS_SAMPLING,            /* -k 1: sampling kernel, then lookup kernel */
  XS_MATERIAL,            /* -k 2: sampling, then one lookup kernel per material */
  XS_FUEL,                /* -k 3: sampling, then a fuel and a non-fuel kernel */
  XS_SORTED_MATERIAL,     /* -k 4: sampling, sort by material, a kernel per material range */
  XS_SORTED_ENERGY,       /* -k 6: sampling, sort by material then energy, as -k 4 */
  XS_VARIANT_COUNT
} xs_variant;
/* The variants that sort (and so run sort_pairs), as bits 1 << v. */
#define XS_SORTED_VARIANTS ((1u << XS_SORTED_MATERIAL) | (1u << XS_SORTED_ENERGY))

/* One nuclide grid point, XSBench's layout (array of structures). */
typedef struct xs_point {
  double energy, total, elastic, absorption, fission, nu_fission;
} xs_point;

/* The simulation data; every pointer lives in one memory space (host arrays
 * for the host model, device copies for the others). */
typedef struct xs_data {
  long n_isotopes, n_gridpoints;
  int grid;                     /* xs_grid */
  int hash_bins;
  int max_num_nucs;             /* row length of mats and concs */
  const int *num_nucs;          /* [XS_MATERIALS] nuclides per material */
  const int *mats;              /* [XS_MATERIALS * max_num_nucs] nuclide ids */
  const double *concs;          /* [XS_MATERIALS * max_num_nucs] */
  const double *egrid;          /* unionized: [n_isotopes * n_gridpoints] sorted; else NULL */
  const int *index_grid;        /* unionized: [len(egrid) * n_isotopes]; hash: [hash_bins * n_isotopes]; else NULL */
  const xs_point *nuclide_grid; /* [n_isotopes * n_gridpoints], each nuclide sorted by energy */
  size_t len_egrid, len_index;  /* element counts of egrid and index_grid */
} xs_data;

/* Device checksum slots of the kernel-level models: one 64-bit atomic add per
 * warp into slot (warp id % XS_SUM_SLOTS), the slots summed at the end. */
#define XS_SUM_SLOTS 64

/* Device scratch a model may use per lookup and in total (fit check). */
#define XS_WORK_BYTES_PER_LOOKUP 48.0
#define XS_WORK_BYTES_FIXED (64.0 * 1048576.0)

/* The arrays every model's scratch starts with (see prepare above). */
typedef struct xs_work {
  double *energy, *val_alt; /* [n] sampled energies; the sort's second values */
  int *mat;                 /* [n] sampled materials (unsorted variants) */
  uint64_t *key, *key_alt;  /* [n] sort keys; the sort's second keys */
  int energies_unsorted;    /* set by the driver around the sorted-material lookups:
                               one material's lookups come in random energy order */
  int ranges_concurrent;    /* --material-launch concurrent, where ranges_join exists: the
                               sorted ranges' lookups calls may run at once until ranges_join */
  int ranges_single;        /* --material-launch single, where sorted_lookups exists: the
                               sorted variants make one sorted_lookups call, no ranges */
  struct pp_parts *phases;  /* --phases: the driver's timer of a simulation's phases
                               (variants.c brackets them); NULL: not timed apart */
} xs_work;

/* A simulation's phases as --phases times them (variants.c). */
enum { XS_PHASE_SAMPLE, XS_PHASE_SORT, XS_PHASE_RANGES, XS_PHASE_LOOKUPS, XS_PHASE_SUM, XS_PHASES };

/* Lookups of one material in random energy order (sorted-material, -k 4) thrash
 * the caches when the GPU runs as many as it can hold: each keeps an index-grid
 * row in flight while it walks the material's nuclides. The GPU models run them
 * with at most 1/XS_UNSORTED_WARP_SHARE of the device's resident warps (threads
 * striding over the rest): a quarter was the fastest share. Energy-sorted
 * lookups (-k 6) share the grid's neighbourhoods and keep the full grid (a cap
 * slows them). See docs/performance.md, xsbench_like. */
#define XS_UNSORTED_WARP_SHARE 4

typedef struct xs_kernels {
  xs_work *(*prepare)(const xs_data *d, long long n);
  void (*release)(xs_work *w);
  unsigned long long (*sum_read)(xs_work *w);
  unsigned long long (*fused)(const xs_data *d, xs_work *w, long long first, long long n);
  void (*sample)(xs_work *w, long long first, long long n, int keys);
  long long (*sample_band)(xs_work *w, long long total, double lo, double hi, long long cap);
  int (*sort_pairs)(xs_work *w, uint64_t *key, double *val, long long n, int lo_bit, int hi_bit);
  void (*mat_starts)(xs_work *w, const uint64_t *key, long long n, long long start[XS_MATERIALS + 1]);
  unsigned long long (*lookups)(const xs_data *d, xs_work *w, const double *energy, const int *mat,
                                long long lo, long long hi, int want);
  unsigned long long (*sorted_lookups)(const xs_data *d, xs_work *w, const uint64_t *key,
                                       const double *energy, long long n);
  unsigned long long (*history)(const xs_data *d, xs_work *w, long long first, long long n,
                                long long lookups_per_particle);
  const char *(*vendor_sort)(xs_work *w);
  long long vendor_sort_max; /* most lookups vendor_sort takes (0: it has none) */
  long long max_lookups;     /* most lookups prepare takes (0: no limit) */
  /* Optional (--material-launch concurrent): waits for the sorted ranges' lookups
   * calls, which ran concurrently because w->ranges_concurrent was set; NULL:
   * this model launches them one after another. */
  void (*ranges_join)(xs_work *w);
  const char *concurrent_note; /* how ranges_join's model runs the ranges at once */
  const char *sort_note;   /* what sort_pairs is, reported with the sorted variants */
  const char *absent_note; /* why a primitive is NULL, reported with the variants NOT RUN */
} xs_kernels;

PP_DECLARE_MODEL_GETTERS(xs_kernels, xs_kernels_)

/* ---- per-item math, written once ----------------------------------------- */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
/* Read-only loads of the simulation data (it never changes during a run):
 * through the non-coherent read-only path on NVIDIA, which nvcc does not pick
 * for loads through struct members and clang's OpenMP NVPTX code never picks
 * by itself. Plain loads elsewhere; the values are the same. Define
 * XS_PLAIN_LOADS before including this header to keep plain loads. */
#if defined(__CUDACC__) && defined(__CUDA_ARCH__) && !defined(__clang__) && !defined(XS_PLAIN_LOADS)
#define XS_LDD(p) __ldg(p)
#define XS_LDI(p) __ldg(p)
#elif defined(__NVPTX__) && !defined(__CUDACC__) && !defined(XS_PLAIN_LOADS)
#define XS_LDD(p) __nvvm_ldg_d(p)
#define XS_LDI(p) __nvvm_ldg_i(p)
#else
#define XS_LDD(p) (*(p))
#define XS_LDI(p) (*(p))
#endif

PP_BEGIN_DEVICE

/* Material of a lookup from one LCG draw: XSBench's volume fractions, each
 * threshold summed from the top material down, in its order (bit-exact). */
PP_HD static inline int xs_pick_mat(uint64_t *seed) {
  const double dist[XS_MATERIALS] = {0.140, 0.052, 0.275, 0.134, 0.154, 0.064,
                                     0.066, 0.055, 0.008, 0.015, 0.025, 0.013};
  double roll = pp_lcg_next(seed);
  for (int i = 0; i < XS_MATERIALS; i++) {
    double running = 0;
    for (int j = i; j > 0; j--) running += dist[j];
    if (roll < running) return i;
  }
  return 0;
}

/* Energy and material of event lookup i: two draws from the stream skipped
 * 2i steps ahead of XSBench's starting seed. */
PP_HD static inline void xs_sample(long long i, double *energy, int *mat) {
  uint64_t seed = pp_lcg_skip(XS_SAMPLE_SEED, 2ull * (uint64_t)i);
  *energy = pp_lcg_next(&seed);
  *mat = xs_pick_mat(&seed);
}

/* Largest index lo in [0, n-1) with A[lo] <= e (XSBench's bisection). */
PP_HD static inline long xs_search_egrid(long n, double e, const double *PP_RESTRICT A) {
  long lo = 0, hi = n - 1, len = hi - lo;
  while (len > 1) {
    long mid = lo + len / 2;
    if (XS_LDD(&A[mid]) > e) hi = mid;
    else lo = mid;
    len = hi - lo;
  }
  return lo;
}

/* The same bisection over one nuclide's points, between lo and hi. */
PP_HD static inline long xs_search_nuclide(double e, const xs_point *PP_RESTRICT A, long lo, long hi) {
  long len = hi - lo;
  while (len > 1) {
    long mid = lo + len / 2;
    if (XS_LDD(&A[mid].energy) > e) hi = mid;
    else lo = mid;
    len = hi - lo;
  }
  return lo;
}

/* Where a lookup of energy e starts on the acceleration grid: the unionized
 * grid index (one search per lookup), the hash bin, or -1 (nuclide grid). */
PP_HD static inline long xs_grid_index(const xs_data *d, double e) {
  if (d->grid == XS_UNIONIZED) return xs_search_egrid(d->n_isotopes * d->n_gridpoints, e, d->egrid);
  if (d->grid == XS_HASH) {
    double du = 1.0 / d->hash_bins;
    return (long)(e / du);
  }
  return -1;
}

/* Lower bracketing point of energy e in nuclide nuc (never the last point),
 * on acceleration grid `grid` (a constant where xs_nuclides inlines it). */
PP_HD static inline const xs_point *xs_bracket(const xs_data *d, xs_grid grid, double e, int nuc, long idx) {
  const long ngp = d->n_gridpoints;
  const xs_point *g = d->nuclide_grid + (long)nuc * ngp;
  long lower;
  if (grid == XS_NUCLIDE) {
    lower = xs_search_nuclide(e, g, 0, ngp - 1);
  } else if (grid == XS_UNIONIZED) {
    lower = XS_LDI(&d->index_grid[idx * d->n_isotopes + nuc]);
  } else {
    long u_low = XS_LDI(&d->index_grid[idx * d->n_isotopes + nuc]);
    long u_high = idx == d->hash_bins - 1 ? ngp - 1 : XS_LDI(&d->index_grid[(idx + 1) * d->n_isotopes + nuc]) + 1;
    /* XSBench's edge rule: outside the bin's bracket, the grid's ends */
    if (e <= XS_LDD(&g[u_low].energy)) lower = 0;
    else if (e >= XS_LDD(&g[u_high].energy)) lower = ngp - 1;
    else lower = xs_search_nuclide(e, g, u_low, u_high);
  }
  if (lower == ngp - 1) lower--;
  return g + lower;
}

/* The nuclides of material mat summed into macro (zeroed) on grid `grid`:
 * each nuclide's five channels interpolated, hi - f (hi - lo), weighted by its
 * concentration, in the material's nuclide order, each product fused with its
 * sum (fma: as nvcc contracts XSBench's CUDA code; exact on every model). Each point's
 * value is loaded once (nvcc does not merge two read-only loads of one
 * address). */
PP_HD static inline void xs_nuclides(const xs_data *d, xs_grid grid, double e, int mat, long idx,
                                     double macro[XS_CHANNELS]) {
  for (int k = 0; k < XS_CHANNELS; k++) macro[k] = 0;
  const int nn = XS_LDI(&d->num_nucs[mat]);
  for (int j = 0; j < nn; j++) {
    const int nuc = XS_LDI(&d->mats[mat * d->max_num_nucs + j]);
    const double conc = XS_LDD(&d->concs[mat * d->max_num_nucs + j]);
    const xs_point *lo = xs_bracket(d, grid, e, nuc, idx), *hi = lo + 1;
    const double he = XS_LDD(&hi->energy);
    const double f = (he - e) / (he - XS_LDD(&lo->energy));
#define XS_CHANNEL(k, field)                                            \
  do {                                                                  \
    const double h_ = XS_LDD(&hi->field);                               \
    macro[k] = fma(fma(-f, h_ - XS_LDD(&lo->field), h_), conc, macro[k]); \
  } while (0)
    XS_CHANNEL(0, total);
    XS_CHANNEL(1, elastic);
    XS_CHANNEL(2, absorption);
    XS_CHANNEL(3, fission);
    XS_CHANNEL(4, nu_fission);
#undef XS_CHANNEL
  }
}

/* Macroscopic cross sections of material mat at energy e. One loop per grid
 * kind, so the grid's test is outside the nuclide loop (nvcc kept it inside,
 * a branch per nuclide). */
PP_HD static inline void xs_macro(const xs_data *d, double e, int mat, double macro[XS_CHANNELS]) {
  const long idx = xs_grid_index(d, e);
  if (d->grid == XS_UNIONIZED) xs_nuclides(d, XS_UNIONIZED, e, mat, idx, macro);
  else if (d->grid == XS_HASH) xs_nuclides(d, XS_HASH, e, mat, idx, macro);
  else xs_nuclides(d, XS_NUCLIDE, e, mat, idx, macro);
}

/* Verification value of one lookup: 1 + index of the largest channel (first
 * one on ties). The checksum is the sum over lookups, mod XS_HASH_MOD. */
PP_HD static inline unsigned xs_verify(const double macro[XS_CHANNELS]) {
  double max = -1.0;
  unsigned arg = 0;
  for (unsigned k = 0; k < XS_CHANNELS; k++)
    if (macro[k] > max) max = macro[k], arg = k;
  return arg + 1;
}

/* One lookup: its verification value. */
PP_HD static inline unsigned xs_lookup(const xs_data *d, double e, int mat) {
  double macro[XS_CHANNELS];
  xs_macro(d, e, mat, macro);
  return xs_verify(macro);
}

/* One particle of the history method: `lookups` dependent lookups, the
 * stream fast-forwarded by the number of channels above 1 after each. */
PP_HD static inline unsigned long long xs_history_particle(const xs_data *d, long long p,
                                                           long long lookups) {
  uint64_t seed = pp_lcg_skip(XS_SAMPLE_SEED, (uint64_t)p * (uint64_t)lookups * 10ull);
  double e = pp_lcg_next(&seed);
  int mat = xs_pick_mat(&seed);
  unsigned long long sum = 0;
  for (long long i = 0; i < lookups; i++) {
    double macro[XS_CHANNELS];
    xs_macro(d, e, mat, macro);
    sum += xs_verify(macro);
    uint64_t skip = 0;
    for (int k = 0; k < XS_CHANNELS; k++) skip += macro[k] > 1.0;
    if (skip) seed = pp_lcg_skip(seed, skip);
    e = pp_lcg_next(&seed);
    mat = xs_pick_mat(&seed);
  }
  return sum;
}

/* ---- sort keys ------------------------------------------------------------ */
/* Key of a (material, energy) pair: material in the top 4 bits, energy in
 * [0,1] as 60-bit fixed point below it, so one unsigned sort orders by
 * material then energy. The energy itself travels as the value. */
#define XS_KEY_MAT_SHIFT 60
PP_HD static inline uint64_t xs_sort_key(int mat, double e) {
  const uint64_t top = (1ull << XS_KEY_MAT_SHIFT) - 1;
  double scaled = e * 1152921504606846976.0; /* 2^60 */
  uint64_t q = scaled >= (double)top ? top : (uint64_t)scaled;
  return ((uint64_t)mat << XS_KEY_MAT_SHIFT) | q;
}
/* Key bits the sorted-energy variant (-k 6) sorts: the material and the top
 * 32 bits of energy. Energies closer than 2^-32 (far below any grid spacing)
 * may keep any order, which does not change the lookups' access pattern. */
#define XS_KEY_ENERGY_LO_BIT (XS_KEY_MAT_SHIFT - 32)
PP_HD static inline int xs_key_mat(uint64_t key) { return (int)(key >> XS_KEY_MAT_SHIFT); }
/* Digit of an LSD radix sort: `bits` bits of the key starting at `shift`. */
PP_HD static inline unsigned xs_radix_digit(uint64_t key, int shift, int bits) {
  return (unsigned)((key >> shift) & ((1ull << bits) - 1));
}
/* Entries of a device radix sort's digit-count array per scan block. */
#define XS_SCAN_BLOCK 4096
/* First index of material m or above in keys sorted by material. */
PP_HD static inline long long xs_mat_start(const uint64_t *PP_RESTRICT key, long long n, int m) {
  long long lo = 0, hi = n;
  while (lo < hi) {
    const long long mid = lo + (hi - lo) / 2;
    if (xs_key_mat(key[mid]) < m) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* ---- the split variants' selections --------------------------------------- */
/* Material 0 is fuel (-k 3). */
PP_HD static inline int xs_is_fuel(int mat) { return mat == 0; }
/* Which lookups a lookups call takes: one material (>= 0), or these. */
enum { XS_PICK_ALL = -1, XS_PICK_FUEL = -2, XS_PICK_OTHER = -3 };
PP_HD static inline int xs_picked(int mat, int want) {
  return want == XS_PICK_ALL || mat == want || (want == XS_PICK_FUEL && xs_is_fuel(mat)) ||
         (want == XS_PICK_OTHER && !xs_is_fuel(mat));
}

/* ---- energy bands (--split energy) ------------------------------------------ */
/* A rank of R takes the lookups whose energy lies in its band [r/R, (r+1)/R)
 * (xs_band_bounds): each rank samples all lookups and keeps its band, so its
 * sorted lookups are as dense in energy as one GPU's (a rank's share of a
 * contiguous split is a quarter as dense on 4: fewer grid neighbours shared).
 * A lane samples XS_BAND_LANE lookups `stride` apart: one skip-ahead, then
 * one multiply-add per lookup. It keeps the stream's state just after the
 * lookup's energy draw: the jump to the next lookup's (2 * stride steps)
 * commutes with a draw, so that state steps by the jump alone and the energy
 * needs no second multiply; the material is drawn only for kept ones.
 * cuda/hip and ompx stride by the warp width so that a warp's kept lookups
 * are written side by side, and count and write from one skip-ahead; host
 * and omp take consecutive lookups (stride 1). */
#define XS_BAND_LANE 64
PP_HD static inline void xs_band_bounds(int r, int R, double *lo, double *hi) {
  *lo = (double)r / (double)R; /* the same expression as rank r-1's hi: no gap, no overlap */
  *hi = r + 1 == R ? 2.0 : (double)(r + 1) / (double)R;
}
PP_HD static inline int xs_in_band(double e, double lo, double hi) { return e >= lo && e < hi; }
typedef struct xs_band_lane {
  uint64_t state, a, c; /* the stream after lookup i's energy draw; the jump to lookup i + stride */
  long long i, stride;
} xs_band_lane;
PP_HD static inline xs_band_lane xs_band_lane_at(long long i, long long stride) {
  xs_band_lane l;
  pp_lcg_jump(2ull * (uint64_t)stride, &l.a, &l.c);
  l.state = pp_lcg_skip(XS_SAMPLE_SEED, 2ull * (uint64_t)i + 1ull), l.i = i, l.stride = stride;
  return l;
}
PP_HD static inline double xs_band_energy(const xs_band_lane *l) { return pp_lcg_value(l->state); }
PP_HD static inline void xs_band_next(xs_band_lane *l) {
  l->state = (l->a * l->state + l->c) & PP_LCG_MASK, l->i += l->stride;
}
/* The lookup whose stream state (after its energy draw) is `state`, kept at
 * index `at` of energy[]/key[] if below cap. */
PP_HD static inline void xs_band_put(uint64_t state, long long at, long long cap, double *PP_RESTRICT energy,
                                     uint64_t *PP_RESTRICT key) {
  const double e = pp_lcg_value(state);
  uint64_t s = state;
  const int mat = xs_pick_mat(&s);
  if (at < cap) energy[at] = e, key[at] = xs_sort_key(mat, e);
}
/* Consecutive lanes (host, omp): how many of lane j's lookups of [0, total)
 * are in [lo, hi); and writing them from index `at` on. */
PP_HD static inline int xs_band_lane_count(long long j, long long total, double lo, double hi) {
  int kept = 0;
  xs_band_lane l = xs_band_lane_at(j * XS_BAND_LANE, 1);
  for (int k = 0; k < XS_BAND_LANE && l.i < total; k++, xs_band_next(&l))
    kept += xs_in_band(xs_band_energy(&l), lo, hi);
  return kept;
}
PP_HD static inline void xs_band_lane_write(long long j, long long total, double lo, double hi,
                                            long long at, long long cap, double *PP_RESTRICT energy,
                                            uint64_t *PP_RESTRICT key) {
  xs_band_lane l = xs_band_lane_at(j * XS_BAND_LANE, 1);
  for (int k = 0; k < XS_BAND_LANE && l.i < total; k++, xs_band_next(&l)) {
    if (xs_in_band(xs_band_energy(&l), lo, hi)) xs_band_put(l.state, at++, cap, energy, key);
  }
}
/* Lanes over `total` lookups. */
PP_HD static inline long long xs_band_lanes(long long total) { return (total + XS_BAND_LANE - 1) / XS_BAND_LANE; }

PP_END_DEVICE

/* (key, energy) pairs in order: how a band check compares two sets (host). */
typedef struct xs_key_val {
  uint64_t key;
  double val;
} xs_key_val;
static inline int xs_key_val_order(const void *a, const void *b) {
  const xs_key_val *x = (const xs_key_val *)a, *y = (const xs_key_val *)b;
  return x->key != y->key ? (x->key > y->key) - (x->key < y->key) : (x->val > y->val) - (x->val < y->val);
}
#if defined(__clang__)
#pragma STDC FP_CONTRACT DEFAULT
#endif

/* ---- problem (problem.c) --------------------------------------------------- */
typedef struct xs_sizes {
  const char *name;   /* small, large, XL, XXL */
  long n_isotopes, n_gridpoints;
} xs_sizes;

/* Sizes of `name` (case-insensitive; NULL if unknown); gridpoints > 0 overrides. */
int xs_sizes_for(const char *name, long gridpoints, xs_sizes *out);
/* Bytes of the simulation data for a grid type (XSBench's estimate, exact). */
double xs_data_bytes(const xs_sizes *z, int grid, int hash_bins);

typedef struct xs_problem {
  xs_data d;          /* host arrays */
  xs_point *grid_mem; /* owned storage behind d */
  double *egrid_mem, *concs_mem;
  int *index_mem, *num_nucs_mem, *mats_mem;
} xs_problem;

/* Generates XSBench's data bit for bit; returns 0, or -1 out of memory. */
int xs_problem_make(const xs_sizes *z, int grid, int hash_bins, xs_problem *pb);
void xs_problem_free(xs_problem *pb);
const char *xs_grid_name(int grid);
const char *xs_variant_name(int v);
int xs_variant_kernel_id(int v); /* XSBench CUDA -k id */

/* ---- variants (variants.c) ------------------------------------------------ */
/* One simulation of event variant v over lookups [first, first+n) composed
 * from k's primitives: its checksum sum (before the mod). */
unsigned long long xs_event(const xs_kernels *k, const xs_data *d, xs_work *w, int v,
                            long long first, long long n);
/* A sorted variant v over the energy band [lo, hi) of lookups [0, total)
 * (--split energy); *kept: how many the device kept (the caller checks it). */
unsigned long long xs_event_band(const xs_kernels *k, const xs_data *d, xs_work *w, int v,
                                 long long total, double lo, double hi, long long cap,
                                 long long *kept);
/* Why k cannot run variant v (a primitive it needs is NULL), or NULL. */
const char *xs_event_absent(const xs_kernels *k, int v);

/* The host side of an LSD radix sort, the same in every model: one
 * pass(ctx, from, to, n, shift, bits) per digit of key bits [lo_bit, hi_bit),
 * ping-ponging between the caller's arrays and the alternates; returns 1 when
 * the sorted pairs ended in the alternates. */
typedef void (*xs_radix_pass)(void *ctx, const uint64_t *k0, const double *v0, uint64_t *k1,
                              double *v1, long long n, int shift, int bits);
static inline int xs_radix_sort_passes(xs_radix_pass pass, void *ctx, uint64_t *key, double *val,
                                       uint64_t *key_alt, double *val_alt, long long n,
                                       int lo_bit, int hi_bit, int digit_bits) {
  uint64_t *k0 = key, *k1 = key_alt;
  double *v0 = val, *v1 = val_alt;
  int flipped = 0;
  if (n < 2) return 0;
  for (int shift = lo_bit; shift < hi_bit; shift += digit_bits) {
    const int bits = hi_bit - shift < digit_bits ? hi_bit - shift : digit_bits;
    pass(ctx, k0, v0, k1, v1, n, shift, bits);
    uint64_t *tk = k0; k0 = k1; k1 = tk;
    double *tv = v0; v0 = v1; v1 = tv;
    flipped = !flipped;
  }
  return flipped;
}

PP_EXTERN_C_END
#endif
