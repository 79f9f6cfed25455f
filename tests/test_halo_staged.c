/* cgsolve's staged halo exchange (cgsolve/halo.c) and --overlap's helper
 * thread (cgsolve/halo_helper.c) on the CPU, on 2 and 3 ranks, with a fake
 * model whose "device" is host memory. Checks: the staged path copies through
 * the model's concurrent copies where it has them (cuda, hip: the ones that
 * run beside the kernels) and through to_host/to_device otherwise; the
 * ghosts hold the neighbours' planes; handed to the helper, every exchange
 * is complete when cg_helper_wait returns (500 exchanges, new values each).
 * Exits non-zero on a failure. */
#include <stdio.h>
#include <string.h>
#include "cgsolve.h"
#include "halo_helper.h"
#include "halo_pick.h"
#include "pp/mpi.h"

#include "check.h"

enum { OWN = 6, PLANE = 2 };
static int plain_calls, concurrent_calls;
static void plain_copy(void *d, const void *s, size_t b) { memcpy(d, s, b), plain_calls++; }
static void concurrent_copy(void *d, const void *s, size_t b) { memcpy(d, s, b), concurrent_calls++; }
static void nothing(void) {}
static const pp_device_ops plain = {.model = PP_HOST, .to_device = plain_copy, .to_host = plain_copy,
                                    .sync = nothing};
static const pp_device_ops with_concurrent = {.model = PP_HOST, .to_device = plain_copy, .to_host = plain_copy,
                                              .sync = nothing, .to_device_concurrent = concurrent_copy,
                                              .to_host_concurrent = concurrent_copy};

/* Rank r owns OWN entries; it sends its first PLANE to r-1 and its last to r+1. */
static double stage[2][PLANE], sendbuf[2][PLANE], recvbuf[2][PLANE];
static void make_halo(cg_halo *h, int32_t idx_lo[PLANE], int32_t idx_hi[PLANE]) {
  const int r = pp_mpi_rank(), p = pp_mpi_size();
  memset(h, 0, sizeof *h);
  h->nbr[0] = r > 0 ? r - 1 : -1, h->nbr[1] = r + 1 < p ? r + 1 : -1;
  for (int i = 0; i < PLANE; i++) idx_lo[i] = i, idx_hi[i] = OWN - PLANE + i;
  h->send_idx[0] = idx_lo, h->send_idx[1] = idx_hi;
  for (int d = 0; d < 2; d++) {
    h->nsend[d] = h->nrecv[d] = h->nbr[d] >= 0 ? PLANE : 0;
    h->stage[d] = stage[d], h->sendbuf[d] = sendbuf[d], h->recvbuf[d] = recvbuf[d];
  }
  h->recv_at[0] = OWN, h->recv_at[1] = OWN + h->nrecv[0];
}
static void fill(double *x, double add) {
  for (int i = 0; i < OWN; i++) x[i] = pp_mpi_rank() * 100 + i + add;
  for (int i = OWN; i < OWN + 2 * PLANE; i++) x[i] = -1;
}
/* The ghosts: the lower neighbour's last plane, then the upper one's first. */
static int ghosts_right(const cg_halo *h, const double *x, double add) {
  const int r = pp_mpi_rank();
  int ok = 1;
  for (int i = 0; i < PLANE; i++) {
    if (h->nbr[0] >= 0) ok &= x[h->recv_at[0] + i] == (r - 1) * 100 + OWN - PLANE + i + add;
    if (h->nbr[1] >= 0) ok &= x[h->recv_at[1] + i] == (r + 1) * 100 + i + add;
  }
  return ok;
}

int main(int argc, char **argv) {
  pp_mpi_init(&argc, &argv);
  if (pp_mpi_size() < 2) {
    fprintf(stderr, "test_halo_staged: run it on 2 or more ranks\n");
    pp_mpi_finalize();
    return 2;
  }
  cg_halo h;
  int32_t lo[PLANE], hi[PLANE];
  double x[OWN + 2 * PLANE];
  make_halo(&h, lo, hi);
  const int copies = 2 * ((h.nbr[0] >= 0) + (h.nbr[1] >= 0)); /* one out, one in per neighbour */

  fill(x, 0);
  cg_halo_exchange(&h, &plain, x, CG_PATH_STAGED);
  CHECK(ghosts_right(&h, x, 0));
  CHECK(plain_calls == copies && concurrent_calls == 0);

  plain_calls = 0;
  fill(x, 10);
  cg_halo_exchange(&h, &with_concurrent, x, CG_PATH_STAGED);
  CHECK(ghosts_right(&h, x, 10));
  CHECK(plain_calls == 0 && concurrent_calls == copies);

  cg_helper *g = cg_helper_start();
  CHECK(g != NULL);
  for (int k = 0; g && k < 500; k++) {
    fill(x, 1000 + k);
    cg_helper_post(g, &h, &with_concurrent, x, CG_PATH_STAGED);
    cg_helper_wait(g);
    CHECK(ghosts_right(&h, x, 1000 + k));
  }
  cg_helper_stop(g);
  CHECK(concurrent_calls == copies * 501);
  const int all_ok = pp_mpi_all(failures == 0);
  if (failures) fprintf(stderr, "test_halo_staged: rank %d: %d checks failed\n", pp_mpi_rank(), failures);
  pp_mpi_finalize();
  return all_ok ? 0 : 1;
}
