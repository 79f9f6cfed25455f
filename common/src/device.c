/* The model-neutral device interface (pp/device.h): each built backend's ops
 * table, the stubs of the native-driver calls for builds without one, and
 * the one way a device failure ends a run. */
#include <stdio.h>
#include "pp/device.h"
#include "pp/dispatch.h"
#include "pp/mpi.h"

/* Each backend's ops table (only the built backends define theirs). */
PP_DECLARE_MODEL_GETTERS(pp_device_ops, pp_device_ops_)

/* The native models' runtime glue, or the CUDA driver's, defines these. */
#if !PP_ANY_NATIVE_BUILT && !defined(PP_CUDA_DRIVER_WAIT)
int pp_native_set_wait(int index, int mode) {
  (void)index, (void)mode;
  return -1;
}
int pp_native_mem_info(int index, size_t *free_bytes, size_t *total_bytes) {
  (void)index, (void)free_bytes, (void)total_bytes;
  return -1;
}
#endif
#if !PP_ANY_NATIVE_BUILT && !defined(PP_CUDA_DRIVER_WAIT) && !defined(PP_HIP_DRIVER_ID)
int pp_native_identity(int index, pp_device_info *info) {
  (void)index, (void)info;
  return -1;
}
#endif

const pp_device_ops *pp_device_ops_for(pp_model m) {
  return PP_MODEL_DISPATCH(m, pp_device_ops_);
}

void *pp_device_upload(const pp_device_ops *ops, const void *src, size_t bytes) {
  void *d = ops->alloc(bytes);
  ops->to_device(d, src, bytes);
  return d;
}

void pp_device_fail(pp_model m, const char *what, const char *detail) {
  fprintf(stderr, "%s: %s: %s\n", pp_model_name(m), what, detail);
  fflush(stderr);
  pp_mpi_exit(3);
}
