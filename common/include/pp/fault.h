/* Planted faults, for the tests that prove each validation check can fail.
 * `--inject-fault NAME` (any app; a testing option, listed in --help) plants
 * one fault for the run. An app corrupts one result just before its check
 * (e.g. "spmv-zero": the SpMV writes zeros), and the check must then print
 * FAIL and the run exit 1.
 * Asking is not firing: pp_fault() only says whether NAME was asked for;
 * the code that changes a result calls pp_fault_fire() as it does. A name
 * the app does not declare (pp_app.faults) is refused at start-up (exit 2);
 * a fault that changed no result in the run (its code did not run with these
 * options) ends the run with exit 2, and one that changed a result that no
 * check then failed ends it with exit 1: a planted fault never exits 0. */
#ifndef PP_FAULT_H
#define PP_FAULT_H
#include "pp/portable.h"
PP_EXTERN_C_BEGIN

/* 1 if NAME was given to --inject-fault. */
int pp_fault(const char *name);
/* Call where the planted change is made: 1 (and the fault counts as fired)
 * if NAME was asked for, else 0. `if (n > 0 && pp_fault_fire("x")) x[0] += 1;` */
int pp_fault_fire(const char *name);
/* The fault asked for, or NULL. */
const char *pp_fault_requested(void);
/* Sets the fault (the CLI calls this). */
void pp_fault_set(const char *name);
/* 1 if NAME is one of `names` (NULL-terminated, or NULL: none): the faults
 * an app declares (pp_app.faults), checked when --inject-fault is parsed. */
int pp_fault_listed(const char *const *names, const char *name);
/* 1 if the fault asked for changed a result on this rank (pp_fault_fire). */
int pp_fault_fired(void);

PP_EXTERN_C_END
#endif
