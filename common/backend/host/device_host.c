/* The host model: plain memory, OpenMP threads for the bulk copy. */
#define _POSIX_C_SOURCE 200809L /* posix_memalign */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "pp/device.h"
#include "pp/machine.h"
#include "pp/timer.h"

static void host_init(int index, pp_device_info *info) {
  (void)index;
  int threads = 1;
#ifdef _OPENMP
  threads = omp_get_max_threads();
#endif
  snprintf(info->name, sizeof info->name, "host CPU (%d OpenMP thread%s)", threads, threads > 1 ? "s" : "");
#if defined(__x86_64__)
  snprintf(info->arch, sizeof info->arch, "x86_64");
#elif defined(__aarch64__)
  snprintf(info->arch, sizeof info->arch, "aarch64");
#else
  snprintf(info->arch, sizeof info->arch, "cpu");
#endif
  info->total_mem = pp_host_physical_bytes();
  info->free_mem = pp_host_available_bytes();
  info->count = 1;
  info->index = 0;
  info->is_gpu = 0;
}

static void *host_alloc(size_t bytes) {
  void *p = NULL;
  if (posix_memalign(&p, 64, bytes ? bytes : 64) != 0) {
    char msg[96];
    snprintf(msg, sizeof msg, "cannot allocate %zu bytes", bytes);
    pp_device_fail(PP_HOST, "alloc", msg);
  }
  return p;
}

static void host_free(void *p) { free(p); }

/* All threads copy, as a STREAM copy loop does (one thread's memcpy does not
 * reach the memory's bandwidth), so the host ceiling is a roof. */
static void host_copy(void *dst, const void *src, size_t bytes) {
  size_t n = bytes / sizeof(double), tail = bytes - n * sizeof(double);
  double *PP_RESTRICT d = dst;
  const double *PP_RESTRICT s = src;
  if (((uintptr_t)dst | (uintptr_t)src) % sizeof(double)) { /* unaligned: plain memcpy */
    memcpy(dst, src, bytes);
    return;
  }
#pragma omp parallel for simd schedule(static)
  for (size_t i = 0; i < n; i++) d[i] = s[i];
  if (tail) memcpy(d + n, s + n, tail);
}

/* The concurrent copies (cgsolve's overlapped halo, from a helper thread
 * while the main thread's team computes): one thread's memcpy, not a second
 * OpenMP team competing with the first for the cores. */
static void host_copy_one_thread(void *dst, const void *src, size_t bytes) { memcpy(dst, src, bytes); }

static void host_sync(void) {}
static double t0;
static void host_timer_start(void) { t0 = pp_wtime(); }
static double host_timer_stop(void) { return pp_wtime() - t0; }

const pp_device_ops pp_ops_host = {
    .model = PP_HOST,
    .init = host_init,
    .alloc = host_alloc,
    .free = host_free,
    .to_device = host_copy,
    .to_host = host_copy,
    .copy = host_copy,
    .sync = host_sync,
    .timer_start = host_timer_start,
    .timer_stop = host_timer_stop,
    .to_device_concurrent = host_copy_one_thread,
    .to_host_concurrent = host_copy_one_thread,
};
const pp_device_ops *pp_device_ops_host(void) { return &pp_ops_host; }
