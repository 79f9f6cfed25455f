/* xsbench_like, native model, written once in CUDA dialect (pp/gpu_native.h):
 * nvcc builds it as cuda, hipcc as hip (kernels/hip.hip). The launch shapes
 * and algorithms are those of kernels/ompx.c: blocks of 256 threads, one
 * lookup per thread (exactly ceil(n/256) blocks, no grid-stride loop; the
 * sorted-material lookups, in random energy order, from a capped grid:
 * XS_UNSORTED_WARP_SHARE), each
 * thread's verification values summed in a register, then per warp by
 * shuffles and one 64-bit atomic add per warp into one of XS_SUM_SLOTS
 * device slots (no block barrier: warps retire independently, as in
 * XSBench's one-lookup-per-thread kernels). The primitives of xs_kernels,
 * which variants.c composes into XSBench CUDA's -k 0-4 and 6. sort_pairs,
 * on the device: the tile LSD radix sort of device/sort_tiles.h, the one
 * ompx runs (default, --sort own), or CUB's DeviceRadixSort (CUDA only,
 * --sort vendor; as XSBench's thrust sorts); band sampling: the block function
 * of device/sample_band.h, as ompx. */
#include <limits.h>
#include <stdlib.h>
#include "pp/gpu_native.h"
#include "xsbench_like.h"
#include "device/dev_work.h"

#ifdef PP_NATIVE_HIP
#define XS_TABLE_GETTER xs_kernels_hip
#define SHFL_DOWN(v, off) __shfl_down((v), (off), PP_WARP)
#else
#define XS_TABLE_GETTER xs_kernels_cuda
#define SHFL_DOWN(v, off) __shfl_down_sync(0xffffffffu, (v), (off), PP_WARP)
#define XS_USE_CUB 1
#include <cub/device/device_radix_sort.cuh>
#endif
#ifdef PP_NATIVE_HIP
#define XS_TILE_BALLOT(p) ((uint64_t)__ballot(p))
#else
#define XS_TILE_BALLOT(p) ((uint64_t)__ballot_sync(0xffffffffu, (p)))
#endif
#define XS_TILE_FN static __device__ __forceinline__
#define XS_TILE_WARP PP_WARP
#define XS_TILE_SYNC() __syncthreads()
#define XS_TILE_POPC(x) __popcll(x)
#define XS_TILE_SH_ADD(p, v) atomicAdd((p), (v))
#define XS_TILE_GL_ADD(p, v) atomicAdd((p), (v))
/* status words: volatile loads and stores go to L2, a fence before the store */
#define XS_TILE_LOAD(p) (*(const volatile unsigned long long *)(p))
#define XS_TILE_PUBLISH(p, v) (__threadfence(), *(volatile unsigned long long *)(p) = (v))
#define XS_TILE_SPIN() ((void)0)
#include "device/sort_tiles.h"
/* The sum of v over the warp's lanes, in lane 0 (all lanes call it together). */
__device__ __forceinline__ unsigned warp_sum(unsigned v) {
  for (int d = PP_WARP / 2; d > 0; d /= 2) v += SHFL_DOWN(v, d);
  return v;
}
#define XS_BAND_WARP_SUM(v) ((int)warp_sum((unsigned)(v)))
#ifdef PP_NATIVE_HIP
#define XS_BAND_WARP_SYNC() (__builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront"), \
                             __builtin_amdgcn_wave_barrier(), __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront"))
#else
#define XS_BAND_WARP_SYNC() __syncwarp()
#endif
#define XS_BAND_RESERVE(p, v) atomicAdd((p), (v))
#include "device/sample_band.h"

#define TPB 256
/* HIP caps a grid at 2^32 threads; max_lookups is UINT_MAX (the sort's
 * 32-bit offsets), so a grid always covers them, one item per thread. */
#define MAX_BLOCKS (1u << 24)

