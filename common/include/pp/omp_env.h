/* The OpenMP environment a run inherits, checked before the runtime starts.
 * The OpenMP runtimes read their variables (OMP_*, libomp's KMP_* and GOMP_*,
 * libomptarget's LIBOMPTARGET_*) when they start (at the first OpenMP call;
 * with offloading, libomptarget starts libomp as it is loaded, before main)
 * and, on some values, abort the process after the run has begun (libomp:
 * SIGABRT, an assertion or "OMP: Error"), hang, or ignore them with a warning
 * (libgomp). So the program checks them before any library initializer (ELF
 * .preinit_array, omp_env.c) and pp_cli_parse again before any option (where
 * there is no such array): a bad value is refused at once with exit 2 and one
 * line "<app>: VAR='value' <why> (see --help)". omp_env.c holds the one table
 * of the variables checked, each with what the runtime did on its bad values;
 * values the runtime only warns about and ignores are let through (the run's
 * system record keeps the environment), except where noted there. */
#ifndef PP_OMP_ENV_H
#define PP_OMP_ENV_H
#include <stddef.h>
#include "pp/portable.h"
PP_EXTERN_C_BEGIN

/* The most OpenMP threads of one team a run may ask for (OMP_NUM_THREADS,
 * an app's --threads). libomp aborts, without a fallback, when the system
 * cannot create the threads: measured with clang 19's libomp on a 2-core,
 * 24 GiB node, 16384 threads ran and 32768 aborted ("System unable to
 * allocate necessary resources for OMP thread"); where that happens depends
 * on memory and on `ulimit -u`. 4096 is well below it and above the hardware
 * threads of any node, so no meaningful run is refused. */
#define PP_MAX_OMP_THREADS 4096
/* The largest OMP_STACKSIZE accepted, per thread: each thread reserves it;
 * libomp aborted at 64G (and 1T) on that node, libgomp stopped with "Thread
 * creation failed" at 64G; 16G still ran. No app keeps more than a few KiB
 * on a thread's stack, so 1 GiB refuses nothing useful. */
#define PP_MAX_OMP_STACK_BYTES (1ull << 30)

/* NULL if the inherited OpenMP environment is fine (every variable of the
 * table unset, or valid and within the bounds above); otherwise the problem
 * (static storage). OMP_NUM_THREADS and OMP_STACKSIZE take the OpenMP
 * specification's forms (a comma-separated list of positive integers; a
 * positive integer with an optional unit B, K, M or G, default K, libomp's T
 * too, blanks allowed around each): malformed values, which the runtimes
 * ignore with a warning (libomp hung or aborted on some: "-1", "abc", ""),
 * are refused too: the run would not be the one asked for. */
const char *pp_omp_env_check(void);

/* The names of the variables checked, ", "-separated in lines of at most 88
 * characters, each indented by two, into buf (for --help). */
const char *pp_omp_env_names(char *buf, size_t cap);

PP_EXTERN_C_END
#endif
