/* The halo between GPUs of one node without a GPU-aware MPI: CUDA IPC.
 * Each rank maps its neighbours' vector through the driver's IPC handles
 * (exchanged once per vector over MPI) and writes its boundary plane
 * straight into their ghost block, device to device (NVLink or PCIe peer
 * access) on a stream of its own, so that the copy never waits for the
 * interior rows computing meanwhile (--overlap): the caller synchronizes the
 * model first (the plane is final). A zero-byte message per neighbour then
 * says "written". The CUDA
 * driver is opened at run time (libcuda.so.1): builds without CUDA compile
 * this and report it unavailable. Safe because CG sums over all ranks
 * between two SpMVs: a rank writes a neighbour's ghosts only after that
 * neighbour's last SpMV that read them. */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "cgsolve.h"
#include "pp/mpi.h"
#ifdef PP_HAVE_MPI
#include <mpi.h>
#endif

typedef unsigned long long cu_ptr;
typedef struct { char reserved[64]; } cu_ipc_handle;
enum { CU_MEM_DEVICE = 2, CU_ATTR_MEMORY_TYPE = 2, CU_ATTR_ORDINAL = 9, CU_IPC_LAZY_PEER = 1,
       CU_STREAM_NON_BLOCKING = 1 };
static void *stream; /* the copies' own stream (one GPU per process) */

static struct {
  int tried, ok;
  int (*init)(unsigned);
  int (*attr)(void *, int, cu_ptr);
  int (*range)(cu_ptr *, size_t *, cu_ptr);
  int (*get_handle)(cu_ipc_handle *, cu_ptr);
  int (*open_handle)(cu_ptr *, cu_ipc_handle, unsigned);
  int (*close_handle)(cu_ptr);
  int (*copy)(cu_ptr, cu_ptr, size_t, void *);
  int (*stream_create)(void **, unsigned);
  int (*stream_sync)(void *);
  int (*retain)(void **, int);
  int (*set_current)(void *);
} cu;

static const char *load(void) {
  if (cu.tried) return cu.ok ? NULL : "the CUDA driver (libcuda.so.1) lacks an IPC entry point";
  cu.tried = 1;
  void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
  if (!h) return "no CUDA driver (libcuda.so.1 cannot be opened)";
  cu.init = (int (*)(unsigned))dlsym(h, "cuInit");
  cu.attr = (int (*)(void *, int, cu_ptr))dlsym(h, "cuPointerGetAttribute");
  cu.range = (int (*)(cu_ptr *, size_t *, cu_ptr))dlsym(h, "cuMemGetAddressRange_v2");
  cu.get_handle = (int (*)(cu_ipc_handle *, cu_ptr))dlsym(h, "cuIpcGetMemHandle");
  cu.open_handle = (int (*)(cu_ptr *, cu_ipc_handle, unsigned))dlsym(h, "cuIpcOpenMemHandle_v2");
  if (!cu.open_handle) cu.open_handle = (int (*)(cu_ptr *, cu_ipc_handle, unsigned))dlsym(h, "cuIpcOpenMemHandle");
  cu.close_handle = (int (*)(cu_ptr))dlsym(h, "cuIpcCloseMemHandle");
  cu.copy = (int (*)(cu_ptr, cu_ptr, size_t, void *))dlsym(h, "cuMemcpyDtoDAsync_v2");
  cu.stream_create = (int (*)(void **, unsigned))dlsym(h, "cuStreamCreate");
  cu.stream_sync = (int (*)(void *))dlsym(h, "cuStreamSynchronize");
  cu.retain = (int (*)(void **, int))dlsym(h, "cuDevicePrimaryCtxRetain");
  cu.set_current = (int (*)(void *))dlsym(h, "cuCtxSetCurrent");
  cu.ok = cu.init && cu.attr && cu.range && cu.get_handle && cu.open_handle && cu.close_handle && cu.copy &&
          cu.stream_create && cu.stream_sync && cu.retain && cu.set_current && cu.init(0) == 0;
  return cu.ok ? NULL : "the CUDA driver (libcuda.so.1) lacks an IPC entry point or cuInit failed";
}

/* The primary context of the GPU that holds `p` made current on this thread
 * (the helper thread of --overlap has none); 0 or -1. */
static int current_for(const void *p) {
  int dev = -1;
  void *ctx = NULL;
  if (cu.attr(&dev, CU_ATTR_ORDINAL, (cu_ptr)(uintptr_t)p) != 0 || cu.retain(&ctx, dev) != 0) return -1;
  return cu.set_current(ctx) == 0 ? 0 : -1;
}

const char *cg_ipc_check(const void *device_memory) {
  const char *why = load();
  int type = 0;
  if (!why && (current_for(device_memory) != 0 ||
               cu.attr(&type, CU_ATTR_MEMORY_TYPE, (cu_ptr)(uintptr_t)device_memory) != 0 || type != CU_MEM_DEVICE))
    why = "the model's memory is not CUDA device memory";
  if (!why && pp_mpi_local_size() != pp_mpi_size())
    why = "the ranks are on more than one node (IPC maps memory within one node)";
  return why;
}

