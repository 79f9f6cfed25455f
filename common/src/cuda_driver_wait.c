/* --gpu-wait and free device memory for NVIDIA offload builds without the
 * cuda model (a compiler-matrix build: gcc-12, clang-16, a flag set), through
 * the CUDA driver API opened at run time, so that every build of the matrix
 * waits for the GPU the same way. Without it an OpenMP-only build synchronizes
 * with the driver's default wait, several times longer than spinning (see
 * docs/performance.md), which a flag sweep would read as the flag's effect. The schedule flag is set on the device's
 * primary context, which LLVM's libomptarget uses; the context is also made
 * current on this thread, which GCC's libgomp then adopts instead of creating
 * its own. It also names the GPU an OpenMP device runs on (pp_native_identity).
 */
#include <stddef.h>
#include <stdio.h>
#include "pp/device.h"
#include "pp/dynlib.h"
#include "pp/mpi.h"
#include "pp/system.h"

typedef int (*fn_init)(unsigned);
typedef int (*fn_count)(int *);
typedef int (*fn_get)(int *, int);
typedef int (*fn_setflags)(int, unsigned);
typedef int (*fn_retain)(void **, int);
typedef int (*fn_setcurrent)(void *);
typedef int (*fn_meminfo)(size_t *, size_t *);
typedef int (*fn_name)(char *, int, int);
typedef int (*fn_uuid)(unsigned char *, int);
typedef int (*fn_version)(int *);

static struct {
  int tried, ok;
  fn_init init;
  fn_count count;
  fn_get get;
  fn_setflags setflags;
  fn_retain retain;
  fn_setcurrent setcurrent;
  fn_meminfo meminfo;
  fn_name name, busid; /* identity: optional, each checked where used */
  fn_uuid uuid;
  fn_version version;
} cu;

static const pp_dynsym cu_syms[] = {
    {.name = "cuInit", .at = &cu.init},
    {.name = "cuDeviceGetCount", .at = &cu.count},
    {.name = "cuDeviceGet", .at = &cu.get},
    {.name = "cuDevicePrimaryCtxSetFlags_v2", .alt = "cuDevicePrimaryCtxSetFlags", .at = &cu.setflags},
    {.name = "cuDevicePrimaryCtxRetain", .at = &cu.retain},
    {.name = "cuCtxSetCurrent", .at = &cu.setcurrent},
    {.name = "cuMemGetInfo_v2", .at = &cu.meminfo},
    {.name = "cuDeviceGetName", .at = &cu.name, .optional = 1},
    {.name = "cuDeviceGetPCIBusId", .at = &cu.busid, .optional = 1},
    {.name = "cuDeviceGetUuid_v2", .alt = "cuDeviceGetUuid", .at = &cu.uuid, .optional = 1},
    {.name = "cuDriverGetVersion", .at = &cu.version, .optional = 1},
    {.name = NULL}};
/* RTLD_GLOBAL: the driver the OpenMP runtime loads too */
static pp_dynlib cuda = {.names = {"libcuda.so.1"}, .global = 1, .syms = cu_syms};

/* The driver's entry points; 0 when all are there and cuInit succeeded. */
static int load(void) {
  if (cu.tried) return cu.ok ? 0 : -1;
  cu.tried = 1;
  cu.ok = pp_dynlib_load(&cuda) == 0 && cu.init(0) == 0;
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

int pp_native_set_wait(int index, int mode) {
  /* CU_CTX_SCHED_AUTO, _SPIN, _YIELD, _BLOCKING_SYNC, in the modes' order */
  static const unsigned flags[] = {0x0, 0x1, 0x2, 0x4};
  int dev = 0;
  if (device_of(index, &dev) || cu.setflags(dev, flags[mode & 3])) return -1;
  return make_current(dev);
}

int pp_native_mem_info(int index, size_t *free_bytes, size_t *total_bytes) {
  int dev = 0;
  if (device_of(index, &dev) || make_current(dev)) return -1;
  return cu.meminfo(free_bytes, total_bytes) ? -1 : 0;
}

/* No CUDA runtime here: the OpenMP runtime is what the model runs through. */
int pp_native_identity(int index, pp_device_info *info) {
  int dev = 0, n = 0, v = 0;
  unsigned char u[16];
  if (device_of(index, &dev)) return -1;
  if (index < 0 && cu.count(&n) == 0 && n > 0) index = pp_mpi_local_rank() % n;
  info->native_index = index;
  if (cu.name && cu.name(info->name, (int)sizeof info->name, dev)) info->name[0] = 0;
  if (cu.busid && cu.busid(info->pci_bus_id, (int)sizeof info->pci_bus_id, dev)) info->pci_bus_id[0] = 0;
  if (cu.uuid && cu.uuid(u, dev) == 0) pp_gpu_uuid_text(u, info->uuid, sizeof info->uuid);
  if (cu.version && cu.version(&v) == 0) pp_cuda_version_text(info->driver_api, sizeof info->driver_api, "CUDA", v);
  return 0;
}
