#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pp/fault.h"
#include "pp/kernel.h"
#include "pp/measure.h"
#include "pp/mpi.h"
#include "pp/timer.h"

static void skip_run(void *ctx) { (void)ctx; }

/* Seconds -> the time unit's scale ("ms/atom-step": 1e3); 0 for rates. */
static double time_scale(const char *unit) {
  static const struct { const char *prefix; double scale; } t[] = {
      {"ns/", 1e9}, {"us/", 1e6}, {"ms/", 1e3}, {"s/", 1.0}};
  for (size_t i = 0; i < sizeof t / sizeof *t; i++)
    if (!strncmp(unit, t[i].prefix, strlen(t[i].prefix))) return t[i].scale;
  return 0;
}

/* The numerator of a rate unit for one run. */
static double rate_work(const pp_measure *m) {
  return !strcmp(m->unit, "GB/s")      ? m->bytes / 1e9
         : !strcmp(m->unit, "GFLOP/s") ? m->flops / 1e9
                                       : m->work;
}

/* Figure of merit from the row's (final) median. */
static void set_fom(pp_row *row, const pp_measure *m, int ranks_of_work) {
  const double scale = time_scale(m->unit);
  if (scale > 0) {
    row->fom = row->time.median * scale / (m->work > 0 ? m->work : 1);
    row->higher_is_better = 0;
  } else {
    row->fom = ranks_of_work * rate_work(m) / row->time.median;
    row->higher_is_better = 1;
  }
}

/* Row of samples t[0..n) of spec m; verdict and combine follow. */
static void build_row(pp_session *s, pp_model model, const pp_measure *m, double *t, int n, pp_row *row) {
  if (m->ranks == PP_RANKS_SPLIT) pp_mpi_max(t, n); /* each sample lasts until the slowest rank ends */
  pp_row_init(row, m->name, model, m->size);
  if (m->variant) snprintf(row->variant, sizeof row->variant, "%s", m->variant);
  pp_row_time(row, t, n, &s->opt.bootstrap, 1.0, m->unit);
  row->bytes = m->bytes;
  row->flops = m->flops;
  set_fom(row, m, 1);
  row->valid = 0;
  snprintf(row->check, sizeof row->check, "not checked");
}

/* Ranks, then the figures that depend on the final time; adds the row. */
static pp_row *finish_row(pp_session *s, const pp_measure *m, void *ctx, pp_row *row) {
  const int P = pp_mpi_size();
  if (m->ranks == PP_RANKS_SPLIT) {
    row->valid = pp_mpi_all(row->valid);
    row->ranks = P;
  } else {
    pp_row_combine_ranks(row); /* samples of the slowest rank; bytes, flops x ranks */
    set_fom(row, m, P);
  }
  /* rate rows that also count bytes or flops show those rates too */
  const double med = row->time.median;
  if (row->bytes > 0 && strcmp(m->unit, "GB/s"))
    pp_row_metric(row, "bandwidth", "GB/s", row->bytes / med / 1e9);
  if (row->flops > 0 && strcmp(m->unit, "GFLOP/s"))
    pp_row_metric(row, "rate", "GFLOP/s", row->flops / med / 1e9);
  if (m->figures) m->figures(ctx, row);
  return pp_report_add(s->report, row);
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
  pp_bench(s, m, pp_fault(missed) ? skip_run : run, ctx, t);
  for (int i = 0; i < n; i++) t[i] /= calls;
  pp_measure w = *spec;
  if (w.count) w.count(ctx, &w);
  pp_row row;
  build_row(s, m, &w, t, n, &row);
  free(t);
  verify(ctx, &row);
  return finish_row(s, &w, ctx, &row);
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

/* The run as pp_bench sees it: counts restarted, and in EVERY_RUN mode each
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

pp_row *pp_measure_parts(pp_session *s, pp_model m, const pp_measure *whole, const pp_measure *parts,
                         pp_parts *pt, pp_parts_mode mode, pp_run_fn run, void *ctx,
                         pp_verify_fn verify) {
  char missed[64];
  snprintf(missed, sizeof missed, "%s-missed", whole->name);
  const int n = s->opt.samples, every = mode == PP_PARTS_EVERY_RUN;
  parts_run r = {pt, run, ctx, pp_fault(missed), s->opt.warmup, 0, {NULL}};
  for (int p = 0; p < pt->count && every; p++) r.per_run[p] = alloc_samples(s, n);
  double *t = alloc_samples(s, n);
  pt->on = every;
  if (every) { /* the parts time themselves; the whole is the sum of its parts in each run */
    if (!s->ready) pp_session_ready(s);
    for (int i = 0; i < s->opt.warmup + n; i++) run_parts(&r);
    for (int i = 0; i < n; i++) {
      t[i] = 0;
      for (int p = 0; p < pt->count; p++) t[i] += r.per_run[p][i];
    }
  } else { /* timed whole; then one more run, every part call synchronized and timed */
    pp_bench(s, m, run_parts, &r, t);
    pt->on = 1;
    r.warmup = r.i + 1; /* no per-run sums */
    run_parts(&r);
  }
  pt->on = 0;

  pp_measure w = *whole;
  if (w.count) w.count(ctx, &w);
  const int wc = w.calls > 0 ? w.calls : 1;
  for (int i = 0; i < n; i++) t[i] /= wc;
  pp_row row;
  build_row(s, m, &w, t, n, &row);
  verify(ctx, &row);
  const int valid = w.ranks == PP_RANKS_SPLIT ? pp_mpi_all(row.valid) : row.valid;
  pp_row *stored = finish_row(s, &w, ctx, &row);
  const int stored_index = (int)(stored - pp_report_row(s->report, 0));

  /* the parts' rows: per run (EVERY_RUN) or per call (EXTRA_RUN) samples */
  double total = 0;
  long long ns[PP_MAX_PARTS];
  for (int p = 0; p < pt->count; p++) {
    ns[p] = !pt->calls[p] ? 0 : every ? n : (pt->calls[p] < pt->cap ? pt->calls[p] : pt->cap);
    double *x = every ? r.per_run[p] : pt->t[p];
    for (long long i = 0; i < ns[p]; i++) total += x[i];
  }
  for (int p = 0; p < pt->count; p++) {
    if (!ns[p]) continue;
    double *x = every ? r.per_run[p] : pt->t[p];
    double sum = 0;
    for (long long i = 0; i < ns[p]; i++) sum += x[i];
    pp_row prow;
    build_row(s, m, &parts[p], x, (int)ns[p], &prow);
    pp_row_metric(&prow, "calls", "count", (double)pt->calls[p]);
    pp_row_metric(&prow, "share", "percent", total > 0 ? 100 * sum / total : 0);
    prow.valid = valid;
    snprintf(prow.check, sizeof prow.check, "part of %s (%s)", whole->name, valid ? "validated" : "FAILED");
    finish_row(s, &parts[p], ctx, &prow);
  }
  for (int p = 0; p < pt->count && every; p++) free(r.per_run[p]);
  free(t);
  return pp_report_row(s->report, stored_index);
}
