/* Models in the build whose testsnap kernel file is not in the tree yet
 * (CMake defines TS_ABSENT_<MODEL>): no kernels, so the driver reports the
 * model as not run instead of failing to link. */
#include <stddef.h>
#include "testsnap.h"
#ifdef TS_ABSENT_OMP
const snap_kernels *snap_kernels_omp(void) { return NULL; }
#endif
#ifdef TS_ABSENT_OMPX
const snap_kernels *snap_kernels_ompx(void) { return NULL; }
#endif
#ifdef TS_ABSENT_CUDA
const snap_kernels *snap_kernels_cuda(void) { return NULL; }
#endif
#ifdef TS_ABSENT_HIP
const snap_kernels *snap_kernels_hip(void) { return NULL; }
#endif
typedef int ts_absent_nonempty_unit; /* ISO C: a translation unit declares something */
