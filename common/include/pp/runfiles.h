/* The run's files, in one registry: every input read through pp/input.h and
 * every output the session checked (--json, --csv, testsnap's --dump per
 * model, cgsolve's --history). An output never replaces one of the run's
 * inputs nor another output of the same run (outputs are written by rename:
 * the input or the other result would be lost without a word). Whichever of
 * the two is registered second is refused, so the check holds whatever order
 * an app reads its inputs and checks its outputs. Files are compared by
 * device and inode (an existing file, through symlinks and hard links), a new
 * output path by its directory's device and inode and its name. */
#ifndef PP_RUNFILES_H
#define PP_RUNFILES_H
#include <sys/stat.h>
#include "pp/portable.h"
PP_EXTERN_C_BEGIN

/* Records the input `path` (`what`: "input deck", "data file"), opened
 * with status `st`. NULL, or a message (malloc'ed) when it is an output. */
char *pp_runfiles_input(const char *what, const char *path, const struct stat *st);
/* Records the output `path` of option `opt` ("--json"). NULL, or a message
 * (malloc'ed) when it is an input or another output of the run. */
char *pp_runfiles_output(const char *opt, const char *path);

PP_EXTERN_C_END
#endif
