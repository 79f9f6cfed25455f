/* spmv, vendor reference backend for HIP: kernels/cusparse.cu with hipSPARSE. */
#define PP_NATIVE_HIP 1
#include "cusparse.cu"
