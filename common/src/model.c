#include <stdio.h>
#include <string.h>
#include "pp/buildinfo.h"
#include "pp/model.h"

typedef struct model_row {
  const char *name;
  int device, native, cc, yardstick, built;
  const char *absent;
} model_row;

#define MODEL_ROW_(E, name, device, native, cc, yardstick, built, absent, ...) \
  {#name, device, native, cc, yardstick, PP_IS_SET(built), absent},
static const model_row rows[PP_MODEL_COUNT] = {PP_MODELS(MODEL_ROW_, ~, ~)};

static int known(pp_model m) { return m >= 0 && m < PP_MODEL_COUNT; }

const char *pp_model_name(pp_model m) { return known(m) ? rows[m].name : "?"; }

int pp_model_from_name(const char *name) {
  for (int m = 0; m < PP_MODEL_COUNT; m++)
    if (strcmp(name, rows[m].name) == 0) return m;
  return -1;
}

pp_model_set pp_models_built(void) {
  pp_model_set s = 0;
  for (int m = 0; m < PP_MODEL_COUNT; m++)
    if (rows[m].built) s |= 1u << m;
  return s;
}

const char *pp_model_absent_reason(pp_model m) {
  static char why[PP_MODEL_COUNT][512];
  if (!known(m) || rows[m].built) return "built";
  /* configure knows which cause it was (turned off, not found, a compiler
   * without it); the list's text is the fallback */
  const char *cfg = pp_build_info()->models_absent[m];
  if (!cfg[0]) return rows[m].absent;
  if (!why[m][0]) snprintf(why[m], sizeof why[m], "not built: %s", cfg);
  return why[m];
}

int pp_model_is_device(pp_model m) { return known(m) && rows[m].device; }
int pp_model_is_native(pp_model m) { return known(m) && rows[m].native; }
int pp_model_is_cc_built(pp_model m) { return known(m) && rows[m].cc; }

pp_model_set pp_models_native(void) {
  pp_model_set s = 0;
  for (int m = 0; m < PP_MODEL_COUNT; m++)
    if (rows[m].native) s |= 1u << m;
  return s;
}

char *pp_model_set_names(pp_model_set set, const char *sep, char *buf, size_t len) {
  size_t at = 0;
  buf[0] = '\0';
  for (int m = 0; m < PP_MODEL_COUNT; m++) {
    if (!(set & (1u << m))) continue;
    int k = snprintf(buf + at, len - at, "%s%s", at ? sep : "", rows[m].name);
    if (k < 0 || (size_t)k >= len - at) break; /* truncated: buf stays terminated */
    at += (size_t)k;
  }
  return buf;
}

int pp_model_yardstick_order(pp_model order[PP_MODEL_COUNT]) {
  int n = 0;
  for (int rank = 1; rank <= PP_MODEL_COUNT; rank++)
    for (int m = 0; m < PP_MODEL_COUNT; m++)
      if (rows[m].yardstick == rank) order[n++] = (pp_model)m;
  return n;
}
