/* xsbench_like, omp model: standard OpenMP 5 target offload only (combined
 * `target teams distribute parallel for simd` with `reduction`, `simd` being
 * PP_OMP_SIMD of pp/omp_loop.h (not with GCC, below), and for the radix sort's scan SPMD-style teams
 * with `omp barrier`). Every primitive is
 * expressible: lookups are one loop iteration each (thread_limit LOOKUP_TPB, the
 * team count left to the runtime), each lookups region returns its sum by a
 * `reduction(+)` on the device, and sort_pairs sorts on the device with the
 * LSD radix sort below (device/sort_lanes.h: 4-bit digits, a lane of the
 * loop per chunk of keys, digit counts per lane, an exclusive scan, a stable
 * scatter). */
#include <limits.h>
#include <omp.h>
#include "pp/omp_loop.h"
#include "xsbench_like.h"
#include "device/omp_args.h"
#include "device/omp_work.h"
#include "device/sort_lanes.h"

#define TPB 256
/* Threads per team of the three lookup kernels: LOOKUP_TPB is 1024 with
 * clang, so ptxas caps registers at 64. clang turns a constant thread_limit
 * into the PTX bound .maxntid, and ptxas then ignores any register cap and
 * sizes registers for that many threads: at 256 the lookups take so many
 * that only a quarter of the warps an SM holds are resident. Lookups are
 * latency-bound random gathers, so resident warps are what hides the
 * latency. The sorted variants' loop (one material per launch) keeps 256
 * (SORTED_TPB): there 1024 made sorted-material slower. GCC keeps 256: its
 * OpenMP thread is a warp (pp/omp_loop.h). See docs/performance.md,
 * xsbench_like. */
#if PP_OMP_GCC
#define LOOKUP_TPB TPB
#else
#define LOOKUP_TPB 1024
#endif
#define SORTED_TPB TPB

/* GCC 12's simd (SIMT) code of these loops computes a wrong checksum (every
 * variant; see docs/performance.md, Compilers): GCC builds them without
 * simd. */
#if PP_OMP_GCC
#define XS_OMP_SIMD
#else
#define XS_OMP_SIMD PP_OMP_SIMD
#endif

static xs_work *prepare(const xs_data *d, long long n) {
  (void)d;
  const long long m = n > 0 ? n : 1;
  return xs_omp_work_new(n, XS_LANE_COUNTS(m), XS_LANE_SCAN_BLOCKS(m), 0);
}

/* ---- lookups ---------------------------------------------------------------- */
static unsigned long long fused(const xs_data *d, xs_work *w, long long first, long long n) {
  (void)w;
  XS_ARGS_UNPACK(d);
  unsigned long long sum = 0;
#pragma omp target teams distribute parallel for XS_OMP_SIMD thread_limit(PP_OMP_TL(LOOKUP_TPB)) reduction(+ : sum) \
    device(pp_omp_device) is_device_ptr(XS_ARGS_PTRS)
  for (long long i = 0; i < n; i++) {
    XS_ARGS_REPACK(dd);
    double e;
    int mat;
    xs_sample(first + i, &e, &mat);
    sum += xs_lookup(&dd, e, mat);
  }
  return sum;
}

static void sample(xs_work *w, long long first, long long n, int keys) {
  double *energy = w->energy;
  int *mat = w->mat;
  uint64_t *key = w->key;
  if (keys) {
#pragma omp target teams distribute parallel for XS_OMP_SIMD thread_limit(PP_OMP_TL(TPB)) device(pp_omp_device) \
    is_device_ptr(key, energy)
    for (long long i = 0; i < n; i++) {
      int m;
      xs_sample(first + i, &energy[i], &m);
      key[i] = xs_sort_key(m, energy[i]);
    }
  } else {
#pragma omp target teams distribute parallel for XS_OMP_SIMD thread_limit(PP_OMP_TL(TPB)) device(pp_omp_device) \
    is_device_ptr(energy, mat)
    for (long long i = 0; i < n; i++) xs_sample(first + i, &energy[i], &mat[i]);
  }
}

/* Band sampling: a lane of XS_BAND_LANE lookups per loop iteration, each
 * reserving its kept lookups with an atomic capture on a mapped counter
 * (standard OpenMP has no team scan to share one atomic among lanes). */
