/* spmv, hip model: the native CUDA-dialect kernels built by hipcc. */
#define PP_NATIVE_HIP 1
#include "cuda.cu"
