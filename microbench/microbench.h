/* microbench: the kernels every model implements, their per-item math, and
 * the problem (inputs and gold values, problem.c). The dot and reduce rows
 * use the shared per-model reductions of pp/reduce.h.
 *
 * ---- For the authors of kernels/{host,omp,ompx}.c, cuda.cu, hip.hip -------
 * A model file defines   const mb_kernels *mb_kernels_<model>(void);
 * (PP_MODEL_DISPATCH(m, mb_kernels_) finds it) and fills every entry of
 * mb_kernels below. It holds only the mapping: each entry is one loop over
 * [0, n) on the model's device whose body is the row's per-item function
 * (mb_<row>, PP_HD, written once below), never arithmetic of its own, so
 * every model computes the same bits. It may assume:
 *   - every pointer is the model's memory (device pointers; for host, host
 *     pointers), allocated, filled and poisoned by the driver (suite.c); a
 *     kernel allocates nothing;
 *   - tpb, from --tpb, is a multiple of 32: the threads of a block/team, which
 *     the model maps to its launch shape (host ignores it); blocks, when not
 *     0, is the number of blocks/teams of the streaming, atomic and
 *     launch-chain kernels, their threads striding over the array: --blocks,
 *     and for the streaming entries without it one block per tpb x
 *     --per-thread elements (mb_stream_blocks); 0 is the model's one element
 *     per thread;
 *   - the streaming entries need not wait for their kernel: the driver times
 *     each run with the model's device-synchronized timer; an entry that
 *     returns a value (atomic_update, atomic_capture) returns it on the host,
 *     and the launch entries synchronize as their comments below say;
 *   - the driver checks every result exactly against problem.c's closed forms
 *     (not the per-item functions) and plants the faults (suite.c): a model
 *     file needs no check of its own.
 * ---------------------------------------------------------------------------*/
#ifndef MICROBENCH_H
#define MICROBENCH_H
#include <stddef.h>
#include <stdint.h>
#include "pp/atomic.h"
#include "pp/model.h"
#include "pp/portable.h"
PP_EXTERN_C_BEGIN

/* The stream scalar 3/8 (BabelStream uses 0.4) and the zaxpy factors 5/4
 * and 3: with inputs that are multiples of 1/8 every result (elements, dot,
 * sums) is exactly representable, so each model is checked bit for bit,
 * whatever its summation order or FMA contraction. */
#define MB_SCALAR_NUM 3
#define MB_SCALAR_DEN 8
#define MB_SCALAR ((double)MB_SCALAR_NUM / MB_SCALAR_DEN)
#define MB_AXPY_NUM 5
#define MB_AXPY_DEN 4
#define MB_AXPY_A ((double)MB_AXPY_NUM / MB_AXPY_DEN)
#define MB_AXPY_I 3
/* Launches in the launch-overhead chain, and elements each one updates. */
#define MB_CHAIN_KERNELS 100
#define MB_CHAIN_LEN 1024
/* Elements per thread of the streaming kernels by default (--per-thread):
 * BabelStream's, whose CUDA kernels take four elements a thread in an
 * unrolled grid-stride loop. */
#define MB_PER_THREAD 4
/* Launches of launch_empty per run (one launch is a few microseconds). */
#define MB_LAUNCH_REPS 100

/* Every pointer is device memory of the model. n elements, tpb threads per
 * block/team (the model maps it to its launch shape; host ignores it),
 * blocks blocks/teams (0: one per tpb elements; host ignores it).
 * Each entry is named for its row (and its per-item function mb_<row>). */
typedef struct mb_kernels {
  void (*init)(double *z, size_t n, int tpb, int blocks);
  void (*zaxpy_d)(double *z, double a, const double *x, const double *y, size_t n, int tpb, int blocks);
  void (*zaxpy_f)(float *z, float a, const float *x, const float *y, size_t n, int tpb, int blocks);
  void (*zaxpy_i)(int *z, int a, const int *x, const int *y, size_t n, int tpb, int blocks);
  void (*copy)(double *z, const double *a, size_t n, int tpb, int blocks);
  void (*mul)(double *z, const double *c, size_t n, int tpb, int blocks);
  void (*add)(double *z, const double *a, const double *b, size_t n, int tpb, int blocks);
  void (*triad)(double *z, const double *b, const double *c, size_t n, int tpb, int blocks);
  /* sum of x through one atomic accumulator (acc: 1 device double); returns it */
  double (*atomic_update)(const double *x, size_t n, int tpb, int blocks, double *acc);
  /* copies the positive x[i] to out[k], k taken by atomic capture on *count;
   * returns the count */
  long long (*atomic_capture)(const double *x, size_t n, int tpb, int blocks, double *out,
                              unsigned long long *count);
  /* one launch of a one-thread kernel that adds 1 to flag[0], synchronized */
  void (*launch_empty)(int *flag, int tpb);
  /* MB_CHAIN_KERNELS launches, each a[i] += 1 over MB_CHAIN_LEN elements:
   * synchronized after each launch, or launched back to back (nowait +
   * depend / one stream) and synchronized once */
  void (*launch_sync)(double *a, int tpb, int blocks);
  void (*launch_async)(double *a, int tpb, int blocks);
} mb_kernels;

