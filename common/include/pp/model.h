/* The programming models ProxyPort compares, and which of them this build has. */
#ifndef PP_MODEL_H
#define PP_MODEL_H
#include "pp/portable.h"
PP_EXTERN_C_BEGIN

typedef enum pp_model {
  PP_HOST = 0, /* plain C + OpenMP threads: the reference */
  PP_OMP,      /* standard OpenMP target offload */
  PP_OMPX,     /* LLVM OpenMP kernel mode (ompx_bare, shuffles, team memory) */
  PP_CUDA,
  PP_HIP,
  PP_MODEL_COUNT
} pp_model;

/* A set of models as a bit mask: bit m is (1u << m). */
typedef unsigned pp_model_set;

const char *pp_model_name(pp_model m);
/* Returns the model named `name`, or -1. */
int pp_model_from_name(const char *name);
/* Models compiled into this build. */
pp_model_set pp_models_built(void);
/* Why a model is absent from this build (for --help and error messages). */
const char *pp_model_absent_reason(pp_model m);
/* True for the models that run on an accelerator (everything but host). */
int pp_model_is_device(pp_model m);

PP_EXTERN_C_END
#endif
