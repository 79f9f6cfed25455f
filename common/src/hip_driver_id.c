/* The GPU an OpenMP device runs on, in AMD offload builds without the hip
 * model: HIP's runtime library opened at run time when the node has it
 * (libomptarget's AMDGPU plugin talks to HSA directly, so nothing else here
 * loads HIP). Only entry points that take plain ints and char buffers are
 * used: hipDeviceProp_t's layout changes between ROCm releases. */
#include <stddef.h>
#include "pp/device.h"
#include "pp/dynlib.h"
#include "pp/mpi.h"
#include "pp/system.h"

typedef int (*fn_int)(int *);
typedef int (*fn_flags)(unsigned);
typedef int (*fn_get)(int *, int);
typedef int (*fn_text)(char *, int, int);
typedef int (*fn_uuid)(unsigned char *, int);

static struct {
  fn_flags init;
  fn_int count, drv;
  fn_get get;
  fn_text name, bus;
  fn_uuid uuid;
} hip;

static const pp_dynsym hip_syms[] = {
    {.name = "hipInit", .at = &hip.init},
    {.name = "hipGetDeviceCount", .at = &hip.count},
    {.name = "hipDeviceGet", .at = &hip.get},
    {.name = "hipDriverGetVersion", .at = &hip.drv, .optional = 1},
    {.name = "hipDeviceGetName", .at = &hip.name, .optional = 1},
    {.name = "hipDeviceGetPCIBusId", .at = &hip.bus, .optional = 1},
    {.name = "hipDeviceGetUuid", .at = &hip.uuid, .optional = 1},
    {.name = NULL}};
static pp_dynlib amdhip = {.names = {"libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5"}, .syms = hip_syms};

int pp_native_identity(int index, pp_device_info *info) {
  int n = 0, dev = 0, v = 0;
  if (pp_dynlib_load(&amdhip) != 0 || hip.init(0) || hip.count(&n) || n == 0) return -1;
  if (index < 0) index = pp_mpi_local_rank() % n;
  if (index >= n || hip.get(&dev, index)) return -1;
  unsigned char u[16];
  info->native_index = index;
  if (hip.name && hip.name(info->name, (int)sizeof info->name, dev)) info->name[0] = 0;
  if (hip.bus && hip.bus(info->pci_bus_id, (int)sizeof info->pci_bus_id, index)) info->pci_bus_id[0] = 0;
  if (hip.uuid && hip.uuid(u, dev) == 0) pp_gpu_uuid_text(u, info->uuid, sizeof info->uuid);
  if (hip.drv && hip.drv(&v) == 0) pp_hip_version_text(info->driver_api, sizeof info->driver_api, "HIP", v);
  return 0;
}
