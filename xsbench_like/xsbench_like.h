/* xsbench_like: the macroscopic cross-section lookup of XSBench (ANL,
 * version 20), with XSBench's data, random streams and verification
 * checksum reproduced exactly, on every model.
 *
 * ---- For the authors of kernels/{omp,ompx}.c, cuda.cu, hip.hip ------------
 * A model file defines   const xs_kernels *xs_kernels_<model>(void);
 * (PP_MODEL_DISPATCH(m, xs_kernels_) finds it) and holds only the mapping of
 * the primitives below; the driver (variants.c) composes every event variant
 * (xs_variant, XSBench CUDA's -k) from them, once:
 *   baseline         sum_zero, sample_lookup, sum_read
 *   sampling         sum_zero, sample, lookups (all), sum_read
 *   material         sum_zero, sample, lookups per material, sum_read
 *   fuel             sum_zero, sample, lookups (fuel), lookups (other), sum_read
 *   sorted-material, sum_zero, sample (keyed), sort_pairs, mat_ranges,
 *   sorted-energy    lookups per material range, sum_read
 * A simulation is timed whole, as XSBench times it, so the primitives run on
 * the device and leave their results there (in the xs_work), and only
 * sum_read and mat_ranges bring values to the host. Data `d` and the work
 * are in the model's memory (device pointers; for host, host pointers).
 * The sorted variants build keys with xs_sort_key() and sort bits
 * [XS_KEY_MAT_SHIFT, 64) (material, -k 4) or [XS_KEY_ENERGY_LO_BIT, 64)
 * (material then energy, -k 6); the sort runs on the device in every model
 * (CUB/hipCUB allowed; the OpenMP models need their own, e.g. an LSD radix
 * sort through xs_radix_sort_passes) and its time counts. The driver also
 * runs it alone to check it.
 * Everything a lookup computes is below, once; do not re-derive it per model.
 * Bit-exact results need the multiply-then-add order kept as written: this
 * header turns FP contraction off for clang (C, C++, HIP) and uses
 * __dmul_rn under nvcc, so no FMA may merge XS_MUL with the add that follows.
 * ---------------------------------------------------------------------------*/
#ifndef XSBENCH_LIKE_H
#define XSBENCH_LIKE_H
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

/* The scratch the variants run in, for up to n lookups, in the model's
 * memory: allocated by the driver (xs_work_alloc) through the model's device
 * ops, so every model has the same one. */
typedef struct xs_work {
  double *energy, *energy_alt;  /* [n] sampled energies; the sort's second value buffer */
  int *mat;                     /* [n] sampled materials */
  uint64_t *key, *key_alt;      /* [n] sort keys; the sort's second key buffer */
  unsigned *counts, *bsum;      /* the device sort's digit counts (sort_counts(n) of them)
                                   and their sums per XS_SCAN_BLOCK */
  unsigned long long *sum;      /* [XS_SUM_SLOTS] the device checksum, in slots */
  long long *start;             /* [XS_MATERIALS + 1] material ranges found on the device */
  unsigned long long host_sum;  /* the checksum where the model reduces to the host */
  void *vendor;                 /* the vendor sort's scratch (--sort vendor), or NULL */
  size_t vendor_bytes;
} xs_work;

/* Bytes the fit check counts for the scratch: xs_work per lookup (36), the
 * digit counts, and room for the slots and the vendor sort's scratch. */
#define XS_WORK_BYTES_PER_LOOKUP 48.0
#define XS_WORK_BYTES_FIXED (64.0 * 1048576.0)

/* Which sampled lookups a split pass takes: one material (>= 0), or these. */
enum { XS_PICK_ALL = -1, XS_PICK_FUEL = -2, XS_PICK_OTHER = -3 };

typedef struct xs_kernels {
  long long max_lookups;                 /* most lookups one call takes */
  long long (*sort_counts)(long long n); /* entries of work.counts for n pairs; NULL: none */
  /* The checksum: zeroed before a simulation, added to by every lookup
   * primitive (the verification values of its lookups), read back on the
   * host after. NULL, NULL: the model adds to work.host_sum itself. */
  void (*sum_zero)(xs_work *w);
  unsigned long long (*sum_read)(xs_work *w);
  /* Samples and looks up lookups [first, first+n) in one pass (baseline). */
  void (*sample_lookup)(const xs_data *d, xs_work *w, long long first, long long n);
  /* Samples lookups [first, first+n) (xs_sample) into energy[0, n) and mat,
   * or with `keyed` into energy and key (xs_sort_key; mat untouched). */
  void (*sample)(xs_work *w, long long first, long long n, int keyed);
  /* Looks up entries [lo, hi) of (energy, mat) whose material `want` picks
   * (xs_picked); mat == NULL: all are of material `want` (a sorted range). */
  void (*lookups)(const xs_data *d, xs_work *w, const double *energy, const int *mat, long long lo,
                  long long hi, int want);
  /* Sorts n (key, val) pairs ascending by key bits [lo_bit, hi_bit) (any
   * order among equal ones) through key_alt and energy_alt; returns 1 when
   * the sorted pairs ended there. The vendor's sort once vendor_sort ran. */
  int (*sort_pairs)(xs_work *w, uint64_t *key, double *val, long long n, int lo_bit, int hi_bit);
  /* start[m] (on the host): the first of n keys sorted by material whose
   * material is m or above (xs_mat_start), m = 0..XS_MATERIALS. */
  void (*mat_ranges)(xs_work *w, const uint64_t *key, long long n, long long start[XS_MATERIALS + 1]);
  /* XSBench's history method, particles [first, first+n): their checksum.
   * NULL except on host. */
  unsigned long long (*history)(const xs_data *d, long long first, long long n,
                                long long lookups_per_particle);
  const char *sort_note; /* the sorted variants' sort, for the report */
  /* --sort vendor: the vendor library's sort, for at most vendor_sort_max
   * pairs (0: none). vendor_sort readies it in w for n pairs (its scratch in
   * w->vendor, freed by the driver) and returns the note naming it. */
  long long vendor_sort_max;
  const char *(*vendor_sort)(xs_work *w, long long n);
} xs_kernels;

