/* Files of the kernel's trees (sysfs, procfs) and of the trees that the
 * environment names in their place (PP_POWERCAP_ROOT, PP_CPUFREQ_ROOT,
 * PBS_NODEFILE, PP_SITE_FILE): opened only if they are regular files, and
 * without blocking, so that a FIFO, a device or a directory planted there is
 * refused at once instead of hanging the run. */
#ifndef PP_SYSFILE_H
#define PP_SYSFILE_H
#include <stdio.h>
#include "pp/portable.h"
PP_EXTERN_C_BEGIN

/* fopen(path, "r") for a regular file; NULL with errno set otherwise
 * (EINVAL: not a regular file). */
FILE *pp_sysfile_open(const char *path);
/* strerror(err), or "not a regular file" for pp_sysfile_open's EINVAL. */
const char *pp_sysfile_error(int err);

PP_EXTERN_C_END
#endif
