/* The OpenMP offload device that omp and ompx kernels target
 * (set by the shared OpenMP runtime glue at init). */
#ifndef PP_OMP_DEVICE_H
#define PP_OMP_DEVICE_H
#include <stddef.h>
#include "pp/portable.h"
PP_EXTERN_C_BEGIN
extern int pp_omp_device;
/* 1 when GCC compiles the OpenMP code: its GPU mapping (an OpenMP thread is a
 * warp, the lanes run only `simd` loops, libgomp's own team count) asks for
 * its own forms in a few places. */
#if defined(__GNUC__) && !defined(__clang__)
#define PP_OMP_GCC 1
#else
#define PP_OMP_GCC 0
#endif
/* Threads the host can run when it is the offload device (cpu preset); 0 on a GPU. */
extern int pp_omp_host_team_limit;
/* Teams the offload runtime runs at once on the GPU when it runs more asked
 * teams one after another (GCC's libgomp); 0: no cap (LLVM launches them all). */
extern int pp_omp_gpu_team_cap;

/* Memory on that device for a model's scratch: never NULL (a failed
 * allocation prints one line and exits 3; 0 bytes gives a valid pointer). */
void *pp_omp_alloc(size_t bytes);
/* Frees pp_omp_alloc memory; NULL is ignored. */
void pp_omp_free(void *p);

/* The num_teams clause of a region asking for `teams` teams of `threads`:
 * unchanged on a GPU. On the host as a device, libomp forms teams x threads
 * host threads and warns ("Cannot form a team with N threads") when that
 * exceeds the processors, then shrinks them itself; asking for no more than
 * it can form keeps that warning off the screen. Kernels loop over
 * omp_get_num_teams() (distribute, or team-strided loops), so fewer teams
 * change no result. On a GPU whose runtime serializes teams beyond what it
 * launches (pp_omp_gpu_team_cap), no more than those. Use:
 * num_teams(pp_omp_teams(nt, tpb)). */
static inline int pp_omp_teams(long long teams, long long threads) {
  const long long p = pp_omp_host_team_limit;
  if (pp_omp_gpu_team_cap > 0 && teams > pp_omp_gpu_team_cap) return pp_omp_gpu_team_cap;
  if (p <= 0) return (int)teams;
  long long per = threads < 1 ? 1 : threads > p ? p : threads; /* threads per team it can form */
  long long most = p / per;
  return (int)(teams < 1 ? 1 : teams > most ? most : teams);
}

/* The thread_limit clause of a region asking for `threads` per team: unchanged
 * on a GPU, where a constant bounds the kernel (PTX .maxntid). On the host as
 * the device, no more than the processors: above them libomp gives a parallel
 * region inside the teams the environment's thread count (OMP_NUM_THREADS, which
 * omp_set_num_threads does not reach there), cannot form it and warns ("Cannot
 * form a team with 13 threads"). The threads that run are the same either way.
 * Use: thread_limit(PP_OMP_TL(tpb)). */
#ifdef PP_OFFLOAD_CPU
static inline int pp_omp_host_threads(long long threads) {
  const long long p = pp_omp_host_team_limit;
  return (int)(p > 0 && threads > p ? p : threads);
}
#define PP_OMP_TL(threads) pp_omp_host_threads(threads)
#else
#define PP_OMP_TL(threads) (threads)
#endif
PP_EXTERN_C_END
#endif
