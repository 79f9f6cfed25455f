/* cgsolve's staged halo exchange (cgsolve/halo_mpi.c) and --overlap's helper
 * thread (cgsolve/halo_helper.c) on the CPU, on 2 and 3 ranks, with a fake
 * model whose "device" is host memory. Checks: the staged path copies through
 * the model's concurrent copies where it has them (cuda, hip: the ones that
 * run beside the kernels) and through to_host/to_device otherwise; the
 * ghosts hold the neighbours' planes; handed to the helper, every exchange
 * is complete when cg_helper_wait returns (500 exchanges, new values each);
 * the path of MPI on the model's own memory fills them without a copy.
 * Exits non-zero on a failure. */
#include <stdio.h>
#include <string.h>
#include "cgsolve.h"
#include "halo_helper.h"
#include "halo_path.h"
#include "pp/mpi.h"

#include "check.h"
#include "halo_test_slab.h"

static int plain_calls, concurrent_calls;
static void plain_copy(void *d, const void *s, size_t b) { memcpy(d, s, b), plain_calls++; }
static void concurrent_copy(void *d, const void *s, size_t b) { memcpy(d, s, b), concurrent_calls++; }
static void nothing(void) {}
static const pp_device_ops plain = {.model = PP_HOST, .to_device = plain_copy, .to_host = plain_copy,
                                    .sync = nothing};
static const pp_device_ops with_concurrent = {.model = PP_HOST, .to_device = plain_copy, .to_host = plain_copy,
                                              .sync = nothing, .to_device_concurrent = concurrent_copy,
                                              .to_host_concurrent = concurrent_copy};

/* The host buffers of the staged path. */
static double stage[2][PLANE], sendbuf[2][PLANE], recvbuf[2][PLANE];
static void give_buffers(cg_halo *h) {
  for (int d = 0; d < 2; d++) h->stage[d] = stage[d], h->sendbuf[d] = sendbuf[d], h->recvbuf[d] = recvbuf[d];
}

int main(int argc, char **argv) {
  halo_test_start(&argc, &argv, "test_halo_staged");
  cg_halo h;
  int32_t lo[PLANE], hi[PLANE];
  double x[OWN + 2 * PLANE];
  make_halo(&h, lo, hi);
  give_buffers(&h);
  const int copies = 2 * ((h.nbr[0] >= 0) + (h.nbr[1] >= 0)); /* one out, one in per neighbour */

  fill(x, 0);
  cg_halo_exchange(&h, &cg_halo_staged, &plain, x);
  CHECK(ghosts_right(&h, x, 0));
  CHECK(plain_calls == copies && concurrent_calls == 0);

  plain_calls = 0;
  fill(x, 10);
  cg_halo_exchange(&h, &cg_halo_staged, &with_concurrent, x);
  CHECK(ghosts_right(&h, x, 10));
  CHECK(plain_calls == 0 && concurrent_calls == copies);

  /* MPI on the model's own memory (slabs: contiguous planes): x handed to MPI, no copies */
  fill(x, 20);
  cg_halo_exchange(&h, &cg_halo_mpi_device, &with_concurrent, x);
  CHECK(ghosts_right(&h, x, 20));
  CHECK(plain_calls == 0 && concurrent_calls == copies);

  cg_helper *g = cg_helper_start();
  CHECK(g != NULL);
  for (int k = 0; g && k < 500; k++) {
    fill(x, 1000 + k);
    cg_helper_post(g, &h, &cg_halo_staged, &with_concurrent, x);
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
