/* Energy of a row (pp/measure_energy.h): the region's joules per run, the
 * repeat for the counter's resolution, and the ranks' readers combined. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "pp/measure_energy.h"
#include "pp/mpi.h"
#include "pp/timer.h"

pp_energy_meter *pp_measure_energy_meter(pp_session *s, pp_model m) {
  static int opened[PP_MODEL_COUNT];
  pp_energy_meter *e = pp_energy_meter_for(m, &s->info[m], s->opt.no_energy);
  if (!opened[m]++ && e->available)
    pp_progress(s, "%s energy: %s, updated every %.3g ms, idle %.1f W (measured in %.2f s)", pp_model_name(m),
                e->src.name, e->cal.update_s * 1e3, e->cal.idle_w, e->cal.seconds);
  return e;
}

/* Seconds the region must last for the error to reach 80% of the limit
 * (within max_s); 0 when it already is under it. */
static double target_seconds(const pp_energy_meter *e, const pp_energy_region *r, double max_s) {
  const double T = r->t - r->t0, E = r->e - r->e0;
  if (pp_energy_rel_error(&e->cal, e->src.unit_j, E, T) < PP_ENERGY_MAX_ERROR || r->runs <= 0) return 0;
  const double watts = T > 0 && E > 0 ? E / T : e->cal.idle_w;
  /* err(T) = (unit + P U) / (P T) */
  const double want = (e->src.unit_j / (watts > 0 ? watts : 1) + e->cal.update_s) / (0.8 * PP_ENERGY_MAX_ERROR);
  return want < max_s ? want : max_s;
}

/* The runs again until the region lasts `target` seconds (every rank runs
 * as many: a run may be collective), the counter polled between runs
 * (throttle reasons; RAPL wraps). Batches grow from the timed runs' pace. */
static void repeat(pp_session *s, pp_model m, pp_energy_meter *e, pp_energy_region *r, double target,
                   double per_run, pp_run_fn fn, void *ctx) {
  const pp_device_ops *ops = s->ops[m];
  double k = ceil(target / (per_run > 1e-7 ? per_run : 1e-7));
  long long runs = 0;
  ops->sync();
  pp_energy_begin(e, r);
  const double t0 = pp_wtime();
  for (;;) {
    if (k < 1) k = 1;
    if (k > 1e9) k = 1e9;
    pp_mpi_max(&k, 1);
    for (long long i = 0; i < (long long)k; i++, runs++) {
      fn(ctx);
      pp_energy_poll(e, r); /* reads at most every millisecond */
    }
    ops->sync();
    const double el = pp_wtime() - t0;
    double more[2] = {el < target, el > 0 ? target / el : 2}; /* the slowest rank's view decides */
    pp_mpi_max(more, 2);
    if (!more[0]) break;
    const double grow = more[1] * 1.1;
    k = (double)runs * (grow < 2 ? 2 : grow > 1000 ? 1000 : grow) - (double)runs;
  }
  pp_energy_end(e, r, runs);
}

/* Rank 0's record of a region read by this rank. */
static void fill_local(pp_row_energy *x, const pp_energy_meter *e, const pp_energy_region *r) {
  x->sm_start = r->sm_start, x->sm_end = r->sm_end;
  x->limit_start = r->limit_start, x->limit_end = r->limit_end;
  x->utc_start = r->utc0, x->utc_end = r->utc1;
  pp_energy_reasons_text(r->reasons, x->reasons, sizeof x->reasons);
  snprintf(x->source, sizeof x->source, "%s", e->src.name);
}

