/* xsbench_like, ompx model: LLVM OpenMP kernel mode, the kernels of
 * kernels/cuda.cu in OpenMP spelling: bare launches of 256-thread teams, one
 * lookup per thread (exactly ceil(n/256) teams, no grid-stride loop; the
 * sorted-material lookups from a capped grid, as cuda: XS_UNSORTED_WARP_SHARE), each
 * thread's verification values summed in a register, then per warp by
 * shuffles (ompx_shfl_down_sync_i) and one 64-bit atomic add per warp into
 * one of XS_SUM_SLOTS device slots (no team barrier); the primitives of
 * xs_kernels, composed by variants.c. sort_pairs sorts on the device with
 * the tile LSD radix sort of device/sort_tiles.h (ballots:
 * ompx_ballot_sync; its look-back: volatile loads and stores, a fence), the one cuda runs by
 * default; band sampling is device/sample_band.h's. With --material-launch
 * concurrent, sorted-energy's ranges run as one region (run_queue), where
 * cuda has a stream per range; with single, one region takes every sorted
 * lookup, its material from its key (sorted_lookups), as cuda. */
#include <omp.h>
#include <ompx.h>
#include "pp/device.h"
#include "pp/ompx_util.h"
#include "xsbench_like.h"
#include "device/omp_args.h"
#include "device/omp_work.h"

#pragma omp begin declare target
#define XS_TILE_FN static inline
#define XS_TILE_WARP PP_OMPX_WARP
#define XS_TILE_SYNC() ompx_sync_block_acq_rel()
#define XS_TILE_BALLOT(p) ompx_ballot_sync(~0ull, (p))
#define XS_TILE_POPC(x) __builtin_popcountll(x)
#define XS_TILE_SH_ADD(p, v) __atomic_fetch_add((p), (v), __ATOMIC_RELAXED)
#define XS_TILE_GL_ADD(p, v) __atomic_fetch_add((p), (v), __ATOMIC_RELAXED)
/* status words as cuda.cu: volatile loads and stores, a device-wide fence
 * before the store, spelled per target as LLVM 19's device runtime spells
 * its own (its NVPTX backend selects no atomic store with release and no
 * __atomic_thread_fence) */
#if defined(__NVPTX__)
#define XS_TILE_FENCE() __nvvm_membar_gl()
#elif defined(__AMDGCN__)
#define XS_TILE_FENCE() __builtin_amdgcn_fence(__ATOMIC_RELEASE, "agent")
#else
#define XS_TILE_FENCE() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#endif
#define XS_TILE_LOAD(p) (*(const volatile unsigned long long *)(p))
#define XS_TILE_PUBLISH(p, v) (XS_TILE_FENCE(), *(volatile unsigned long long *)(p) = (v))
#define XS_TILE_SPIN() ((void)0)
#include "device/sort_tiles.h"
/* The sum of v over the warp's lanes, in lane 0 (all lanes call it together). */
static inline unsigned warp_sum(unsigned v) {
  for (int d = PP_OMPX_WARP / 2; d > 0; d /= 2)
    v += (unsigned)ompx_shfl_down_sync_i(~0ull, (int)v, d, PP_OMPX_WARP);
  return v;
}
#define XS_BAND_WARP_SUM(v) ((int)warp_sum((unsigned)(v)))
/* LLVM 19's ompx.h has no warp barrier */
#if defined(__NVPTX__)
#define XS_BAND_WARP_SYNC() __nvvm_bar_warp_sync(~0u)
#elif defined(__AMDGCN__)
#define XS_BAND_WARP_SYNC() (__builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront"), \
                             __builtin_amdgcn_wave_barrier(), __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront"))
#else
#define XS_BAND_WARP_SYNC() ((void)0)
#endif
#define XS_BAND_RESERVE(p, v) __atomic_fetch_add((p), (v), __ATOMIC_RELAXED)
#include "device/sample_band.h"
#pragma omp end declare target

#define TPB 256
_Static_assert(TPB == XS_BAND_TPB, "the band sampler's block is a launch's");
#define MAX_BLOCKS (1u << 24) /* as cuda.cu: max_lookups is UINT_MAX */

