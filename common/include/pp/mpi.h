/* Optional MPI layer. Without MPI in the build (or without mpirun) the
 * process is rank 0 of 1 and every reduction is the identity. */
#ifndef PP_MPI_H
#define PP_MPI_H
#include "pp/portable.h"
PP_EXTERN_C_BEGIN

void pp_mpi_init(int *argc, char ***argv);
void pp_mpi_finalize(void);
int pp_mpi_rank(void);
/* 1 when another thread than main may make MPI calls, one at a time
 * (MPI_THREAD_SERIALIZED or more was provided; always without MPI). */
int pp_mpi_serialized(void);
int pp_mpi_size(void);
/* Rank among the ranks on this node; binds rank -> device local_rank % ndev. */
int pp_mpi_local_rank(void);
int pp_mpi_local_size(void);
void pp_mpi_sum(double *v, int n);      /* in place, over all ranks */
void pp_mpi_max(double *v, int n);
int pp_mpi_all(int ok);                 /* logical AND over ranks */
void pp_mpi_barrier(void);
/* Collective: rank 0's `all` receives every rank's `bytes` of `mine`, in rank
 * order (size x bytes); other ranks' `all` is not touched (may be NULL). */
/* 1 when the MPI library says it takes GPU memory in its calls (Open MPI's
 * MPIX_Query_cuda_support / MPIX_Query_rocm_support; Cray MPICH with
 * MPICH_GPU_SUPPORT_ENABLED=1; MVAPICH2 with MV2_USE_CUDA=1); *why (static)
 * names what decided. 0 without MPI. This rank only. */
int pp_mpi_gpu_aware(const char **why);
/* Collective: rank 0's `bytes` of `buf` replace every other rank's. */
void pp_mpi_bcast(void *buf, int bytes);
void pp_mpi_gather(const void *mine, void *all, int bytes);
/* Ends every rank with `code` (MPI_Abort under MPI, exit otherwise). */
void pp_mpi_exit(int code);
/* Ends the whole job now with `code`, for an error this rank alone found and
 * has already printed (MPI_Abort when several ranks run, exit otherwise). */
void pp_mpi_abort(int code)
#if defined(__GNUC__)
    __attribute__((noreturn))
#endif
    ;

PP_EXTERN_C_END
#endif
