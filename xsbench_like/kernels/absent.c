/* Models in the build whose xsbench_like kernel file is not in the tree yet
 * (CMake defines XS_ABSENT_<MODEL>): no kernels, so the driver reports the
 * model as not run instead of failing to link. */
#include <stddef.h>
#include "xsbench_like.h"
#ifdef XS_ABSENT_OMP
const xs_kernels *xs_kernels_omp(void) { return NULL; }
#endif
#ifdef XS_ABSENT_OMPX
const xs_kernels *xs_kernels_ompx(void) { return NULL; }
#endif
#ifdef XS_ABSENT_CUDA
const xs_kernels *xs_kernels_cuda(void) { return NULL; }
#endif
#ifdef XS_ABSENT_HIP
const xs_kernels *xs_kernels_hip(void) { return NULL; }
#endif
typedef int xs_absent_nonempty_unit; /* ISO C: a translation unit declares something */
