/* Building a result row (pp/row.h): everything from the samples to the
 * finished row happens here, in the order pp_row_build lists. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pp/device.h"
#include "pp/mpi.h"
#include "pp/row.h"
#include "pp/validate.h"

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

/* Figure of merit from the row's (final) median; ranks_of_work ranks did
 * the spec's work each. */
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

/* The row's name, statistics, a copy of its samples, its counts; FAIL and
 * "not checked" until verify says otherwise. */
static void start_row(pp_row *row, pp_model model, const pp_measure *m, const double *t, int n,
                      const pp_bootstrap *bs) {
  memset(row, 0, sizeof *row);
  snprintf(row->kernel, sizeof row->kernel, "%s", m->name);
  row->model = model;
  row->size = m->size;
  if (m->variant) snprintf(row->variant, sizeof row->variant, "%s", m->variant);
  row->frac_ceiling = NAN;
  row->ratio_native = NAN;
  row->ranks = 1;
  pp_stats_compute(t, n, bs, &row->time);
  row->bootstrap = *bs;
  row->samples = malloc(sizeof(double) * (size_t)n);
  if (!row->samples) pp_device_fail(PP_HOST, "alloc", "out of host memory for the samples");
  memcpy(row->samples, t, sizeof(double) * (size_t)n);
  row->nsamples = n;
  snprintf(row->fom_unit, sizeof row->fom_unit, "%s", m->unit);
  row->bytes = m->bytes;
  row->flops = m->flops;
  set_fom(row, m, 1);
  snprintf(row->check, sizeof row->check, "not checked");
}

/* PP_RANKS_REPLICATED, collective: every rank's row becomes valid if valid on
 * all ranks, with the samples and statistics of the slowest rank (largest
 * median; the lowest rank among equals); bytes and flops x ranks; a
 * frac_ceiling the app set scaled to that median. */
static void combine_replicated(pp_row *row) {
  int n = pp_mpi_size(), me = pp_mpi_rank();
  if (n == 1) return;
  row->valid = pp_mpi_all(row->valid);
  double mine = row->time.median, slow = mine;
  pp_mpi_max(&slow, 1);
  double who = -(double)(mine == slow ? me : n);
  pp_mpi_max(&who, 1);
  int src = (int)-who;
  /* Its samples reach every rank by a sum in which only it contributes
   * (x + 0 is exact), so the statistics below are the same everywhere. */
  double k = me == src ? row->nsamples : 0;
  pp_mpi_sum(&k, 1);
  int ns = (int)k;
  double *all = calloc((size_t)(ns ? ns : 1), sizeof *all);
  if (!all) pp_device_fail(PP_HOST, "alloc", "out of host memory for the samples");
  if (me == src) memcpy(all, row->samples, sizeof *all * (size_t)ns);
  pp_mpi_sum(all, ns);
  free(row->samples);
  row->samples = all;
  row->nsamples = ns;
  pp_stats_compute(all, ns, &row->bootstrap, &row->time);
  if (isfinite(row->frac_ceiling)) row->frac_ceiling *= mine / row->time.median;
  row->bytes *= n;
  row->flops *= n;
  row->ranks = n;
}

void pp_row_build(pp_row *row, pp_model m, const pp_measure *spec, double *t, int n,
                  const pp_bootstrap *bs, pp_verify_fn verify, void *verify_ctx, void *ctx) {
  if (spec->ranks == PP_RANKS_SPLIT) pp_mpi_max(t, n); /* each sample lasts until the slowest rank ends */
  start_row(row, m, spec, t, n, bs);
  verify(verify_ctx, row);
  const int P = pp_mpi_size();
  if (spec->ranks == PP_RANKS_SPLIT) {
    row->valid = pp_mpi_all(row->valid);
    row->ranks = P;
  } else {
    combine_replicated(row);
    set_fom(row, spec, P);
  }
  /* rate rows that also count bytes or flops show those rates too */
  const double med = row->time.median;
  if (row->bytes > 0 && strcmp(spec->unit, "GB/s"))
    pp_row_metric(row, "bandwidth", "GB/s", row->bytes / med / 1e9);
  if (row->flops > 0 && strcmp(spec->unit, "GFLOP/s"))
    pp_row_metric(row, "rate", "GFLOP/s", row->flops / med / 1e9);
  if (spec->figures) spec->figures(ctx, row);
}

void pp_row_per_joule(const pp_row *row, const pp_measure *spec, double joules, double *value, char *unit,
                      size_t n) {
  const char *slash = strchr(spec->unit, '/');
  *value = NAN;
  snprintf(unit, n, "-");
  if (!slash || !(joules > 0)) return;
  if (time_scale(spec->unit) > 0) { /* "ms/atom-step": items of the work per call */
    const int P = spec->ranks == PP_RANKS_SPLIT ? 1 : row->ranks;
    *value = P * (spec->work > 0 ? spec->work : 1) / joules;
    snprintf(unit, n, "%s/J", slash + 1);
  } else { /* a rate: FOM x median seconds = the work of one call, all ranks */
    *value = row->fom * row->time.median / joules;
    snprintf(unit, n, "%.*s/J", (int)(slash - spec->unit), spec->unit);
  }
}

void pp_row_metric(pp_row *row, const char *name, const char *unit, double value) {
  if (row->nmetrics == PP_MAX_METRICS) { /* never drop a figure silently */
    fprintf(stderr, "internal error: row %s has more than %d metrics (adding %s)\n", row->kernel,
            PP_MAX_METRICS, name);
    pp_mpi_abort(3);
  }
  pp_metric *mt = &row->metrics[row->nmetrics++];
  snprintf(mt->name, sizeof mt->name, "%s", name);
  snprintf(mt->unit, sizeof mt->unit, "%s", unit);
  mt->value = value;
}

void pp_check_mismatches(pp_row *row, size_t bad, size_t n) {
  row->valid = bad == 0;
  snprintf(row->check, sizeof row->check, "%zu of %zu elements differ (exact)", bad, n);
}

void pp_check_equal(pp_row *row, double got, double want) {
  row->valid = got == want;
  snprintf(row->check, sizeof row->check, "%.17g vs %.17g (exact)", got, want);
}

void pp_check_within(pp_row *row, const char *what, double err, double tol) {
  row->valid = pp_within(err, tol);
  snprintf(row->check, sizeof row->check, "%s %.3g <= %.3g", what, err, tol);
}
