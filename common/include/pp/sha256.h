/* SHA-256 (FIPS 180-4) of a byte string, as lowercase hex: the digest that
 * names a recorded file (the site file in the result, pp/system.h). */
#ifndef PP_SHA256_H
#define PP_SHA256_H
#include <stddef.h>
#include "pp/portable.h"
PP_EXTERN_C_BEGIN

/* hex: 65 bytes (64 digits and the NUL). */
void pp_sha256_hex(const void *data, size_t n, char hex[65]);

PP_EXTERN_C_END
#endif
