/* Unit tests of the model list (PP_MODELS in pp/model.h) and of what is
 * generated from it. Exits non-zero if a check failed. */
#include <stdio.h>
#include <string.h>
#include "pp/device.h"
#include "pp/dispatch.h"
#include "pp/model.h"
#include "pp/reduce.h"

#include "check.h"

/* Each model: its name round-trips, and dispatch finds exactly the built ones. */
static void test_each_model(void) {
  pp_model_set built = pp_models_built();
  CHECK(built & (1u << PP_HOST));
  for (int i = 0; i < PP_MODEL_COUNT; i++) {
    pp_model m = (pp_model)i;
    int has = (built >> i) & 1;
    CHECK(pp_model_from_name(pp_model_name(m)) == i);
    CHECK((pp_device_ops_for(m) != NULL) == has);
    CHECK((pp_reduce_for(m) != NULL) == has);
    CHECK((strcmp(pp_model_absent_reason(m), "built") == 0) == has);
    CHECK(!pp_model_is_native(m) || pp_model_is_device(m));
  }
  CHECK(!pp_model_is_device(PP_HOST) && pp_model_is_cc_built(PP_HOST));
  CHECK(!pp_model_is_device(PP_MODEL_COUNT) && !strcmp(pp_model_name(PP_MODEL_COUNT), "?"));
  CHECK(pp_model_from_name("all") == -1);
  CHECK(PP_ANY_NATIVE_BUILT == ((built & pp_models_native()) != 0));
}

/* The GPU ceiling's yardstick order: every device model once, natives first. */
static void test_yardstick_order(void) {
  pp_model order[PP_MODEL_COUNT];
  int n = pp_model_yardstick_order(order), seen[PP_MODEL_COUNT] = {0}, devices = 0;
  for (int i = 0; i < PP_MODEL_COUNT; i++) devices += pp_model_is_device((pp_model)i);
  CHECK(n == devices);
  for (int k = 0; k < n; k++) {
    CHECK(pp_model_is_device(order[k]) && !seen[order[k]]++);
    if (k) CHECK(pp_model_is_native(order[k - 1]) || !pp_model_is_native(order[k]));
  }
}

static void test_set_names(void) {
  char buf[64], small[8];
  CHECK(!strcmp(pp_model_set_names(1u << PP_CUDA | 1u << PP_HOST, "/", buf, sizeof buf), "host/cuda"));
  CHECK(!strcmp(pp_model_set_names(0, "/", buf, sizeof buf), ""));
  pp_model_set_names(~0u, ", ", small, sizeof small); /* truncated, still terminated */
  CHECK(strlen(small) < sizeof small);
}

/* The built flags: a macro defined to 1 is set, an undefined one is not, in C and in #if. */
#define TEST_FLAG_ON 1
static void test_is_set(void) {
  CHECK(PP_IS_SET(TEST_FLAG_ON) == 1 && PP_IS_SET(TEST_FLAG_UNDEFINED) == 0);
  CHECK(PP_IF_SET(TEST_FLAG_ON, 7, 8) == 7 && PP_IF_SET(TEST_FLAG_UNDEFINED, 7, 8) == 8);
#if !PP_IS_SET(TEST_FLAG_ON) || PP_IS_SET(TEST_FLAG_UNDEFINED)
  CHECK(!"PP_IS_SET in #if");
#endif
}

int main(void) {
  test_each_model();
  test_yardstick_order();
  test_set_names();
  test_is_set();
  if (failures) {
    fprintf(stderr, "test_models: %d check(s) failed\n", failures);
    return 1;
  }
  printf("test_models: all checks passed\n");
  return 0;
}
