/* The standard-OpenMP (omp model) shape of a loop over [0, n): one combined
 * `target teams distribute parallel for simd` on ProxyPort's device (`simd`
 * is PP_OMP_SIMD below: CMake's PP_OMP_SIMD=OFF drops it).
 *   blocks == 0: one team per tpb iterations (num_teams = ceil(n / tpb)).
 *   blocks > 0:  that many teams, each one contiguous block of the loop
 *                (dist_schedule(static)) that its threads stride through
 *                (schedule(static, 1), coalesced): clang then runs one
 *                parallel region per team instead of one per tpb iterations,
 *                which costs less (see docs/performance.md, microbench).
 * For omp kernel files (compiled with the offload flags) only. */
#ifndef PP_OMP_LOOP_H
#define PP_OMP_LOOP_H
#include <stddef.h>
#include "pp/omp_device.h"
#include "pp/portable.h"

/* `simd` for the omp model's parallel loops, in every omp kernel file:
 * `target teams distribute parallel for PP_OMP_SIMD ...`, or `parallel for
 * PP_OMP_SIMD` inside a `teams distribute`. GCC maps an OpenMP thread to a
 * warp and only a `simd` loop to its 32 lanes (outside one, one lane per warp
 * works); clang 19 maps threads to lanes and ignores `simd` on GPUs. Only on
 * loops without loop-carried dependences (atomics and reduction clauses are
 * fine: OpenMP 5.0). PP_OMP_USE_SIMD comes from CMake (option PP_OMP_SIMD,
 * recorded in the build record as omp_simd); undefined means on. */
#if !defined(PP_OMP_USE_SIMD) || PP_OMP_USE_SIMD
#define PP_OMP_SIMD simd
#else
#define PP_OMP_SIMD
#endif

/* Teams of the shape: `blocks`, or ceil(n / tpb), at least 1; on the host as
 * the offload device no more than it can form (pp_omp_teams, omp_device.h). */
static inline int pp_omp_loop_teams(size_t n, int tpb, int blocks) {
  size_t t = blocks > 0 ? (size_t)blocks : (n + (size_t)tpb - 1) / (size_t)tpb;
  return pp_omp_teams(t < 1 ? 1 : t > 0x7fffffff ? 0x7fffffff : (long long)t, tpb);
}

/* The combined construct with its launch shape and device. */
#define PP_OMP_FOR(nteams, tpb, ...)                                                     \
  PP_PRAGMA(omp target teams distribute parallel for PP_OMP_SIMD num_teams(nteams)     \
            thread_limit(PP_OMP_TL(tpb)) device(pp_omp_device) __VA_ARGS__)

#if defined(PP_OFFLOAD_CPU) || PP_OMP_GCC
/* LLVM 19's host offload device writes only 2 of 100000 elements with
 * schedule(static, 1) in this construct (seen here); contiguous per thread is
 * right for CPUs anyway. GCC maps a thread to a warp and the simd loop to its
 * lanes: with schedule(static, 1) each simd loop has one iteration (one lane
 * works), with the default static schedule each warp a contiguous chunk. */
#define PP_OMP_BLOCKED dist_schedule(static)
#else
#define PP_OMP_BLOCKED dist_schedule(static) schedule(static, 1)
#endif

/* for (size_t i = 0; i < n; i++) body; in the shape above. `clauses`: the
 * loop's own (is_device_ptr, reduction, ...), in parentheses-free form. */
#define PP_OMP_LOOP(n, tpb, blocks, clauses, body)                                       \
  do {                                                                                   \
    if ((blocks) > 0) {                                                                  \
      PP_OMP_FOR(pp_omp_loop_teams(n, tpb, blocks), tpb, PP_OMP_BLOCKED clauses)                                    \
      for (size_t i = 0; i < (n); i++) body;                                             \
    } else {                                                                             \
      PP_OMP_FOR(pp_omp_loop_teams(n, tpb, 0), tpb, clauses)                                  \
      for (size_t i = 0; i < (n); i++) body;                                             \
    }                                                                                    \
  } while (0)

#endif
