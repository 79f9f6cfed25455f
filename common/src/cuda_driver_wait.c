/* --gpu-wait and free device memory for NVIDIA offload builds without the
 * cuda model (a compiler-matrix build: gcc-12, clang-16, a flag set), through
 * the CUDA driver API opened at run time, so that every build of the matrix
 * waits for the GPU the same way. Without it an OpenMP-only build synchronizes
 * with the driver's default (~40 us per wait on the H200 we used, against ~8
 * us spinning: validate/results/nvidia-h200/gpu-wait.txt), which a flag sweep
 * would read as the flag's effect. The schedule flag is set on the device's
 * primary context, which LLVM's libomptarget uses; the context is also made
 * current on this thread, which GCC's libgomp then adopts instead of creating
 * its own. */
#include <dlfcn.h>
#include <stddef.h>
#include "pp/device.h"
#include "pp/mpi.h"

typedef int (*fn_init)(unsigned);
typedef int (*fn_count)(int *);
typedef int (*fn_get)(int *, int);
typedef int (*fn_setflags)(int, unsigned);
typedef int (*fn_retain)(void **, int);
typedef int (*fn_setcurrent)(void *);
typedef int (*fn_meminfo)(size_t *, size_t *);

static struct {
  int tried, ok;
  fn_init init;
  fn_count count;
  fn_get get;
  fn_setflags setflags;
  fn_retain retain;
  fn_setcurrent setcurrent;
  fn_meminfo meminfo;
} cu;

/* The driver's entry points; 0 when all are there and cuInit succeeded. */
static int load(void) {
  if (cu.tried) return cu.ok ? 0 : -1;
  cu.tried = 1;
  void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
  if (!h) return -1;
  cu.init = (fn_init)dlsym(h, "cuInit");
  cu.count = (fn_count)dlsym(h, "cuDeviceGetCount");
  cu.get = (fn_get)dlsym(h, "cuDeviceGet");
  cu.setflags = (fn_setflags)dlsym(h, "cuDevicePrimaryCtxSetFlags_v2");
  if (!cu.setflags) cu.setflags = (fn_setflags)dlsym(h, "cuDevicePrimaryCtxSetFlags");
  cu.retain = (fn_retain)dlsym(h, "cuDevicePrimaryCtxRetain");
  cu.setcurrent = (fn_setcurrent)dlsym(h, "cuCtxSetCurrent");
  cu.meminfo = (fn_meminfo)dlsym(h, "cuMemGetInfo_v2");
  cu.ok = cu.init && cu.count && cu.get && cu.setflags && cu.retain && cu.setcurrent && cu.meminfo &&
          cu.init(0) == 0;
  return cu.ok ? 0 : -1;
}

/* The driver's handle of device `index` (< 0: by node-local rank) in *dev: 0, or -1. */
static int device_of(int index, int *dev) {
  int n = 0;
  if (load() || cu.count(&n) || n == 0 || index >= n) return -1;
  return cu.get(dev, index >= 0 ? index : pp_mpi_local_rank() % n) ? -1 : 0;
}

/* Device dev's primary context made current on this thread: 0, or -1. */
static int make_current(int dev) {
  void *ctx = NULL;
  return cu.retain(&ctx, dev) || cu.setcurrent(ctx) ? -1 : 0;
}

int pp_native_set_wait(int index) {
  /* CU_CTX_SCHED_AUTO, _SPIN, _YIELD, _BLOCKING_SYNC, in pp_gpu_wait's order */
  static const unsigned flags[] = {0x0, 0x1, 0x2, 0x4};
  int dev = 0;
  if (device_of(index, &dev) || cu.setflags(dev, flags[pp_gpu_wait & 3])) return -1;
  return make_current(dev);
}

int pp_native_mem_info(int index, size_t *free_bytes, size_t *total_bytes) {
  int dev = 0;
  if (device_of(index, &dev) || make_current(dev)) return -1;
  return cu.meminfo(free_bytes, total_bytes) ? -1 : 0;
}
