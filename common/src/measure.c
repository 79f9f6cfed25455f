/* The measurement path (pp/measure.h): runs timed here, rows built by
 * pp_row_build (row.c), stored by the report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pp/buffers.h"
#include "pp/fault.h"
#include "pp/measure.h"
#include "pp/measure_energy.h"
#include "pp/mpi.h"
#include "pp/report.h"
#include "pp/timer.h"

static void skip_run(void *ctx) { (void)ctx; }

/* One timed run of fn: by the model's device-synchronized timer, or with
 * --timer wall by a host wall clock between two syncs of the model (what the
 * OpenMP models' timers are), so that every model is timed the same way. */
static double timed_run(const pp_session *s, const pp_device_ops *ops, pp_run_fn fn, void *ctx) {
  if (!s->opt.timer_wall) {
    ops->timer_start();
    fn(ctx);
    return ops->timer_stop();
  }
  ops->sync();
  const double t0 = pp_wtime();
  fn(ctx);
  ops->sync();
  return pp_wtime() - t0;
}

/* Runs fn opt.warmup times, then opt.samples times, each timed (timed_run);
 * seconds go to out[0..samples-1]. The energy meter is read around the
 * timed runs (er) and between them. */
static void time_runs(pp_session *s, pp_model m, pp_run_fn fn, void *ctx, double *out, pp_energy_region *er) {
  if (!s->ready) pp_session_ready(s);
  const pp_device_ops *ops = s->ops[m];
  pp_energy_meter *em = pp_measure_energy_meter(s, m); /* opened before the model's first run */
  for (int w = 0; w < s->opt.warmup; w++) fn(ctx);
  ops->sync();
  pp_energy_begin(em, er);
  for (int i = 0; i < s->opt.samples; i++) {
    out[i] = timed_run(s, ops, fn, ctx);
    pp_energy_poll(em, er);
  }
  pp_energy_end(em, er, s->opt.samples);
}

static double *alloc_samples(const pp_session *s, int n) {
  return pp_host_alloc(s->app->name, sizeof(double) * (size_t)(n > 0 ? n : 1), "timing samples");
}

pp_row *pp_measure_run(pp_session *s, pp_model m, const pp_measure *spec, pp_run_fn run, void *ctx,
                       pp_verify_fn verify) {
  char missed[64];
  snprintf(missed, sizeof missed, "%s-missed", spec->name);
  const int n = s->opt.samples, calls = spec->calls > 0 ? spec->calls : 1;
  double *t = alloc_samples(s, n);
  pp_energy_region er;
  pp_run_fn fn = pp_fault(missed) ? skip_run : run;
  time_runs(s, m, fn, ctx, t, &er);
  if (fn == skip_run && n > 0) pp_fault_fire(missed); /* the row's result is whatever was there */
  for (int i = 0; i < n; i++) t[i] /= calls;
  pp_measure w = *spec;
  if (w.count) w.count(ctx, &w);
  pp_row row;
  pp_row_build(&row, m, &w, t, n, &s->opt.bootstrap, verify, ctx, ctx);
  pp_measure_energy_row(s, m, &row, &w, &er, fn, ctx);
  free(t);
  return pp_report_add(s->report, &row);
}

/* ---- parts ------------------------------------------------------------------------ */

void pp_parts_init(pp_parts *pt, const pp_device_ops *ops, int count, long long cap, int wall) {
  memset(pt, 0, sizeof *pt);
  if (count > PP_MAX_PARTS) count = PP_MAX_PARTS;
  pt->ops = ops, pt->count = count, pt->cap = cap > 0 ? cap : 1, pt->wall = wall;
  for (int p = 0; p < count; p++)
    pt->t[p] = pp_host_alloc("parts", sizeof(double) * (size_t)pt->cap, "per-call times");
}

void pp_parts_free(pp_parts *pt) {
  for (int p = 0; p < pt->count; p++) free(pt->t[p]);
  memset(pt, 0, sizeof *pt);
}

void pp_part_begin(pp_parts *pt) {
  if (!pt->on) return;
  if (pt->wall) {
    pt->ops->sync();
    pt->t0 = pp_wtime();
  } else {
    pt->ops->timer_start();
  }
}

void pp_part_end(pp_parts *pt, int part) {
  const long long i = pt->calls[part]++;
  if (!pt->on) return;
  double dt;
  if (pt->wall) {
    pt->ops->sync();
    dt = pp_wtime() - pt->t0;
  } else {
    dt = pt->ops->timer_stop();
  }
  if (i < pt->cap) pt->t[part][i] = dt;
}

/* The run as time_runs sees it: counts restarted, and in EVERY_RUN mode each
 * timed run's part times summed into per-run samples. */
typedef struct parts_run {
  pp_parts *pt;
  pp_run_fn run;
  void *ctx;
  int skip;                     /* NAME-missed */
  int warmup, i;                /* runs so far */
  double *per_run[PP_MAX_PARTS]; /* EVERY_RUN: [sample] seconds of part p */
} parts_run;

