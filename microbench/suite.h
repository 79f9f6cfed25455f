/* microbench's kernel descriptors (suite.c) and the run of one model. */
#ifndef MB_SUITE_H
#define MB_SUITE_H
#include "microbench.h"
#include "pp/kernel.h"
#include "pp/reduce.h"

extern const pp_kernel mb_suite[];
extern const int mb_suite_len;
#define MB_MAX_TPB PP_MAX_LIST /* --tpb values */
/* The names --inject-fault takes (pp_app.faults), NULL-terminated. */
extern const char *const mb_faults[];

/* Device bytes per element (and fixed bytes) that mb_run_model allocates. */
#define MB_DEVICE_BYTES (5 * 8 + 6 * 4)
#define MB_DEVICE_FIXED_BYTES (8.0 * (PP_REDUCE_SCRATCH_LEN + MB_CHAIN_LEN + 2) + 16)

/* Which rows get energy (each metered row costs a few counter updates): the
 * kernels of `metered` (bit i: mb_suite[i]), at every tpb (all_tpb) or at
 * their fastest (a row the summary reports); the others' rows say why. */
typedef struct mb_energy_plan {
  int all_tpb;        /* --energy-tpb all */
  uint64_t metered;   /* of this size's kernels (--energy-sizes: the largest size's) */
  long long largest;  /* the size that has them (named by the other rows) */
} mb_energy_plan;

/* The launch shape options: --blocks (0: the kernels' own) and --per-thread
 * (elements per thread of the streaming kernels when blocks is 0). */
typedef struct mb_shape {
  int blocks;
  int per_thread;
} mb_shape;

/* Runs the kernels of `mask` (bit i: mb_suite[i]) of model m on the inputs
 * at each of the ntpb threads per block in the launch shape of `shape`,
 * size n = in->n (fixed-size kernels at their own); energy as `plan` says. */
/* check_buf: host memory for one downloaded result (in->n doubles), allocated and
 * touched once by the caller: a fresh allocation per check made every row pay the
 * page faults of a 512 MiB buffer at 2^26. */
void mb_run_model(pp_session *s, pp_model m, const mb_inputs *in, const mb_gold *gold, const int *tpb,
                  int ntpb, const mb_shape *shape, const mb_energy_plan *plan, uint64_t mask, void *check_buf);

#endif
