/* Kernel times of a CUDA process through CUPTI's activity API, for the peers
 * step's device-time view. Loaded by the driver itself: with
 * CUDA_INJECTION64_PATH=<this library> every cuInit calls InitializeInjection
 * below, so kernels launched through the runtime (nvcc, Kokkos CUDA) and the
 * driver API (LLVM's libomptarget) are both seen. Every kernel record
 * (CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) is added up per name; at process exit
 * all buffers are flushed and the totals written to $PP_KERNEL_TIME_OUT
 * (format in kernel_table.h). Without that variable it does nothing.
 * The profiled process is never a timed one: CUPTI perturbs the host clock.
 * Built by validate/refs/build.sh, with libcupti.so.13 beside it (RUNPATH $ORIGIN). */
#include <cupti.h>
#include <stdio.h>
#include <stdlib.h>

#include "kernel_table.h"

#define BUF_BYTES (8u << 20)
#define BUF_ALIGN 8u

static const char *out_path;
static int written;

/* Records the first failure; `call` names the CUPTI function. */
static int failed(CUptiResult r, const char *call) {
  if (r == CUPTI_SUCCESS) return 0;
  const char *s = NULL;
  char text[200];
  cuptiGetResultString(r, &s);
  snprintf(text, sizeof text, "%s: %s (%d)", call, s ? s : "unknown", (int)r);
  kt_error(text);
  return 1;
}

static void CUPTIAPI buffer_requested(uint8_t **buf, size_t *size, size_t *max_records) {
  *buf = aligned_alloc(BUF_ALIGN, BUF_BYTES);
  *size = *buf ? BUF_BYTES : 0;
  *max_records = 0; /* as many as fit */
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buf, size_t size,
                                      size_t valid) {
  CUpti_Activity *rec = NULL;
  CUptiResult r;
  while ((r = cuptiActivityGetNextRecord(buf, valid, &rec)) == CUPTI_SUCCESS) {
    if (rec->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || rec->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
      const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)rec;
      kt_add(k->name, k->end > k->start ? k->end - k->start : 0);
    }
  }
  if (r != CUPTI_ERROR_MAX_LIMIT_REACHED) failed(r, "cuptiActivityGetNextRecord");
  size_t lost = 0;
  if (cuptiActivityGetNumDroppedRecords(ctx, stream, &lost) == CUPTI_SUCCESS && lost) kt_dropped(lost);
  (void)size;
  free(buf);
}

/* A context about to go: its kernels' records delivered while it still exists. */
static void CUPTIAPI on_resource(void *user, CUpti_CallbackDomain domain, CUpti_CallbackId id,
                                 const void *data) {
  (void)user, (void)data;
  if (domain == CUPTI_CB_DOMAIN_RESOURCE && id == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING)
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
}

static void at_exit(void) {
  if (written) return;
  written = 1;
  failed(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), "cuptiActivityFlushAll");
  if (kt_write(out_path) != 0) perror("pp-kernel-time: writing $PP_KERNEL_TIME_OUT");
}

/* Called by the driver (once, from cuInit) when CUDA_INJECTION64_PATH names this library. */
__attribute__((visibility("default"))) int InitializeInjection(void) {
  static int done;
  if (done) return 1;
  done = 1;
  out_path = getenv("PP_KERNEL_TIME_OUT");
  if (!out_path || !*out_path) return 1;
  /* a second CUPTI client (a profiler) refuses the subscription: only the flush at context
   * destruction is then lost, the exit flush still runs */
  CUpti_SubscriberHandle sub;
  if (cuptiSubscribe(&sub, (CUpti_CallbackFunc)on_resource, NULL) == CUPTI_SUCCESS)
    cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING);
  if (!failed(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed),
              "cuptiActivityRegisterCallbacks"))
    failed(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), "cuptiActivityEnable");
  atexit(at_exit);
  return 1;
}
