/* Host wall clock. */
#ifndef PP_TIMER_H
#define PP_TIMER_H
#include "pp/portable.h"
PP_EXTERN_C_BEGIN
double pp_wtime(void); /* seconds, monotonic */
PP_EXTERN_C_END
#endif
