/* The programming models ProxyPort compares, and which of them this build has.
 *
 * PP_MODELS is the one list of the models: the enum, the names, the sets,
 * the GPU ceiling's yardstick order, the dispatch to an app's kernel tables
 * (pp/dispatch.h), the declarations of those tables' getters and CMake's
 * model loops (cmake/Models.cmake reads the X( rows) are generated from it.
 * Adding a model: a row here, its compiler's detection and build rules in
 * cmake/, its runtime glue (common/backend/<model>/) and its kernel files. */
#ifndef PP_MODEL_H
#define PP_MODEL_H
#include <stddef.h>
#include "pp/portable.h"
PP_EXTERN_C_BEGIN

/* X(ENUM, name, device, native, cc, yardstick, built, absent, p1, p2) per model
 * (ENUM, name and built on the row's first line: CMake reads them there):
 *   ENUM       PP_<ENUM> is its pp_model value (the rows' order)
 *   name       its --backend name and its name in reports, getters and files
 *   device     1: runs on an accelerator (or an offload device)
 *   native     1: the GPU vendor's own runtime, the model the others are compared to
 *   cc         1: built by the C (OpenMP) compiler, so its labels carry the build tag
 *   yardstick  its rank in the choice of the GPU copy ceiling's model (1 first;
 *              natives first, as the others share their runtime's ceiling); 0: never
 *   built      1 when always built, else the PP_HAVE_ flag CMake defines to 1
 *   absent     why it is not built (for --help, --backend and the reports)
 *   p1, p2     the two arguments of the PP_MODELS call, for X's own use */
#define PP_MODELS(X, p1, p2)                                                                   \
  X(HOST, host, 0, 0, 1, 0, 1, /* plain C + OpenMP threads: the reference */                   \
    "always built", p1, p2)                                                                    \
  X(OMP, omp, 1, 0, 1, 4, PP_HAVE_OMP, /* standard OpenMP target offload */                    \
    "not built: configure with clang >= 16 or gcc >= 12 and PP_OFFLOAD=nvidia|amd|cpu", p1, p2) \
  X(OMPX, ompx, 1, 0, 1, 3, PP_HAVE_OMPX, /* LLVM OpenMP kernel mode (ompx_bare, shuffles) */  \
    "not built: kernel mode needs clang >= 18 and a GPU offload target (PP_OFFLOAD=nvidia|amd)", \
    p1, p2)                                                                                    \
  X(CUDA, cuda, 1, 1, 0, 1, PP_HAVE_CUDA,                                                     \
    "not built: no CUDA compiler found (or PP_ENABLE_CUDA=OFF)", p1, p2)                      \
  X(HIP, hip, 1, 1, 0, 2, PP_HAVE_HIP,                                                        \
    "not built: no HIP compiler found (or PP_ENABLE_HIP=OFF)", p1, p2)

/* PP_IS_SET(flag): 1 when flag is a macro defined to 1, else 0. Unlike
 * #ifdef it can be generated from the list, and it works in #if too (the
 * Linux kernel's IS_ENABLED: only a defined flag pastes into the probe
 * that shifts the 1 into second place). */
#define PP_IS_SET(flag) PP_IS_SET_(flag)
#define PP_IS_SET_(flag) PP_IS_SET__(PP_IS_SET_PROBE_##flag)
#define PP_IS_SET__(probe) PP_SECOND_(probe 1, 0, ~)
#define PP_IS_SET_PROBE_1 ~,
#define PP_SECOND_(a, b, ...) b
/* PP_IF_SET(flag, then, otherwise): `then` if PP_IS_SET(flag), else `otherwise`
 * (the other is dropped, so it may name what this build lacks). */
#define PP_IF_SET(flag, then, otherwise) PP_IF_BIT_(PP_IS_SET(flag), then, otherwise)
#define PP_IF_BIT_(bit, then, otherwise) PP_IF_BIT__(bit, then, otherwise)
#define PP_IF_BIT__(bit, then, otherwise) PP_PICK_##bit(then, otherwise)
#define PP_PICK_1(then, otherwise) then
#define PP_PICK_0(then, otherwise) otherwise

#define PP_MODEL_ENUM_(E, ...) PP_##E,
typedef enum pp_model { PP_MODELS(PP_MODEL_ENUM_, ~, ~) PP_MODEL_COUNT } pp_model;

/* 1 when a native model is in this build (usable in #if). */
#define PP_NATIVE_TERM_(E, name, device, native, cc, yardstick, built, ...) \
  +(native && PP_IS_SET(built))
#define PP_ANY_NATIVE_BUILT (0 PP_MODELS(PP_NATIVE_TERM_, ~, ~) > 0)

/* Declares an app's getters of its per-model tables, `const type *prefix<name>(void)`
 * for every model (only the built models' kernel files define theirs), for
 * PP_MODEL_DISPATCH. A list of declarations: no semicolon after it. */
#define PP_DECLARE_MODEL_GETTERS(type, prefix) PP_MODELS(PP_DECLARE_GETTER_, type, prefix)
#define PP_DECLARE_GETTER_(E, name, device, native, cc, yardstick, built, absent, type, prefix) \
  const type *prefix##name(void);

/* A set of models as a bit mask: bit m is (1u << m). */
typedef unsigned pp_model_set;

const char *pp_model_name(pp_model m);
/* Returns the model named `name`, or -1. */
int pp_model_from_name(const char *name);
/* Models compiled into this build. */
pp_model_set pp_models_built(void);
/* Why a model is absent from this build (for --help and error messages); "built" if it is not. */
const char *pp_model_absent_reason(pp_model m);
/* True for the models that run on an accelerator (everything but host). */
int pp_model_is_device(pp_model m);
/* True for the GPU vendors' own models (cuda, hip), the others' yardstick. */
int pp_model_is_native(pp_model m);
/* True for the models the C (OpenMP) compiler builds: their labels carry the build tag. */
int pp_model_is_cc_built(pp_model m);
/* The native models (cuda, hip). */
pp_model_set pp_models_native(void);
/* The names of the models in `set`, in list order, joined by `sep`, into
 * buf ("cuda/hip"); returns buf. */
char *pp_model_set_names(pp_model_set set, const char *sep, char *buf, size_t len);
/* The models that can give the GPU copy ceiling, in the order to try them
 * (natives first); writes them to order[] and returns how many. */
int pp_model_yardstick_order(pp_model order[PP_MODEL_COUNT]);

PP_EXTERN_C_END
#endif
