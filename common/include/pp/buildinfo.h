/* What built this binary (filled in by CMake at configure time). */
#ifndef PP_BUILDINFO_H
#define PP_BUILDINFO_H
#include "pp/portable.h"
PP_EXTERN_C_BEGIN
typedef struct pp_buildinfo {
  const char *version, *git_revision, *build_type;
  const char *c_compiler, *c_flags, *offload, *offload_flags;
  const char *cuda_compiler, *cuda_flags, *hip_compiler, *hip_flags, *mpi;
} pp_buildinfo;
const pp_buildinfo *pp_build_info(void);
PP_EXTERN_C_END
#endif