typedef struct work {
  xs_dev_work g; /* first: the xs_work * the kernel table passes */
  void *cub_tmp;
  size_t cub_bytes;
  int vendor; /* --sort vendor: CUB */
  /* --material-launch concurrent: a stream per material, forked from the
   * legacy stream after the material ranges, joined back by ranges_join */
  int streams_made, forked;
  unsigned launched; /* bit m: material m's stream has a lookups kernel */
  gpuStream_t stream[XS_MATERIALS];
  gpuEvent_t fork, done[XS_MATERIALS];
} work;

static unsigned blocks_for(long long n) {
  const long long b = (n + TPB - 1) / TPB;
  if (b > (long long)MAX_BLOCKS) pp_device_fail(PP_NATIVE_MODEL, "xsbench_like launch", "grid too large");
  return b < 1 ? 1u : (unsigned)b;
}

/* ---- block-level helpers (blocks of TPB threads) ---------------------------- */
/* Adds the warp's verification values to its slot of the device checksum
 * (every lane of the warp calls it; no block barrier). */
__device__ __forceinline__ void warp_add(unsigned v, unsigned long long *sum) {
  v = warp_sum(v);
  const unsigned warp = blockIdx.x * (TPB / PP_WARP) + threadIdx.x / PP_WARP;
  if (threadIdx.x % PP_WARP == 0) atomicAdd(&sum[warp % XS_SUM_SLOTS], (unsigned long long)v);
}
/* The thread's one item i of [lo, hi), if in range: a one-trip loop, so the
 * statement after it reads as its body. No grid-stride loop: the loop costs
 * registers (one block fewer per SM). A grid-stride loop over one wave of
 * resident blocks would be faster for the baseline, but ompx would need the
 * same shape, and the two models keep one shape (see docs/performance.md,
 * xsbench_like). */