static long long sample_band(xs_work *w, long long total, double lo, double hi, long long cap) {
  double *energy = w->energy;
  uint64_t *key = w->key;
  const long long lanes = xs_band_lanes(total);
  unsigned long long count = 0;
#pragma omp target teams distribute parallel for thread_limit(PP_OMP_TL(TPB)) device(pp_omp_device) \
    is_device_ptr(energy, key) map(tofrom : count)
  for (long long j = 0; j < lanes; j++) {
    const unsigned long long kept = (unsigned long long)xs_band_lane_count(j, total, lo, hi);
    unsigned long long at;
#pragma omp atomic capture
    { at = count; count += kept; }
    xs_band_lane_write(j, total, lo, hi, (long long)at, cap, energy, key);
  }
  return (long long)count;
}

/* Lookups [lo, hi) of (energy, mat) whose material `want` selects
 * (xs_picked); with mat == NULL every lookup is of material `want`. */
static unsigned long long lookups(const xs_data *d, xs_work *w, const double *energy, const int *mat,
                                  long long lo, long long hi, int want) {
  (void)w;
  XS_ARGS_UNPACK(d);
  unsigned long long sum = 0;
  if (!mat) {
#pragma omp target teams distribute parallel for XS_OMP_SIMD thread_limit(PP_OMP_TL(SORTED_TPB)) reduction(+ : sum) \
    device(pp_omp_device) is_device_ptr(XS_ARGS_PTRS, energy)
    for (long long i = lo; i < hi; i++) {
      XS_ARGS_REPACK(dd);
      sum += xs_lookup(&dd, energy[i], want);
    }
  } else {
#pragma omp target teams distribute parallel for XS_OMP_SIMD thread_limit(PP_OMP_TL(LOOKUP_TPB)) reduction(+ : sum) \
    device(pp_omp_device) is_device_ptr(XS_ARGS_PTRS, energy, mat)
    for (long long i = lo; i < hi; i++) {
      XS_ARGS_REPACK(dd);
      const int m = mat[i];
      if (xs_picked(m, want)) sum += xs_lookup(&dd, energy[i], m);
    }
  }
  return sum;
}

/* --material-launch single: every sorted lookup in one region, its material
 * from its key (the sorted ranges' loop shape). */
static unsigned long long sorted_lookups(const xs_data *d, xs_work *w, const uint64_t *key,
                                         const double *energy, long long n) {
  (void)w;
  XS_ARGS_UNPACK(d);
  unsigned long long sum = 0;
#pragma omp target teams distribute parallel for XS_OMP_SIMD thread_limit(PP_OMP_TL(SORTED_TPB)) reduction(+ : sum) \
    device(pp_omp_device) is_device_ptr(XS_ARGS_PTRS, key, energy)
  for (long long i = 0; i < n; i++) {
    XS_ARGS_REPACK(dd);
    sum += xs_lookup(&dd, energy[i], xs_key_mat(key[i]));
  }
  return sum;
}

/* ---- LSD radix sort ------------------------------------------------------- */
/* Threads per team of the regions whose teams open a parallel region of their
 * own: the host as a device runs such a team on one thread (more, on a node of
 * few cores, and libomp cannot form the team: a warning per region). */
#ifdef PP_OFFLOAD_CPU
#define NESTED_TPB 1
#else
#define NESTED_TPB TPB
#endif
/* Exclusive scan, in place, of each block of `blen` entries of a[0, m), block
 * b starting from offs[b] (0 without offs): SPMD teams, each thread scans one
 * contiguous piece, thread 0 scans the pieces' totals between two barriers.
 * Correct for any number of threads the runtime grants. */
