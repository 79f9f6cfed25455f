/* The GPU an OpenMP device runs on, in AMD offload builds without the hip
 * model: HIP's runtime library opened at run time when the node has it
 * (libomptarget's AMDGPU plugin talks to HSA directly, so nothing else here
 * loads HIP). Only entry points that take plain ints and char buffers are
 * used: hipDeviceProp_t's layout changes between ROCm releases. */
#include <dlfcn.h>
#include <stddef.h>
#include "pp/device.h"
#include "pp/mpi.h"
#include "pp/system.h"

typedef int (*fn_int)(int *);
typedef int (*fn_flags)(unsigned);
typedef int (*fn_get)(int *, int);
typedef int (*fn_text)(char *, int, int);
typedef int (*fn_uuid)(unsigned char *, int);

int pp_native_identity(int index, pp_device_info *info) {
  static void *h;
  static int tried;
  if (!tried) {
    tried = 1;
    h = dlopen("libamdhip64.so", RTLD_NOW | RTLD_LOCAL);
    if (!h) h = dlopen("libamdhip64.so.6", RTLD_NOW | RTLD_LOCAL);
    if (!h) h = dlopen("libamdhip64.so.5", RTLD_NOW | RTLD_LOCAL);
  }
  if (!h) return -1;
  fn_flags init = (fn_flags)dlsym(h, "hipInit");
  fn_int count = (fn_int)dlsym(h, "hipGetDeviceCount"), drv = (fn_int)dlsym(h, "hipDriverGetVersion");
  fn_get get = (fn_get)dlsym(h, "hipDeviceGet");
  fn_text name = (fn_text)dlsym(h, "hipDeviceGetName"), bus = (fn_text)dlsym(h, "hipDeviceGetPCIBusId");
  fn_uuid uuid = (fn_uuid)dlsym(h, "hipDeviceGetUuid");
  int n = 0, dev = 0, v = 0;
  if (!init || !count || !get || init(0) || count(&n) || n == 0) return -1;
  if (index < 0) index = pp_mpi_local_rank() % n;
  if (index >= n || get(&dev, index)) return -1;
  unsigned char u[16];
  info->native_index = index;
  if (name && name(info->name, (int)sizeof info->name, dev)) info->name[0] = 0;
  if (bus && bus(info->pci_bus_id, (int)sizeof info->pci_bus_id, index)) info->pci_bus_id[0] = 0;
  if (uuid && uuid(u, dev) == 0) pp_gpu_uuid_text(u, info->uuid, sizeof info->uuid);
  if (drv && drv(&v) == 0) pp_hip_version_text(info->driver_api, sizeof info->driver_api, "HIP", v);
  return 0;
}
