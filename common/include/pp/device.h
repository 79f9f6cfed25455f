/* Per-model device runtime glue: allocation, copies, synchronization, timers
 * and device information. Every call either succeeds or prints one line
 * naming the model and the failed operation and exits with code 3 (device
 * error): apps never run on after a device failure and never fall back to
 * the host silently. */
#ifndef PP_DEVICE_H
#define PP_DEVICE_H
#include <stddef.h>
#include "pp/model.h"
PP_EXTERN_C_BEGIN

typedef struct pp_device_info {
  char name[128];     /* e.g. "NVIDIA H100 80GB HBM3" or "host CPU (16 threads)" */
  char arch[32];      /* e.g. "sm_90", "gfx90a", "x86_64" */
  size_t total_mem;   /* bytes, 0 when the model cannot tell */
  size_t free_mem;    /* bytes, 0 when the model cannot tell */
  int count;          /* devices of this model visible to the process */
  int index;          /* the device in use */
  int is_gpu;
  /* Identity (provenance in the result file); "" where the driver cannot tell. */
  int native_index;     /* the GPU's number for its native driver (CUDA/HIP), -1 unknown */
  char uuid[48];        /* "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" */
  char pci_bus_id[32];  /* "0000:19:00.0" */
  char driver[48];      /* kernel driver release, e.g. "580.95.05" */
  char driver_api[48];  /* the driver's API version, e.g. "CUDA 13.0", "HIP 5.2.21151" */
  char runtime[192];    /* what the model ran through: "CUDA runtime 13.0", the OpenMP runtime */
} pp_device_info;

typedef struct pp_device_ops {
  pp_model model;
  /* Selects device `index`; exits 3 if the model has no usable device. */
  void (*init)(int index, pp_device_info *info);
  void *(*alloc)(size_t bytes);                 /* exits 3 on failure */
  void (*free)(void *p);
  void (*to_device)(void *dst, const void *src, size_t bytes);
  void (*to_host)(void *dst, const void *src, size_t bytes);
  void (*copy)(void *dst, const void *src, size_t bytes); /* device to device */
  void (*sync)(void);
  /* Device-synchronized timing: events for CUDA/HIP, synchronized wall clock
   * otherwise. timer_stop returns seconds since timer_start. */
  void (*timer_start)(void);
  double (*timer_stop)(void);
  /* Optional (NULL: to_device / to_host do): the same copies, free to run
   * while this process's kernels are in flight and callable from any thread
   * (cgsolve's halo, overlapped with the interior rows from a helper thread).
   * The caller has made the source final (sync) first. */
  void (*to_device_concurrent)(void *dst, const void *src, size_t bytes);
  void (*to_host_concurrent)(void *dst, const void *src, size_t bytes);
} pp_device_ops;

/* How the host waits for the GPU (--gpu-wait, pp_options.gpu_wait): `mode`
 * 0 the driver's default (auto), 1 spin, 2 yield, 3 block, set on device
 * `index` (< 0: by node-local rank). The session applies it to the native
 * model's device context before any model opens it, so every model on that
 * GPU waits the same way (OpenMP's runtime shares the primary context). Spin
 * is the default because the driver's own choice makes a synchronization
 * several times longer and its time vary from run to run (see
 * docs/performance.md). Returns 0, or -1 when the build has no native model
 * to set it through. */
int pp_native_set_wait(int index, int mode);

/* Free and total memory of GPU `index` asked from the native driver (CUDA or
 * HIP), so OpenMP-only runs know them too. Returns 0, or -1 when the build
 * has no native model or the driver cannot tell. Never exits. */
int pp_native_mem_info(int index, size_t *free_bytes, size_t *total_bytes);

/* Name, UUID, PCI bus id and driver versions of GPU `index` (the native
 * driver's numbering; < 0: by node-local rank) from the native model's
 * runtime, or from the CUDA/HIP driver library opened at run time in builds
 * without it. Fills what it learns (runtime: the native runtime's version,
 * "" without one) and leaves the rest; returns 0, or -1 when no driver
 * answered. Never exits. */
int pp_native_identity(int index, pp_device_info *info);

/* The ops of model m, or NULL when m is not in this build. */
const pp_device_ops *pp_device_ops_for(pp_model m);

/* Allocates and uploads `bytes` from host memory `src`. */
void *pp_device_upload(const pp_device_ops *ops, const void *src, size_t bytes);

/* Prints "<model>: <what>: <detail>" to stderr and exits 3. */
void pp_device_fail(pp_model m, const char *what, const char *detail);

PP_EXTERN_C_END
#endif
