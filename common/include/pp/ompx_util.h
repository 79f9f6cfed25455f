/* Helpers for LLVM OpenMP kernel-mode (ompx) kernel files: the warp width,
 * a bare launch, a grid-stride loop, a block sum through shuffles and
 * team-shared memory, and a whole reduction in one launch. Include after <omp.h> and <ompx.h>. */
#ifndef PP_OMPX_UTIL_H
#define PP_OMPX_UTIL_H
#include "pp/omp_device.h"
#include "pp/portable.h"
#include "pp/reduce.h"

/* Lanes of a warp/wavefront. Known in device code only; host code uses it just
 * to size team memory, where the larger NVIDIA count (more warps) is safe. */
#if defined(__AMDGPU__) || defined(__AMDGCN__)
#define PP_OMPX_WARP 64
#else
#define PP_OMPX_WARP 32
#endif

/* Team-shared bytes pp_ompx_block_sum needs for tpb threads, and
 * pp_ompx_grid_sum (one more word: the last block's flag). */
#define PP_OMPX_SUM_BYTES(tpb) (((tpb) / 32 + 1) * (int)sizeof(double))
#define PP_OMPX_GRID_SUM_BYTES(tpb) (PP_OMPX_SUM_BYTES(tpb) + (int)sizeof(double))

/* A bare kernel launch on ProxyPort's device: nb blocks of tpb threads. */
#define PP_OMPX_LAUNCH(nb, tpb, ...)                                                     \
  PP_PRAGMA(omp target teams ompx_bare num_teams(nb) thread_limit(tpb)                   \
            device(pp_omp_device) __VA_ARGS__)

/* Blocks of rows x lanes (spmv's rows x vector lanes, testsnap's pairs x lanes):
 * ompx_bare takes a multi-dimensional thread_limit(x, y, z) / num_teams(x, y, z)
 * from clang 20 on; clang 19 rejects it in C ("expected ')'"), so there such a
 * block is one dimension of x * y threads. Both forms number a block's threads
 * t = x + nx * y (x fastest, as warps are formed), so a kernel computes the same
 * in either. PP_OMPX_FLAT (CMake PP_OMPX_GRID=flat, build tag +ompx1d) keeps the
 * one-dimensional form on any compiler, so both can be timed with one. */
#if !defined(PP_OMPX_FLAT) && defined(__clang__) && __clang_major__ >= 20
#define PP_OMPX_MULTIDIM 1
#else
#define PP_OMPX_MULTIDIM 0
#endif

/* A bare launch of nb blocks of nx x ny threads (x: the lanes); the flat form
 * is PP_OMPX_LAUNCH(nb, nx * ny). */
#if PP_OMPX_MULTIDIM
#define PP_OMPX_LAUNCH_XY(nb, nx, ny, ...)                                              \
  PP_PRAGMA(omp target teams ompx_bare num_teams(nb, 1, 1) thread_limit(nx, ny, 1)      \
            device(pp_omp_device) __VA_ARGS__)
#else
#define PP_OMPX_LAUNCH_XY(nb, nx, ny, ...) PP_OMPX_LAUNCH(nb, (nx) * (ny), __VA_ARGS__)
#endif

