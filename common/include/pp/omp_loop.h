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

/* The last team's loop over the partials: strided on GPUs, contiguous per
 * thread on CPUs and with GCC (as PP_OMP_BLOCKED above). */
#if defined(PP_OFFLOAD_CPU) || PP_OMP_GCC
#define PP_OMP_TEAM_SCHEDULE schedule(static)
#else
#define PP_OMP_TEAM_SCHEDULE schedule(static, 1)
#endif
/* s = the team's sum of `item` over i in [lo, hi), inside its parallel region.
 * clang: each thread sums its own strided share in a register (a plain loop,
 * no worksharing in it), then the threads' sums meet in a `for` of one
 * iteration per thread (schedule(static, 1): iteration k is thread k's).
 * GCC runs a warp's lanes only in simd loops: there the worksharing loop. */
#if PP_OMP_GCC
#define PP_OMP_TEAM_SUM(s, lo, hi, item)                                                  \
  PP_PRAGMA(omp for schedule(static) reduction(+ : s))                                    \
  for (size_t i = (lo); i < (hi); i++) s += item;
#else
#define PP_OMP_TEAM_SUM(s, lo, hi, item)                                                  \
  {                                                                                       \
    const int pp_th_ = omp_get_thread_num(), pp_nth_ = omp_get_num_threads();             \
    double pp_mine_ = 0;                                                                  \
    for (size_t i = (lo) + (size_t)pp_th_; i < (hi); i += (size_t)pp_nth_) pp_mine_ += item; \
    PP_PRAGMA(omp for schedule(static, 1) reduction(+ : s))                               \
    for (int pp_k_ = 0; pp_k_ < pp_nth_; pp_k_++) s += pp_mine_;                          \
  }
#endif
/* r = the sum of `item` over i in [0, n), in standard OpenMP 5 without a
 * reduction clause on the teams (LLVM 19's code for that clause costs a fixed
 * time per region: docs/performance.md, microbench): nt teams,
 * each one contiguous block its threads stride through (coalesced on GPUs),
 * summed by PP_OMP_TEAM_SUM; one thread of each team stores the team's sum in
 * part[team] and takes a ticket (atomic capture seq_cst: its store is seen by
 * whoever takes a later one); the team that takes the last sums the partials
 * (a fixed order for a given shape: the same result every run, as cuda's
 * finish) and resets the ticket (thread 0 of a team, not `omp masked`: clang
 * 16's device runtime has no __kmpc_masked). r is mapped from the region only. part: the
 * model's reduction scratch (pp_reduce_scratch_alloc, its ticket at
 * PP_REDUCE_TICKET, zero between reductions); clauses: the item's own, e.g.
 * is_device_ptr(x, y). */
#define PP_OMP_GRID_REDUCE(r, nt, tpb, n, part, clauses, item)                             \
  PP_PRAGMA(omp target teams num_teams(nt) thread_limit(PP_OMP_TL(tpb)) device(pp_omp_device) \
            is_device_ptr(part) map(from : r) clauses)                                    \
  {                                                                                       \
    const size_t pp_n_ = (n);                                                             \
    const int pp_nt_ = omp_get_num_teams(), pp_t_ = omp_get_team_num();                  \
    const size_t pp_per_ = (pp_n_ + (size_t)pp_nt_ - 1) / (size_t)pp_nt_;               \
    const size_t pp_lo_ = (size_t)pp_t_ * pp_per_ < pp_n_ ? (size_t)pp_t_ * pp_per_ : pp_n_; \
    const size_t pp_hi_ = pp_n_ - pp_lo_ > pp_per_ ? pp_lo_ + pp_per_ : pp_n_;             \
    double pp_s_ = 0, pp_all_ = 0;                                                        \
    int pp_last_ = 0;                                                                     \
    PP_PRAGMA(omp parallel)                                                               \
    {                                                                                     \
      PP_OMP_TEAM_SUM(pp_s_, pp_lo_, pp_hi_, item)                                        \
      if (omp_get_thread_num() == 0)                                                      \
      {                                                                                   \
        unsigned pp_k_;                                                                   \
        part[pp_t_] = pp_s_;                                                              \
        PP_PRAGMA(omp atomic capture seq_cst)                                             \
        pp_k_ = (*PP_REDUCE_TICKET(part))++;                                              \
        pp_last_ = pp_k_ == (unsigned)pp_nt_ - 1u;                                        \
      }                                                                                   \
      PP_PRAGMA(omp barrier)                                                              \
      if (pp_last_) {                                                                     \
        PP_PRAGMA(omp for PP_OMP_TEAM_SCHEDULE reduction(+ : pp_all_))                    \
        for (int pp_b_ = 0; pp_b_ < pp_nt_; pp_b_++) pp_all_ += part[pp_b_];              \
        if (omp_get_thread_num() == 0)                                                    \
        {                                                                                 \
          r = pp_all_;                                                                    \
          *PP_REDUCE_TICKET(part) = 0u;                                                   \
        }                                                                                 \
      }                                                                                   \
    }                                                                                     \
  }

#endif
