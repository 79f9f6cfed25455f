/* Test of the device kernels that cuda, hip and ompx share on the CPU: one
 * POSIX thread per GPU thread of a block, BLOCKS blocks at once, barriers for
 * the block's and the warps' barriers, ballots and warp sums, warps of 32 or
 * 64 lanes.
 * sort (device/sort_tiles.h, a look-back window of 2, their look-backs wait
 *   on one another, yielding the CPU): sorts XSBench's sort keys of the first
 *   n lookups over bits [lo, 64) twice with the same scratch and checks order,
 *   pairing, the key multiset and, with "ties", stability.
 * band (device/sample_band.h): samples the first n lookups for each of R
 *   energy bands, one launch each with one counter that only grows, and
 *   checks each band's kept (key, energy) pairs against xs_sample's.
 * usage: xs_kernels_emu sort N LO WARP [ties] [fault]
 *        xs_kernels_emu band N R WARP [fault]        exit 0 ok, 1 wrong, 2 usage */
#define _POSIX_C_SOURCE 200809L /* pthread barriers */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "xsbench_like.h"

#define MAX_WARPS 8
#define BLOCKS 4 /* blocks run at once: a tile's look-back meets published counts, not only prefixes */
#define XS_TILE_WINDOW 2 /* so the last of 4 tiles walks back over two windows */
static int warp_size;
typedef struct emu_block {
  pthread_barrier_t bar, warp_bar[MAX_WARPS];
  int votes[256]; /* a block's threads (XS_TILE_TPB, defined below) */
  uint64_t *sh;   /* XS_TILE_SHMEM or XS_BAND_SHMEM bytes */
} emu_block;
static emu_block blk[BLOCKS];
static pthread_mutex_t sh_mu = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local int my_t, my_b;

static uint64_t emu_ballot(int p) {
  emu_block *b = &blk[my_b];
  const int w = my_t / warp_size;
  pthread_barrier_wait(&b->warp_bar[w]);
  b->votes[my_t] = p != 0;
  pthread_barrier_wait(&b->warp_bar[w]);
  uint64_t m = 0;
  for (int l = 0; l < warp_size; l++) m |= (uint64_t)b->votes[w * warp_size + l] << l;
  pthread_barrier_wait(&b->warp_bar[w]); /* votes reused by the next ballot */
  return m;
}
static int emu_warp_sum(int v) {
  emu_block *b = &blk[my_b];
  const int w = my_t / warp_size;
  pthread_barrier_wait(&b->warp_bar[w]);
  b->votes[my_t] = v;
  pthread_barrier_wait(&b->warp_bar[w]);
  int s = 0;
  for (int l = 0; l < warp_size; l++) s += b->votes[w * warp_size + l];
  pthread_barrier_wait(&b->warp_bar[w]);
  return s;
}
static void emu_add(unsigned *p, unsigned v) {
  pthread_mutex_lock(&sh_mu);
  *p += v;
  pthread_mutex_unlock(&sh_mu);
}
#define XS_TILE_FN static
#define XS_TILE_WARP warp_size
#define XS_TILE_SYNC() pthread_barrier_wait(&blk[my_b].bar)
#define XS_TILE_BALLOT(p) emu_ballot(p)
#define XS_TILE_POPC(x) __builtin_popcountll(x)
#define XS_TILE_SH_ADD(p, v) emu_add((p), (v))
#define XS_TILE_GL_ADD(p, v) __atomic_fetch_add((p), (v), __ATOMIC_SEQ_CST)
#define XS_TILE_LOAD(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
static void emu_publish(unsigned long long *p, unsigned long long v);
#define XS_TILE_PUBLISH(p, v) emu_publish((p), (v))
#define XS_TILE_SPIN() sched_yield()
#include "device/sort_tiles.h"
_Static_assert(XS_TILE_TPB <= 256, "emu_block.votes");
#define XS_BAND_WARP_SUM(v) emu_warp_sum(v)
#define XS_BAND_WARP_SYNC() pthread_barrier_wait(&blk[my_b].warp_bar[my_t / warp_size])
#define XS_BAND_RESERVE(p, v) __atomic_fetch_add((p), (v), __ATOMIC_SEQ_CST)
#include "device/sample_band.h"
_Static_assert(XS_BAND_TPB == XS_TILE_TPB, "one block shape for both kernels");
/* A prefix is published late (1 ms), so the next tile, running beside, finds
 * this tile's count alone first and must look further back. */
static void emu_publish(unsigned long long *p, unsigned long long v) {
  if (XS_TILE_FLAG(v) == XS_TILE_PREFIX) nanosleep(&(struct timespec){0, 1000000}, NULL);
  __atomic_store_n(p, v, __ATOMIC_RELEASE);
}

