/* The OpenMP environment a run inherits, checked before the runtime starts.
 * The OpenMP runtimes read OMP_NUM_THREADS and OMP_STACKSIZE when they start
 * (at the first OpenMP call) and, on some values, abort the process after
 * the run has begun (libomp: SIGABRT) or ignore them with a warning
 * (libgomp); with offloading, libomptarget starts libomp as it is loaded,
 * before main. So the program checks them before any library initializer
 * (ELF .preinit_array, omp_env.c) and pp_cli_parse again before any option
 * (where there is no such array): a bad value is refused at once with exit 2
 * and one line "<app>: <problem> (see --help)". */
#ifndef PP_OMP_ENV_H
#define PP_OMP_ENV_H
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

/* NULL if the inherited OMP_NUM_THREADS and OMP_STACKSIZE are fine (unset,
 * or valid and within the bounds above); otherwise the problem (static
 * storage). The accepted forms are the OpenMP specification's:
 * OMP_NUM_THREADS a comma-separated list of positive integers,
 * OMP_STACKSIZE a positive integer with an optional unit B, K, M or G
 * (default K; libomp's T too), blanks allowed around each. Malformed values, which the
 * runtimes ignore with a warning (libomp hung or aborted on some: "-1",
 * "abc", ""), are refused too: the run would not be the one asked for. */
const char *pp_omp_env_check(void);

PP_EXTERN_C_END
#endif
