/* Planted faults, for the tests that prove each validation check can fail.
 * `--inject-fault NAME` (any app; a testing option, listed in --help) makes
 * pp_fault("NAME") true for the rest of the run. An app corrupts one result
 * just before its check when its fault is set (e.g. "spmv-zero": the SpMV
 * writes zeros), and the check must then print FAIL and the run exit 1.
 * A name the app does not declare (pp_app.faults) is refused at start-up
 * (exit 2), and a declared one that no pp_fault() call matched during the run
 * is refused at its end (exit 2), so a test cannot pass because of a
 * misspelled fault or a declaration that no check uses. */
#ifndef PP_FAULT_H
#define PP_FAULT_H
#include "pp/portable.h"
PP_EXTERN_C_BEGIN

/* 1 if NAME was given to --inject-fault (and marks it as known). */
int pp_fault(const char *name);
/* The fault asked for, or NULL. */
const char *pp_fault_requested(void);
/* Sets the fault (the CLI calls this). */
void pp_fault_set(const char *name);
/* 1 if NAME is one of `names` (NULL-terminated, or NULL: none): the faults
 * an app declares (pp_app.faults), checked when --inject-fault is parsed. */
int pp_fault_listed(const char *const *names, const char *name);
/* 1 if a fault was asked for but no pp_fault() call ever matched it. */
int pp_fault_unused(void);

PP_EXTERN_C_END
#endif
