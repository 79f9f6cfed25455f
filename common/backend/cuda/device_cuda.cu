/* Native runtime glue, written once in CUDA dialect through pp/gpu_native.h:
 * nvcc builds it as the cuda model, hipcc (with PP_NATIVE_HIP) as hip. */
#include <stdio.h>
#include "pp/cli.h"
#include "pp/gpu_native.h"
#include "pp/mpi.h"
#include "pp/system.h"
#include "pp/timer.h"

static gpuEvent_t ev_start, ev_stop;
static int device_index; /* this process's GPU (native_init) */

#if !defined(__HIP_DEVICE_COMPILE__)
extern "C" int pp_native_set_wait(int index, int mode) {
  static const unsigned flags[] = {gpuDeviceScheduleAuto, gpuDeviceScheduleSpin,
                                   gpuDeviceScheduleYield, gpuDeviceScheduleBlockingSync};
  int n = 0;
  if (gpuGetDeviceCount(&n) != gpuSuccess || n == 0 || index >= n) return 0; /* init reports it */
  PP_GPU_CHECK(gpuSetDevice(index >= 0 ? index : pp_mpi_local_rank() % n));
  PP_GPU_CHECK(gpuSetDeviceFlags(flags[mode & 3]));
  return 0;
}

extern "C" int pp_native_mem_info(int index, size_t *free_bytes, size_t *total_bytes) {
  int n = 0;
  if (gpuGetDeviceCount(&n) != gpuSuccess || index < 0 || index >= n) return -1;
  if (gpuSetDevice(index) != gpuSuccess) return -1;
  return gpuMemGetInfo(free_bytes, total_bytes) == gpuSuccess ? 0 : -1;
}

/* Provenance only: every call may fail, none stops the run. */
extern "C" int pp_native_identity(int index, pp_device_info *info) {
  int n = 0, drv = 0, rt = 0;
  if (gpuGetDeviceCount(&n) != gpuSuccess || n == 0) return -1;
  int dev = index >= 0 ? index : pp_mpi_local_rank() % n;
  gpuDeviceProp p;
  if (dev >= n || gpuGetDeviceProperties(&p, dev) != gpuSuccess) return -1;
  info->native_index = dev;
  snprintf(info->name, sizeof info->name, "%s", p.name);
  char bus[sizeof info->pci_bus_id];
  if (gpuDeviceGetPCIBusId(bus, (int)sizeof bus, dev) == gpuSuccess) snprintf(info->pci_bus_id, sizeof bus, "%s", bus);
  if (gpuDriverGetVersion(&drv) != gpuSuccess) drv = 0;
  if (gpuRuntimeGetVersion(&rt) != gpuSuccess) rt = 0;
#ifdef PP_NATIVE_HIP
  hipDevice_t h;
  hipUUID u;
  if (hipDeviceGet(&h, dev) == hipSuccess && hipDeviceGetUuid(&u, h) == hipSuccess)
    pp_gpu_uuid_text((const unsigned char *)u.bytes, info->uuid, sizeof info->uuid);
  pp_hip_version_text(info->driver_api, sizeof info->driver_api, "HIP", drv);
  pp_hip_version_text(info->runtime, sizeof info->runtime, "HIP runtime", rt);
#else
  pp_gpu_uuid_text((const unsigned char *)p.uuid.bytes, info->uuid, sizeof info->uuid);
  pp_cuda_version_text(info->driver_api, sizeof info->driver_api, "CUDA", drv);
  pp_cuda_version_text(info->runtime, sizeof info->runtime, "CUDA runtime", rt);
#endif
  return 0;
}
#endif

static void native_init(int index, pp_device_info *info) {
  int n = 0;
  gpuError_t e = gpuGetDeviceCount(&n);
  if (e != gpuSuccess || n == 0)
    pp_device_fail(PP_NATIVE_MODEL, "init",
                   e != gpuSuccess ? gpuGetErrorString(e) : "no GPU device found");
  int dev = index >= 0 ? index : pp_mpi_local_rank() % n;
  char msg[96];
  snprintf(msg, sizeof msg, "--device %d: this node has %d GPU%s (0 to %d)", dev, n, n > 1 ? "s" : "", n - 1);
  pp_usage_check_all(pp_model_name(PP_NATIVE_MODEL), dev >= n ? msg : NULL); /* bad usage: exit 2 */
  PP_GPU_CHECK(gpuSetDevice(dev));
  device_index = dev;
  gpuDeviceProp p;
  PP_GPU_CHECK(gpuGetDeviceProperties(&p, dev));
  size_t fr = 0, tot = 0;
  PP_GPU_CHECK(gpuMemGetInfo(&fr, &tot));
  snprintf(info->name, sizeof info->name, "%s", p.name);
#ifdef PP_NATIVE_HIP
  snprintf(info->arch, sizeof info->arch, "%s", p.gcnArchName);
#else
  snprintf(info->arch, sizeof info->arch, "sm_%d%d", p.major, p.minor);
#endif
  info->total_mem = tot;
  info->free_mem = fr;
  info->count = n;
  info->index = dev;
  info->native_index = dev;
  info->is_gpu = 1;
  PP_GPU_CHECK(gpuEventCreate(&ev_start));
  PP_GPU_CHECK(gpuEventCreate(&ev_stop));
}

