/* Device reductions, written once per model and shared by every app (the
 * BabelStream dot, microbench's reduce, cgsolve's dot): the dot product and
 * the sum of device arrays, returned on the host.
 *   host  fixed blocks (at most PP_REDUCE_MAX_BLOCKS), each summed in index
 *         order, then the block sums in block order: the result does not
 *         depend on the thread count (reproducible reference histories).
 *   omp   standard OpenMP without a teams reduction clause (PP_OMP_GRID_REDUCE,
 *         pp/omp_loop.h): at most PP_REDUCE_MAX_BLOCKS teams, each one contiguous
 *         block reduced in the team, the last team to take a ticket sums the
 *         teams' partials; one region, the result mapped from it.
 *   cuda, hip  two passes: a grid-stride pass leaves one partial per block
 *         (warp shuffles, then the warps' sums through team-shared memory),
 *         one block sums the partials (`finish`), an 8-byte copy brings the
 *         result back (launches are asynchronous: one synchronization).
 *   ompx  the same first pass, ended in the same launch by the block that
 *         finishes last (pp_ompx_grid_sum), the result mapped from the region:
 *         one OpenMP region (each region synchronizes) instead of two and a copy.
 * A kernel that fuses its own first pass (cgsolve's update) leaves
 * part[0..pp_reduce_blocks(...)) and calls `finish` (cuda/hip), or wraps its
 * item in PP_OMPX_GRID_REDUCE (ompx, pp/ompx_util.h).
 * Files: common/src/reduce_host.c, common/backend/omp/reduce_{omp,ompx}.c,
 * common/backend/cuda/reduce_native.cu (hip: backend/hip/reduce_hip.hip). */
#ifndef PP_REDUCE_H
#define PP_REDUCE_H
#include <stddef.h>
#include "pp/model.h"
#include "pp/portable.h"
PP_EXTERN_C_BEGIN

/* Blocks of the first pass at most (threads stride over the array). */
#define PP_REDUCE_MAX_BLOCKS 2048
/* Doubles of device scratch a reduction uses: the partials, the result
 * (part[PP_REDUCE_MAX_BLOCKS]) and ompx's ticket (PP_REDUCE_TICKET). */
#define PP_REDUCE_SCRATCH_LEN (PP_REDUCE_MAX_BLOCKS + 2)
/* ompx's block counter in the scratch: zero between reductions. */
#define PP_REDUCE_TICKET(scratch) ((unsigned *)((scratch) + PP_REDUCE_MAX_BLOCKS + 1))

/* x, y, scratch: device memory of the model; n elements. tpb: threads per
 * block/team (host ignores it). blocks: blocks/teams of the pass over the
 * array, 0 = one per tpb elements; ompx/cuda/hip cap it at
 * PP_REDUCE_MAX_BLOCKS; omp with blocks > 0 gives each team one contiguous
 * block (PP_OMP_LOOP). */
typedef struct pp_reduce_ops {
  double (*dot)(const double *x, const double *y, size_t n, int tpb, int blocks, double *scratch);
  double (*sum)(const double *x, size_t n, int tpb, int blocks, double *scratch);
  /* The sum of part[0..nb) (device memory; part[nb] is scratch), returned
   * on the host: the second pass. */
  double (*finish)(double *part, int nb, int tpb);
} pp_reduce_ops;

/* Blocks of the first pass over n elements: `blocks`, else one per tpb
 * elements, at least 1 and at most PP_REDUCE_MAX_BLOCKS. */
static inline int pp_reduce_blocks(size_t n, int tpb, int blocks) {
  size_t b = blocks > 0 ? (size_t)blocks : (n + (size_t)tpb - 1) / (size_t)tpb;
  return b < 1 ? 1 : b > PP_REDUCE_MAX_BLOCKS ? PP_REDUCE_MAX_BLOCKS : (int)b;
}

/* Device scratch for the reductions of a model (PP_REDUCE_SCRATCH_LEN
 * doubles), zeroed: ompx's ticket must start at 0. */
struct pp_device_ops;
double *pp_reduce_scratch_alloc(const struct pp_device_ops *ops);

/* The reductions of model m, NULL when m is not in this build. */
const pp_reduce_ops *pp_reduce_for(pp_model m);
PP_DECLARE_MODEL_GETTERS(pp_reduce_ops, pp_reduce_)

PP_BEGIN_DEVICE
/* The dot product's per-item term. */
PP_HD static inline double pp_dot_item(double x, double y) { return x * y; }
PP_END_DEVICE

PP_EXTERN_C_END
#endif