/* A vector's neighbours mapped: where this rank writes its planes. */
typedef struct mapping {
  const double *mine;
  cu_ptr peer_base[2]; /* the neighbour's mapped allocation (closed by cg_ipc_forget) */
  double *dst[2];      /* its ghost block for this rank's plane */
} mapping;
static mapping maps[8];

void cg_ipc_forget(const double *x) {
  for (int i = 0; i < 8; i++) {
    if (maps[i].mine != x || !x) continue;
    for (int d = 0; d < 2; d++)
      if (maps[i].peer_base[d]) cu.close_handle(maps[i].peer_base[d]);
    memset(&maps[i], 0, sizeof maps[i]);
  }
}

#ifdef PP_HAVE_MPI
/* What a rank tells neighbour nbr[d] about its own vector. */
typedef struct ipc_offer {
  cu_ipc_handle handle;  /* of the vector's allocation */
  long long offset;      /* of the vector in it, bytes */
  long long recv_at;     /* where the ghosts from nbr[d] go (recv_at[d]), entries */
  long long nrecv;
} ipc_offer;

/* Collective (every rank at once, as every exchange): maps the neighbours'
 * copies of vector x; NULL where any rank could not. */
static mapping *map_vector(const cg_halo *h, double *x) {
  mapping *m = NULL;
  for (int i = 0; i < 8; i++)
    if (maps[i].mine == x) return &maps[i];
  for (int i = 0; i < 8 && !m; i++)
    if (!maps[i].mine) m = &maps[i];
  cu_ptr base = 0;
  size_t size = 0;
  ipc_offer mine[2], theirs[2];
  memset(mine, 0, sizeof mine), memset(theirs, 0, sizeof theirs);
  int ok = m && cu.range(&base, &size, (cu_ptr)(uintptr_t)x) == 0 && cu.get_handle(&mine[0].handle, base) == 0;
  for (int d = 0; d < 2; d++) {
    mine[d].handle = mine[0].handle;
    mine[d].offset = (long long)((cu_ptr)(uintptr_t)x - base);
    mine[d].recv_at = h->recv_at[d], mine[d].nrecv = h->nrecv[d];
    const int peer = h->nbr[d] < 0 ? MPI_PROC_NULL : h->nbr[d];
    MPI_Sendrecv(&mine[d], (int)sizeof mine[d], MPI_BYTE, peer, 7, &theirs[d], (int)sizeof theirs[d], MPI_BYTE,
                 peer, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  mapping got = {x, {0, 0}, {NULL, NULL}};
  for (int d = 0; d < 2 && ok; d++) {
    if (h->nbr[d] < 0 || !h->nsend[d]) continue;
    ok = theirs[d].nrecv == h->nsend[d] && cu.open_handle(&got.peer_base[d], theirs[d].handle, CU_IPC_LAZY_PEER) == 0;
    if (ok) got.dst[d] = (double *)(uintptr_t)(got.peer_base[d] + (cu_ptr)theirs[d].offset) + theirs[d].recv_at;
  }
  if (!pp_mpi_all(ok)) {
    for (int d = 0; d < 2; d++)
      if (got.peer_base[d]) cu.close_handle(got.peer_base[d]);
    return NULL;
  }
  *m = got;
  return m;
}
#endif

int cg_ipc_exchange(const cg_halo *h, double *x) {
#ifdef PP_HAVE_MPI
  if (pp_mpi_size() == 1) return 0;
  if (!cu.ok || current_for(x) != 0) return -1;
  if (!stream && cu.stream_create(&stream, CU_STREAM_NON_BLOCKING) != 0) return -1;
  const mapping *m = map_vector(h, x);
  if (!m) return -1;
  int ok = 1;
  for (int d = 0; d < 2; d++)
    if (m->dst[d])
      ok &= cu.copy((cu_ptr)(uintptr_t)m->dst[d], (cu_ptr)(uintptr_t)(x + h->send_idx[d][0]),
                    (size_t)h->nsend[d] * sizeof(double), stream) == 0;
  ok &= cu.stream_sync(stream) == 0; /* written: then tell the neighbours */
  MPI_Request req[4];
  int nreq = 0;
  char token[2][1];
  for (int d = 0; d < 2; d++)
    if (h->nbr[d] >= 0) {
      MPI_Irecv(token[d], 0, MPI_BYTE, h->nbr[d], 8, MPI_COMM_WORLD, &req[nreq++]);
      MPI_Isend(token[d], 0, MPI_BYTE, h->nbr[d], 8, MPI_COMM_WORLD, &req[nreq++]);
    }
  MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
  return ok ? 0 : -1;
#else
  (void)h, (void)x;
  return -1;
#endif
}
