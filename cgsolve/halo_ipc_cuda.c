/* The CUDA IPC halo path: its entry of the table (halo_path.h) and its
 * driver for halo_ipc.c, the CUDA driver (libcuda.so.1) opened at run time
 * (pp/dynlib.h), so builds without CUDA compile this and report it
 * unavailable. */
#include <stdint.h>
#include "halo_ipc.h"
#include "pp/dynlib.h"

typedef unsigned long long cu_ptr;
enum { CU_MEM_DEVICE = 2, CU_ATTR_MEMORY_TYPE = 2, CU_ATTR_ORDINAL = 9, CU_IPC_LAZY_PEER = 1,
       CU_STREAM_NON_BLOCKING = 1 };
static void *stream; /* the copies' own stream (one GPU per process) */

static struct {
  int tried;
  const char *why;
  int (*init)(unsigned);
  int (*attr)(void *, int, cu_ptr);
  int (*range)(cu_ptr *, size_t *, cu_ptr);
  int (*get_handle)(cg_ipc_handle *, cu_ptr);
  int (*open_handle)(cu_ptr *, cg_ipc_handle, unsigned);
  int (*close_handle)(cu_ptr);
  int (*copy)(cu_ptr, cu_ptr, size_t, void *);
  int (*stream_create)(void **, unsigned);
  int (*stream_sync)(void *);
  int (*retain)(void **, int);
  int (*set_current)(void *);
} cu;

static const pp_dynsym cu_syms[] = {
    {.name = "cuInit", .at = &cu.init},
    {.name = "cuPointerGetAttribute", .at = &cu.attr},
    {.name = "cuMemGetAddressRange_v2", .at = &cu.range},
    {.name = "cuIpcGetMemHandle", .at = &cu.get_handle},
    {.name = "cuIpcOpenMemHandle_v2", .alt = "cuIpcOpenMemHandle", .at = &cu.open_handle},
    {.name = "cuIpcCloseMemHandle", .at = &cu.close_handle},
    {.name = "cuMemcpyDtoDAsync_v2", .at = &cu.copy},
    {.name = "cuStreamCreate", .at = &cu.stream_create},
    {.name = "cuStreamSynchronize", .at = &cu.stream_sync},
    {.name = "cuDevicePrimaryCtxRetain", .at = &cu.retain},
    {.name = "cuCtxSetCurrent", .at = &cu.set_current},
    {.name = NULL}};
static pp_dynlib cuda = {.names = {"libcuda.so.1"}, .global = 1, .syms = cu_syms};

static const char *load(void) {
  if (cu.tried) return cu.why;
  cu.tried = 1;
  if (pp_dynlib_load(&cuda) != 0) return cu.why = cuda.why;
  return cu.why = cu.init(0) == 0 ? NULL : "cuInit failed (no NVIDIA GPU?)";
}

/* The primary context of the GPU that holds `p` made current on this thread,
 * retained once per GPU (a retain per call would add a reference each halo
 * setup that nothing releases). */
#define MAX_GPUS 64
static int current_for(const void *p) {
  static void *retained[MAX_GPUS];
  int dev = -1;
  if (cu.attr(&dev, CU_ATTR_ORDINAL, (cu_ptr)(uintptr_t)p) != 0 || dev < 0 || dev >= MAX_GPUS) return -1;
  if (!retained[dev] && cu.retain(&retained[dev], dev) != 0) return retained[dev] = NULL, -1;
  return cu.set_current(retained[dev]) == 0 ? 0 : -1;
}

static int is_device(const void *p) {
  int type = 0;
  return cu.attr(&type, CU_ATTR_MEMORY_TYPE, (cu_ptr)(uintptr_t)p) == 0 && type == CU_MEM_DEVICE;
}

static int base(const void *p, uintptr_t *b) {
  cu_ptr start = 0;
  size_t size = 0;
  if (cu.range(&start, &size, (cu_ptr)(uintptr_t)p) != 0) return -1;
  *b = (uintptr_t)start;
  return 0;
}
static int get_handle(cg_ipc_handle *h, uintptr_t b) { return cu.get_handle(h, (cu_ptr)b) == 0 ? 0 : -1; }
static int open_handle(uintptr_t *mapped, const cg_ipc_handle *h) {
  cu_ptr p = 0;
  if (cu.open_handle(&p, *h, CU_IPC_LAZY_PEER) != 0) return -1;
  *mapped = (uintptr_t)p;
  return 0;
}
static int close_handle(uintptr_t mapped) { return cu.close_handle((cu_ptr)mapped) == 0 ? 0 : -1; }
static int copy(uintptr_t dst, uintptr_t src, size_t bytes) {
  if (!stream && cu.stream_create(&stream, CU_STREAM_NON_BLOCKING) != 0) return -1;
  return cu.copy((cu_ptr)dst, (cu_ptr)src, bytes, stream) == 0 ? 0 : -1;
}
static int wait_copies(void) { return !stream || cu.stream_sync(stream) == 0 ? 0 : -1; }

static const cg_ipc_driver driver = {.name = "CUDA IPC", .load = load, .is_device = is_device,
                                     .current_for = current_for, .base = base, .get_handle = get_handle,
                                     .open = open_handle, .close = close_handle, .copy = copy, .wait = wait_copies,
                                     .not_device = "the model's memory is not CUDA device memory"};

/* The table entry (halo_path.h): the IPC functions every vendor shares (halo_ipc.c) over this driver. */
const cg_halo_path cg_halo_cuda_ipc = {.name = "CUDA IPC", .request = "cuda-ipc", .memory = CG_MEM_CUDA,
                                       .data = &driver, CG_IPC_PATH_SHARED};
