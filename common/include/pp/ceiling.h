/* The measured streaming ceiling: a large device-to-device copy, counting
 * bytes read plus bytes written. Apps report "fraction of copy bandwidth"
 * against it. */
#ifndef PP_CEILING_H
#define PP_CEILING_H
#include "pp/device.h"
PP_EXTERN_C_BEGIN

/* Median GB/s of `samples` copies of a buffer of `bytes` (after 2 warm-up copies). */
double pp_measure_copy_gbs(const pp_device_ops *ops, size_t bytes, int samples);

PP_EXTERN_C_END
#endif
