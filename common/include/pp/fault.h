/* Planted faults, for the tests that prove each validation check can fail.
 * `--inject-fault NAME` (any app; a testing option, listed in --help) makes
 * pp_fault("NAME") true for the rest of the run. An app corrupts one result
 * just before its check when its fault is set (e.g. "spmv-zero": the SpMV
 * writes zeros), and the check must then print FAIL and the run exit 1.
 * A fault name no app knows is refused at the end of the run (exit 2), so a
 * test cannot pass because of a misspelled fault. */
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
/* 1 if a fault was asked for but no pp_fault() call ever matched it. */
int pp_fault_unused(void);

PP_EXTERN_C_END
#endif
