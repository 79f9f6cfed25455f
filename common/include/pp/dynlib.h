/* A library the build does not link, opened at run time (dlopen) and its
 * entry points resolved into the caller's table of function pointers, with
 * the reason in words when it cannot be used. So a build runs where the
 * library is absent and says why: the NVML and AMD SMI meters, the CUDA
 * driver (--gpu-wait and identity without the cuda model), HIP's runtime
 * (identity without the hip model) and cgsolve's CUDA and HIP IPC halo.
 *
 *   static struct { int (*init)(unsigned); int (*count)(int *); } cu;
 *   static const pp_dynsym cu_syms[] = {{.name = "cuInit", .at = &cu.init},
 *                                       {.name = "cuDeviceGetCount", .at = &cu.count},
 *                                       {.name = NULL}};
 *   static pp_dynlib cuda = {.names = {"libcuda.so.1"}, .syms = cu_syms};
 *   if (pp_dynlib_load(&cuda) != 0) puts(cuda.why);
 */
#ifndef PP_DYNLIB_H
#define PP_DYNLIB_H
#include "pp/portable.h"
PP_EXTERN_C_BEGIN

/* One entry point of the table. */
typedef struct pp_dynsym {
  const char *name; /* NULL ends the table */
  const char *alt;  /* NULL, or the name tried when `name` is missing (another release's) */
  void *at;         /* the caller's function pointer that receives its address */
  int optional;     /* 1: the library is usable without it (the pointer stays NULL) */
} pp_dynsym;

#define PP_DYNLIB_NAMES 4

typedef struct pp_dynlib {
  /* Set by the caller. */
  const char *env;                        /* NULL, or a variable naming the library's path instead (tests) */
  const char *names[PP_DYNLIB_NAMES];     /* tried in order; unused slots NULL */
  int global;                             /* RTLD_GLOBAL (the CUDA driver, which runtimes share), else local */
  const pp_dynsym *syms;
  /* Set by pp_dynlib_load. */
  int tried;
  void *handle;  /* NULL: not available */
  char why[224]; /* "not available: cannot load <lib> (<error>)" or "not available: <lib>: <symbol> missing" */
} pp_dynlib;

/* Opens the library and fills every pointer of its table, once (later calls
 * return the first answer): 0 when it opened and every entry point that is
 * not optional is there; else -1, lib->why says why and the pointers may be
 * partly filled. Not thread-safe: call it before starting threads that use it. */
int pp_dynlib_load(pp_dynlib *lib);

PP_EXTERN_C_END
#endif
