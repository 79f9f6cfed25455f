/* Unit tests of the common layer: statistics, size parsing, RNG skip-ahead,
 * validation helpers, the run-time library loader. Exits non-zero on the
 * first failed check. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pp/dynlib.h"
#include "pp/pp.h"
#include "check.h"


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
  /* overflow says "too large" (-2), not "not a number" (-1) */
  CHECK(pp_parse_size("2^70", &v) == -2);
  CHECK(pp_parse_size("2^63", &v) == -2);
  CHECK(pp_parse_size("2^62", &v) == 0 && v == 4611686018427387904ll);
  CHECK(pp_parse_size("3^39", &v) == 0 && v == 4052555153018976267ll);
  CHECK(pp_parse_size("3^40", &v) == -2);
  CHECK(pp_parse_size("1<<63", &v) == -2);
  CHECK(pp_parse_size("1<<62", &v) == 0 && v == 4611686018427387904ll);
  CHECK(pp_parse_size("2^99999999999999999999", &v) == -2);
  CHECK(pp_parse_size("1^99999999999999999999", &v) == 0 && v == 1);
  CHECK(pp_parse_size("9223372036854775807", &v) == 0 && v == 9223372036854775807ll);
  CHECK(pp_parse_size("9223372036854775808", &v) == -2);
  CHECK(pp_parse_size("8589934592G", &v) == -2);
  CHECK(pp_parse_size("8589934591G", &v) == 0 && v == 9223372035781033984ll);
  CHECK(pp_parse_size("2^-1", &v) == -1);
  CHECK(pp_parse_size("2^+3", &v) == -1);
  CHECK(pp_parse_size("2^ 3", &v) == -1);
  CHECK(pp_parse_size("2^3^4", &v) == -1);
  CHECK(pp_parse_size("1<<", &v) == -1);
  CHECK(pp_parse_size(" 5", &v) == -1);
  long long w;
  const char *msg = pp_parse_int("2^70", 1, 100, &w);
  CHECK(msg && strstr(msg, "too large"));
  pp_list l;
  CHECK(pp_parse_list("1,2^3,4K", 1, 1 << 20, &l) == NULL && l.n == 3 && l.v[1] == 8 && l.v[2] == 4096);
  CHECK(pp_parse_list("1,0", 1, 10, &l) != NULL);  /* below the range */
  CHECK(pp_parse_list("1,,2", 1, 10, &l) != NULL); /* empty elements are refused */
  CHECK(pp_parse_list("1,", 1, 10, &l) != NULL);
  CHECK(pp_parse_list(",1", 1, 10, &l) != NULL);
  CHECK(pp_parse_list(",", 1, 10, &l) != NULL);
  CHECK(pp_parse_list("", 1, 10, &l) != NULL);
  CHECK(pp_parse_list("1,2,3,4,5,6,7,8,9,10,1,2,3,4,5,6,7,8,9,10,1,2,3,4,5,6,7,8,9,10,1,2", 1, 10, &l) == NULL && l.n == 32);
  CHECK(pp_parse_list("1,2,3,4,5,6,7,8,9,10,1,2,3,4,5,6,7,8,9,10,1,2,3,4,5,6,7,8,9,10,1,2,3", 1, 10, &l) != NULL);
  CHECK(pp_parse_list("11", 1, 10, &l) != NULL);   /* above */
  /* named choices: the index, or every name in the message */
  const char *const two[] = {"team", "global", NULL}, *const three[] = {"rows", "lanes", "teams", NULL};
  int k = -1;
  CHECK(pp_parse_choice("global", two, &k) == NULL && k == 1);
  CHECK(pp_parse_choice("rows", three, &k) == NULL && k == 0);
  k = 7;
  const char *m2 = pp_parse_choice("Team", two, &k);
  CHECK(m2 && !strcmp(m2, "expected 'team' or 'global'") && k == 7); /* case matters; *out untouched */
  const char *m3 = pp_parse_choice("", three, &k);
  CHECK(m3 && !strcmp(m3, "expected 'rows', 'lanes' or 'teams'"));
  CHECK(pp_parse_choice(NULL, two, &k) != NULL);
}

/* XSBench's LCG: reference values printed by XSBench's own LCG_random_double()
 * and fast_forward_LCG() (version 20, openmp-threading/Simulation.c), linked into
 * a throwaway driver in /tmp; the command, driver and full output are in
 * validate/xsbench/lcg-reference.txt. They are literal, never recomputed here. */