static void run_parts(void *arg) {
  parts_run *r = arg;
  pp_parts *pt = r->pt;
  for (int p = 0; p < pt->count; p++) pt->calls[p] = 0;
  if (!r->skip) r->run(r->ctx);
  const int k = r->i++ - r->warmup;
  if (!pt->on || k < 0) return;
  for (int p = 0; p < pt->count; p++) {
    const long long c = pt->calls[p] < pt->cap ? pt->calls[p] : pt->cap;
    double sum = 0;
    for (long long j = 0; j < c; j++) sum += pt->t[p][j];
    r->per_run[p][k] = sum;
  }
}

/* A part's verdict is its whole's; its metrics say how often it ran and its
 * share of the parts' time. */
typedef struct part_verdict {
  const char *whole;
  int valid;         /* the whole row's, ranks combined */
  double total, sum; /* seconds of all parts, of this part */
  long long calls;   /* this part's calls per run */
} part_verdict;

static void verdict_of_part(void *arg, pp_row *row) {
  const part_verdict *v = arg;
  pp_row_metric(row, "calls", "count", (double)v->calls);
  pp_row_metric(row, "share", "percent", v->total > 0 ? 100 * v->sum / v->total : 0);
  row->valid = v->valid;
  snprintf(row->check, sizeof row->check, "part of %s (%s)", v->whole, v->valid ? "validated" : "FAILED");
}

pp_row *pp_measure_parts(pp_session *s, pp_model m, const pp_measure *whole, const pp_measure *parts,
                         pp_parts *pt, pp_parts_mode mode, pp_run_fn run, void *ctx,
                         pp_verify_fn verify) {
  char missed[64];
  snprintf(missed, sizeof missed, "%s-missed", whole->name);
  const int n = s->opt.samples, every = mode == PP_PARTS_EVERY_RUN;
  parts_run r = {pt, run, ctx, pp_fault(missed), s->opt.warmup, 0, {NULL}};
  for (int p = 0; p < pt->count && every; p++) r.per_run[p] = alloc_samples(s, n);
  double *t = alloc_samples(s, n);
  pp_energy_region er;
  pt->on = every;
  if (every) { /* the parts time themselves; the whole is the sum of its parts in each run */
    if (!s->ready) pp_session_ready(s);
    pp_energy_meter *em = pp_measure_energy_meter(s, m);
    for (int i = 0; i < s->opt.warmup; i++) run_parts(&r);
    s->ops[m]->sync();
    pp_energy_begin(em, &er);
    for (int i = 0; i < n; i++) {
      run_parts(&r);
      pp_energy_poll(em, &er);
    }
    s->ops[m]->sync();
    pp_energy_end(em, &er, n);
    for (int i = 0; i < n; i++) {
      t[i] = 0;
      for (int p = 0; p < pt->count; p++) t[i] += r.per_run[p][i];
    }
  } else { /* timed whole; then one more run, every part call synchronized and timed */
    time_runs(s, m, run_parts, &r, t, &er);
    pt->on = 1;
    r.warmup = r.i + 1; /* no per-run sums */
    run_parts(&r);
  }
  pt->on = 0;
  if (r.skip && n > 0) pp_fault_fire(missed);

  pp_measure w = *whole;
  if (w.count) w.count(ctx, &w);
  const int wc = w.calls > 0 ? w.calls : 1;
  for (int i = 0; i < n; i++) t[i] /= wc;
  pp_row row;
  pp_row_build(&row, m, &w, t, n, &s->opt.bootstrap, verify, ctx, ctx);
  pt->on = 0; /* runs repeated for the energy counter are neither timed nor summed */
  pp_measure_energy_row(s, m, &row, &w, &er, run_parts, &r);
  const int stored_index = (int)(pp_report_add(s->report, &row) - pp_report_row(s->report, 0));

  /* the parts' rows: per run (EVERY_RUN) or per call (EXTRA_RUN) samples.
   * Building a row is collective, so the ranks agree on each part's sample
   * count, the most any rank has: a rank with fewer calls (none, where its
   * share of the work was empty) adds samples of 0 s, the time it spent. */
  part_verdict v = {.whole = whole->name, .valid = pp_report_row(s->report, stored_index)->valid};
  long long ns[PP_MAX_PARTS];
  for (int p = 0; p < pt->count; p++) {
    const long long mine = !pt->calls[p] ? 0 : every ? n : (pt->calls[p] < pt->cap ? pt->calls[p] : pt->cap);
    double most = (double)mine;
    pp_mpi_max(&most, 1);
    ns[p] = (long long)most;
    double *x = every ? r.per_run[p] : pt->t[p];
    for (long long i = mine; i < ns[p]; i++) x[i] = 0;
    for (long long i = 0; i < ns[p]; i++) v.total += x[i];
  }
  for (int p = 0; p < pt->count; p++) {
    if (!ns[p]) continue;
    double *x = every ? r.per_run[p] : pt->t[p];
    v.sum = 0;
    for (long long i = 0; i < ns[p]; i++) v.sum += x[i];
    v.calls = pt->calls[p];
    pp_row prow;
    pp_row_build(&prow, m, &parts[p], x, (int)ns[p], &s->opt.bootstrap, verdict_of_part, &v, ctx);
    snprintf(prow.energy.why, sizeof prow.energy.why, "not measured: a part of %s (its row has the run's energy)",
             whole->name);
    pp_report_add(s->report, &prow);
  }
  for (int p = 0; p < pt->count && every; p++) free(r.per_run[p]);
  free(t);
  return pp_report_row(s->report, stored_index);
}
