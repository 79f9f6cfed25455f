#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "pp/mpi.h"
#ifdef PP_HAVE_MPI
#include <sys/resource.h>
#include <mpi.h>
#include "pp/escape.h"
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h> /* MPIX_CUDA_AWARE_SUPPORT, MPIX_Query_cuda_support */
#endif

static int rank_, size_ = 1, local_rank_, local_size_ = 1, inited_, thread_level_;

/* The smallest file size limit (ulimit -f) MPI_Init is called under. Open
 * MPI's PMIx store and shared-memory transport write files of a few MiB:
 * with Open MPI 4.1, 2 to 8 ranks, MPI_Init_thread failed below about 5 MiB
 * (4000 KiB: 15 lines of PMIx and MPI_ERRORS_ARE_FATAL, exit 1, the code of a
 * failed validation; 5000 KiB ran; with PMIX_MCA_gds=hash the ranks died of
 * SIGXFSZ), and a run's result files need room after it. */
#define PP_MIN_FSIZE_MIB 64

/* This process's rank as its launcher's variables give it (Open MPI, PMIx,
 * MPICH/Hydra, Slurm, Flux, Cray PALS, MVAPICH), or -1 where none is set. */
static long launcher_rank(void) {
  static const char *const vars[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID",
                                     "FLUX_TASK_RANK", "PALS_RANKID", "MV2_COMM_WORLD_RANK", NULL};
  for (const char *const *v = vars; *v; v++) {
    const char *e = getenv(*v);
    if (e && *e) return strtol(e, NULL, 10);
  }
  return -1;
}

/* A file size limit the ranks of a launcher cannot start under is said in
 * one line, exit 2, before MPI_Init (which would print Open MPI's errors and
 * exit 1), by the launcher's rank 0 (every rank sees the same limit). A
 * process no launcher started is left to MPI: alone, it starts under a small
 * limit where PMIx keeps its store in memory (PMIX_MCA_gds=hash, as the tests
 * of write errors run), which the ranks of mpirun did not. */
static void refuse_small_file_limit(const char *argv0) {
  struct rlimit rl;
  const long rank = launcher_rank();
  if (rank < 0 || getrlimit(RLIMIT_FSIZE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY ||
      rl.rlim_cur >= (rlim_t)PP_MIN_FSIZE_MIB << 20)
    return;
  if (rank == 0) {
    const char *app = argv0 && strrchr(argv0, '/') ? strrchr(argv0, '/') + 1 : argv0 ? argv0 : "proxyport";
    pp_error_line(app, "the file size limit (ulimit -f) is %llu KiB: MPI cannot start under it (Open MPI's "
                  "files need a few MiB, the results more); give at least %d MiB: ulimit -f unlimited",
                  (unsigned long long)(rl.rlim_cur >> 10), PP_MIN_FSIZE_MIB);
  }
  exit(2);
}

void pp_mpi_init(int *argc, char ***argv) {
  int already;
  MPI_Initialized(&already);
  if (!already) refuse_small_file_limit(argc && *argc > 0 && argv && *argv ? (*argv)[0] : NULL);
  /* SERIALIZED: cgsolve's overlapped halo runs its MPI calls on a helper
   * thread while the main thread computes (never two calls at once). */
  int provided;
  if (!already) MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided);
  MPI_Query_thread(&provided);
  thread_level_ = provided;
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
int pp_mpi_serialized(void) { return !inited_ || thread_level_ >= MPI_THREAD_SERIALIZED; }
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
int pp_mpi_gpu_aware(const char **why) {
  const char *e = getenv("MPICH_GPU_SUPPORT_ENABLED");
  if (e && !strcmp(e, "1")) return *why = "MPICH_GPU_SUPPORT_ENABLED=1 (Cray MPICH)", 1;
  e = getenv("MV2_USE_CUDA");
  if (e && !strcmp(e, "1")) return *why = "MV2_USE_CUDA=1 (MVAPICH2)", 1;
  /* Asked at run time even where the header says 0 (the macro is the build's answer): a
   * CUDA-aware libmpi.so of the same soname, loaded in place of the one linked, says 1. */
#if defined(MPIX_CUDA_AWARE_SUPPORT)
  if (MPIX_Query_cuda_support()) return *why = "MPIX_Query_cuda_support() = 1", 1;
#endif
#if defined(MPIX_ROCM_AWARE_SUPPORT)
  if (MPIX_Query_rocm_support()) return *why = "MPIX_Query_rocm_support() = 1", 1;
#endif
  *why = "the MPI library does not report GPU support (Open MPI: MPIX_Query_cuda_support; Cray "
         "MPICH: MPICH_GPU_SUPPORT_ENABLED=1)";
  return 0;
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
int pp_mpi_serialized(void) { return 1; }
int pp_mpi_size(void) { return 1; }
int pp_mpi_local_rank(void) { return 0; }
int pp_mpi_local_size(void) { return 1; }
void pp_mpi_sum(double *v, int n) { (void)v; (void)n; }
void pp_mpi_max(double *v, int n) { (void)v; (void)n; }
int pp_mpi_all(int ok) { return ok; }
void pp_mpi_barrier(void) {}
void pp_mpi_bcast(void *buf, int bytes) { (void)buf; (void)bytes; }
int pp_mpi_gpu_aware(const char **why) {
  *why = "no MPI in this build";
  return 0;
}
void pp_mpi_gather(const void *mine, void *all, int bytes) { memcpy(all, mine, (size_t)bytes); }
void pp_mpi_exit(int code) { exit(code); }
void pp_mpi_abort(int code) {
  fflush(stdout);
  exit(code);
}
#endif
