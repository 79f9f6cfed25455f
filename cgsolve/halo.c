/* Slab decomposition of the CG vectors: renumbering of a rank's columns to
 * local indices, the exchange lists agreed with the adjacent ranks, and the
 * exchange of ghost entries by one of the halo paths (halo_path.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cgsolve.h"
#include "halo_path.h"
#include "pp/mpi.h"
#ifdef PP_HAVE_MPI
#include <mpi.h>
#endif

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* Position of v in the ascending array a[0..n-1] (v is present). */
static int64_t find(const int64_t *a, int64_t n, int64_t v) {
  int64_t lo = 0, hi = n;
  while (hi - lo > 1) {
    int64_t mid = lo + (hi - lo) / 2;
    if (a[mid] <= v) lo = mid;
    else hi = mid;
  }
  return lo;
}

/* The sorted, distinct global columns of A outside [b, e). */
static int64_t ghost_columns(const csr_matrix *A, int64_t b, int64_t e, int64_t **out) {
  int64_t n = 0, cap = 1024;
  int64_t *g = malloc((size_t)cap * sizeof *g);
  for (int64_t k = 0; g && k < A->nnz; k++) {
    int64_t c = A->col[k];
    if (c >= b && c < e) continue;
    if (n == cap) {
      cap *= 2;
      int64_t *t = realloc(g, (size_t)cap * sizeof *g);
      if (!t) { free(g); g = NULL; break; }
      g = t;
    }
    g[n++] = c;
  }
  if (!g) { *out = NULL; return -1; }
  qsort(g, (size_t)n, sizeof *g, cmp_i64);
  int64_t m = 0;
  for (int64_t i = 0; i < n; i++)
    if (m == 0 || g[i] != g[m - 1]) g[m++] = g[i];
  *out = g;
  return m;
}

