/* The vendor half of the IPC halo (halo_ipc.c holds the exchange, once):
 * a driver opened at run time, the CUDA driver (halo_ipc_cuda.c) or HIP's
 * runtime (halo_ipc_hip.c), behind the same few calls. Addresses are
 * integers (uintptr_t) so that neither vendor's types leak out. */
#ifndef CGSOLVE_HALO_IPC_H
#define CGSOLVE_HALO_IPC_H
#include <stddef.h>
#include <stdint.h>

/* Both vendors' IPC memory handles are 64 opaque bytes. */
typedef struct cg_ipc_handle { char reserved[64]; } cg_ipc_handle;

typedef struct cg_ipc_driver {
  const char *name; /* "CUDA IPC", "HIP IPC" */
  /* NULL once the library and every entry point are there, else why not. */
  const char *(*load)(void);
  /* 1 when p is this runtime's device memory (after load). */
  int (*is_device)(const void *p);
  /* p's GPU made current on the calling thread (--overlap's helper thread
   * has none): 0, or -1. */
  int (*current_for)(const void *p);
  /* The allocation that holds p: its start. 0 or -1. */
  int (*base)(const void *p, uintptr_t *base);
  int (*get_handle)(cg_ipc_handle *h, uintptr_t base);
  int (*open)(uintptr_t *mapped, const cg_ipc_handle *h); /* a neighbour's allocation */
  int (*close)(uintptr_t mapped);
  /* Copies device to device on the driver's own non-blocking stream
   * (created at the first call), so that it never waits for the model's
   * work in flight; wait: that stream done. 0 or -1. */
  int (*copy)(uintptr_t dst, uintptr_t src, size_t bytes);
  int (*wait)(void);
} cg_ipc_driver;

const cg_ipc_driver *cg_cuda_ipc_driver(void);
const cg_ipc_driver *cg_hip_ipc_driver(void);

struct cg_halo;
/* cg_ipc_exchange over driver `d` (tests/test_halo_ipc.c hands it one that
 * maps host memory shared between processes). */
int cg_ipc_exchange_on(const cg_ipc_driver *d, const struct cg_halo *h, double *x);

#endif
