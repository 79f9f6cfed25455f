/* Test of kernels/sort_tiles.h (the device radix sort of cuda, hip and
 * ompx) on the CPU: one POSIX thread per GPU thread of a block, barriers for
 * the block barrier and ballots, warps of 32 or 64 lanes. Sorts XSBench's
 * sort keys of the first n lookups over bits [lo, 64) and checks order,
 * pairing, the key multiset and, with "ties", stability.
 * usage: xs_sort_tiles_emu N LO WARP [ties] [fault]   exit 0 ok, 1 wrong, 2 usage */
#define _POSIX_C_SOURCE 200809L /* pthread barriers */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "xsbench_like.h"

#define MAX_WARPS 8
static int warp_size;
static pthread_barrier_t block_bar, warp_bar[MAX_WARPS];
static pthread_mutex_t sh_mu = PTHREAD_MUTEX_INITIALIZER;
static int votes[256];
static _Thread_local int my_t;

static uint64_t emu_ballot(int p) {
  const int w = my_t / warp_size;
  pthread_barrier_wait(&warp_bar[w]);
  votes[my_t] = p != 0;
  pthread_barrier_wait(&warp_bar[w]);
  uint64_t m = 0;
  for (int l = 0; l < warp_size; l++) m |= (uint64_t)votes[w * warp_size + l] << l;
  pthread_barrier_wait(&warp_bar[w]); /* votes reused by the next ballot */
  return m;
}
static void emu_add(unsigned *p, unsigned v) {
  pthread_mutex_lock(&sh_mu);
  *p += v;
  pthread_mutex_unlock(&sh_mu);
}
#define XS_TILE_FN static
#define XS_TILE_WARP warp_size
#define XS_TILE_SYNC() pthread_barrier_wait(&block_bar)
#define XS_TILE_BALLOT(p) emu_ballot(p)
#define XS_TILE_POPC(x) __builtin_popcountll(x)
#define XS_TILE_SH_ADD(p, v) emu_add((p), (v))
#include "kernels/sort_tiles.h"

static struct {
  int scatter;
  const uint64_t *k0;
  const double *v0;
  uint64_t *k1;
  double *v1;
  long long n, tiles, tile;
  int shift, bits;
  unsigned *counts;
  uint64_t sh[XS_TILE_SHMEM / 8];
} job;

static void *thread_main(void *arg) {
  my_t = (int)(intptr_t)arg;
  if (job.scatter)
    xs_tile_scatter(job.k0, job.v0, job.k1, job.v1, job.n, job.shift, job.bits, job.counts,
                    job.tiles, job.tile, my_t, job.sh);
  else
    xs_tile_hist(job.k0, job.n, job.shift, job.bits, job.counts, job.tiles, job.tile, my_t,
                 (unsigned *)job.sh);
  return NULL;
}
static void run_blocks(int scatter) {
  job.scatter = scatter;
  for (job.tile = 0; job.tile < job.tiles; job.tile++) {
    pthread_t th[XS_TILE_TPB];
    for (intptr_t t = 0; t < XS_TILE_TPB; t++) pthread_create(&th[t], NULL, thread_main, (void *)t);
    for (int t = 0; t < XS_TILE_TPB; t++) pthread_join(th[t], NULL);
  }
}

int main(int argc, char **argv) {
  if (argc < 4) return fprintf(stderr, "usage: %s N LO WARP [ties] [fault]\n", argv[0]), 2;
  const long long n = atoll(argv[1]);
  const int lo = atoi(argv[2]);
  warp_size = atoi(argv[3]);
  int ties = 0, fault = 0;
  for (int i = 4; i < argc; i++) ties |= !strcmp(argv[i], "ties"), fault |= !strcmp(argv[i], "fault");
  if (n < 2 || n > 1000000 || lo < 0 || lo > 63 || (warp_size != 32 && warp_size != 64))
    return fprintf(stderr, "bad arguments\n"), 2;
  pthread_barrier_init(&block_bar, NULL, XS_TILE_TPB);
  for (int w = 0; w < XS_TILE_TPB / warp_size; w++) pthread_barrier_init(&warp_bar[w], NULL, warp_size);
  uint64_t *k0 = malloc(n * 8), *k1 = malloc(n * 8), *ref = malloc(n * 8);
  double *v0 = malloc(n * 8), *v1 = malloc(n * 8);
  job.tiles = XS_TILES(n);
  job.counts = malloc(XS_TILE_COUNTS(n) * sizeof(unsigned));
  for (long long i = 0; i < n; i++) {
    int mat;
    xs_sample(i, &v0[i], &mat);
    if (ties) v0[i] = (double)i / n; /* value: input position; keys: material only */
    k0[i] = ref[i] = ties ? (uint64_t)mat << XS_KEY_MAT_SHIFT : xs_sort_key(mat, v0[i]);
  }
  job.n = n;
  for (int shift = lo; shift < 64; shift += XS_TILE_BITS) {
    job.shift = shift, job.bits = 64 - shift < XS_TILE_BITS ? 64 - shift : XS_TILE_BITS;
    job.k0 = k0, job.v0 = v0, job.k1 = k1, job.v1 = v1;
    run_blocks(0);
    unsigned run = 0; /* the scan the models do on the device */
    for (long long i = 0; i < job.tiles << job.bits; i++) {
      const unsigned x = job.counts[i];
      job.counts[i] = run, run += x;
    }
    run_blocks(1);
    uint64_t *tk = k0; k0 = k1, k1 = tk;
    double *tv = v0; v0 = v1, v1 = tv;
  }
  if (fault) { uint64_t t = k0[0]; k0[0] = k0[n - 1], k0[n - 1] = t; }
  int ok = 1;
  unsigned long long in = 0, out = 0;
  for (long long i = 0; i < n; i++) {
    in += ref[i], out += k0[i];
    if (i && k0[i] >> lo < k0[i - 1] >> lo) ok = 0;
    if (ties ? i && k0[i] == k0[i - 1] && v0[i] < v0[i - 1]
             : xs_sort_key(xs_key_mat(k0[i]), v0[i]) != k0[i])
      ok = 0;
  }
  if (in != out) ok = 0;
  printf("tile sort of %lld keys, bits [%d, 64), %d-lane warps%s: %s\n", n, lo, warp_size,
         ties ? ", stability" : "", ok ? "ok" : "WRONG");
  return !ok;
}