enum { HIST, SCATTER, BAND };
static struct {
  int kind, lo, hi;
  const uint64_t *k0;
  const double *v0;
  uint64_t *k1;
  double *v1;
  long long n, tiles, blocks, first; /* blocks of the launch; first: this wave's first block */
  int shift, bits;
  unsigned *hist, *ticket;
  unsigned long long *look, ep;
  double band_lo, band_hi; /* band: the band, its pairs' arrays, the counter and what it held */
  double *energy;
  uint64_t *key;
  unsigned long long *count, seen;
} job;

static void *thread_main(void *arg) {
  my_t = (int)((intptr_t)arg % XS_TILE_TPB), my_b = (int)((intptr_t)arg / XS_TILE_TPB);
  if (job.kind == SCATTER)
    xs_tile_scatter(job.k0, job.v0, job.k1, job.v1, job.n, job.shift, job.bits, job.hist, job.ticket,
                    job.look, job.ep, job.tiles, my_t, blk[my_b].sh);
  else if (job.kind == HIST)
    xs_tile_hist_all(job.k0, job.n, job.lo, job.hi, job.hist, job.blocks, job.first + my_b, my_t,
                     (unsigned *)blk[my_b].sh);
  else
    xs_band_block(job.n, job.band_lo, job.band_hi, job.n, job.energy, job.key, job.count, job.seen,
                  job.first + my_b, my_t, (unsigned long long *)blk[my_b].sh);
  return NULL;
}
/* A launch of `blocks` blocks, BLOCKS at a time. */
static void launch(int kind, long long blocks) {
  job.kind = kind, job.blocks = blocks;
  for (job.first = 0; job.first < blocks; job.first += BLOCKS) {
    const long long nb = blocks - job.first < BLOCKS ? blocks - job.first : BLOCKS;
    pthread_t th[BLOCKS * XS_TILE_TPB];
    for (intptr_t t = 0; t < nb * XS_TILE_TPB; t++) pthread_create(&th[t], NULL, thread_main, (void *)t);
    for (long long t = 0; t < nb * XS_TILE_TPB; t++) pthread_join(th[t], NULL);
  }
}

/* One sort of keys k0 (values v0) by bits [lo, 64), driven as the models
 * drive it (hw: XS_TILE_HIST_WORDS, zero before the first sort); returns 1
 * when the result is in k1/v1. */
static int sort(uint64_t *k0, double *v0, uint64_t *k1, double *v1, long long n, int lo, unsigned *hw,
                unsigned long long *look, unsigned long long *epoch) {
  job.n = n, job.tiles = XS_TILES(n), job.lo = lo, job.hi = 64, job.k0 = k0, job.hist = hw, job.look = look;
  launch(HIST, job.tiles < 2 ? job.tiles : 2); /* two blocks: each takes every other tile */
  int pass = 0, flipped = 0;
  for (int shift = lo; shift < 64; shift += XS_TILE_BITS, pass++) {
    int clear;
    job.ep = xs_tile_epoch(epoch, &clear);
    if (clear) memset(look, 0, XS_TILE_LOOKS(n) * sizeof *look);
    job.shift = shift, job.bits = 64 - shift < XS_TILE_BITS ? 64 - shift : XS_TILE_BITS;
    job.hist = xs_tile_pass_counts(hw, pass), job.ticket = xs_tile_pass_ticket(hw, pass);
    job.k0 = k0, job.v0 = v0, job.k1 = k1, job.v1 = v1;
    launch(SCATTER, job.tiles);
    uint64_t *tk = k0; k0 = k1, k1 = tk;
    double *tv = v0; v0 = v1, v1 = tv;
    flipped = !flipped;
  }
  return flipped;
}

static void blocks_init(void) {
  for (int b = 0; b < BLOCKS; b++) {
    pthread_barrier_init(&blk[b].bar, NULL, XS_TILE_TPB);
    blk[b].sh = malloc(XS_TILE_SHMEM > XS_BAND_SHMEM ? XS_TILE_SHMEM : XS_BAND_SHMEM);
    for (int w = 0; w < XS_TILE_TPB / warp_size; w++) pthread_barrier_init(&blk[b].warp_bar[w], NULL, warp_size);
  }
}

