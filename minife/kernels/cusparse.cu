/* spmv, vendor reference backend: cuSPARSE's generic SpMV (CSR, ALG1) on the
 * same device arrays as our kernels; hipsparse.hip builds this file for HIP
 * with hipSPARSE. Not a model: the driver reports it as kernel
 * "spmv_<library>" of the native model, the bar our kernels are held to.
 *
 * Index types: our CSR has int64 row offsets and int32 columns. cuSPARSE's
 * CSR takes one index type for both (asked for the mixed pair, it refuses and
 * prints "On entry to cusparseCreateCsr()..." on stdout), so under CUDA the
 * row offsets are converted to int32 on the device when nnz < 2^31 (the
 * library then reads 4 bytes less per row than our kernels: 0.7% of the
 * papers' bytes at N = 150), else the columns to int64; describe() says which in the
 * report. hipSPARSE (rocSPARSE) accepts the mixed pair: it gets our arrays as
 * they are, with the same conversion as a fallback if it refuses. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "pp/gpu_native.h"
#include "minife.h"

#ifdef PP_NATIVE_HIP
#include <hipsparse/hipsparse.h>
#define LIB "hipSPARSE"
#define VENDOR spmv_vendor_hipsparse
#define VENDOR_ROW "spmv_hipsparse"
#define sp(name) hipsparse##name
#define SP(name) HIPSPARSE_##name
#define SP_R_64F HIP_R_64F
#define sp_status hipsparseStatus_t
#define sp_handle hipsparseHandle_t
#define sp_mat hipsparseSpMatDescr_t
#define sp_vec hipsparseDnVecDescr_t
#define sp_error(s) hip_status_text(s)
static const char *hip_status_text(hipsparseStatus_t s) {
  static char buf[40];
  snprintf(buf, sizeof buf, "hipSPARSE status %d", (int)s);
  return buf;
}
#define HAVE_PREPROCESS 1
#define TRY_MIXED 1 /* rocSPARSE takes int64 offsets with int32 columns */
#else
#include <cusparse.h>
#define LIB "cuSPARSE"
#define VENDOR spmv_vendor_cusparse
#define VENDOR_ROW "spmv_cusparse"
#define sp(name) cusparse##name
#define SP(name) CUSPARSE_##name
#define SP_R_64F CUDA_R_64F
#define sp_status cusparseStatus_t
#define sp_handle cusparseHandle_t
#define sp_mat cusparseSpMatDescr_t
#define sp_vec cusparseDnVecDescr_t
#define sp_error(s) cusparseGetErrorString(s)
#define HAVE_PREPROCESS (CUSPARSE_VERSION >= 12400)
#define TRY_MIXED 0 /* cuSPARSE does not (and says so on stdout) */
#endif

/* Library calls must succeed; a failure is a device error (exit 3). */
#define SP_CHECK(call)                                                                  \
  do {                                                                                  \
    sp_status s_ = (call);                                                              \
    if (s_ != SP(STATUS_SUCCESS)) pp_device_fail(PP_NATIVE_MODEL, #call, sp_error(s_)); \
  } while (0)

typedef struct plan {
  sp_handle h;
  sp_mat A;
  sp_vec X, Y;
  void *buf;
  size_t buf_bytes;
  int64_t nrows, ncols, nnz;
  int mixed;         /* the library holds our int64/int32 arrays as they are */
  int32_t *rowptr32; /* converted copies (device), or NULL */
  int64_t *col64;
  int ready;         /* the first SpMV (a warm-up) went through */
  char note[240];
} plan;

__global__ void k_narrow(int32_t *dst, const int64_t *src, int64_t n) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x)
    dst[i] = (int32_t)src[i];
}
__global__ void k_widen(int64_t *dst, const int32_t *src, int64_t n) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x)
    dst[i] = src[i];
}

/* Creates the matrix with the given arrays and index types and sizes the
 * SpMV buffer; returns the first failing status (SUCCESS if none). The vector
 * descriptors point at `val` only for sizing: nothing is read before spmv
 * sets the real x and y. */
static sp_status try_format(plan *p, void *rowptr, void *col, double *val, int rowtype,
                            int coltype) {
  const double one = 1.0, zero = 0.0;
  sp_status s = sp(CreateCsr)(&p->A, p->nrows, p->ncols, p->nnz, rowptr, col, val,
                              (sp(IndexType_t))rowtype, (sp(IndexType_t))coltype,
                              SP(INDEX_BASE_ZERO), SP_R_64F);
  if (s != SP(STATUS_SUCCESS)) return s;
  SP_CHECK(sp(CreateDnVec)(&p->X, p->ncols, val, SP_R_64F));
  SP_CHECK(sp(CreateDnVec)(&p->Y, p->nrows, val, SP_R_64F));
  size_t bytes = 0;
  s = sp(SpMV_bufferSize)(p->h, SP(OPERATION_NON_TRANSPOSE), &one, p->A, p->X, &zero, p->Y,
                          SP_R_64F, SP(SPMV_CSR_ALG1), &bytes);
  if (s != SP(STATUS_SUCCESS)) {
    sp(DestroySpMat)(p->A), sp(DestroyDnVec)(p->X), sp(DestroyDnVec)(p->Y);
    return s;
  }
  if (bytes > p->buf_bytes) {
    if (p->buf) PP_GPU_CHECK(gpuFree(p->buf));
    PP_GPU_CHECK(gpuMalloc(&p->buf, bytes));
    p->buf_bytes = bytes;
  }
  return s;
}

/* Gives the library one index type for offsets and columns; `why` says
 * why, for the report. */
