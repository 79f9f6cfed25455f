/* OpenMP offload runtime glue, shared by the omp and ompx models. */
#include <stdio.h>
#include <string.h>
#include <omp.h>
#include "pp/cli.h"
#include "pp/device.h"
#include "pp/machine.h"
#include "pp/mpi.h"
#include "pp/omp_device.h"
#include "pp/system.h"

#ifndef PP_OFFLOAD_ARCH
#define PP_OFFLOAD_ARCH "unknown"
#endif

int pp_omp_device = 0;
int pp_omp_host_team_limit = 0;
int pp_omp_gpu_team_cap = 0;
static pp_model current = PP_OMP;

static void fail(const char *what, const char *detail) { pp_device_fail(current, what, detail); }

static void omp_init_model(pp_model m, int index, pp_device_info *info) {
  current = m;
#ifdef PP_OFFLOAD_HOST_FALLBACK
  /* Built for PP_OFFLOAD=cpu by a compiler with no host offload device (its
   * row in cmake/OffloadCompilers.cmake names it: gcc, nvc, or the generic
   * path's PP_OMP_OFFLOAD_FLAGS): the regions run on the initial device, on
   * purpose and named as such. */
#define PP_FALLBACK_STR2(x) #x
#define PP_FALLBACK_STR(x) PP_FALLBACK_STR2(x)
  /* One device, the initial one: --device N > 0 is bad usage (exit 2), as on a GPU node. */
  char bad[96];
  snprintf(bad, sizeof bad, "--device %d: this node has 1 OpenMP device, the host fallback (0 to 0)", index);
  pp_usage_check_all(pp_model_name(m), index > 0 ? bad : NULL); /* collective, like the GPU path's */
  pp_omp_device = omp_get_initial_device();
  snprintf(info->name, sizeof info->name, "host fallback (initial device; %s has no host offload device)",
           PP_FALLBACK_STR(PP_OFFLOAD_HOST_FALLBACK));
  snprintf(info->arch, sizeof info->arch, "%s", PP_OFFLOAD_ARCH);
  info->count = 1;
  info->index = 0;
  info->is_gpu = 0;
  info->total_mem = pp_host_physical_bytes();
  info->free_mem = pp_host_available_bytes();
  int procs = omp_get_num_procs(), limit = omp_get_thread_limit();
  pp_omp_host_team_limit = procs < limit ? procs : limit;
  pp_openmp_runtime_desc(info->runtime, sizeof info->runtime, _OPENMP, (const void *)omp_target_alloc);
  return;
#endif
  int n = omp_get_num_devices();
  if (n <= 0)
    fail("init", "no OpenMP offload device found (omp_get_num_devices() = 0); refusing to fall "
                 "back to the host");
  int dev = index >= 0 ? index : pp_mpi_local_rank() % n;
  char msg[96];
  snprintf(msg, sizeof msg, "--device %d: this node has %d OpenMP offload device%s (0 to %d)", dev, n,
           n > 1 ? "s" : "", n - 1);
  pp_usage_check_all(pp_model_name(m), dev >= n ? msg : NULL); /* bad usage: exit 2 */
  /* A region that ran on the initial device would mean a silent host fallback. */
  int on_host = 1;
#pragma omp target device(dev) map(from : on_host)
  on_host = omp_is_initial_device();
  if (on_host) fail("init", "target region ran on the host (offload fallback); check OMP_TARGET_OFFLOAD and the device runtime");
  pp_omp_device = dev;
  info->is_gpu = strcmp(PP_OFFLOAD_ARCH, "x86_64") != 0;
  /* A GPU's real name is prepended by pp_device_identify. */
  snprintf(info->name, sizeof info->name, "%sOpenMP offload device %d of %d", info->is_gpu ? "" : "host CPU as ",
           dev, n);
  snprintf(info->arch, sizeof info->arch, "%s", PP_OFFLOAD_ARCH);
  info->count = n;
  info->index = dev;
  /* The GPU behind OpenMP device `dev` for its native driver: the same
   * number. Exact with one visible GPU; with several, LLVM's libomptarget
   * numbers one vendor's GPUs in that driver's order (CUDA's, HIP's), and
   * GCC's libgomp does too, so the numbers agree as long as one offload
   * plugin's devices are visible. */
  if (info->is_gpu) info->native_index = dev;
  /* The offload runtime: the library that defines omp_target_alloc
   * (libomptarget for LLVM, libgomp for GCC). */
  pp_openmp_runtime_desc(info->runtime, sizeof info->runtime, _OPENMP, (const void *)omp_target_alloc);
  /* OpenMP has no memory query: a GPU's comes from its native driver when
   * the build has one; the host-as-device's memory is the host's. */
  if (!info->is_gpu) {
    info->total_mem = pp_host_physical_bytes();
    info->free_mem = pp_host_available_bytes();
    int procs = omp_get_num_procs(), limit = omp_get_thread_limit();
    pp_omp_host_team_limit = procs < limit ? procs : limit;
  } else if (pp_native_mem_info(dev, &info->free_mem, &info->total_mem) != 0) {
    info->free_mem = info->total_mem = 0; /* unknown: the fit check cannot run */
  }
#if PP_OMP_GCC
  /* libgomp launches its own number of teams on a GPU (one per SM, whatever
   * num_teams asks) and runs the teams asked beyond it one after another
   * inside them, each with a fork and join of its warps. Ask for no more than
   * it launches: its default, read here (see docs/performance.md,
   * Compilers). */
  if (info->is_gpu) {
    int teams = 0;
#pragma omp target teams device(dev) map(tofrom : teams)
    if (omp_get_team_num() == 0) teams = omp_get_num_teams();
    pp_omp_gpu_team_cap = teams > 0 ? teams : 0;
  }
#endif
}


