/* Unit tests of the common layer: statistics, size parsing, RNG skip-ahead,
 * validation helpers. Exits non-zero on the first failed check. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "pp/pp.h"

static int failures;
#define CHECK(cond)                                                   \
  do {                                                                \
    if (!(cond)) {                                                    \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      failures++;                                                     \
    }                                                                 \
  } while (0)
#define NEAR(a, b, tol) CHECK(fabs((a) - (b)) <= (tol))

static void test_stats(void) {
  double x[] = {7, 1, 10, 3, 5, 2, 9, 4, 8, 6};
  pp_bootstrap bs = {2000, 0.95, 7};
  pp_stats s, s2;
  pp_stats_compute(x, 10, &bs, &s);
  NEAR(s.min, 1, 0);
  NEAR(s.max, 10, 0);
  NEAR(s.median, 5.5, 1e-15);
  NEAR(s.mean, 5.5, 1e-15);
  NEAR(s.stddev, 3.0276503540974917, 1e-14); /* sample standard deviation */
  CHECK(s.ci_lo < s.mean && s.mean < s.ci_hi);
  /* the bootstrap interval of the mean is about mean +- 1.96 sd/sqrt(n) */
  NEAR(s.ci_hi - s.ci_lo, 2 * 1.96 * 2.8722813232690143 / sqrt(10), 0.6);
  pp_stats_compute(x, 10, &bs, &s2);
  CHECK(s.ci_lo == s2.ci_lo && s.ci_hi == s2.ci_hi); /* seeded: reproducible */
  CHECK(x[0] == 7);                                  /* input untouched */
  double odd[] = {3, 1, 2};
  NEAR(pp_median(odd, 3), 2, 0);
  pp_stats_compute(odd, 1, NULL, &s);
  CHECK(s.n == 1 && s.stddev == 0 && s.median == 3);
}

static void test_parse(void) {
  long long v;
  CHECK(pp_parse_size("4096", &v) == 0 && v == 4096);
  CHECK(pp_parse_size("2^24", &v) == 0 && v == 16777216);
  CHECK(pp_parse_size("1<<10", &v) == 0 && v == 1024);
  CHECK(pp_parse_size("16M", &v) == 0 && v == 16777216);
  CHECK(pp_parse_size("3k", &v) == 0 && v == 3072);
  CHECK(pp_parse_size("-5", &v) != 0);
  CHECK(pp_parse_size("abc", &v) != 0);
  CHECK(pp_parse_size("12x", &v) != 0);
  CHECK(pp_parse_size("2^99", &v) != 0);
  CHECK(pp_parse_size("", &v) != 0);
  pp_list l;
  CHECK(pp_parse_list("1,2^3,4K", 1, 1 << 20, &l) == NULL && l.n == 3 && l.v[1] == 8 && l.v[2] == 4096);
  CHECK(pp_parse_list("1,0", 1, 10, &l) != NULL);  /* below the range */
  CHECK(pp_parse_list("1,,", 1, 10, &l) == NULL && l.n == 1);
  CHECK(pp_parse_list("11", 1, 10, &l) != NULL);   /* above */
}

static void test_rng(void) {
  uint64_t s = 12345, t = 12345;
  for (int i = 0; i < 1000; i++) pp_lcg_next(&s);
  CHECK(pp_lcg_skip(t, 1000) == s);
  CHECK(pp_lcg_skip(t, 0) == t);
  /* XSBench's stream from seed 42: first value of its LCG */
  uint64_t x = 42;
  double u = pp_lcg_next(&x);
  CHECK(x == ((2806196910506780709ull * 42 + 1) & 0x7FFFFFFFFFFFFFFFull));
  CHECK(u >= 0 && u < 1);
  double a = pp_hash_uniform(1, 5), b = pp_hash_uniform(1, 5), c = pp_hash_uniform(1, 6);
  CHECK(a == b && a != c && a >= 0 && a < 1);
}

static void test_validate(void) {
  double ref[] = {1, 2, 3, 4}, x[] = {1, 2, 3, 4.0004};
  NEAR(pp_rel_err_l2(x, ref, 4), 0.0004 / sqrt(30), 1e-12);
  NEAR(pp_max_rel_err(x, ref, 4, 1e-30), 1e-4, 1e-12);
  x[1] = NAN;
  CHECK(isnan(pp_rel_err_l2(x, ref, 4)));
  CHECK(!pp_within(NAN, 1.0));
  CHECK(pp_within(0.5, 1.0) && !pp_within(1.5, 1.0));
  int xi[] = {1, 2, 3}, ri[] = {1, 5, 3};
  CHECK(pp_count_mismatch_i(xi, ri, 3) == 1);
  double p[3];
  pp_poison_d(p, 3);
  CHECK(isnan(p[0]) && isnan(p[2]));
}

int main(void) {
  test_stats();
  test_parse();
  test_rng();
  test_validate();
  if (failures) {
    fprintf(stderr, "test_common: %d check(s) failed\n", failures);
    return 1;
  }
  printf("test_common: all checks passed\n");
  return 0;
}
