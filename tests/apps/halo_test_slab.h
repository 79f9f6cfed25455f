/* The slab the halo exchange tests share (test_halo_ipc.c, test_halo_staged.c):
 * rank r owns OWN entries, sends its first PLANE to r-1 and its last to r+1,
 * and holds their planes as ghosts after its own entries. */
#ifndef PP_TESTS_HALO_TEST_SLAB_H
#define PP_TESTS_HALO_TEST_SLAB_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cgsolve.h"
#include "pp/mpi.h"

enum { OWN = 6, PLANE = 2 };

/* MPI started, at least 2 ranks (else exit 2, naming the test). */
static void halo_test_start(int *argc, char ***argv, const char *test) {
  pp_mpi_init(argc, argv);
  if (pp_mpi_size() >= 2) return;
  fprintf(stderr, "%s: run it on 2 or more ranks\n", test);
  pp_mpi_finalize();
  exit(2);
}

static void make_halo(cg_halo *h, int32_t idx_lo[PLANE], int32_t idx_hi[PLANE]) {
  const int r = pp_mpi_rank(), p = pp_mpi_size();
  memset(h, 0, sizeof *h);
  h->nbr[0] = r > 0 ? r - 1 : -1, h->nbr[1] = r + 1 < p ? r + 1 : -1;
  for (int i = 0; i < PLANE; i++) idx_lo[i] = i, idx_hi[i] = OWN - PLANE + i;
  h->send_idx[0] = idx_lo, h->send_idx[1] = idx_hi;
  for (int d = 0; d < 2; d++) h->nsend[d] = h->nrecv[d] = h->nbr[d] >= 0 ? PLANE : 0;
  h->recv_at[0] = OWN, h->recv_at[1] = OWN + h->nrecv[0];
}

/* Owned entries: a value per rank, entry and round (add); ghosts -1. */
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

#endif