static int blocks_for(long long n) {
  const long long b = (n + TPB - 1) / TPB;
  if (b > (long long)MAX_BLOCKS) pp_device_fail(PP_OMPX, "xsbench_like launch", "grid too large");
  return b < 1 ? 1 : (int)b;
}

#define LAUNCH(nb, ...)                                                                  \
  PP_PRAGMA(omp target teams ompx_bare num_teams(nb) thread_limit(TPB)                  \
            device(pp_omp_device) __VA_ARGS__)
/* The thread's one item i of [lo, hi), if in range (as cuda.cu: no
 * grid-stride loop, which would cost the lookup kernels registers). */
#define THREAD_ITEM(i, lo, hi)                                                               \
  for (long long i = (lo) + (long long)ompx_block_id_x() * TPB + ompx_thread_id_x(),          \
                 i##_once = 1;                                                               \
       i##_once && i < (hi); i##_once = 0)

#pragma omp begin declare target
/* Adds the warp's verification values to its slot of the device checksum
 * (every lane of the warp calls it; no team barrier). */
static inline void warp_add(unsigned v, unsigned long long *sum) {
  v = warp_sum(v);
  const int t = ompx_thread_id_x();
  const unsigned warp = (unsigned)ompx_block_id_x() * (TPB / PP_OMPX_WARP) + (unsigned)t / PP_OMPX_WARP;
  if (t % PP_OMPX_WARP == 0) {
    unsigned long long *slot = &sum[warp % XS_SUM_SLOTS];
#pragma omp atomic update
    *slot += v;
  }
}
#pragma omp end declare target

/* ---- the checksum and the lookups -------------------------------------------- */
static unsigned long long sum_read(xs_work *w) {
  unsigned long long slot[XS_SUM_SLOTS];
  if (omp_target_memcpy(slot, ((xs_dev_work *)w)->sum, sizeof slot, 0, 0, omp_get_initial_device(),
                        pp_omp_device))
    pp_device_fail(PP_OMPX, "xsbench_like checksum", "omp_target_memcpy failed");
  return xs_sum_gained((xs_dev_work *)w, slot);
}

/* Adds to the device checksum: returns 0. */
static unsigned long long fused(const xs_data *d, xs_work *w, long long first, long long n) {
  XS_ARGS_UNPACK(d);
  unsigned long long *sum = ((xs_dev_work *)w)->sum;
  LAUNCH(blocks_for(n), is_device_ptr(XS_ARGS_PTRS, sum)) {
    XS_ARGS_REPACK(dd);
    unsigned v = 0;
    THREAD_ITEM(i, 0, n) {
      double e;
      int mat;
      xs_sample(first + i, &e, &mat);
      v += xs_lookup(&dd, e, mat);
    }
    warp_add(v, sum);
  }
  return 0;
}

static void sample(xs_work *w, long long first, long long n, int keys) {
  double *energy = w->energy;
  int *mat = w->mat;
  uint64_t *key = w->key;
  if (keys) {
    LAUNCH(blocks_for(n), is_device_ptr(key, energy))
    THREAD_ITEM(i, 0, n) {
      double e;
      int m;
      xs_sample(first + i, &e, &m);
      energy[i] = e, key[i] = xs_sort_key(m, e);
    }
  } else {
    LAUNCH(blocks_for(n), is_device_ptr(energy, mat))
    THREAD_ITEM(i, 0, n) xs_sample(first + i, &energy[i], &mat[i]);
  }
}

/* Band sampling: device/sample_band.h. */
static long long sample_band(xs_work *w, long long total, double lo, double hi, long long cap) {
  double *energy = w->energy;
  uint64_t *key = w->key;
  xs_dev_work *g = (xs_dev_work *)w;
  unsigned long long *count = g->band_count;
  const unsigned long long seen = g->band_seen;
  const long long teams = XS_BAND_BLOCKS(total);
  if (teams > (long long)MAX_BLOCKS) pp_device_fail(PP_OMPX, "xsbench_like launch", "grid too large");
  LAUNCH((int)teams, is_device_ptr(energy, key, count) ompx_dyn_cgroup_mem(XS_BAND_SHMEM))
  xs_band_block(total, lo, hi, cap, energy, key, count, seen, ompx_block_id_x(), ompx_thread_id_x(),
                (unsigned long long *)llvm_omp_target_dynamic_shared_alloc());
  if (omp_target_memcpy(&g->band_seen, count, sizeof g->band_seen, 0, 0, omp_get_initial_device(), pp_omp_device))
    pp_device_fail(PP_OMPX, "xsbench_like band count", "omp_target_memcpy failed");
  return (long long)(g->band_seen - seen);
}

/* The sorted ranges of --material-launch concurrent, in one target region:
 * LLVM 19 runs each nowait region as a task of a hidden helper thread that
 * launches it on a stream of its own and waits for it, a cost per range that
 * one region pays once. A team finds its range among the queued ones' team
 * offsets; the fuel's range, queued first, takes the first teams. */
static void run_queue(xs_work *w) {
  xs_dev_work *g = (xs_dev_work *)w;
  const xs_range_queue q = g->queued;
  g->queued.n = 0;
  if (q.n == 0) return;
  XS_ARGS_UNPACK(q.d);
  const double *energy = q.energy;
  unsigned long long *sum = g->sum;
  LAUNCH((int)q.team[q.n], is_device_ptr(XS_ARGS_PTRS, energy, sum) firstprivate(q)) {
    XS_ARGS_REPACK(dd);
    const long long b = ompx_block_id_x();
    int r = 0;
    while (r + 1 < q.n && b >= q.team[r + 1]) r++;
    const long long i = q.lo[r] + (b - q.team[r]) * TPB + ompx_thread_id_x();
    const unsigned v = i < q.hi[r] ? xs_lookup(&dd, energy[i], q.want[r]) : 0u;
    warp_add(v, sum);
  }
}
static void queue_range(xs_work *w, const xs_data *d, const double *energy, long long lo, long long hi,
                        int want) {
  xs_range_queue *q = &((xs_dev_work *)w)->queued;
  if (q->n == XS_MATERIALS || (q->n > 0 && (q->d != d || q->energy != energy))) run_queue(w);
  if (q->n == 0) q->d = d, q->energy = energy, q->team[0] = 0;
  const int r = q->n++;
  q->lo[r] = lo, q->hi[r] = hi, q->want[r] = want;
  q->team[r + 1] = q->team[r] + blocks_for(hi - lo);
  if (q->team[r + 1] > (long long)MAX_BLOCKS) pp_device_fail(PP_OMPX, "xsbench_like launch", "grid too large");
}

/* A lookups region's body (the statement after LAUNCH) over lookups [lo, hi)
 * of energy[], lookup i of material MAT (an expression of i), adding to the
 * device checksum `sum`: in random energy order from a capped grid striding
 * over them (XS_UNSORTED_WARP_SHARE), or one lookup per thread. */
#define STRIDED_LOOKUPS(lo, hi, MAT)                                                            \
  {                                                                                             \
    XS_ARGS_REPACK(dd);                                                                         \
    unsigned v = 0;                                                                             \
    for (long long i = lo + (long long)ompx_block_id_x() * TPB + ompx_thread_id_x(); i < hi;    \
         i += (long long)ompx_grid_dim_x() * TPB)                                               \
      v += xs_lookup(&dd, energy[i], MAT);                                                      \
    warp_add(v, sum);                                                                           \
  }
#define THREAD_LOOKUPS(lo, hi, MAT)                                                             \
  {                                                                                             \
    XS_ARGS_REPACK(dd);                                                                         \
    unsigned v = 0;                                                                             \
    THREAD_ITEM(i, lo, hi) v += xs_lookup(&dd, energy[i], MAT);                                 \
    warp_add(v, sum);                                                                           \
  }

/* Lookups [lo, hi) whose material `want` selects (xs_picked); with
 * mat == NULL all are of material `want` (a sorted range). Adds to the
 * device checksum: returns 0. */
static unsigned long long lookups(const xs_data *d, xs_work *w, const double *energy, const int *mat,
                                  long long lo, long long hi, int want) {
  XS_ARGS_UNPACK(d);
  unsigned long long *sum = ((xs_dev_work *)w)->sum;
  const int cap = ((xs_dev_work *)w)->unsorted_blocks;
  /* --material-launch concurrent: an unsorted range's region is a nowait
   * target task (LLVM's offload runtime runs each on a stream of its own); a
   * sorted range joins the queue that ranges_join launches as one region */
  const int conc = !mat && w->ranges_concurrent;
  if (!mat && w->energies_unsorted && cap) {
    const int nb = blocks_for(hi - lo) < cap ? blocks_for(hi - lo) : cap;
    if (conc) {
      LAUNCH(nb, nowait is_device_ptr(XS_ARGS_PTRS, energy, sum)) STRIDED_LOOKUPS(lo, hi, want)
    } else {
      LAUNCH(nb, is_device_ptr(XS_ARGS_PTRS, energy, sum)) STRIDED_LOOKUPS(lo, hi, want)
    }
  } else if (!mat && conc) {
    queue_range(w, d, energy, lo, hi, want);
  } else if (!mat) {
    LAUNCH(blocks_for(hi - lo), is_device_ptr(XS_ARGS_PTRS, energy, sum)) THREAD_LOOKUPS(lo, hi, want)
  } else {
    LAUNCH(blocks_for(hi - lo), is_device_ptr(XS_ARGS_PTRS, energy, mat, sum)) {
      XS_ARGS_REPACK(dd);
      unsigned v = 0;
      THREAD_ITEM(i, lo, hi) {
        const int m = mat[i];
        if (xs_picked(m, want)) v += xs_lookup(&dd, energy[i], m);
      }
      warp_add(v, sum);
    }
  }
  return 0;
}
/* --material-launch single: every sorted lookup in one region, its material
 * from its key; in random energy order (sorted-material) from the capped grid. */
static unsigned long long sorted_lookups(const xs_data *d, xs_work *w, const uint64_t *key,
                                         const double *energy, long long n) {
  XS_ARGS_UNPACK(d);
  unsigned long long *sum = ((xs_dev_work *)w)->sum;
  const int cap = ((xs_dev_work *)w)->unsorted_blocks;
  if (w->energies_unsorted && cap) {
    LAUNCH(blocks_for(n) < cap ? blocks_for(n) : cap, is_device_ptr(XS_ARGS_PTRS, key, energy, sum))
    STRIDED_LOOKUPS(0, n, xs_key_mat(key[i]))
  } else {
    LAUNCH(blocks_for(n), is_device_ptr(XS_ARGS_PTRS, key, energy, sum)) THREAD_LOOKUPS(0, n, xs_key_mat(key[i]))
  }
  return 0;
}
static void ranges_join(xs_work *w) {
  run_queue(w);
#pragma omp taskwait
}

/* ---- tile LSD radix sort of device/sort_tiles.h --------------------------------- */
static void clear_looks(unsigned long long *look, long long n) {
  LAUNCH(blocks_for(n), is_device_ptr(look))
  THREAD_ITEM(i, 0, n) look[i] = 0;
}

static void radix_pass(void *p, const uint64_t *k0, const double *v0, uint64_t *k1, double *v1,
                       long long n, int shift, int bits) {
  xs_dev_work *g = p;
  const int pass = g->tile_pass++;
  unsigned *hist = xs_tile_pass_counts(g->hist, pass), *ticket = xs_tile_pass_ticket(g->hist, pass);
  unsigned long long *look = g->look;
  int clear;
  const unsigned long long ep = xs_tile_epoch(&g->epoch, &clear);
  if (clear) clear_looks(look, XS_TILE_LOOKS(g->look_n));
  const long long tiles = XS_TILES(n);
  PP_PRAGMA(omp target teams ompx_bare num_teams((int)tiles) thread_limit(XS_TILE_TPB)
            device(pp_omp_device) is_device_ptr(k0, v0, k1, v1, hist, ticket, look)
            ompx_dyn_cgroup_mem(XS_TILE_SHMEM))
  xs_tile_scatter(k0, v0, k1, v1, n, shift, bits, hist, ticket, look, ep, tiles, ompx_thread_id_x(),
                  llvm_omp_target_dynamic_shared_alloc());
}

static int sort_pairs(xs_work *w, uint64_t *key, double *val, long long n, int lo_bit, int hi_bit) {
  if (n < 2) return 0;
  xs_dev_work *g = (xs_dev_work *)w;
  unsigned *hist = g->hist;
  const long long blocks = xs_tile_hist_blocks(n);
  PP_PRAGMA(omp target teams ompx_bare num_teams((int)blocks) thread_limit(XS_TILE_TPB)
            device(pp_omp_device) is_device_ptr(key, hist) ompx_dyn_cgroup_mem(XS_TILE_HIST_SHMEM))
  xs_tile_hist_all(key, n, lo_bit, hi_bit, hist, blocks, ompx_block_id_x(), ompx_thread_id_x(),
                   (unsigned *)llvm_omp_target_dynamic_shared_alloc());
  g->tile_pass = 0;
  return xs_radix_sort_passes(radix_pass, w, key, val, w->key_alt, w->val_alt, n, lo_bit, hi_bit,
                              XS_TILE_BITS);
}

/* One team finds the ranges, one copy brings them back. */
static void mat_starts(xs_work *w, const uint64_t *key, long long n, long long start[XS_MATERIALS + 1]) {
  long long *dstart = ((xs_dev_work *)w)->start;
  LAUNCH(1, is_device_ptr(key, dstart)) {
    const int m = ompx_thread_id_x();
    if (m <= XS_MATERIALS) dstart[m] = xs_mat_start(key, n, m);
  }
  if (omp_target_memcpy(start, dstart, (XS_MATERIALS + 1) * sizeof *start, 0, 0,
                        omp_get_initial_device(), pp_omp_device))
    pp_device_fail(PP_OMPX, "xsbench_like material ranges", "omp_target_memcpy failed");
}

static xs_work *prepare(const xs_data *d, long long n) {
  (void)d;
  const long long m = n > 0 ? n : 1;
  xs_work *w = xs_omp_work_new(n, 0, 0, 1);
  if (!w) return NULL;
  xs_dev_work *g = (xs_dev_work *)w;
  g->hist = pp_omp_alloc(XS_TILE_HIST_WORDS * sizeof *g->hist);
  g->look = pp_omp_alloc((size_t)XS_TILE_LOOKS(m) * sizeof *g->look), g->look_n = m;
  unsigned *hist = g->hist;
  unsigned long long *band_count = g->band_count, *sum = g->sum;
  LAUNCH(1, is_device_ptr(hist, band_count, sum)) {
    for (int i = ompx_thread_id_x(); i < XS_TILE_HIST_WORDS; i += TPB) hist[i] = 0;
    if (ompx_thread_id_x() < XS_SUM_SLOTS) sum[ompx_thread_id_x()] = 0;
    if (ompx_thread_id_x() == 0) *band_count = 0;
  }
  clear_looks(g->look, XS_TILE_LOOKS(m));
  /* The device's resident warps: what LLVM's offload runtime reports as the
   * device's omp_get_num_procs() (multiprocessors x their warps; cuda reads
   * the same from the device's properties). */
  int warps = 0;
#pragma omp target device(pp_omp_device) map(from : warps)
  warps = omp_get_num_procs();
  g->unsorted_blocks = warps * PP_OMPX_WARP / TPB / XS_UNSORTED_WARP_SHARE;
  return w;
}

#define SORT_NOTE XS_TILE_SORT_NOTE ", as cuda"
const xs_kernels *xs_kernels_ompx(void) {
  static const xs_kernels k = {.prepare = prepare, .release = xs_omp_work_free, .sum_read = sum_read,
                               .fused = fused, .sample = sample, .sample_band = sample_band,
                               .sort_pairs = sort_pairs, .mat_starts = mat_starts, .lookups = lookups,
                               .sorted_lookups = sorted_lookups,
                               .ranges_join = ranges_join,
                               .concurrent_note = "concurrent: sorted-energy's material ranges in one "
                                                  "target region (a team finds its range); sorted-material's "
                                                  "each a nowait region, joined by taskwait",
                               .sort_note = SORT_NOTE, .max_lookups = XS_OMP_MAX_LOOKUPS};
  return &k;
}