static const struct {
  uint64_t seed;
  uint64_t next[3];  /* states after 1, 2, 3 calls of LCG_random_double */
  double value[3];   /* the values those calls returned (%.17g) */
  uint64_t skip[4];  /* fast_forward_LCG(seed, n) for n in lcg_skip_n */
} lcg_ref[] = {
    {1070, /* XSBench's STARTING_SEED */
     {5034782264453221031ull, 413720145226129956ull, 3848738012330184501ull},
     {0.54587218691116701, 0.044855628025518852, 0.41728101142959284},
     {4431472941795656326ull, 443776670795765742ull, 3634467506112984622ull, 5954648561377741459ull}},
    {1144900, /* STARTING_SEED^2, Materials.c */
     {767753441757430229ull, 6953484305838148554ull, 8807747715860775987ull},
     {0.08323999494866291, 0.75389827907335805, 0.95493792082404927},
     {9216278314946693340ull, 6425765346469475844ull, 6930584812010609220ull, 6566138582560672993ull}},
    {0,
     {1ull, 2806196910506780710ull, 6924308458965941631ull},
     {1.0842021724855044e-19, 0.30424847867935623, 0.75073502741706288},
     {7360529711821355800ull, 7150793935526674880ull, 3174098156010832384ull, 4133560638274335821ull}},
    {42,
     {7179805799027480083ull, 522813245550799040ull, 4820991143792763841ull},
     {0.77843610453296175, 0.05668352566303738, 0.52269290716334915},
     {5831881675947278594ull, 5353172489097844714ull, 8260713361968681514ull, 6601395328943467327ull}},
};
static const uint64_t lcg_skip_n[4] = {1000, 1000000, 3000000000ull, 0x8000000000000005ull};

static void test_rng(void) {
  for (size_t k = 0; k < sizeof lcg_ref / sizeof lcg_ref[0]; k++) {
    uint64_t s = lcg_ref[k].seed;
    for (int i = 0; i < 3; i++) {
      double u = pp_lcg_next(&s);
      CHECK(s == lcg_ref[k].next[i]);
      CHECK(u == lcg_ref[k].value[i]); /* bit for bit */
      CHECK(pp_lcg_skip(lcg_ref[k].seed, (uint64_t)i + 1) == lcg_ref[k].next[i]);
    }
    for (int j = 0; j < 4; j++) CHECK(pp_lcg_skip(lcg_ref[k].seed, lcg_skip_n[j]) == lcg_ref[k].skip[j]);
    CHECK(pp_lcg_skip(lcg_ref[k].seed, 0) == lcg_ref[k].seed);
  }
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

/* pp_dynlib_load on the C math library, which every Linux host has. */
static struct {
  double (*cos)(double);
  double (*sqrt)(double);
  double (*none)(double);
} m;
static void test_dynlib(void) {
  const pp_dynsym syms[] = {{.name = "cos", .at = &m.cos},
                            {.name = "pp_no_such_sqrt", .alt = "sqrt", .at = &m.sqrt},
                            {.name = "pp_no_such_function", .at = &m.none, .optional = 1},
                            {.name = NULL}};
  pp_dynlib lib = {.names = {"libpp-no-such-library.so", "libm.so.6"}, .syms = syms};
  CHECK(pp_dynlib_load(&lib) == 0 && lib.handle);
  CHECK(m.cos && m.cos(0.0) == 1.0 && m.sqrt && m.sqrt(4.0) == 2.0 && !m.none);
  CHECK(pp_dynlib_load(&lib) == 0); /* once: the same answer */

  const pp_dynsym needed[] = {
      {.name = "cos", .at = &m.cos}, {.name = "pp_no_such_function", .at = &m.none}, {.name = NULL}};
  pp_dynlib lacks = {.names = {"libm.so.6"}, .syms = needed};
  CHECK(pp_dynlib_load(&lacks) == -1 && !lacks.handle);
  CHECK(!strcmp(lacks.why, "not available: libm.so.6: pp_no_such_function missing"));

  pp_dynlib absent = {.names = {"libpp-no-such-library.so"}, .syms = needed};
  CHECK(pp_dynlib_load(&absent) == -1);
  CHECK(!strncmp(absent.why, "not available: cannot load libpp-no-such-library.so (", 53));

  /* the environment's path replaces the names */
  setenv("PP_TEST_DYNLIB", "libm.so.6", 1);
  pp_dynlib by_env = {.env = "PP_TEST_DYNLIB", .names = {"libpp-no-such-library.so"}, .syms = syms};
  CHECK(pp_dynlib_load(&by_env) == 0);
  setenv("PP_TEST_DYNLIB", "/nonexistent/libm.so.6", 1);
  pp_dynlib bad_env = {.env = "PP_TEST_DYNLIB", .names = {"libm.so.6"}, .syms = syms};
  CHECK(pp_dynlib_load(&bad_env) == -1 && strstr(bad_env.why, "cannot load /nonexistent/libm.so.6"));
}

int main(void) {
  test_stats();
  test_parse();
  test_rng();
  test_validate();
  test_dynlib();
  if (failures) {
    fprintf(stderr, "test_common: %d check(s) failed\n", failures);
    return 1;
  }
  printf("test_common: all checks passed\n");
  return 0;
}
