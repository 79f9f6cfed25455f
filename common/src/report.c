/* The report as a container (pp/report.h): rows, problem, devices,
 * skipped models. Finishing and writing it is report_finish.c's. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "pp/buildinfo.h"
#include "pp/report.h"

pp_report *pp_report_new(const char *app, const pp_options *opt) {
  pp_report *r = calloc(1, sizeof *r);
  snprintf(r->app, sizeof r->app, "%s", app);
  r->opt = opt;
  time_t now = time(NULL);
  strftime(r->started, sizeof r->started, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
  for (int m = 0; m < PP_MODEL_COUNT; m++) r->copy_gbs[m] = NAN;
  return r;
}

void pp_report_free(pp_report *r) {
  if (!r) return;
  for (int i = 0; i < r->nrows; i++) free(r->rows[i].samples);
  free(r->rows);
  free(r->systems);
  free(r);
}

void pp_report_param(pp_report *r, const char *key, const char *fmt, ...) {
  pp_report_param_kv *p = NULL;
  for (int i = 0; i < r->nparams; i++)
    if (!strcmp(r->params[i].key, key)) p = &r->params[i];
  if (!p) {
    if (r->nparams == (int)(sizeof r->params / sizeof r->params[0])) return;
    p = &r->params[r->nparams++];
  }
  snprintf(p->key, sizeof p->key, "%s", key);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(p->val, sizeof p->val, fmt, ap);
  va_end(ap);
}

void pp_report_device(pp_report *r, pp_model m, const pp_device_info *info, double copy_gbs) {
  r->have_device[m] = 1;
  r->device[m] = *info;
  r->copy_gbs[m] = copy_gbs;
}

void pp_report_ceiling_min_bytes(pp_report *r, pp_model m, double bytes) {
  r->ceiling_min_bytes[m] = bytes;
}

void pp_report_skip(pp_report *r, pp_model m, const char *why) {
  snprintf(r->skipped[m], sizeof r->skipped[m], "%s", why);
}

pp_row *pp_report_add(pp_report *r, pp_row *row) {
  if (r->nrows == r->cap) {
    r->cap = r->cap ? 2 * r->cap : 64;
    r->rows = realloc(r->rows, sizeof *r->rows * (size_t)r->cap);
    if (!r->rows) pp_device_fail(PP_HOST, "alloc", "out of host memory for the report");
  }
  pp_row *dst = &r->rows[r->nrows++];
  *dst = *row;
  row->samples = NULL; /* the report owns them now */
  row->nsamples = 0;
  if (isnan(dst->frac_ceiling) && !strcmp(dst->fom_unit, "GB/s") && isfinite(r->copy_gbs[dst->model]))
    dst->frac_ceiling = dst->fom / (r->copy_gbs[dst->model] * dst->ranks);
  /* A cache-resident working set is not bounded by a DRAM ceiling. */
  if (dst->bytes < r->ceiling_min_bytes[dst->model] * dst->ranks) dst->frac_ceiling = NAN;
  if (!isfinite(r->copy_gbs[dst->model])) dst->frac_ceiling = NAN;
  return dst;
}

pp_row *pp_report_row(pp_report *r, int i) { return &r->rows[i]; }
int pp_report_rows(const pp_report *r) { return r->nrows; }

int pp_report_failures(const pp_report *r) {
  int bad = 0;
  for (int i = 0; i < r->nrows; i++) bad += !r->rows[i].valid;
  return bad;
}

/* The native model of the GPU the rows ran on: CUDA on NVIDIA, HIP on AMD. */
int pp_report_native(const pp_report *r) {
  for (int m = 0; m < PP_MODEL_COUNT; m++)
    for (int i = 0; i < r->nrows && pp_model_is_native((pp_model)m); i++)
      if ((int)r->rows[i].model == m) return m;
  return -1;
}

const char *pp_model_label(pp_model m, char *buf, size_t n) {
  const char *tag = pp_build_info()->tag;
  if (pp_model_is_cc_built(m) && tag[0])
    snprintf(buf, n, "%s[%s]", pp_model_name(m), tag);
  else
    snprintf(buf, n, "%s", pp_model_name(m));
  return buf;
}
