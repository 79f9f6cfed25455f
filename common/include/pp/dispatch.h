/* One model -> kernel-table switch for every app. An app declares one
 * getter per model with PP_DECLARE_MODEL_GETTERS(T, PREFIX) (pp/model.h):
 * `const T *PREFIX<name>(void)`, which only the built models' files define,
 * and asks
 *   const T *k = PP_MODEL_DISPATCH(m, PREFIX);
 * which yields NULL for a model that is not in this build (its getter is
 * not even named there, so it need not be linked). */
#ifndef PP_DISPATCH_H
#define PP_DISPATCH_H
#include <stddef.h>
#include "pp/model.h"

#define PP_MODEL_DISPATCH(m, prefix) (PP_MODELS(PP_DISPATCH_ARM_, m, prefix) NULL)
#define PP_DISPATCH_ARM_(E, name, device, native, cc, yardstick, built, absent, m, prefix) \
  (m) == PP_##E ? PP_IF_SET(built, prefix##name(), NULL) :

#endif