#define THREAD_ITEM(i, lo, hi)                                                               \
  for (long long i = (lo) + (long long)blockIdx.x * TPB + threadIdx.x, i##_once = 1;          \
       i##_once && i < (hi); i##_once = 0)

/* ---- lookups -------------------------------------------------------------------- */
__global__ void __launch_bounds__(TPB) k_baseline(xs_data d, long long first, long long n,
                                                  unsigned long long *sum) {
  unsigned v = 0;
  THREAD_ITEM(i, 0, n) {
    double e;
    int mat;
    xs_sample(first + i, &e, &mat);
    v += xs_lookup(&d, e, mat);
  }
  warp_add(v, sum);
}

__global__ void __launch_bounds__(TPB) k_sample(long long first, long long n,
                                                double *__restrict__ energy, int *__restrict__ mat) {
  THREAD_ITEM(i, 0, n) xs_sample(first + i, &energy[i], &mat[i]);
}

/* Sampling for the sorted variants: energy and its sort key. */
__global__ void __launch_bounds__(TPB) k_sample_keys(long long first, long long n,
                                                     double *__restrict__ energy,
                                                     uint64_t *__restrict__ key) {
  THREAD_ITEM(i, 0, n) {
    double e;
    int mat;
    xs_sample(first + i, &e, &mat);
    energy[i] = e, key[i] = xs_sort_key(mat, e);
  }
}

/* Band sampling: device/sample_band.h. (Lanes that wrote their own
 * consecutive lookups, host's and omp's shape, made it 11x slower on an H100:
 * each store a separate sector.) */
__global__ void __launch_bounds__(XS_BAND_TPB) k_sample_band(long long total, double lo, double hi,
                                                             long long cap, double *__restrict__ energy,
                                                             uint64_t *__restrict__ key,
                                                             unsigned long long *count, unsigned long long seen) {
  __shared__ unsigned long long sh[XS_BAND_SHMEM / 8];
  xs_band_block(total, lo, hi, cap, energy, key, count, seen, blockIdx.x, threadIdx.x, sh);
}

/* Lookups [lo, hi) whose material `want` selects (xs_picked); FIXED: all
 * of material `want` (a sorted range), the material array is not read. */
template <bool FIXED>
__global__ void __launch_bounds__(TPB) k_lookups(xs_data d, const double *__restrict__ energy,
                                                 const int *__restrict__ mat, long long lo,
                                                 long long hi, int want, unsigned long long *sum) {
  unsigned v = 0;
  THREAD_ITEM(i, lo, hi) {
    const int m = FIXED ? want : mat[i];
    if (FIXED || xs_picked(m, want)) v += xs_lookup(&d, energy[i], m);
  }
  warp_add(v, sum);
}

__global__ void k_mat_start(const uint64_t *__restrict__ key, long long n, long long *start) {
  const int m = threadIdx.x;
  if (m <= XS_MATERIALS) start[m] = xs_mat_start(key, n, m);
}

/* ---- tile LSD radix sort of device/sort_tiles.h ------------------------------ */
__global__ void __launch_bounds__(XS_TILE_TPB) k_tile_hist_all(const uint64_t *__restrict__ key,
                                                               long long n, int lo_bit, int hi_bit,
                                                               unsigned *__restrict__ hist,
                                                               long long blocks) {
  __shared__ unsigned sh[XS_TILE_HIST_SHMEM / 4];
  xs_tile_hist_all(key, n, lo_bit, hi_bit, hist, blocks, blockIdx.x, threadIdx.x, sh);
}
/* 5 blocks per SM, the occupancy the scan version had: nvcc took 62 registers
 * for the look-back version (4 blocks), 48 under this bound (a few bytes
 * spilled); on an H100 the two ran equally fast */
__global__ void __launch_bounds__(XS_TILE_TPB, 5) k_tile_scatter(const uint64_t *__restrict__ k0,
                                                              const double *__restrict__ v0,
                                                              uint64_t *__restrict__ k1,
                                                              double *__restrict__ v1, long long n,
                                                              int shift, int bits,
                                                              unsigned *__restrict__ hist,
                                                              unsigned *__restrict__ ticket,
                                                              unsigned long long *look,
                                                              unsigned long long ep, long long tiles) {
  __shared__ uint64_t sh[XS_TILE_SHMEM / 8];
  xs_tile_scatter(k0, v0, k1, v1, n, shift, bits, hist, ticket, look, ep, tiles, threadIdx.x, sh);
}
static void own_sort_pass(void *p, const uint64_t *k0, const double *v0, uint64_t *k1, double *v1,
                          long long n, int shift, int bits) {
  xs_dev_work *g = (xs_dev_work *)p;
  const int pass = g->tile_pass++;
  int clear;
  const unsigned long long ep = xs_tile_epoch(&g->epoch, &clear);
  if (clear) PP_GPU_CHECK(gpuMemset(g->look, 0, (size_t)XS_TILE_LOOKS(g->look_n) * sizeof *g->look));
  const long long tiles = XS_TILES(n);
  k_tile_scatter<<<(unsigned)tiles, XS_TILE_TPB>>>(k0, v0, k1, v1, n, shift, bits,
                                                   xs_tile_pass_counts(g->hist, pass),
                                                   xs_tile_pass_ticket(g->hist, pass), g->look, ep, tiles);
  PP_GPU_CHECK_LAUNCH("radix sort pass");
}

/* The own tile sort, or CUB's after --sort vendor. */
static int sort_pairs(xs_work *xw, uint64_t *key, double *val, long long n, int lo_bit, int hi_bit) {
  if (n < 2) return 0;
#ifdef XS_USE_CUB
  work *w = (work *)xw;
  if (w->vendor && n <= INT_MAX) {
    cub::DoubleBuffer<uint64_t> kb(key, xw->key_alt);
    cub::DoubleBuffer<double> vb(val, xw->val_alt);
    size_t bytes = w->cub_bytes;
    PP_GPU_CHECK(cub::DeviceRadixSort::SortPairs(w->cub_tmp, bytes, kb, vb, (int)n, lo_bit, hi_bit));
    return kb.Current() != key;
  }
#endif
  xs_dev_work *g = (xs_dev_work *)xw;
  const long long blocks = xs_tile_hist_blocks(n);
  k_tile_hist_all<<<(unsigned)blocks, XS_TILE_TPB>>>(key, n, lo_bit, hi_bit, g->hist, blocks);
  g->tile_pass = 0;
  return xs_radix_sort_passes(own_sort_pass, xw, key, val, xw->key_alt, xw->val_alt, n, lo_bit, hi_bit,
                              XS_TILE_BITS);
}

/* ---- the checksum, sampling, material ranges, lookups ---------------------- */
static unsigned long long sum_read(xs_work *w) {
  unsigned long long slot[XS_SUM_SLOTS];
  PP_GPU_CHECK_LAUNCH("lookups");
  PP_GPU_CHECK(gpuMemcpy(slot, ((xs_dev_work *)w)->sum, sizeof slot, gpuMemcpyDeviceToHost));
  return xs_sum_gained((xs_dev_work *)w, slot);
}

/* Adds to the device checksum: returns 0. */
static unsigned long long fused(const xs_data *d, xs_work *w, long long first, long long n) {
  k_baseline<<<blocks_for(n), TPB>>>(*d, first, n, ((xs_dev_work *)w)->sum);
  return 0;
}

static void sample(xs_work *w, long long first, long long n, int keys) {
  if (keys) k_sample_keys<<<blocks_for(n), TPB>>>(first, n, w->energy, w->key);
  else k_sample<<<blocks_for(n), TPB>>>(first, n, w->energy, w->mat);
}

/* The band's counter only grows: the kept lookups are what it gained. */
static long long sample_band(xs_work *w, long long total, double lo, double hi, long long cap) {
  xs_dev_work *g = (xs_dev_work *)w;
  const unsigned long long seen = g->band_seen;
  k_sample_band<<<(unsigned)XS_BAND_BLOCKS(total), XS_BAND_TPB>>>(total, lo, hi, cap, w->energy, w->key,
                                                                  g->band_count, seen);
  PP_GPU_CHECK_LAUNCH("band sampling");
  PP_GPU_CHECK(gpuMemcpy(&g->band_seen, g->band_count, sizeof g->band_seen, gpuMemcpyDeviceToHost));
  return (long long)(g->band_seen - seen);
}

static void mat_starts(xs_work *w, const uint64_t *key, long long n, long long start[XS_MATERIALS + 1]) {
  long long *dstart = ((xs_dev_work *)w)->start;
  k_mat_start<<<1, 32>>>(key, n, dstart);
  PP_GPU_CHECK_LAUNCH("material ranges");
  PP_GPU_CHECK(gpuMemcpy(start, dstart, (XS_MATERIALS + 1) * sizeof *start, gpuMemcpyDeviceToHost));
}

/* All of material `want` in [lo, hi) in random energy order, from a grid of
 * xs_dev_work.unsorted_blocks blocks striding over them (XS_UNSORTED_WARP_SHARE). */
__global__ void __launch_bounds__(TPB) k_lookups_strided(xs_data d, const double *__restrict__ energy,
                                                         long long lo, long long hi, int want,
                                                         unsigned long long *sum) {
  unsigned v = 0;
  for (long long i = lo + (long long)blockIdx.x * TPB + threadIdx.x; i < hi; i += (long long)gridDim.x * TPB)
    v += xs_lookup(&d, energy[i], want);
  warp_add(v, sum);
}

/* --material-launch single: sorted lookups [0, n), each of the material its
 * key holds; STRIDED: in random energy order (sorted-material), from the
 * capped grid striding over them. */
template <bool STRIDED>
__global__ void __launch_bounds__(TPB) k_sorted_lookups(xs_data d, const uint64_t *__restrict__ key,
                                                        const double *__restrict__ energy, long long n,
                                                        unsigned long long *sum) {
  unsigned v = 0;
  if (STRIDED) {
    for (long long i = (long long)blockIdx.x * TPB + threadIdx.x; i < n; i += (long long)gridDim.x * TPB)
      v += xs_lookup(&d, energy[i], xs_key_mat(key[i]));
  } else {
    THREAD_ITEM(i, 0, n) v += xs_lookup(&d, energy[i], xs_key_mat(key[i]));
  }
  warp_add(v, sum);
}

/* Material m's stream, after the work queued so far on the legacy stream. */
static gpuStream_t range_stream(work *w, int m) {
  if (!w->streams_made) {
    for (int i = 0; i < XS_MATERIALS; i++) {
      PP_GPU_CHECK(gpuStreamCreateWithFlags(&w->stream[i], gpuStreamNonBlocking));
      PP_GPU_CHECK(gpuEventCreateWithFlags(&w->done[i], gpuEventDisableTiming));
    }
    PP_GPU_CHECK(gpuEventCreateWithFlags(&w->fork, gpuEventDisableTiming));
    w->streams_made = 1;
  }
  if (!w->forked) PP_GPU_CHECK(gpuEventRecord(w->fork, 0));
  w->forked = 1;
  PP_GPU_CHECK(gpuStreamWaitEvent(w->stream[m], w->fork, 0));
  w->launched |= 1u << m;
  return w->stream[m];
}
static void ranges_join(xs_work *xw) {
  work *w = (work *)xw;
  for (int m = 0; m < XS_MATERIALS; m++)
    if (w->launched & (1u << m)) {
      PP_GPU_CHECK(gpuEventRecord(w->done[m], w->stream[m]));
      PP_GPU_CHECK(gpuStreamWaitEvent(0, w->done[m], 0));
    }
  w->launched = 0, w->forked = 0;
}

/* Adds to the device checksum: returns 0. */
static unsigned long long lookups(const xs_data *d, xs_work *w, const double *energy, const int *mat,
                                  long long lo, long long hi, int want) {
  unsigned long long *sum = ((xs_dev_work *)w)->sum;
  const gpuStream_t st = !mat && w->ranges_concurrent ? range_stream((work *)w, want) : 0;
  if (mat) k_lookups<false><<<blocks_for(hi - lo), TPB>>>(*d, energy, mat, lo, hi, want, sum);
  else if (w->energies_unsorted && ((xs_dev_work *)w)->unsorted_blocks) {
    const unsigned b = blocks_for(hi - lo), cap = (unsigned)((xs_dev_work *)w)->unsorted_blocks;
    k_lookups_strided<<<b < cap ? b : cap, TPB, 0, st>>>(*d, energy, lo, hi, want, sum);
  } else k_lookups<true><<<blocks_for(hi - lo), TPB, 0, st>>>(*d, energy, NULL, lo, hi, want, sum);
  return 0;
}

static unsigned long long sorted_lookups(const xs_data *d, xs_work *w, const uint64_t *key,
                                         const double *energy, long long n) {
  unsigned long long *sum = ((xs_dev_work *)w)->sum;
  const unsigned b = blocks_for(n), cap = (unsigned)((xs_dev_work *)w)->unsorted_blocks;
  if (w->energies_unsorted && cap) k_sorted_lookups<true><<<b < cap ? b : cap, TPB>>>(*d, key, energy, n, sum);
  else k_sorted_lookups<false><<<b, TPB>>>(*d, key, energy, n, sum);
  return 0;
}

/* ---- scratch ------------------------------------------------------------------- */
template <typename T> static int dalloc(T **p, size_t count) {
  return gpuMalloc((void **)p, (count ? count : 1) * sizeof(T)) == gpuSuccess;
}
static void release(xs_work *xw) {
  work *w = (work *)xw;
  if (!w) return;
  const xs_dev_work *g = &w->g;
  void *all[] = {xw->energy, xw->val_alt, xw->mat, xw->key, xw->key_alt, g->hist,
                 g->look,    g->sum,      g->start, g->band_count, w->cub_tmp};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++)
    if (all[i]) gpuFree(all[i]);
  if (w->streams_made) {
    for (int i = 0; i < XS_MATERIALS; i++) gpuStreamDestroy(w->stream[i]), gpuEventDestroy(w->done[i]);
    gpuEventDestroy(w->fork);
  }
  free(w);
}