/* Grid-stride loop over [0, n) from this thread. */
#define PP_OMPX_FOR(i, n)                                                                \
  for (size_t i = (size_t)ompx_block_id_x() * ompx_block_dim_x() + ompx_thread_id_x(),  \
              i##_stride = (size_t)ompx_grid_dim_x() * ompx_block_dim_x();               \
       i < (size_t)(n); i += i##_stride)

#pragma omp begin declare target
/* Sum of v over a warp: lane 0 ends with the total. */
static inline double pp_ompx_warp_sum(double v) {
  for (int d = PP_OMPX_WARP / 2; d > 0; d /= 2) v += ompx_shfl_down_sync_d(~0ull, v, d, PP_OMPX_WARP);
  return v;
}
/* Sum of v over the block: shuffles within each warp, then warp 0 adds the
 * warps' sums from team-shared memory (PP_OMPX_SUM_BYTES). Valid in thread 0. */
static inline double pp_ompx_block_sum(double v, double *shared) {
  int t = ompx_thread_id_x(), nwarps = (ompx_block_dim_x() + PP_OMPX_WARP - 1) / PP_OMPX_WARP;
  v = pp_ompx_warp_sum(v);
  if (t % PP_OMPX_WARP == 0) shared[t / PP_OMPX_WARP] = v;
  ompx_sync_block_acq_rel();
  v = 0;
  if (t < PP_OMPX_WARP) {
    if (t < nwarps) v = shared[t];
    v = pp_ompx_warp_sum(v);
  }
  return v;
}

/* The one-pass end of a grid reduction (threadFenceReduction's pattern):
 * each block's sum v (valid in thread 0, as pp_ompx_block_sum leaves it)
 * goes to part[block] and takes a ticket from *ticket; the block with the
 * last ticket sums part[0..grid), thread 0 of it writes the total to *total
 * and sets *ticket back to 0. *ticket is device memory the caller owns and
 * zeroed before the first reduction (pp_reduce_scratch_alloc). One grid
 * sum runs at a time per ticket. Every
 * thread calls it; `shared` is PP_OMPX_GRID_SUM_BYTES of team memory. It saves
 * the second launch of a two-pass reduction, which an OpenMP region pays as a
 * synchronization. */
static inline void pp_ompx_grid_sum(double v, double *part, unsigned *ticket, double *shared,
                                    double *total) {
  const int t = ompx_thread_id_x(), nb = ompx_grid_dim_x();
  /* Pointer arithmetic, not &shared[k]: clang 19 takes the address of an
   * element as the pointer's own escaping and globalizes `shared` through the
   * device runtime, which bare kernels never set up; without LTO the kernel
   * then ends at its first barrier (see docs/performance.md, Compilers). */
  int *last = (int *)(shared + ompx_block_dim_x() / 32 + 1);
  if (t == 0) {
    part[ompx_block_id_x()] = v;
#pragma omp flush
    unsigned k;
#pragma omp atomic capture seq_cst
    k = (*ticket)++;
    *last = k == (unsigned)nb - 1u;
  }
  ompx_sync_block_acq_rel();
  if (!*last) return;
  double s = 0;
  for (int i = t; i < nb; i += ompx_block_dim_x()) s += ((volatile double *)part)[i];
  s = pp_ompx_block_sum(s, shared);
  if (t == 0) {
    *total = s;
    *ticket = 0u; /* every block has taken its ticket; the next launch starts after this one */
  }
}
#pragma omp end declare target

/* r = the sum of `item` (an expression of the index i) over i in [0, n), in
 * one region of nb blocks of tpb threads: each block's sum to part[block],
 * the last block's total mapped back to r (pp_ompx_grid_sum). part: the
 * model's reduction scratch (pp_reduce_scratch_alloc: its ticket at
 * PP_REDUCE_TICKET); clauses: the item's own, e.g. is_device_ptr(x, y). */
#define PP_OMPX_GRID_REDUCE(r, nb, tpb, n, part, clauses, item)                          \
  PP_OMPX_LAUNCH(nb, tpb, is_device_ptr(part) map(from : r) clauses                     \
                 ompx_dyn_cgroup_mem(PP_OMPX_GRID_SUM_BYTES(tpb))) {                   \
    double *pp_sh_ = (double *)llvm_omp_target_dynamic_shared_alloc();                  \
    double pp_v_ = 0;                                                                   \
    PP_OMPX_FOR(i, n) pp_v_ += item;                                                    \
    pp_ompx_grid_sum(pp_ompx_block_sum(pp_v_, pp_sh_), part, PP_REDUCE_TICKET(part),    \
                     pp_sh_, &r);                                                       \
  }

#endif
