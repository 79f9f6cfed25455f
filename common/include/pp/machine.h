/* The machine the process runs on: its memory and last-level cache, read
 * from the operating system. Every model and the session ask here, so no
 * model's runtime glue holds what belongs to the node. */
#ifndef PP_MACHINE_H
#define PP_MACHINE_H
#include <stddef.h>
#include "pp/portable.h"
PP_EXTERN_C_BEGIN

/* Host memory: physical, and available (MemAvailable; physical if unknown). */
size_t pp_host_physical_bytes(void);
size_t pp_host_available_bytes(void);
/* The host's last-level cache, all instances together (32 MiB when unknown). */
size_t pp_host_llc_bytes(void);

PP_EXTERN_C_END
#endif