PP_DECLARE_MODEL_GETTERS(xs_kernels, xs_kernels_)

/* ---- per-item math, written once ----------------------------------------- */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#if defined(__CUDACC__) && defined(__CUDA_ARCH__) && !defined(__clang__)
#define XS_MUL(a, b) __dmul_rn((a), (b))
#else
#define XS_MUL(a, b) ((a) * (b))
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

/* Lower bracketing point of energy e in nuclide nuc (never the last point). */
PP_HD static inline const xs_point *xs_bracket(const xs_data *d, double e, int nuc, long idx) {
  const long ngp = d->n_gridpoints;
  const xs_point *g = d->nuclide_grid + (long)nuc * ngp;
  long lower;
  if (d->grid == XS_NUCLIDE) {
    lower = xs_search_nuclide(e, g, 0, ngp - 1);
  } else if (d->grid == XS_UNIONIZED) {
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

/* Macroscopic cross sections of material mat at energy e: each nuclide's
 * five channels interpolated, weighted by its concentration, summed in the
 * material's nuclide order. */
PP_HD static inline void xs_macro(const xs_data *d, double e, int mat, double macro[XS_CHANNELS]) {
  const long idx = xs_grid_index(d, e);
  for (int k = 0; k < XS_CHANNELS; k++) macro[k] = 0;
  const int nn = XS_LDI(&d->num_nucs[mat]);
  for (int j = 0; j < nn; j++) {
    const int nuc = XS_LDI(&d->mats[mat * d->max_num_nucs + j]);
    const double conc = XS_LDD(&d->concs[mat * d->max_num_nucs + j]);
    const xs_point *lo = xs_bracket(d, e, nuc, idx), *hi = lo + 1;
    const double he = XS_LDD(&hi->energy);
    const double f = (he - e) / (he - XS_LDD(&lo->energy));
#define XS_CHANNEL(k, field) \
    macro[k] += XS_MUL(XS_LDD(&hi->field) - XS_MUL(f, XS_LDD(&hi->field) - XS_LDD(&lo->field)), conc)
    XS_CHANNEL(0, total);
    XS_CHANNEL(1, elastic);
    XS_CHANNEL(2, absorption);
    XS_CHANNEL(3, fission);
    XS_CHANNEL(4, nu_fission);
#undef XS_CHANNEL
  }
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
/* Entries of a device sort's digit counts per scan block (omp's lane sort,
 * the tile sort of cuda, hip and ompx). */
#define XS_SCAN_BLOCK 4096
/* Digit of an LSD radix sort: `bits` bits of the key starting at `shift`. */
PP_HD static inline unsigned xs_radix_digit(uint64_t key, int shift, int bits) {
  return (unsigned)((key >> shift) & ((1ull << bits) - 1));
}
/* Material ranges of the fuel split (-k 3): material 0 is fuel. */
PP_HD static inline int xs_is_fuel(int mat) { return mat == 0; }
/* Whether a split pass for `want` (a material or XS_PICK_*) takes material mat. */
PP_HD static inline int xs_picked(int mat, int want) {
  return want == XS_PICK_ALL || mat == want || (want == XS_PICK_FUEL && xs_is_fuel(mat)) ||
         (want == XS_PICK_OTHER && !xs_is_fuel(mat));
}
/* First index of material m or above in n keys sorted by material. */
PP_HD static inline long long xs_mat_start(const uint64_t *PP_RESTRICT key, long long n, int m) {
  long long lo = 0, hi = n;
  while (lo < hi) {
    const long long mid = lo + (hi - lo) / 2;
    if (xs_key_mat(key[mid]) < m) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

PP_END_DEVICE
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

/* The host side of an LSD radix sort, the same in every model's sort_pairs:
 * one pass(w, from, to, n, shift, bits) per digit of key bits [lo_bit,
 * hi_bit), ping-ponging between the caller's arrays and w's key_alt and
 * energy_alt; returns 1 when the sorted pairs ended in those. */
typedef void (*xs_radix_pass)(xs_work *w, const uint64_t *k0, const double *v0, uint64_t *k1,
                              double *v1, long long n, int shift, int bits);
static inline int xs_radix_sort_passes(xs_radix_pass pass, xs_work *w, uint64_t *key, double *val,
                                       long long n, int lo_bit, int hi_bit, int digit_bits) {
  uint64_t *k0 = key, *k1 = w->key_alt;
  double *v0 = val, *v1 = w->energy_alt;
  int flipped = 0;
  if (n < 2) return 0;
  for (int shift = lo_bit; shift < hi_bit; shift += digit_bits) {
    const int bits = hi_bit - shift < digit_bits ? hi_bit - shift : digit_bits;
    pass(w, k0, v0, k1, v1, n, shift, bits);
    uint64_t *tk = k0; k0 = k1; k1 = tk;
    double *tv = v0; v0 = v1; v1 = tv;
    flipped = !flipped;
  }
  return flipped;
}

PP_EXTERN_C_END
#endif