static void convert(plan *p, const int64_t *rowptr, const int32_t *col, const double *val,
                    const char *why) {
  if (p->mixed) sp(DestroySpMat)(p->A), sp(DestroyDnVec)(p->X), sp(DestroyDnVec)(p->Y);
  p->mixed = 0;
  double *v = (double *)val;
  if (p->nnz < INT32_MAX) {
    PP_GPU_CHECK(gpuMalloc((void **)&p->rowptr32, (size_t)(p->nrows + 1) * sizeof(int32_t)));
    k_narrow<<<1024, 256>>>(p->rowptr32, rowptr, p->nrows + 1);
    PP_GPU_CHECK_LAUNCH("narrow");
    SP_CHECK(try_format(p, p->rowptr32, (void *)col, v, SP(INDEX_32I), SP(INDEX_32I)));
    snprintf(p->note, sizeof p->note, "%s CSR SpMV ALG1; %s: row offsets converted to int32 (+%.1f MB)",
             LIB, why, (p->nrows + 1) * 4 / 1e6);
  } else {
    PP_GPU_CHECK(gpuMalloc((void **)&p->col64, (size_t)p->nnz * sizeof(int64_t)));
    k_widen<<<1024, 256>>>(p->col64, col, p->nnz);
    PP_GPU_CHECK_LAUNCH("widen");
    SP_CHECK(try_format(p, (void *)rowptr, p->col64, v, SP(INDEX_64I), SP(INDEX_64I)));
    snprintf(p->note, sizeof p->note, "%s CSR SpMV ALG1; %s: columns converted to int64 (+%.1f MB)",
             LIB, why, p->nnz * 8 / 1e6);
  }
  PP_GPU_CHECK(gpuDeviceSynchronize());
}

/* The library refused the mixed pair (status s, at `where`). */
static void refused(plan *p, const int64_t *rowptr, const int32_t *col, const double *val,
                    sp_status s, const char *where) {
  char why[160];
  snprintf(why, sizeof why, "%s refused int64 offsets + int32 columns (%s)", where, sp_error(s));
  convert(p, rowptr, col, val, why);
}

static void *prepare(int64_t nrows, int64_t ncols, int64_t nnz, const int64_t *rowptr,
                     const int32_t *col, const double *val, const spmv_params *params) {
  (void)params;
  plan *p = (plan *)calloc(1, sizeof *p);
  p->nrows = nrows, p->ncols = ncols, p->nnz = nnz;
  SP_CHECK(sp(Create)(&p->h));
  if (!TRY_MIXED) {
    convert(p, rowptr, col, val, "its CSR takes one index type");
    return p;
  }
  sp_status s = try_format(p, (void *)rowptr, (void *)col, (double *)val, SP(INDEX_64I), SP(INDEX_32I));
  if (s == SP(STATUS_SUCCESS)) {
    p->mixed = 1;
    snprintf(p->note, sizeof p->note, "%s CSR SpMV ALG1 on int64 row offsets + int32 columns as they are", LIB);
  } else {
    refused(p, rowptr, col, val, s, "matrix creation");
  }
  return p;
}

static sp_status call(plan *p) {
  const double one = 1.0, zero = 0.0;
  sp_status s = SP(STATUS_SUCCESS);
#if HAVE_PREPROCESS
  /* Once, on the first (untimed warm-up) call: the library's analysis of the
   * matrix, as an application calling SpMV repeatedly would do. */
  if (!p->ready)
    s = sp(SpMV_preprocess)(p->h, SP(OPERATION_NON_TRANSPOSE), &one, p->A, p->X, &zero, p->Y,
                            SP_R_64F, SP(SPMV_CSR_ALG1), p->buf);
#endif
  if (s == SP(STATUS_SUCCESS))
    s = sp(SpMV)(p->h, SP(OPERATION_NON_TRANSPOSE), &one, p->A, p->X, &zero, p->Y, SP_R_64F,
                 SP(SPMV_CSR_ALG1), p->buf);
  return s;
}

static void spmv(void *vplan, int64_t nrows, const int64_t *rowptr, const int32_t *col,
                 const double *val, const double *x, double *y) {
  (void)nrows; /* the matrix is bound to the descriptor by prepare */
  plan *p = (plan *)vplan;
  SP_CHECK(sp(DnVecSetValues)(p->X, (void *)x));
  SP_CHECK(sp(DnVecSetValues)(p->Y, y));
  sp_status s = call(p);
  if (s != SP(STATUS_SUCCESS) && !p->ready && p->mixed) {
    /* accepted at creation, refused when run: convert and go again */
    refused(p, rowptr, col, val, s, "SpMV");
    SP_CHECK(sp(DnVecSetValues)(p->X, (void *)x));
    SP_CHECK(sp(DnVecSetValues)(p->Y, y));
    s = call(p);
  }
  if (s != SP(STATUS_SUCCESS)) pp_device_fail(PP_NATIVE_MODEL, LIB " SpMV", sp_error(s));
  p->ready = 1;
}

static void release(void *vplan) {
  plan *p = (plan *)vplan;
  if (!p) return;
  sp(DestroySpMat)(p->A), sp(DestroyDnVec)(p->X), sp(DestroyDnVec)(p->Y);
  sp(Destroy)(p->h);
  if (p->buf) gpuFree(p->buf);
  if (p->rowptr32) gpuFree(p->rowptr32);
  if (p->col64) gpuFree(p->col64);
  free(p);
}

static const char *describe(const void *vplan) {
  return vplan ? ((const plan *)vplan)->note : LIB;
}

extern "C" const spmv_vendor *VENDOR(void) {
  static const spmv_kernels table = {.prepare = prepare, .spmv = spmv, .release = release, .vendor = NULL};
  static const spmv_vendor v = {VENDOR_ROW, &table, describe};
  return &v;
}