static void *native_alloc(size_t bytes) {
  void *p = NULL;
  gpuError_t e = gpuMalloc(&p, bytes ? bytes : 64);
  if (e != gpuSuccess) {
    char msg[160];
    snprintf(msg, sizeof msg, "cannot allocate %zu bytes: %s", bytes, gpuGetErrorString(e));
    pp_device_fail(PP_NATIVE_MODEL, "alloc", msg);
  }
  return p;
}

static void native_free(void *p) {
  if (p) PP_GPU_CHECK(gpuFree(p));
}
static void native_to_device(void *d, const void *s, size_t b) {
  PP_GPU_CHECK(gpuMemcpy(d, s, b, gpuMemcpyHostToDevice));
}
static void native_to_host(void *d, const void *s, size_t b) {
  PP_GPU_CHECK(gpuMemcpy(d, s, b, gpuMemcpyDeviceToHost));
}
static void native_copy(void *d, const void *s, size_t b) {
  PP_GPU_CHECK(gpuMemcpy(d, s, b, gpuMemcpyDeviceToDevice));
}
static void native_sync(void) { PP_GPU_CHECK(gpuDeviceSynchronize()); }
/* The concurrent copies: on a non-blocking stream of their own, which never
 * waits for the kernels of the legacy default stream (a plain memcpy would
 * queue behind them), on this process's GPU whatever the calling thread's
 * current device. One caller at a time (cgsolve's helper thread). */
static void concurrent_copy(void *d, const void *s, size_t b, gpuMemcpyKind kind) {
  static gpuStream_t stream;
  PP_GPU_CHECK(gpuSetDevice(device_index));
  if (!stream) PP_GPU_CHECK(gpuStreamCreateWithFlags(&stream, gpuStreamNonBlocking));
  PP_GPU_CHECK(gpuMemcpyAsync(d, s, b, kind, stream));
  PP_GPU_CHECK(gpuStreamSynchronize(stream));
}
static void native_to_device_concurrent(void *d, const void *s, size_t b) {
  concurrent_copy(d, s, b, gpuMemcpyHostToDevice);
}
static void native_to_host_concurrent(void *d, const void *s, size_t b) {
  concurrent_copy(d, s, b, gpuMemcpyDeviceToHost);
}
/* Events; --timer wall is the measurement's (measure.c), not the model's. */
static void native_timer_start(void) { PP_GPU_CHECK(gpuEventRecord(ev_start, 0)); }
static double native_timer_stop(void) {
  PP_GPU_CHECK(gpuEventRecord(ev_stop, 0));
  PP_GPU_CHECK(gpuEventSynchronize(ev_stop));
  float ms = 0;
  PP_GPU_CHECK(gpuEventElapsedTime(&ms, ev_start, ev_stop));
  return 1e-3 * ms;
}

/* Host only: clang's HIP would otherwise also emit this const table for the
 * device, where the host functions it points to do not exist. */
#if !defined(__HIP_DEVICE_COMPILE__)
#ifdef PP_NATIVE_HIP
extern "C" const pp_device_ops pp_ops_hip = {
#else
extern "C" const pp_device_ops pp_ops_cuda = {
#endif
    .model = PP_NATIVE_MODEL,
    .init = native_init,
    .alloc = native_alloc,
    .free = native_free,
    .to_device = native_to_device,
    .to_host = native_to_host,
    .copy = native_copy,
    .sync = native_sync,
    .timer_start = native_timer_start,
    .timer_stop = native_timer_stop,
    .to_device_concurrent = native_to_device_concurrent,
    .to_host_concurrent = native_to_host_concurrent,
};
#ifdef PP_NATIVE_HIP
extern "C" const pp_device_ops *pp_device_ops_hip(void) { return &pp_ops_hip; }
#else
extern "C" const pp_device_ops *pp_device_ops_cuda(void) { return &pp_ops_cuda; }
#endif
#endif