void pp_measure_energy_row(pp_session *s, pp_model m, pp_row *row, const pp_measure *spec,
                           pp_energy_region *er, pp_run_fn fn, void *ctx) {
  pp_energy_meter *e = pp_measure_energy_meter(s, m);
  pp_row_energy *x = &row->energy;
  memset(x, 0, sizeof *x);
  x->sm_start = x->sm_end = x->limit_start = x->limit_end = x->utc_start = x->utc_end = NAN;
  if (s->opt.no_energy) { /* the same on every rank: no collective */
    snprintf(x->why, sizeof x->why, "not measured (--no-energy)");
    return;
  }
  const int me = pp_mpi_rank(), P = pp_mpi_size();
  /* the region is repeated when any reader needs it (every rank runs: a run may be collective) */
  double target[2] = {e->available && !er->failed ? target_seconds(e, er, s->opt.energy_max_s) : 0,
                      er->runs > 0 ? (er->t - er->t0) / (double)er->runs : 0};
  pp_mpi_max(target, 2);
  pp_energy_region again;
  pp_energy_region *r = er;
  if (target[0] > 0) {
    repeat(s, m, e, &again, target[0], target[1], fn, ctx);
    r = &again;
    x->repeated = 1;
  }
  const int ok = e->available && !r->failed;
  const int calls = spec->calls > 0 ? spec->calls : 1;
  const double joules = ok ? (r->e - r->e0) / ((double)r->runs * calls) : 0;
  const double secs = ok ? r->t - r->t0 : 0;
  /* sums over ranks: [0] joules/call, [1] watts, [2] idle W, [3] readers, [4] throttled,
   * then per rank: joules + 1 (0: none), read_by + 1 (0: none) */
  const int R = P < PP_ENERGY_RANKS ? P : PP_ENERGY_RANKS;
  double v[5 + 2 * PP_ENERGY_RANKS] = {0};
  v[0] = joules;
  v[1] = ok && secs > 0 ? (r->e - r->e0) / secs : 0;
  v[2] = ok ? e->cal.idle_w : 0;
  v[3] = ok;
  v[4] = ok && (r->reasons & PP_THROTTLE_MASK);
  if (me < R) {
    v[5 + me] = ok ? joules + 1 : 0;
    v[5 + R + me] = e->available || !e->reader ? e->read_by + 1 : 0; /* 0: it could not read its device */
  }
  pp_mpi_sum(v, 5 + 2 * R);
  double worst[3] = {ok ? pp_energy_rel_error(&e->cal, e->src.unit_j, r->e - r->e0, secs) : 0,
                     ok ? e->cal.update_s : 0, ok ? e->cal.step_j : 0};
  pp_mpi_max(worst, 3);
  double span[2] = {secs, ok ? (double)r->runs : 0};
  pp_mpi_max(span, 2);
  x->readers = (int)v[3];
  for (int i = 0; i < PP_ENERGY_RANKS; i++) x->rank_joules[i] = NAN, x->read_by[i] = -1;
  for (int i = 0; i < R; i++) {
    x->rank_joules[i] = v[5 + i] > 0 ? v[5 + i] - 1 : NAN;
    x->read_by[i] = (int)v[5 + R + i] - 1;
  }
  if (!x->readers) { /* rank 0's reason: the same cause on every rank as a rule */
    snprintf(x->why, sizeof x->why, "%s", !e->available ? e->why : r->why);
    return;
  }
  x->measured = 1;
  x->joules = v[0];
  x->watts = v[1];
  x->idle_watts = v[2];
  x->throttled = v[4] > 0;
  x->error = worst[0];
  x->update_s = worst[1];
  x->step_j = worst[2];
  x->below_resolution = !(x->error < PP_ENERGY_MAX_ERROR);
  x->seconds = span[0];
  x->runs = (long long)span[1];
  x->calls = calls;
  if (ok) fill_local(x, e, r);
  else snprintf(x->source, sizeof x->source, "rank 0: %.110s", e->why);
  pp_row_per_joule(row, spec, x->joules, &x->per_joule, x->per_joule_unit, sizeof x->per_joule_unit);
  /* a device another rank could not read is missing from the sum: say so */
  int missing = 0;
  for (int i = 0; i < R; i++) missing += x->read_by[i] < 0;
  if (missing)
    snprintf(x->why, sizeof x->why, "incomplete: %d rank%s without a readable counter", missing,
             missing > 1 ? "s" : "");
}
