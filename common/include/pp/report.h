/* Results: one row per (kernel, model, size, variant), printed as a table
 * and written as JSON and CSV with the build, device and problem. */
#ifndef PP_REPORT_H
#define PP_REPORT_H
#include <stdio.h>
#include "pp/cli.h"
#include "pp/device.h"
#include "pp/model.h"
#include "pp/stats.h"
PP_EXTERN_C_BEGIN

#define PP_MAX_METRICS 12

typedef struct pp_metric {
  char name[32];
  char unit[16];
  double value;
} pp_metric;

typedef struct pp_row {
  char kernel[40];
  pp_model model;
  long long size;
  char variant[64];     /* model/launch parameters, e.g. "tpb=256" */
  pp_stats time;        /* seconds per timed run */
  double fom;           /* figure of merit of the median time */
  char fom_unit[16];    /* "GB/s", "lookups/s", "us", ... */
  int higher_is_better; /* 0 for times */
  double bytes;         /* bytes one run is counted to move, 0 if n/a */
  double flops;         /* flops of one run, 0 if n/a */
  double frac_ceiling;  /* of the measured copy bandwidth, NaN if n/a */
  int valid;            /* 1 PASS, 0 FAIL */
  char check[96];       /* what was checked: "max rel err 0 <= 1e-15" */
  double ratio_native;  /* performance relative to cuda/hip, NaN if n/a */
  int nmetrics;
  pp_metric metrics[PP_MAX_METRICS];
  int ranks;            /* MPI ranks that contributed */
  /* Every timed run's seconds, as pp_row_time received them (stored in the
   * JSON so later comparisons can resample them). Heap memory: pp_report_add
   * takes it over and clears the caller's pointer. */
  double *samples;
  int nsamples;
  pp_bootstrap bootstrap; /* how time.ci_* were computed (recomputed by combine_ranks) */
} pp_row;

typedef struct pp_report pp_report;

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
/* Adds a row; frac_ceiling is filled from the model's copy bandwidth when
 * fom_unit is "GB/s" and the caller left it NaN, and cleared when the row
 * moves less than the model's ceiling_min_bytes. The report takes over
 * row->samples (row->samples is set to NULL). Returns the stored row. */
pp_row *pp_report_add(pp_report *r, pp_row *row);
/* Initializes a row with NaN ratios/fractions and the kernel/model/size. */
void pp_row_init(pp_row *row, const char *kernel, pp_model m, long long size);
/* Adds a metric; more than PP_MAX_METRICS is a program error (exit 3). */
void pp_row_metric(pp_row *row, const char *name, const char *unit, double value);
/* Fills the row's time statistics and FOM: fom = work / median time, or
 * the median time itself in microseconds when work_per_run <= 0. Keeps a
 * copy of the n samples in row->samples. */
void pp_row_time(pp_row *row, const double *samples, int n, const pp_bootstrap *bs,
                 double work_per_run, const char *unit);
/* For runs where every MPI rank measured the same work independently.
 * Collective; every rank's row becomes: valid if valid on all ranks; samples
 * and every time statistic (min/median/mean/max/stddev/CI) those of the
 * slowest rank (largest median; the lowest such rank); fom = ranks x work per
 * run / that median (aggregate throughput at the slowest rank's pace; for
 * time units, that median); bytes and flops x ranks; a frac_ceiling the app
 * set scaled to that median. Metrics stay each rank's own (rank 0's are
 * reported). */
void pp_row_combine_ranks(pp_row *row);
/* Computes ratios to the native model, prints the table and a summary
 * (per kernel: each model's ratio to native and %copy at the largest size),
 * writes JSON/CSV if asked. Returns 0 if every row passed, 1 otherwise,
 * 3 if a result file could not be written. */
int pp_report_finish(pp_report *r);
/* A model's row label: the model plus "[build tag]" for the models the
 * OpenMP (C) compiler builds (host, omp, ompx), e.g. "omp[gcc-12]",
 * "ompx[clang-19+lto]"; cuda and hip are their own name (their compiler is
 * in the build record). Writes into buf and returns it. */
const char *pp_model_label(pp_model m, char *buf, size_t n);
/* Row i of the report (pointers into the report move as rows are added). */
pp_row *pp_report_row(pp_report *r, int i);
int pp_report_rows(const pp_report *r);
/* Number of rows so far that failed validation. */
int pp_report_failures(const pp_report *r);

PP_EXTERN_C_END
#endif
