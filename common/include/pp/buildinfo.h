/* What built this binary: compilers and flags (CMake, at configure time) and
 * the source's git stamp (cmake/GitStamp.cmake, at build time). */
#ifndef PP_BUILDINFO_H
#define PP_BUILDINFO_H
#include "pp/portable.h"
PP_EXTERN_C_BEGIN
typedef struct pp_buildinfo {
  const char *version;
  const char *git_revision; /* 12-hex commit, "-dirty" when tracked files differ from it */
  const char *build_type;
  const char *c_compiler, *c_flags, *offload, *offload_flags;
  const char *cuda_compiler, *cuda_flags, *hip_compiler, *hip_flags, *mpi;
  const char *git_diff_hash; /* first 12 hex of `git diff HEAD | sha256sum`; "" when clean */
  /* The OpenMP compiler (the C compiler: it builds host, omp, ompx) and the flag set. */
  const char *tag;            /* PP_BUILD_TAG: "clang-19", "gcc-12", "clang-19+lto" */
  const char *omp_compiler_id, *omp_compiler_version, *omp_compiler_banner;
  const char *compiler_tag;   /* "clang-19" (tag without the flag set) */
  const char *omp_flag_set;   /* "none", "lto", ..., "custom" */
  const char *omp_extra_flags;
  const char *omp_forced_flags; /* per-file flags apps add whatever the set */
  const char *ompx_absent;    /* why this compiler cannot build ompx; "" if it can */
  int omp_simd;               /* 1: the omp loops carry `simd` (CMake PP_OMP_SIMD, pp/omp_loop.h) */
  const char *ompx_grid;      /* ompx's rows x lanes blocks: "multi" (thread_limit(x,y,1)), "flat"; "" without ompx */
  const char *const *models_absent; /* per model (pp_model order): why configure left it out; "" if built */
} pp_buildinfo;
const pp_buildinfo *pp_build_info(void);
/* 1 when the binary was built from a tree with uncommitted changes. */
int pp_build_dirty(void);
PP_EXTERN_C_END
#endif
