/* microbench problem: the input generator and the gold values. Gold values
 * are exact closed forms in the generator's integers (the only rounding is
 * one division by a power of two), written here without the per-item
 * functions of microbench.h, so a wrong kernel formula cannot agree with
 * its own reference. */
#include <stdlib.h>
#include <string.h>
#include "microbench.h"
#include "pp/buffers.h"
#include "pp/rng.h"

/* One independent stream per input: element i of input `input`. */
static double u(uint64_t seed, int input, size_t i) {
  return pp_hash_uniform(seed + (uint64_t)input, i);
}
int mb_eighths(uint64_t seed, int input, size_t i) { return 4 + (int)(u(seed, input, i) * 9); }
int mb_small_int(uint64_t seed, int input, size_t i) { return (int)(u(seed, input, i) * 2001) - 1000; }
long long mb_v_int(uint64_t seed, size_t i) {
  return (long long)(u(seed, MB_IN_V, i) * 2097152.0) - 1048576;
}

void mb_inputs_make(mb_inputs *in, const char *app, size_t n, uint64_t seed) {
  in->n = n;
  in->seed = seed;
  in->a = pp_host_alloc(app, n * sizeof(double), "input a");
  in->b = pp_host_alloc(app, n * sizeof(double), "input b");
  in->c = pp_host_alloc(app, n * sizeof(double), "input c");
  in->v = pp_host_alloc(app, n * sizeof(double), "input v");
  in->xf = pp_host_alloc(app, n * sizeof(float), "input xf");
  in->yf = pp_host_alloc(app, n * sizeof(float), "input yf");
  in->xi = pp_host_alloc(app, n * sizeof(int), "input xi");
  in->yi = pp_host_alloc(app, n * sizeof(int), "input yi");
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < n; i++) {
    in->a[i] = mb_eighths(seed, MB_IN_A, i) / 8.0;
    in->b[i] = mb_eighths(seed, MB_IN_B, i) / 8.0;
    in->c[i] = mb_eighths(seed, MB_IN_C, i) / 8.0;
    in->xf[i] = (float)(mb_eighths(seed, MB_IN_XF, i) / 8.0);
    in->yf[i] = (float)(mb_eighths(seed, MB_IN_YF, i) / 8.0);
    in->xi[i] = mb_small_int(seed, MB_IN_XI, i);
    in->yi[i] = mb_small_int(seed, MB_IN_YI, i);
    in->v[i] = (double)mb_v_int(seed, i);
  }
}

void mb_inputs_free(mb_inputs *in) {
  void *p[] = {in->a, in->b, in->c, in->v, in->xf, in->yf, in->xi, in->yi};
  for (size_t k = 0; k < sizeof p / sizeof p[0]; k++) free(p[k]);
  memset(in, 0, sizeof *in);
}

uint64_t mb_value_hash(double x) {
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  return pp_splitmix64(&bits);
}

/* Integer sums: exact whatever the order (64-bit, far from overflow for n <= 2^30). */
void mb_gold_sums(mb_gold *g, uint64_t seed, size_t n) {
  long long ab = 0, vs = 0, pos = 0;
  uint64_t hash = 0;
#pragma omp parallel for reduction(+ : ab, vs, pos, hash)
  for (size_t i = 0; i < n; i++) {
    ab += (long long)mb_eighths(seed, MB_IN_A, i) * mb_eighths(seed, MB_IN_B, i);
    long long v = mb_v_int(seed, i);
    vs += v;
    if (v > 0) pos++, hash += mb_value_hash((double)v);
  }
  g->dot = (double)ab / 64.0; /* a*b = ka*kb / 64 */
  g->v_sum = (double)vs;
  g->v_pos = pos;
  g->v_pos_hash = hash;
}

#define K(input) mb_eighths(seed, input, i)
/* a*x + y = (AXPY_NUM*kx/AXPY_DEN + ky) / 8 */
double mb_gold_zaxpy_d(uint64_t seed, size_t i) {
  return (double)(MB_AXPY_NUM * K(MB_IN_A) + MB_AXPY_DEN * K(MB_IN_B)) / (8 * MB_AXPY_DEN);
}
float mb_gold_zaxpy_f(uint64_t seed, size_t i) {
  return (float)((double)(MB_AXPY_NUM * K(MB_IN_XF) + MB_AXPY_DEN * K(MB_IN_YF)) /
                 (8 * MB_AXPY_DEN));
}
int mb_gold_zaxpy_i(uint64_t seed, size_t i) {
  long long x = mb_small_int(seed, MB_IN_XI, i), y = mb_small_int(seed, MB_IN_YI, i);
  return (int)(MB_AXPY_I * x + y);
}
double mb_gold_init(uint64_t seed, size_t i) {
  (void)seed, (void)i;
  return 0.0;
}
double mb_gold_copy(uint64_t seed, size_t i) { return K(MB_IN_A) / 8.0; }
/* s*c = SCALAR_NUM*kc / (8*SCALAR_DEN) */
double mb_gold_mul(uint64_t seed, size_t i) {
  return (double)(MB_SCALAR_NUM * K(MB_IN_C)) / (8 * MB_SCALAR_DEN);
}
double mb_gold_add(uint64_t seed, size_t i) { return (double)(K(MB_IN_A) + K(MB_IN_B)) / 8; }
double mb_gold_triad(uint64_t seed, size_t i) {
  return (double)(MB_SCALAR_DEN * K(MB_IN_B) + MB_SCALAR_NUM * K(MB_IN_C)) / (8 * MB_SCALAR_DEN);
}
#undef K