int cg_halo_setup(cg_halo *h, csr_matrix *A, int64_t row_begin, int64_t row_end,
                  const int64_t *rank_begin) {
  memset(h, 0, sizeof *h);
  int rank = pp_mpi_rank(), size = pp_mpi_size();
  h->nbr[0] = rank > 0 ? rank - 1 : -1;
  h->nbr[1] = rank + 1 < size ? rank + 1 : -1;
  int64_t nrows = row_end - row_begin;
  A->ncols = nrows;
  if (size == 1) return 0; /* global columns are already local */
  int64_t *ghost = NULL;
  int64_t ng = ghost_columns(A, row_begin, row_end, &ghost);
  if (ng < 0) {
    fprintf(stderr, "cgsolve: rank %d: out of host memory listing ghost columns\n", rank);
    return -1;
  }
  /* Ghosts below row_begin come from the lower neighbour, the rest from the
   * upper one; nothing may lie further away. */
  int64_t nlo = 0;
  while (nlo < ng && ghost[nlo] < row_begin) nlo++;
  int ok = 1;
  if (nlo && (h->nbr[0] < 0 || ghost[0] < rank_begin[rank - 1])) ok = 0;
  if (ng > nlo && (h->nbr[1] < 0 || ghost[ng - 1] >= rank_begin[rank + 2])) ok = 0;
  if (!ok) {
    fprintf(stderr, "cgsolve: rank %d: a column lies beyond the adjacent ranks' rows\n", rank);
    free(ghost);
    return -1;
  }
  h->nrecv[0] = nlo, h->nrecv[1] = ng - nlo;
  h->recv_at[0] = nrows, h->recv_at[1] = nrows + nlo;

  /* Global to local column indices. */
#pragma omp parallel for schedule(static)
  for (int64_t k = 0; k < A->nnz; k++) {
    int64_t c = A->col[k];
    A->col[k] = (int32_t)(c >= row_begin && c < row_end ? c - row_begin
                                                        : nrows + find(ghost, ng, c));
  }
  A->ncols = nrows + ng;

  /* Tell each neighbour which of its rows this rank needs, in the order the
   * ghosts are stored here; it sends exactly those, in that order. */
  for (int s = 0; s < 2; s++) {
    h->recvbuf[s] = malloc((size_t)(h->nrecv[s] ? h->nrecv[s] : 1) * sizeof(double));
  }
#ifdef PP_HAVE_MPI
  if (size > 1) {
    for (int s = 0; s < 2; s++) {
      /* round s: requests go down (s = 0) then up (s = 1) */
      int to = h->nbr[s], from = h->nbr[1 - s];
      long long want = (long long)h->nrecv[s], asked = 0;
      MPI_Sendrecv(&want, 1, MPI_LONG_LONG, to < 0 ? MPI_PROC_NULL : to, 0, &asked, 1,
                   MPI_LONG_LONG, from < 0 ? MPI_PROC_NULL : from, 0, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
      int64_t *req = malloc((size_t)(asked ? asked : 1) * sizeof *req);
      const int64_t *mine = ghost + (s == 0 ? 0 : nlo);
      MPI_Sendrecv(mine, (int)want, MPI_INT64_T, to < 0 ? MPI_PROC_NULL : to, 1, req, (int)asked,
                   MPI_INT64_T, from < 0 ? MPI_PROC_NULL : from, 1, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
      /* The requests of neighbour `from` are served in direction 1 - s. */
      int d = 1 - s;
      h->nsend[d] = asked;
      h->send_idx[d] = malloc((size_t)(asked ? asked : 1) * sizeof(int32_t));
      for (long long i = 0; i < asked; i++) {
        if (req[i] < row_begin || req[i] >= row_end) ok = 0;
        h->send_idx[d][i] = (int32_t)(req[i] - row_begin);
      }
      free(req);
    }
  }
#endif
  h->nghost = ng, h->ghost = ghost;
  for (int d = 0; d < 2; d++) {
    int64_t span = h->nsend[d] ? h->send_idx[d][h->nsend[d] - 1] - h->send_idx[d][0] + 1 : 1;
    h->stage[d] = malloc((size_t)span * sizeof(double));
    h->sendbuf[d] = malloc((size_t)(h->nsend[d] ? h->nsend[d] : 1) * sizeof(double));
    for (int64_t i = 1; i < h->nsend[d]; i++)
      if (h->send_idx[d][i] <= h->send_idx[d][i - 1]) ok = 0; /* requests come sorted */
  }
  if (!pp_mpi_all(ok)) {
    if (rank == 0) fprintf(stderr, "cgsolve: inconsistent halo requests between ranks\n");
    return -1;
  }
  return 0;
}

void cg_halo_exchange(const cg_halo *h, const cg_halo_path *p, const pp_device_ops *ops, double *x) {
  if (pp_mpi_size() == 1) return;
  if (p->exchange(p, h, ops, x) != 0) {
    fprintf(stderr, "cgsolve: rank %d: the %s halo exchange failed\n", pp_mpi_rank(), p->name);
    pp_mpi_abort(3);
  }
}

void cg_halo_planes(const cg_halo *h, const double *x, int64_t nrows, int64_t plane,
                    double *below, double *above) {
#ifdef PP_HAVE_MPI
  if (pp_mpi_size() == 1) return;
  int lo = h->nbr[0] < 0 ? MPI_PROC_NULL : h->nbr[0], hi = h->nbr[1] < 0 ? MPI_PROC_NULL : h->nbr[1];
  MPI_Sendrecv(x + nrows - plane, (int)plane, MPI_DOUBLE, hi, 3, below, (int)plane, MPI_DOUBLE, lo, 3,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Sendrecv(x, (int)plane, MPI_DOUBLE, lo, 4, above, (int)plane, MPI_DOUBLE, hi, 4,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#else
  (void)h, (void)x, (void)nrows, (void)plane, (void)below, (void)above;
#endif
}

int cg_halo_contiguous(const cg_halo *h) {
  for (int d = 0; d < 2; d++)
    if (h->nsend[d] && h->send_idx[d][h->nsend[d] - 1] - h->send_idx[d][0] + 1 != h->nsend[d]) return 0;
  return 1;
}

double cg_halo_bytes(const cg_halo *h) {
  return (double)(h->nsend[0] + h->nsend[1]) * sizeof(double);
}

void cg_halo_free(cg_halo *h) {
  for (int d = 0; d < 2; d++) {
    free(h->send_idx[d]), free(h->stage[d]), free(h->sendbuf[d]), free(h->recvbuf[d]);
  }
  free(h->ghost);
  memset(h, 0, sizeof *h);
}