/* Blocks of the streaming entries: --blocks, else one per tpb x per_thread
 * elements; 0 (one element per thread, each model's own shape) when
 * per_thread is 1. */
static inline int mb_stream_blocks(size_t n, int tpb, int blocks, int per_thread) {
  if (blocks > 0 || per_thread <= 1) return blocks;
  const size_t span = (size_t)tpb * (size_t)per_thread, b = (n + span - 1) / span;
  return b < 1 ? 1 : b > 0x7fffffff ? 0x7fffffff : (int)b;
}

/* The models' kernel tables (only the built ones exist). */
PP_DECLARE_MODEL_GETTERS(mb_kernels, mb_kernels_)

/* Per-item math, once for every model. */
PP_BEGIN_DEVICE
PP_HD static inline double mb_init(void) { return 0.0; }
PP_HD static inline double mb_zaxpy_d(double a, double x, double y) { return a * x + y; }
PP_HD static inline float mb_zaxpy_f(float a, float x, float y) { return a * x + y; }
PP_HD static inline int mb_zaxpy_i(int a, int x, int y) { return a * x + y; }
PP_HD static inline double mb_copy(double a) { return a; }
PP_HD static inline double mb_mul(double c) { return MB_SCALAR * c; }
PP_HD static inline double mb_add(double a, double b) { return a + b; }
PP_HD static inline double mb_triad(double b, double c) { return b + MB_SCALAR * c; }
PP_HD static inline void mb_atomic_update(double *acc, double x) { pp_atomic_add_d(acc, x); }
PP_HD static inline void mb_atomic_capture(double x, double *out, unsigned long long *count) {
  if (x > 0) out[pp_atomic_fetch_inc(count)] = x;
}
PP_HD static inline void mb_launch_empty(int *flag) { flag[0] += 1; }
PP_HD static inline double mb_launch_step(double a) { return a + 1.0; }
PP_END_DEVICE

/* ---- the problem (problem.c) -------------------------------------------------
 * Every input element comes from the seed and its index alone, so the gold
 * values can be recomputed from the generator, independently of the kernels
 * and of the arrays that were uploaded. */
enum { MB_IN_A, MB_IN_B, MB_IN_C, MB_IN_XF, MB_IN_YF, MB_IN_XI, MB_IN_YI, MB_IN_V };
/* Inputs a, b, c, xf, yf are k/8 with k = mb_eighths(...) in [4, 12]. */
int mb_eighths(uint64_t seed, int input, size_t i);
/* Inputs xi, yi: integers in [-1000, 1000]. */
int mb_small_int(uint64_t seed, int input, size_t i);
/* Input v (atomics, reduce): integers in [-2^20, 2^20), so sums of up to
 * 2^30 of them are exact in double. */
long long mb_v_int(uint64_t seed, size_t i);

typedef struct mb_inputs {
  size_t n;
  uint64_t seed;
  double *a, *b, *c, *v;
  float *xf, *yf;
  int *xi, *yi;
} mb_inputs;
/* Fills the inputs from the generator (host memory; exit 3 if it runs out). */
void mb_inputs_make(mb_inputs *in, const char *app, size_t n, uint64_t seed);
void mb_inputs_free(mb_inputs *in);
/* Host bytes per element of the inputs. */
#define MB_INPUT_BYTES (4 * 8 + 4 * 4)

/* Gold values: closed forms in the generator's integers, written without
 * the per-item functions above. */
typedef struct mb_gold {
  double dot;        /* sum a[i]*b[i] */
  double v_sum;      /* sum v[i] */
  long long v_pos;   /* count of v[i] > 0 */
  uint64_t v_pos_hash; /* order-independent hash of the positive v[i] */
} mb_gold;
void mb_gold_sums(mb_gold *g, uint64_t seed, size_t n);
/* Element i of each streaming kernel's output. */
double mb_gold_init(uint64_t seed, size_t i);
double mb_gold_zaxpy_d(uint64_t seed, size_t i);
float mb_gold_zaxpy_f(uint64_t seed, size_t i);
int mb_gold_zaxpy_i(uint64_t seed, size_t i);
double mb_gold_copy(uint64_t seed, size_t i);
double mb_gold_mul(uint64_t seed, size_t i);
double mb_gold_add(uint64_t seed, size_t i);
double mb_gold_triad(uint64_t seed, size_t i);
/* The hash term of one compacted value. */
uint64_t mb_value_hash(double x);

PP_EXTERN_C_END
#endif
