/* The checks of the C unit tests: a failed check prints its place and
 * condition and counts; the test's main returns failures != 0. */
#ifndef PP_TESTS_CHECK_H
#define PP_TESTS_CHECK_H
#include <math.h>
#include <stdio.h>

static int failures;
#define CHECK(cond)                                                                   \
  do {                                                                                \
    if (!(cond)) {                                                                    \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);        \
      failures++;                                                                     \
    }                                                                                 \
  } while (0)
#define NEAR(a, b, tol) CHECK(fabs((a) - (b)) <= (tol))

#endif
