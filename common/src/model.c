#include <string.h>
#include "pp/buildinfo.h"
#include "pp/model.h"

static const char *const names[PP_MODEL_COUNT] = {"host", "omp", "ompx", "cuda", "hip"};

const char *pp_model_name(pp_model m) {
  return (m >= 0 && m < PP_MODEL_COUNT) ? names[m] : "?";
}

int pp_model_from_name(const char *name) {
  for (int m = 0; m < PP_MODEL_COUNT; m++)
    if (strcmp(name, names[m]) == 0) return m;
  return -1;
}

pp_model_set pp_models_built(void) {
  pp_model_set s = 1u << PP_HOST;
#ifdef PP_HAVE_OMP
  s |= 1u << PP_OMP;
#endif
#ifdef PP_HAVE_OMPX
  s |= 1u << PP_OMPX;
#endif
#ifdef PP_HAVE_CUDA
  s |= 1u << PP_CUDA;
#endif
#ifdef PP_HAVE_HIP
  s |= 1u << PP_HIP;
#endif
  return s;
}

const char *pp_model_absent_reason(pp_model m) {
  switch (m) {
  case PP_OMP: return "not built: configure with clang >= 16 or gcc >= 12 and PP_OFFLOAD=nvidia|amd|cpu";
  case PP_OMPX:
    if (pp_build_info()->ompx_absent[0]) return pp_build_info()->ompx_absent; /* the compiler lacks it */
    return "not built: kernel mode needs clang >= 18 and a GPU offload target (PP_OFFLOAD=nvidia|amd)";
  case PP_CUDA: return "not built: no CUDA compiler found (or PP_ENABLE_CUDA=OFF)";
  case PP_HIP: return "not built: no HIP compiler found (or PP_ENABLE_HIP=OFF)";
  default: return "built";
  }
}

int pp_model_is_device(pp_model m) { return m != PP_HOST; }