static void scan_blocks(unsigned *a, long long m, long long blen, const unsigned *offs, int teams) {
  const long long nb = (m + blen - 1) / blen;
#pragma omp target teams num_teams(teams) thread_limit(PP_OMP_TL(NESTED_TPB)) device(pp_omp_device) \
    is_device_ptr(a, offs)
  {
    unsigned part[TPB + 1]; /* team-shared: the threads' piece totals */
#pragma omp parallel num_threads(NESTED_TPB)
    {
      const int t = omp_get_thread_num(), nth = omp_get_num_threads();
      for (long long b = omp_get_team_num(); b < nb; b += omp_get_num_teams()) {
        const long long lo = b * blen, len = (b + 1) * blen < m ? blen : m - lo;
        const long long per = (len + nth - 1) / nth;
        const long long s0 = lo + t * per < lo + len ? lo + t * per : lo + len;
        const long long s1 = s0 + per < lo + len ? s0 + per : lo + len;
        unsigned s = 0;
        for (long long i = s0; i < s1; i++) s += a[i];
        part[t] = s;
#pragma omp barrier
        if (t == 0) {
          unsigned run = offs ? offs[b] : 0;
          for (int j = 0; j < nth; j++) {
            const unsigned x = part[j];
            part[j] = run, run += x;
          }
        }
#pragma omp barrier
        unsigned run = part[t];
        for (long long i = s0; i < s1; i++) {
          const unsigned x = a[i];
          a[i] = run, run += x;
        }
#pragma omp barrier
      }
    }
  }
}

/* One pass: digit counts per lane, their exclusive scan (digit-major, so a
 * lane's count of digit g becomes where its first key of digit g goes), and
 * the stable scatter from (k0, v0) to (k1, v1). */
static void radix_pass(void *p, const uint64_t *k0, const double *v0, uint64_t *k1, double *v1,
                       long long n, int shift, int bits) {
  xs_dev_work *g = p;
  unsigned *counts = g->counts, *bsum = g->bsum;
  const long long nl = XS_LANES(n), m = XS_RADIX * nl, nb = XS_LANE_SCAN_BLOCKS(n);
#pragma omp target teams distribute parallel for XS_OMP_SIMD thread_limit(PP_OMP_TL(TPB)) device(pp_omp_device) \
    is_device_ptr(k0, counts)
  for (long long l = 0; l < nl; l++) xs_lane_count(k0, n, l, nl, shift, bits, counts);
#pragma omp target teams distribute thread_limit(PP_OMP_TL(NESTED_TPB)) device(pp_omp_device) \
    is_device_ptr(counts, bsum)
  for (long long b = 0; b < nb; b++) {
    const long long lo = b * XS_SCAN_BLOCK, hi = lo + XS_SCAN_BLOCK < m ? lo + XS_SCAN_BLOCK : m;
    unsigned s = 0;
#pragma omp parallel for XS_OMP_SIMD reduction(+ : s)
    for (long long i = lo; i < hi; i++) s += counts[i];
    bsum[b] = s;
  }
  scan_blocks(bsum, nb, nb, NULL, 1);
  scan_blocks(counts, m, XS_SCAN_BLOCK, bsum, nb < INT_MAX ? (int)nb : INT_MAX);
#pragma omp target teams distribute parallel for XS_OMP_SIMD thread_limit(PP_OMP_TL(TPB)) device(pp_omp_device) \
    is_device_ptr(k0, v0, k1, v1, counts)
  for (long long l = 0; l < nl; l++) xs_lane_scatter(k0, v0, k1, v1, n, l, nl, shift, bits, counts);
}

static int sort_pairs(xs_work *w, uint64_t *key, double *val, long long n, int lo_bit, int hi_bit) {
  return xs_radix_sort_passes(radix_pass, w, key, val, w->key_alt, w->val_alt, n, lo_bit, hi_bit,
                              XS_DIGIT_BITS);
}

/* The ranges come back with the region (map from): no slots on the device. */
static void mat_starts(xs_work *w, const uint64_t *key, long long n, long long start[XS_MATERIALS + 1]) {
  (void)w;
#pragma omp target teams distribute parallel for XS_OMP_SIMD device(pp_omp_device) is_device_ptr(key) \
    map(from : start[0 : XS_MATERIALS + 1])
  for (int m = 0; m <= XS_MATERIALS; m++) start[m] = xs_mat_start(key, n, m);
}

#define SORT_NOTE "device LSD radix sort in standard OpenMP (4-bit digits, counts per lane of " \
  PP_STR(XS_LANE_KEYS) " keys, team scan)"
const xs_kernels *xs_kernels_omp(void) {
  static const xs_kernels k = {.prepare = prepare, .release = xs_omp_work_free, .fused = fused,
                               .sample = sample, .sample_band = sample_band, .sort_pairs = sort_pairs,
                               .mat_starts = mat_starts, .lookups = lookups,
                               .sorted_lookups = sorted_lookups, .sort_note = SORT_NOTE,
                               .max_lookups = XS_OMP_MAX_LOOKUPS};
  return &k;
}
