/* The halo paths of MPI point to point (halo_path.h): staged through host
 * memory (the fallback: every model, every layout) and MPI on the model's
 * own memory (host memory, or a GPU-aware MPI). One exchange, the two
 * differing only in the staging. */
#include <stdio.h>
#include "halo_path.h"
#include "pp/mpi.h"
#ifdef PP_HAVE_MPI
#include <mpi.h>
#endif

/* direct 0: the span of each send list staged to the host (by
 * ops->to_host_concurrent where the model has it, else ops->to_host), packed,
 * sent; the ghosts received on the host and uploaded (likewise). direct 1:
 * x itself handed to MPI (the send span and the ghost block are contiguous
 * on slabs: whole_planes). */
static int exchange(const cg_halo *h, const pp_device_ops *ops, double *x, int direct) {
#ifdef PP_HAVE_MPI
  MPI_Request req[4];
  int nreq = 0;
  for (int d = 0; d < 2; d++)
    if (h->nbr[d] >= 0 && h->nrecv[d])
      MPI_Irecv(direct ? x + h->recv_at[d] : h->recvbuf[d], (int)h->nrecv[d], MPI_DOUBLE, h->nbr[d], 2,
                MPI_COMM_WORLD, &req[nreq++]);
  for (int d = 0; d < 2; d++) {
    int64_t n = h->nsend[d];
    if (h->nbr[d] < 0 || !n) continue;
    const int32_t *idx = h->send_idx[d];
    int64_t first = idx[0], span = idx[n - 1] - first + 1;
    if (direct) { /* contiguous (cg_halo_contiguous): the span is exactly the entries */
      MPI_Isend(x + first, (int)n, MPI_DOUBLE, h->nbr[d], 2, MPI_COMM_WORLD, &req[nreq++]);
      continue;
    }
    /* One copy of the span that holds the entries; on slabs it is exactly
     * them (a whole boundary plane), so the pack below is a no-op. */
    (ops->to_host_concurrent ? ops->to_host_concurrent : ops->to_host)(h->stage[d], x + first,
                                                                       (size_t)span * sizeof(double));
    const double *buf = h->stage[d];
    if (span != n) {
      for (int64_t i = 0; i < n; i++) h->sendbuf[d][i] = h->stage[d][idx[i] - first];
      buf = h->sendbuf[d];
    }
    MPI_Isend(buf, (int)n, MPI_DOUBLE, h->nbr[d], 2, MPI_COMM_WORLD, &req[nreq++]);
  }
  MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
  for (int d = 0; d < 2 && !direct; d++)
    if (h->nrecv[d])
      (ops->to_device_concurrent ? ops->to_device_concurrent : ops->to_device)(
          x + h->recv_at[d], h->recvbuf[d], (size_t)h->nrecv[d] * sizeof(double));
#else
  (void)h, (void)ops, (void)x, (void)direct;
#endif
  return 0;
}

/* ---- staged through host memory ------------------------------------------------ */
static int staged_exchange(const cg_halo_path *self, const cg_halo *h, const pp_device_ops *ops, double *x) {
  (void)self;
  return exchange(h, ops, x, 0);
}
static const char *staged_why_not(const cg_halo_path *self, const cg_halo_facts *f) {
  (void)self, (void)f;
  return NULL;
}
static void staged_describe(const cg_halo_path *self, const cg_halo_facts *f, const char *reasons, char *text,
                            size_t n) {
  (void)f;
  if (reasons) snprintf(text, n, "boundary planes staged through host memory, MPI point to point (%s)", reasons);
  else snprintf(text, n, "boundary planes staged through host memory (--halo %s), MPI point to point",
                self->request);
}
const cg_halo_path cg_halo_staged = {
    .name = "staged through host memory",
    .request = "host",
    .family = "staged",
    .memory = CG_MEM_ANY,
    .overlap_auto = 1, /* the one path with much to hide */
    .why_not = staged_why_not,
    .describe = staged_describe,
    .exchange = staged_exchange,
};

/* ---- MPI on the model's own memory ----------------------------------------------- */
static int direct_exchange(const cg_halo_path *self, const cg_halo *h, const pp_device_ops *ops, double *x) {
  (void)self;
  return exchange(h, ops, x, 1);
}
static const char *direct_why_not(const cg_halo_path *self, const cg_halo_facts *f) {
  (void)self;
  return f->memory == CG_MEM_HOST || f->mpi_aware ? NULL : f->mpi_why;
}
static void direct_describe(const cg_halo_path *self, const cg_halo_facts *f, const char *reasons, char *text,
                            size_t n) {
  (void)self, (void)reasons;
  snprintf(text, n, "MPI point to point on the model's own memory, no staging (%s)",
           f->memory == CG_MEM_HOST ? "host memory" : f->mpi_why);
}
const cg_halo_path cg_halo_mpi_device = {
    .name = "MPI on the model's memory",
    .request = "mpi-device",
    .family = "MPI",
    .memory = CG_MEM_ANY,
    .whole_planes = 1,
    .why_not = direct_why_not,
    .describe = direct_describe,
    .exchange = direct_exchange,
};
