/* The IPC halo paths (halo_path.h): halo_ipc.c holds the exchange and the
 * rules, once; each vendor's file (halo_ipc_cuda.c: the CUDA driver,
 * halo_ipc_hip.c: HIP's runtime, opened at run time) holds its driver behind
 * the same few calls, and its table entry. Addresses are integers
 * (uintptr_t) so that neither vendor's types leak out. */
#ifndef CGSOLVE_HALO_IPC_H
#define CGSOLVE_HALO_IPC_H
#include <stddef.h>
#include <stdint.h>
#include "halo_path.h"

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
  /* The check's reason when the memory is not this driver's device memory. */
  const char *not_device;
} cg_ipc_driver;

/* The exchange over driver `d` (tests/test_halo_ipc.c hands it one that maps
 * host memory shared between processes): x's boundary planes written into
 * the neighbours' ghosts (mapped at x's first exchange; collective with the
 * neighbours); 0, or -1 when a driver call failed. */
int cg_ipc_exchange_on(const cg_ipc_driver *d, const cg_halo *h, double *x);
/* Unmaps the neighbours of x (before x is freed: its address may come back). */
void cg_ipc_forget(const double *x);

/* The functions of every IPC path's table entry (halo_path.h); the vendor's
 * entry holds its driver (self->data). why_not: host memory, another
 * vendor's memory, ranks on several nodes, else the driver check's verdict;
 * check: NULL when the driver opens and `device_memory` is its device memory
 * on this rank. */
const char *cg_ipc_why_not(const cg_halo_path *self, const cg_halo_facts *f);
void cg_ipc_describe(const cg_halo_path *self, const cg_halo_facts *f, const char *reasons, char *text, size_t n);
const char *cg_ipc_check(const cg_halo_path *self, const void *device_memory);
int cg_ipc_exchange(const cg_halo_path *self, const cg_halo *h, const pp_device_ops *ops, double *x);
/* The fields every IPC path's entry shares; the vendor's file adds its name,
 * --halo name, memory kind and driver (.data). */
#define CG_IPC_PATH_SHARED                                                                                     \
  .family = "IPC", .whole_planes = 1, .why_not = cg_ipc_why_not, .describe = cg_ipc_describe,                  \
  .check = cg_ipc_check, .exchange = cg_ipc_exchange, .forget = cg_ipc_forget

#endif