static xs_work *prepare(const xs_data *d, long long n) {
  (void)d;
  work *w = (work *)calloc(1, sizeof *w);
  if (!w) return (xs_work *)NULL;
  xs_dev_work *g = &w->g;
  const size_t m = (size_t)(n > 0 ? n : 1);
  int ok = dalloc(&g->a.energy, m) && dalloc(&g->a.val_alt, m) && dalloc(&g->a.mat, m) &&
           dalloc(&g->a.key, m) && dalloc(&g->a.key_alt, m) && dalloc(&g->hist, XS_TILE_HIST_WORDS) &&
           dalloc(&g->look, XS_TILE_LOOKS(m)) && dalloc(&g->sum, XS_SUM_SLOTS) &&
           dalloc(&g->start, XS_MATERIALS + 1) && dalloc(&g->band_count, 1) &&
           gpuMemset(g->sum, 0, XS_SUM_SLOTS * sizeof *g->sum) == gpuSuccess &&
           gpuMemset(g->band_count, 0, sizeof *g->band_count) == gpuSuccess &&
           gpuMemset(g->hist, 0, XS_TILE_HIST_WORDS * sizeof *g->hist) == gpuSuccess &&
           gpuMemset(g->look, 0, (size_t)XS_TILE_LOOKS(m) * sizeof *g->look) == gpuSuccess;
  g->look_n = (long long)m;
#ifdef XS_USE_CUB
  if (ok && m <= INT_MAX) {
    cub::DoubleBuffer<uint64_t> kb(g->a.key, g->a.key_alt);
    cub::DoubleBuffer<double> vb(g->a.energy, g->a.val_alt);
    ok = cub::DeviceRadixSort::SortPairs(NULL, w->cub_bytes, kb, vb, (int)m, 0, 64) == gpuSuccess &&
         gpuMalloc(&w->cub_tmp, w->cub_bytes ? w->cub_bytes : 1) == gpuSuccess;
  }
#endif
  if (!ok) {
    (void)gpuGetLastError(); /* clear the failed allocation */
    release(&g->a);
    return NULL;
  }
  int dev = 0;
  gpuDeviceProp prop;
  if (gpuGetDevice(&dev) == gpuSuccess && gpuGetDeviceProperties(&prop, dev) == gpuSuccess)
    g->unsorted_blocks = prop.multiProcessorCount * (prop.maxThreadsPerMultiProcessor / TPB) / XS_UNSORTED_WARP_SHARE;
  return &g->a;
}

