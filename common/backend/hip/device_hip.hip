/* The hip model's runtime glue: the CUDA-dialect source built as HIP. */
#define PP_NATIVE_HIP 1
#include "../cuda/device_cuda.cu"
