/* cgsolve: unpreconditioned conjugate gradients on the miniFE matrix. The
 * SpMV is the miniFE library's (minife/minife.h); this header holds the two vector
 * kernels every model adds for CG, their per-element math, and the slab
 * decomposition of a vector (its halo exchange: halo_path.h).
 *
 * ---- For the authors of kernels/{host,omp,ompx}.c, cuda.cu, hip.hip -------
 * A model file defines   const cg_kernels *cg_kernels_<model>(void);
 * (PP_MODEL_DISPATCH(m, cg_kernels_) finds it) with the three vector kernels
 * of cg_kernels below; the SpMV is the model's spmv_kernels (minife/), the
 * solver loop, the halo exchange and the MPI sums are the driver's (solve.c,
 * halo_path.h). A model holds only the mapping:
 *   - the element math is cg_axpby_item and cg_update_item (PP_HD, below),
 *     never its own, so every model computes the same bits per element;
 *   - dot and update reduce with the model's shared reduction (pp/reduce.h;
 *     `scratch` is CG_SCRATCH_LEN doubles of device memory from the driver)
 *     and return this rank's sum on the host, synchronized;
 *   - every pointer is the model's memory (device pointers; for host, host
 *     pointers) of n local entries; w may alias x or y (no restrict); a
 *     kernel allocates nothing;
 *   - CG_TPB is the threads of a block/team (ompx, cuda, hip; the omp
 *     thread_limit); the host's dot must be the reproducible blocked sum
 *     (pp_reduce_host), the reference every other model is checked against.
 * ---------------------------------------------------------------------------*/
#ifndef CGSOLVE_H
#define CGSOLVE_H
#include <stdint.h>
#include "pp/device.h"
#include "pp/model.h"
#include "pp/portable.h"
#include "pp/reduce.h"
#include "minife.h"
PP_EXTERN_C_BEGIN

/* Threads per block/team of the vector kernels (ompx, cuda, hip, and the
 * omp thread_limit): one element per thread, as microbench measured best. */
#define CG_TPB 256
/* Doubles of device scratch a dot uses (the shared reduction, pp/reduce.h). */
#define CG_SCRATCH_LEN PP_REDUCE_SCRATCH_LEN

/* Every pointer is device memory of the model, n local entries.
 * dot returns sum_i x[i]*y[i] on the host (this rank's part; the driver
 * sums over ranks). axpby computes w = alpha*x + beta*y elementwise; w may
 * be x or y (CG updates in place), so no pointer is restrict.
 * update is CG's x += alpha p, r -= alpha Ap and r.r of the new r in one
 * pass (cg_update_item: the same arithmetic as two axpby and a dot),
 * returning r.r as dot does: one kernel and one synchronization instead of
 * three (the OpenMP models synchronize every region). */
typedef struct cg_kernels {
  double (*dot)(const double *x, const double *y, int64_t n, double *scratch);
  void (*axpby)(double *w, double alpha, const double *x, double beta, const double *y,
                int64_t n);
  double (*update)(double *x, double *r, double alpha, const double *p, const double *Ap,
                   int64_t n, double *scratch);
} cg_kernels;

PP_DECLARE_MODEL_GETTERS(cg_kernels, cg_kernels_)

PP_BEGIN_DEVICE
PP_HD static inline double cg_axpby_item(double alpha, double x, double beta, double y) {
  return alpha * x + beta * y;
}
/* Element i of update: x[i] and r[i] updated in place; returns its r.r term. */
PP_HD static inline double cg_update_item(double alpha, double p, double ap, double *x, double *r) {
  *x = cg_axpby_item(1.0, *x, alpha, p);
  const double rn = cg_axpby_item(1.0, *r, -alpha, ap);
  *r = rn;
  return pp_dot_item(rn, rn);
}
PP_END_DEVICE

/* ---- slab decomposition (halo.c) ------------------------------------------
 * Rank r owns the contiguous global rows [row_begin, row_end): whole z-planes
 * of nodes, so the 27-point stencil reaches only the adjacent ranks' planes.
 * Local numbering: owned rows first (global - row_begin), then the ghosts
 * received from the lower neighbour, then those from the upper one, each in
 * global order. */
typedef struct cg_halo {
  int nbr[2];              /* lower and upper neighbour rank, -1 if none */
  int64_t nsend[2];        /* entries sent to each neighbour */
  int32_t *send_idx[2];    /* their local indices, ascending (host) */
  int64_t nrecv[2];        /* ghosts received from each neighbour */
  int64_t recv_at[2];      /* local index of the first of them */
  double *stage[2];        /* host staging: the span send_idx[0..n-1] covers */
  double *sendbuf[2], *recvbuf[2]; /* host */
  int64_t nghost;
  int64_t *ghost;          /* global index of local column nrows + i (host) */
} cg_halo;

/* Renumbers A's GLOBAL column indices (rows [row_begin, row_end) of a
 * matrix with nglobal rows) to the local numbering, sets A->ncols, and
 * agrees with the neighbours on what to exchange. Collective. Returns 0, or
 * -1 if a column lies beyond the adjacent ranks (message printed). */
int cg_halo_setup(cg_halo *h, csr_matrix *A, int64_t row_begin, int64_t row_end,
                  const int64_t *rank_begin);
/* For validation, independent of the exchange lists and of
 * cg_halo_exchange: the whole z-planes of host vector x (nrows owned entries,
 * whole planes of `plane` entries) adjacent to this rank's slab: `below`
 * receives the lower neighbour's last plane, `above` the upper one's first
 * (each left as it is where there is no neighbour). Collective. */
void cg_halo_planes(const cg_halo *h, const double *x, int64_t nrows, int64_t plane,
                    double *below, double *above);
void cg_halo_free(cg_halo *h);
/* 1 when every send list is one contiguous span (slabs: a whole plane), so
 * the device paths need no packing. */
int cg_halo_contiguous(const cg_halo *h);
/* Bytes one exchange moves (sent by this rank). */
double cg_halo_bytes(const cg_halo *h);

PP_EXTERN_C_END
#endif
