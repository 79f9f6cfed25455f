/* The OpenMP offload device that omp and ompx kernels target
 * (set by the shared OpenMP runtime glue at init). */
#ifndef PP_OMP_DEVICE_H
#define PP_OMP_DEVICE_H
#include "pp/portable.h"
PP_EXTERN_C_BEGIN
extern int pp_omp_device;
PP_EXTERN_C_END
#endif
