/* The halo between GPUs of one node without a GPU-aware MPI: CUDA IPC on
 * NVIDIA, HIP IPC on AMD, the same exchange over either driver (halo_ipc.h).
 * Each rank maps its neighbours' vector through the driver's IPC handles
 * (exchanged once per vector over MPI) and writes its boundary plane
 * straight into their ghost block, device to device (NVLink/xGMI or PCIe
 * peer access) on a stream of its own, so that the copy never waits for the
 * interior rows computing meanwhile (--overlap): the caller synchronizes the
 * model first (the plane is final). A zero-byte message per neighbour then
 * says "written". Safe because CG sums over all ranks between two SpMVs: a
 * rank writes a neighbour's ghosts only after that neighbour's last SpMV
 * that read them. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "cgsolve.h"
#include "halo_ipc.h"
#include "pp/mpi.h"
#ifdef PP_HAVE_MPI
#include <mpi.h>
#endif

/* The memory kinds as the reasons name them. */
static const char *const memory_name[] = {
    [CG_MEM_HOST] = "host memory",
    [CG_MEM_CUDA] = "NVIDIA GPU memory",
    [CG_MEM_HIP] = "AMD GPU memory",
    [CG_MEM_OTHER_GPU] = "another GPU's memory",
};

const char *cg_ipc_why_not(const cg_halo_path *self, const cg_halo_facts *f) {
  static char another[CG_MEM_OTHER_GPU + 1][96]; /* one per memory kind: the same text every time */
  if (f->memory == CG_MEM_HOST) return "the model's memory is host memory";
  const cg_halo_path *own = NULL; /* the path made for this memory */
  for (int p = 0; p < CG_PATH_COUNT && !own; p++)
    if (cg_halo_paths[p]->memory == f->memory) own = cg_halo_paths[p];
  if (!own) return "the model's memory is neither CUDA nor HIP device memory";
  if (own != self) {
    snprintf(another[f->memory], sizeof another[0], "the model's memory is %s: --halo %s", memory_name[f->memory],
             own->request);
    return another[f->memory];
  }
  if (f->ranks_per_node < f->ranks) return "the ranks are on more than one node (IPC maps memory within one node)";
  return f->check_why;
}

void cg_ipc_describe(const cg_halo_path *self, const cg_halo_facts *f, const char *reasons, char *text, size_t n) {
  (void)f, (void)reasons;
  snprintf(text, n, "device to device into the neighbours' ghosts through %s (one node), an MPI message as the "
           "signal", self->name);
}

const char *cg_ipc_check(const cg_halo_path *self, const void *device_memory) {
  const cg_ipc_driver *d = self->data;
  const char *why = d->load();
  if (!why && (!d->is_device(device_memory) || d->current_for(device_memory) != 0)) why = d->not_device;
  return why;
}

int cg_ipc_exchange(const cg_halo_path *self, const cg_halo *h, const pp_device_ops *ops, double *x) {
  (void)ops; /* device to device: no staging */
  return cg_ipc_exchange_on(self->data, h, x);
}

/* A vector's neighbours mapped: where this rank writes its planes. */
typedef struct mapping {
  const double *mine;
  const cg_ipc_driver *d;
  uintptr_t peer_base[2]; /* the neighbour's mapped allocation (closed by cg_ipc_forget) */
  double *dst[2];         /* its ghost block for this rank's plane */
} mapping;
static mapping maps[8];

void cg_ipc_forget(const double *x) {
  for (int i = 0; i < 8; i++) {
    if (maps[i].mine != x || !x) continue;
    for (int d = 0; d < 2; d++)
      if (maps[i].peer_base[d]) maps[i].d->close(maps[i].peer_base[d]);
    memset(&maps[i], 0, sizeof maps[i]);
  }
}

#ifdef PP_HAVE_MPI
/* What a rank tells neighbour nbr[d] about its own vector. */
typedef struct ipc_offer {
  cg_ipc_handle handle;  /* of the vector's allocation */
  long long offset;      /* of the vector in it, bytes */
  long long recv_at;     /* where the ghosts from nbr[d] go (recv_at[d]), entries */
  long long nrecv;
} ipc_offer;

/* Collective (every rank at once, as every exchange): maps the neighbours'
 * copies of vector x; NULL where any rank could not. */
static mapping *map_vector(const cg_ipc_driver *drv, const cg_halo *h, double *x) {
  mapping *m = NULL;
  for (int i = 0; i < 8; i++)
    if (maps[i].mine == x) return &maps[i];
  for (int i = 0; i < 8 && !m; i++)
    if (!maps[i].mine) m = &maps[i];
  uintptr_t base = 0;
  ipc_offer mine[2], theirs[2];
  memset(mine, 0, sizeof mine), memset(theirs, 0, sizeof theirs);
  int ok = m && drv->base(x, &base) == 0 && drv->get_handle(&mine[0].handle, base) == 0;
  for (int d = 0; d < 2; d++) {
    mine[d].handle = mine[0].handle;
    mine[d].offset = (long long)((uintptr_t)x - base);
    mine[d].recv_at = h->recv_at[d], mine[d].nrecv = h->nrecv[d];
    const int peer = h->nbr[d] < 0 ? MPI_PROC_NULL : h->nbr[d];
    MPI_Sendrecv(&mine[d], (int)sizeof mine[d], MPI_BYTE, peer, 7, &theirs[d], (int)sizeof theirs[d], MPI_BYTE,
                 peer, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  mapping got = {x, drv, {0, 0}, {NULL, NULL}};
  for (int d = 0; d < 2 && ok; d++) {
    if (h->nbr[d] < 0 || !h->nsend[d]) continue;
    ok = theirs[d].nrecv == h->nsend[d] && drv->open(&got.peer_base[d], &theirs[d].handle) == 0;
    if (ok) got.dst[d] = (double *)(got.peer_base[d] + (uintptr_t)theirs[d].offset) + theirs[d].recv_at;
  }
  if (!pp_mpi_all(ok)) {
    for (int d = 0; d < 2; d++)
      if (got.peer_base[d]) drv->close(got.peer_base[d]);
    return NULL;
  }
  *m = got;
  return m;
}
#endif

int cg_ipc_exchange_on(const cg_ipc_driver *drv, const cg_halo *h, double *x) {
#ifdef PP_HAVE_MPI
  if (pp_mpi_size() == 1) return 0;
  if (drv->load() || drv->current_for(x) != 0) return -1;
  const mapping *m = map_vector(drv, h, x);
  if (!m) return -1;
  int ok = 1;
  for (int d = 0; d < 2; d++)
    if (m->dst[d])
      ok &= drv->copy((uintptr_t)m->dst[d], (uintptr_t)(x + h->send_idx[d][0]),
                      (size_t)h->nsend[d] * sizeof(double)) == 0;
  ok &= drv->wait() == 0; /* written: then tell the neighbours */
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
  (void)drv, (void)h, (void)x;
  return -1;
#endif
}
