/* Results: the report collects the rows (pp/row.h) of one run with the
 * problem, the devices and the models that did not run (report.c); at the
 * end it is finished (report_finish.c) and written as a text table
 * (report_text.c), JSON (report_json.c) and CSV (report_csv.c). */
#ifndef PP_REPORT_H
#define PP_REPORT_H
#include <stddef.h>
#include "pp/cli.h"
#include "pp/device.h"
#include "pp/model.h"
#include "pp/row.h"
#include "pp/system.h"
PP_EXTERN_C_BEGIN

typedef struct pp_report_param_kv {
  char key[48];
  char val[208];
} pp_report_param_kv;

/* Apps change it only through the functions below; the writers read it. */
typedef struct pp_report {
  char app[32];
  const pp_options *opt;
  pp_report_param_kv params[48];
  int nparams;
  int have_device[PP_MODEL_COUNT];
  pp_device_info device[PP_MODEL_COUNT];
  double copy_gbs[PP_MODEL_COUNT];
  double ceiling_min_bytes[PP_MODEL_COUNT];
  char skipped[PP_MODEL_COUNT][256];
  pp_row *rows;
  int nrows, cap;
  char started[32];
  pp_system *systems; /* rank 0: every rank's, in rank order (pp_report_finish) */
} pp_report;

pp_report *pp_report_new(const char *app, const pp_options *opt);
void pp_report_free(pp_report *r);
/* Problem description shown in the header and stored in JSON/CSV. */
void pp_report_param(pp_report *r, const char *key, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Device of a model that ran, and its measured copy bandwidth (GB/s, read+write;
 * NaN: no honest ceiling). May be called again to set the ceiling later. */
void pp_report_device(pp_report *r, pp_model m, const pp_device_info *info, double copy_gbs);
/* Rows of model m that move fewer than `bytes` per run get no %copy (their
 * working set can stay in a cache the ceiling's buffers do not fit in). */
void pp_report_ceiling_min_bytes(pp_report *r, pp_model m, double bytes);
/* A model asked for that could not run, with the reason. */
void pp_report_skip(pp_report *r, pp_model m, const char *why);
/* Adds a built row (pp_row_build); frac_ceiling is filled from the model's
 * copy bandwidth when fom_unit is "GB/s" and the row left it NaN, and
 * cleared when the row moves less than the model's ceiling_min_bytes. The
 * report takes over row->samples (row->samples is set to NULL). Returns the
 * stored row. */
pp_row *pp_report_add(pp_report *r, pp_row *row);
/* Row i of the report (pointers into the report move as rows are added). */
pp_row *pp_report_row(pp_report *r, int i);
int pp_report_rows(const pp_report *r);
/* Number of rows so far that failed validation. */
int pp_report_failures(const pp_report *r);
/* The native model the rows ran on (CUDA on NVIDIA, HIP on AMD), -1 if none. */
int pp_report_native(const pp_report *r);
/* A model's row label: the model plus "[build tag]" for the models the
 * OpenMP (C) compiler builds (host, omp, ompx), e.g. "omp[gcc-12]",
 * "ompx[clang-19+lto]"; cuda and hip are their own name (their compiler is
 * in the build record). Writes into buf and returns it. */
const char *pp_model_label(pp_model m, char *buf, size_t n);

/* Computes ratios to the native model, prints the table and a summary
 * (per kernel: each model's ratio to native and %copy at the largest size),
 * writes JSON/CSV if asked (report_finish.c). Returns 0 if every row
 * passed, 1 otherwise, 2 for a planted fault that this run could not
 * plant, 3 if a result file could not be written. Collective under MPI. */
int pp_report_finish(pp_report *r);

PP_EXTERN_C_END
#endif
