/* Optional MPI layer. Without MPI in the build (or without mpirun) the
 * process is rank 0 of 1 and every reduction is the identity. */
#ifndef PP_MPI_H
#define PP_MPI_H
#include "pp/portable.h"
PP_EXTERN_C_BEGIN

void pp_mpi_init(int *argc, char ***argv);
void pp_mpi_finalize(void);
int pp_mpi_rank(void);
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
