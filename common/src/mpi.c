#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "pp/mpi.h"
#ifdef PP_HAVE_MPI
#include <mpi.h>

static int rank_, size_ = 1, local_rank_, local_size_ = 1, inited_;

void pp_mpi_init(int *argc, char ***argv) {
  int already;
  MPI_Initialized(&already);
  if (!already) MPI_Init(argc, argv);
  inited_ = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  /* Unbuffered stderr sends a message in pieces, and mpiexec may put its own
   * abort banner between them: a line reaches it whole, in one write. */
  if (size_ > 1) setvbuf(stderr, NULL, _IOLBF, BUFSIZ);
  /* Ranks sharing a node: their order there picks the GPU. */
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &local_rank_);
  MPI_Comm_size(node, &local_size_);
  MPI_Comm_free(&node);
}

void pp_mpi_finalize(void) {
  if (inited_) MPI_Finalize();
  inited_ = 0;
}
int pp_mpi_rank(void) { return rank_; }
int pp_mpi_size(void) { return size_; }
int pp_mpi_local_rank(void) { return local_rank_; }
int pp_mpi_local_size(void) { return local_size_; }
void pp_mpi_sum(double *v, int n) {
  if (inited_ && size_ > 1) MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}
void pp_mpi_max(double *v, int n) {
  if (inited_ && size_ > 1) MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
}
int pp_mpi_all(int ok) {
  if (inited_ && size_ > 1) MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  return ok;
}
void pp_mpi_barrier(void) {
  if (inited_ && size_ > 1) MPI_Barrier(MPI_COMM_WORLD);
}
void pp_mpi_bcast(void *buf, int bytes) {
  if (inited_ && size_ > 1) MPI_Bcast(buf, bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
}
void pp_mpi_gather(const void *mine, void *all, int bytes) {
  if (inited_ && size_ > 1)
    MPI_Gather(mine, bytes, MPI_BYTE, all, bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
  else
    memcpy(all, mine, (size_t)bytes);
}
void pp_mpi_exit(int code) {
  fflush(stdout);
  fflush(stderr);
  if (inited_ && size_ > 1 && code != 0) {
    /* Rank 0 prints the message: let it, before another rank's abort kills it. */
    if (rank_ != 0) sleep(1);
    MPI_Abort(MPI_COMM_WORLD, code);
  }
  if (inited_) MPI_Finalize();
  exit(code);
}
void pp_mpi_abort(int code) {
  fflush(stdout);
  fflush(stderr);
  if (inited_ && size_ > 1) MPI_Abort(MPI_COMM_WORLD, code);
  if (inited_) MPI_Finalize();
  exit(code);
}

#else /* no MPI: one rank */

void pp_mpi_init(int *argc, char ***argv) { (void)argc; (void)argv; }
void pp_mpi_finalize(void) {}
int pp_mpi_rank(void) { return 0; }
int pp_mpi_size(void) { return 1; }
int pp_mpi_local_rank(void) { return 0; }
int pp_mpi_local_size(void) { return 1; }
void pp_mpi_sum(double *v, int n) { (void)v; (void)n; }
void pp_mpi_max(double *v, int n) { (void)v; (void)n; }
int pp_mpi_all(int ok) { return ok; }
void pp_mpi_barrier(void) {}
void pp_mpi_bcast(void *buf, int bytes) { (void)buf; (void)bytes; }
void pp_mpi_gather(const void *mine, void *all, int bytes) { memcpy(all, mine, (size_t)bytes); }
void pp_mpi_exit(int code) { exit(code); }
void pp_mpi_abort(int code) {
  fflush(stdout);
  exit(code);
}
#endif
