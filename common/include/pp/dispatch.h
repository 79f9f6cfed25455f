/* One model -> kernel-table switch for every app. An app declares one
 * function per model, `const T *PREFIX##host(void)`, ..., `PREFIX##hip(void)`
 * (only the built models' files define them), and asks
 *   const T *k = PP_MODEL_DISPATCH(m, PREFIX);
 * which yields NULL for a model that is not in this build. */
#ifndef PP_DISPATCH_H
#define PP_DISPATCH_H
#include <stddef.h>
#include "pp/model.h"

#ifdef PP_HAVE_OMP
#define PP_IF_OMP_(call) call
#else
#define PP_IF_OMP_(call) NULL
#endif
#ifdef PP_HAVE_OMPX
#define PP_IF_OMPX_(call) call
#else
#define PP_IF_OMPX_(call) NULL
#endif
#ifdef PP_HAVE_CUDA
#define PP_IF_CUDA_(call) call
#else
#define PP_IF_CUDA_(call) NULL
#endif
#ifdef PP_HAVE_HIP
#define PP_IF_HIP_(call) call
#else
#define PP_IF_HIP_(call) NULL
#endif

#define PP_MODEL_DISPATCH(m, prefix)                                            \
  ((m) == PP_HOST   ? prefix##host()                                            \
   : (m) == PP_OMP  ? PP_IF_OMP_(prefix##omp())                                 \
   : (m) == PP_OMPX ? PP_IF_OMPX_(prefix##ompx())                               \
   : (m) == PP_CUDA ? PP_IF_CUDA_(prefix##cuda())                               \
   : (m) == PP_HIP  ? PP_IF_HIP_(prefix##hip())                                 \
                    : NULL)

#endif
