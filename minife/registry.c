/* The SpMV kernel table of each built model (one dispatch, pp/dispatch.h). */
#include "minife.h"
#include "pp/dispatch.h"

const spmv_kernels *spmv_kernels_for(pp_model m) { return PP_MODEL_DISPATCH(m, spmv_kernels_); }
