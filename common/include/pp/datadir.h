/* Where an app finds the suite's shipped inputs (inputs/ of the source tree,
 * share/proxyport/inputs of an install): never a path compiled in, so a
 * relocated install or a copied binary still finds them. */
#ifndef PP_DATADIR_H
#define PP_DATADIR_H
#include <stddef.h>
#include "pp/portable.h"
PP_EXTERN_C_BEGIN

/* The inputs folder, in this order: `given` (an app's option, NULL if not
 * given), the environment variable PP_INPUTS, then <folder of the
 * executable>/../share/proxyport/inputs (an install, and the build tree,
 * which links it there). Writes it into buf and returns buf, or NULL with
 * buf holding the places tried (for the message) when none is a folder. */
const char *pp_inputs_dir(const char *given, char *buf, size_t len);

PP_EXTERN_C_END
#endif