static void *offload_alloc(size_t bytes) {
  void *p = omp_target_alloc(bytes ? bytes : 64, pp_omp_device);
  if (!p) {
    char msg[96];
    snprintf(msg, sizeof msg, "omp_target_alloc of %zu bytes failed", bytes);
    fail("alloc", msg);
  }
  return p;
}

static void offload_free(void *p) {
  if (p) omp_target_free(p, pp_omp_device);
}

void *pp_omp_alloc(size_t bytes) { return offload_alloc(bytes); }
void pp_omp_free(void *p) { offload_free(p); }

static void omp_copy_dir(void *dst, const void *src, size_t bytes, int dst_dev, int src_dev) {
  if (bytes && omp_target_memcpy(dst, src, bytes, 0, 0, dst_dev, src_dev) != 0)
    fail("copy", "omp_target_memcpy failed");
}

static void omp_to_device(void *dst, const void *src, size_t bytes) {
  omp_copy_dir(dst, src, bytes, pp_omp_device, omp_get_initial_device());
}
static void omp_to_host(void *dst, const void *src, size_t bytes) {
  omp_copy_dir(dst, src, bytes, omp_get_initial_device(), pp_omp_device);
}
static void omp_d2d(void *dst, const void *src, size_t bytes) {
  omp_copy_dir(dst, src, bytes, pp_omp_device, pp_omp_device);
}

/* Target regions without nowait are synchronous; this also drains nowait tasks. */
static void omp_sync(void) {
#pragma omp taskwait
}

static double t0;
static void omp_timer_start(void) {
  omp_sync();
  t0 = omp_get_wtime();
}
static double omp_timer_stop(void) {
  omp_sync();
  return omp_get_wtime() - t0;
}

#ifdef PP_HAVE_OMP
static void omp_init(int index, pp_device_info *info) { omp_init_model(PP_OMP, index, info); }
const pp_device_ops pp_ops_omp = {
    .model = PP_OMP,
    .init = omp_init,
    .alloc = offload_alloc,
    .free = offload_free,
    .to_device = omp_to_device,
    .to_host = omp_to_host,
    .copy = omp_d2d,
    .sync = omp_sync,
    .timer_start = omp_timer_start,
    .timer_stop = omp_timer_stop,
};
const pp_device_ops *pp_device_ops_omp(void) { return &pp_ops_omp; }
#endif
#ifdef PP_HAVE_OMPX
static void ompx_init(int index, pp_device_info *info) { omp_init_model(PP_OMPX, index, info); }
const pp_device_ops pp_ops_ompx = {
    .model = PP_OMPX,
    .init = ompx_init,
    .alloc = offload_alloc,
    .free = offload_free,
    .to_device = omp_to_device,
    .to_host = omp_to_host,
    .copy = omp_d2d,
    .sync = omp_sync,
    .timer_start = omp_timer_start,
    .timer_stop = omp_timer_stop,
};
const pp_device_ops *pp_device_ops_ompx(void) { return &pp_ops_ompx; }
#endif
