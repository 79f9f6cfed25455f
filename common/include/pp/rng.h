/* Deterministic random numbers, identical on every platform and model.
 * pp_rng: splitmix64, for test data. pp_lcg: the 63-bit LCG of XSBench
 * (multiplier 2806196910506780709, increment 1) with O(log n) skip-ahead,
 * so decomposed runs reproduce a serial run's stream exactly. */
#ifndef PP_RNG_H
#define PP_RNG_H
#include <stdint.h>
#include "pp/portable.h"
PP_EXTERN_C_BEGIN
PP_BEGIN_DEVICE

PP_HD static inline uint64_t pp_splitmix64(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* Uniform double in [0,1) with 53 random bits. */
PP_HD static inline double pp_uniform(uint64_t *state) {
  return (double)(pp_splitmix64(state) >> 11) * (1.0 / 9007199254740992.0);
}

/* Stateless hash of (seed, i) to [0,1): element i of a reproducible array. */
PP_HD static inline double pp_hash_uniform(uint64_t seed, uint64_t i) {
  uint64_t s = seed ^ (i * 0xD1B54A32D192ED03ull);
  return pp_uniform(&s);
}

#define PP_LCG_MULT 2806196910506780709ull
#define PP_LCG_INC 1ull
#define PP_LCG_MASK 0x7FFFFFFFFFFFFFFFull /* modulus 2^63 */

/* The draw a state stands for, in [0, 1). */
PP_HD static inline double pp_lcg_value(uint64_t state) { return (double)state / 9223372036854775808.0; }

PP_HD static inline double pp_lcg_next(uint64_t *seed) {
  *seed = (PP_LCG_MULT * *seed + PP_LCG_INC) & PP_LCG_MASK;
  return pp_lcg_value(*seed);
}

/* n steps of the LCG as one affine map: state -> (*a * state + *c) mod 2^63. */
PP_HD static inline void pp_lcg_jump(uint64_t n, uint64_t *a_out, uint64_t *c_out) {
  uint64_t a = PP_LCG_MULT, c = PP_LCG_INC, a_new = 1, c_new = 0;
  while (n > 0) {
    if (n & 1) { a_new = a_new * a; c_new = c_new * a + c; }
    c = c * (a + 1);
    a = a * a;
    n >>= 1;
  }
  *a_out = a_new, *c_out = c_new;
}

/* The LCG state n steps after `seed`. */
PP_HD static inline uint64_t pp_lcg_skip(uint64_t seed, uint64_t n) {
  uint64_t a, c;
  pp_lcg_jump(n, &a, &c);
  return (a * seed + c) & PP_LCG_MASK;
}

PP_END_DEVICE
PP_EXTERN_C_END
#endif