static int sort_main(int argc, char **argv) {
  const long long n = atoll(argv[1]);
  const int lo = atoi(argv[2]);
  warp_size = atoi(argv[3]);
  int ties = 0, fault = 0;
  for (int i = 4; i < argc; i++) ties |= !strcmp(argv[i], "ties"), fault |= !strcmp(argv[i], "fault");
  if (n < 2 || n > 1000000 || lo < 0 || lo > 63 || (warp_size != 32 && warp_size != 64))
    return fprintf(stderr, "bad arguments\n"), 2;
  blocks_init();
  uint64_t *k0 = malloc(n * 8), *k1 = malloc(n * 8), *ref = malloc(n * 8);
  double *v0 = malloc(n * 8), *v1 = malloc(n * 8), *vref = malloc(n * 8);
  unsigned *hw = calloc(XS_TILE_HIST_WORDS, sizeof *hw);
  unsigned long long *look = calloc((size_t)XS_TILE_LOOKS(n), sizeof *look);
  for (long long i = 0; i < n; i++) {
    int mat;
    xs_sample(i, &vref[i], &mat);
    if (ties) vref[i] = (double)i / n; /* value: input position; keys: material only */
    ref[i] = ties ? (uint64_t)mat << XS_KEY_MAT_SHIFT : xs_sort_key(mat, vref[i]);
  }
  /* Two sorts with the same scratch, as a run's samples: the second needs the
   * first's last tiles to have cleared the counts; the epochs start two passes
   * before they wrap, so the sorts cross it. */
  unsigned long long epoch = XS_TILE_EPOCHS - 3;
  int ok = 1;
  for (int round = 0; round < 2; round++) {
    memcpy(k0, ref, n * 8), memcpy(v0, vref, n * 8);
    uint64_t *k = k0;
    double *v = v0;
    if (sort(k0, v0, k1, v1, n, lo, hw, look, &epoch)) k = k1, v = v1;
    if (fault && round) { uint64_t t = k[0]; k[0] = k[n - 1], k[n - 1] = t; }
    unsigned long long in = 0, out = 0;
    for (long long i = 0; i < n; i++) {
      in += ref[i], out += k[i];
      if (i && k[i] >> lo < k[i - 1] >> lo) ok = 0;
      if (ties ? i && k[i] == k[i - 1] && v[i] < v[i - 1] : xs_sort_key(xs_key_mat(k[i]), v[i]) != k[i])
        ok = 0;
    }
    if (in != out) ok = 0;
  }
  printf("tile sort of %lld keys, bits [%d, 64), %d-lane warps%s, twice: %s\n", n, lo, warp_size,
         ties ? ", stability" : "", ok ? "ok" : "WRONG");
  return !ok;
}

static int band_main(int argc, char **argv) {
  const long long n = atoll(argv[1]);
  const int R = atoi(argv[2]);
  warp_size = atoi(argv[3]);
  const int fault = argc > 4 && !strcmp(argv[4], "fault");
  if (n < 1 || n > 1000000 || R < 1 || R > 8 || (warp_size != 32 && warp_size != 64))
    return fprintf(stderr, "bad arguments\n"), 2;
  blocks_init();
  job.energy = malloc(n * 8), job.key = malloc(n * 8);
  xs_key_val *got = malloc(n * sizeof *got), *want = malloc(n * sizeof *want);
  unsigned long long count = 12345; /* a counter that only grows need not start at 0 */
  job.n = n, job.count = &count;
  long long all = 0;
  int ok = 1;
  for (int r = 0; r < R; r++) {
    xs_band_bounds(r, R, &job.band_lo, &job.band_hi);
    job.seen = count;
    launch(BAND, XS_BAND_BLOCKS(n));
    const long long kept = (long long)(count - job.seen);
    if (fault && r == R - 1 && kept > 0) job.energy[0] = -job.energy[0];
    long long nw = 0;
    for (long long i = 0; i < n; i++) {
      double e;
      int mat;
      xs_sample(i, &e, &mat);
      if (xs_in_band(e, job.band_lo, job.band_hi)) want[nw++] = (xs_key_val){xs_sort_key(mat, e), e};
    }
    if (kept != nw) ok = 0;
    else {
      for (long long i = 0; i < kept; i++) got[i] = (xs_key_val){job.key[i], job.energy[i]};
      qsort(got, kept, sizeof *got, xs_key_val_order), qsort(want, nw, sizeof *want, xs_key_val_order);
      for (long long i = 0; i < kept; i++)
        if (got[i].key != want[i].key || got[i].val != want[i].val) ok = 0;
    }
    all += kept;
  }
  if (all != n) ok = 0;
  printf("band sampling of %lld lookups in %d bands, %d-lane warps: %s\n", n, R, warp_size, ok ? "ok" : "WRONG");
  return !ok;
}

int main(int argc, char **argv) {
  if (argc >= 5 && !strcmp(argv[1], "sort")) return sort_main(argc - 1, argv + 1);
  if (argc >= 5 && !strcmp(argv[1], "band")) return band_main(argc - 1, argv + 1);
  return fprintf(stderr, "usage: %s sort N LO WARP [ties] [fault] | band N R WARP [fault]\n", argv[0]), 2;
}
