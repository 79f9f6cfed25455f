/* The HIP IPC halo path: its entry of the table (halo_path.h) and its
 * driver for halo_ipc.c, HIP's runtime (libamdhip64) opened at run time
 * (pp/dynlib.h), as the CUDA driver is, so every build compiles this.
 * Compiled, not run on an AMD GPU. Only calls whose arguments keep their layout across ROCm
 * releases are used; the two that changed are handled here:
 *   - hipPointerAttribute_t's memory type values (ROCm 6 renumbered them;
 *     its first two fields, type and device, kept their place);
 *   - hipIpcMemLazyEnablePeerAccess (0 up to ROCm 5, 1 since ROCm 6; HIP
 *     refuses any other value): the open is tried with 1, then 0. */
#include <stdint.h>
#include <string.h>
#include "halo_ipc.h"
#include "pp/dynlib.h"

enum { HIP_STREAM_NON_BLOCKING = 1, HIP_ROCM6 = 60000000 /* hipRuntimeGetVersion of ROCm 6.0 */ };
static void *stream; /* the copies' own stream (one GPU per process) */

/* hipPointerAttribute_t's first fields (the rest is room for any release's). */
typedef struct hip_attrs {
  int type, device;
  char rest[120];
} hip_attrs;

static struct {
  int tried, version;
  const char *why;
  int (*init)(unsigned);
  int (*runtime_version)(int *);
  int (*attrs)(hip_attrs *, const void *);
  int (*set_device)(int);
  int (*range)(void **, size_t *, void *);
  int (*get_handle)(cg_ipc_handle *, void *);
  int (*open_handle)(void **, cg_ipc_handle, unsigned);
  int (*close_handle)(void *);
  int (*copy)(void *, void *, size_t, void *);
  int (*stream_create)(void **, unsigned);
  int (*stream_sync)(void *);
} hip;

static const pp_dynsym hip_syms[] = {
    {.name = "hipInit", .at = &hip.init},
    {.name = "hipRuntimeGetVersion", .at = &hip.runtime_version},
    {.name = "hipPointerGetAttributes", .at = &hip.attrs},
    {.name = "hipSetDevice", .at = &hip.set_device},
    {.name = "hipMemGetAddressRange", .at = &hip.range},
    {.name = "hipIpcGetMemHandle", .at = &hip.get_handle},
    {.name = "hipIpcOpenMemHandle", .at = &hip.open_handle},
    {.name = "hipIpcCloseMemHandle", .at = &hip.close_handle},
    {.name = "hipMemcpyDtoDAsync", .at = &hip.copy},
    {.name = "hipStreamCreateWithFlags", .at = &hip.stream_create},
    {.name = "hipStreamSynchronize", .at = &hip.stream_sync},
    {.name = NULL}};
static pp_dynlib amdhip = {.names = {"libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5"}, .syms = hip_syms};

static const char *load(void) {
  if (hip.tried) return hip.why;
  hip.tried = 1;
  if (pp_dynlib_load(&amdhip) != 0) return hip.why = amdhip.why;
  if (hip.init(0) != 0 || hip.runtime_version(&hip.version) != 0) return hip.why = "hipInit failed (no AMD GPU?)";
  return hip.why = NULL;
}

static int is_device(const void *p) {
  hip_attrs a;
  memset(&a, 0, sizeof a);
  const int device_type = hip.version >= HIP_ROCM6 ? 2 : 1; /* hipMemoryTypeDevice */
  void *start = NULL;
  size_t size = 0;
  return hip.attrs(&a, p) == 0 && a.type == device_type && hip.range(&start, &size, (void *)(uintptr_t)p) == 0;
}

static int current_for(const void *p) {
  hip_attrs a;
  memset(&a, 0, sizeof a);
  if (hip.attrs(&a, p) != 0 || a.device < 0) return -1;
  return hip.set_device(a.device) == 0 ? 0 : -1;
}

static int base(const void *p, uintptr_t *b) {
  void *start = NULL;
  size_t size = 0;
  if (hip.range(&start, &size, (void *)(uintptr_t)p) != 0) return -1;
  *b = (uintptr_t)start;
  return 0;
}
static int get_handle(cg_ipc_handle *h, uintptr_t b) { return hip.get_handle(h, (void *)b) == 0 ? 0 : -1; }
static int open_handle(uintptr_t *mapped, const cg_ipc_handle *h) {
  void *p = NULL;
  if (hip.open_handle(&p, *h, 1) != 0 && hip.open_handle(&p, *h, 0) != 0) return -1;
  *mapped = (uintptr_t)p;
  return 0;
}
static int close_handle(uintptr_t mapped) { return hip.close_handle((void *)mapped) == 0 ? 0 : -1; }
static int copy(uintptr_t dst, uintptr_t src, size_t bytes) {
  if (!stream && hip.stream_create(&stream, HIP_STREAM_NON_BLOCKING) != 0) return -1;
  return hip.copy((void *)dst, (void *)src, bytes, stream) == 0 ? 0 : -1;
}
static int wait_copies(void) { return !stream || hip.stream_sync(stream) == 0 ? 0 : -1; }

static const cg_ipc_driver driver = {.name = "HIP IPC", .load = load, .is_device = is_device,
                                     .current_for = current_for, .base = base, .get_handle = get_handle,
                                     .open = open_handle, .close = close_handle, .copy = copy, .wait = wait_copies,
                                     .not_device = "the model's memory is not HIP device memory"};

/* The table entry (halo_path.h): the IPC functions every vendor shares (halo_ipc.c) over this driver. */
const cg_halo_path cg_halo_hip_ipc = {.name = "HIP IPC", .request = "hip-ipc", .memory = CG_MEM_HIP,
                                      .data = &driver, CG_IPC_PATH_SHARED};
