/* Buffers for an app's setup and verify: host memory that is there or a
 * clean exit, device arrays filled or poisoned without a host copy of
 * their size. */
#ifndef PP_BUFFERS_H
#define PP_BUFFERS_H
#include <stddef.h>
#include "pp/device.h"
PP_EXTERN_C_BEGIN

/* Host memory, or one line "<app>: cannot allocate N MiB of host memory for
 * <what>" and exit 3. Callers check sizes against memory up front (exit 2),
 * so this is the runtime failure. */
void *pp_host_alloc(const char *app, size_t bytes, const char *what);
/* Sets `count` elements of `elem` bytes at device pointer d to *value,
 * through a bounded host buffer (no n-sized host copy). */
void pp_device_fill(const pp_device_ops *ops, void *d, const void *value, size_t elem,
                    size_t count);
/* Fills n device doubles/floats with NaN, which no correct kernel writes. */
void pp_device_poison_d(const pp_device_ops *ops, double *d, size_t n);
void pp_device_poison_f(const pp_device_ops *ops, float *d, size_t n);

PP_EXTERN_C_END
#endif