#ifdef XS_USE_CUB
/* --sort vendor: CUB's sort from now on (prepare sized its scratch). */
static const char *vendor_sort(xs_work *xw) {
  ((work *)xw)->vendor = 1;
  return "device sort: CUB DeviceRadixSort::SortPairs (--sort vendor)";
}
#define VENDOR_SORT vendor_sort
#define VENDOR_SORT_MAX INT_MAX /* CUB counts in int */
#else /* HIP: Debian's ROCm 5.2 has no hipCUB */
#define VENDOR_SORT NULL
#define VENDOR_SORT_MAX 0
#endif

#define SORT_NOTE XS_TILE_SORT_NOTE ", as ompx"
extern "C" const xs_kernels *XS_TABLE_GETTER(void) {
  static const xs_kernels k = {
      .prepare = prepare,
      .release = release,
      .sum_read = sum_read,
      .fused = fused,
      .sample = sample,
      .sample_band = sample_band,
      .sort_pairs = sort_pairs,
      .mat_starts = mat_starts,
      .lookups = lookups,
      .sorted_lookups = sorted_lookups,
      .history = NULL,
      .vendor_sort = VENDOR_SORT,
      .vendor_sort_max = VENDOR_SORT_MAX,
      .max_lookups = UINT_MAX, /* the sort's 32-bit offsets */
      .ranges_join = ranges_join,
      .concurrent_note = "concurrent: each material's lookups on a stream of its own, forked after "
                         "the material ranges and joined before the checksum",
      .sort_note = SORT_NOTE,
      .absent_note = NULL,
  };
  return &k;
}
