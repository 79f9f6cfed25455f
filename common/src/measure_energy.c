/* Energy of a row (pp/measure_energy.h): the power of the row's runs
 * between two counter updates times their time per run, from the timed runs
 * themselves where they are long enough and keep the row's pace, else from
 * the runs repeated alone; the ranks' readers combined. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "pp/measure_energy.h"
#include "pp/mpi.h"
#include "pp/report.h"
#include "pp/timer.h"

pp_energy_meter *pp_measure_energy_meter(pp_session *s, pp_model m) {
  static int opened[PP_MODEL_COUNT];
  pp_energy_meter *e = pp_energy_meter_for(m, &s->info[m], s->opt.no_energy);
  if (!opened[m]++ && e->available)
    pp_progress(s, "%s energy: %s, updated every %.3g ms, read every %.2g ms, idle %.1f W", pp_model_name(m),
                e->src.name, e->cal.update_s * 1e3, e->poll_s * 1e3, e->cal.idle_w);
  return e;
}

/* Seconds per call of a region's runs. */
static double per_call(const pp_energy_region *r, int calls) {
  return r->runs > 0 ? (r->t - r->t0) / ((double)r->runs * calls) : NAN;
}

/* A region that gives the row's energy: a window with the error under the
 * limit, and its runs at the row's pace (their time per call within that
 * limit of the row's median: J per call = W x the row's time). */
static int usable(const pp_energy_meter *e, const pp_energy_region *r, double row_s, int calls, double min_s) {
  return e->available && !r->failed && r->window == 2 && pp_energy_region_error(e, r) < PP_ENERGY_MAX_ERROR &&
         fabs(per_call(r, calls) / row_s - 1) <= PP_ENERGY_MAX_ERROR && r->t - r->t0 >= min_s;
}

/* The runs alone, back to back with nothing else on the host (no timer, no
 * check), for at least min_s and until every reader's window gives an error
 * under the limit, or max_s passes. Every rank runs as many (a run may be
 * collective); batches of about a quarter of the counter's update interval. */
static void repeat(pp_session *s, pp_model m, pp_energy_meter *e, pp_energy_region *r, double min_s, double max_s,
                   double per_run, pp_run_fn fn, void *ctx) {
  const pp_device_ops *ops = s->ops[m];
  double step[1] = {e->available ? e->cal.update_s / 4 : 0};
  pp_mpi_max(step, 1);
  double k = ceil(step[0] / (per_run > 1e-7 ? per_run : 1e-7));
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
      pp_energy_poll(e, r); /* nothing where the meter has its thread */
    }
    ops->sync();
    const double el = pp_wtime() - t0;
    double more[1] = {el < min_s || (!pp_energy_enough(e, r, PP_ENERGY_MAX_ERROR) && el < max_s)};
    pp_mpi_max(more, 1); /* any reader short of its window: every rank runs on */
    if (!more[0]) break;
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
  if (s->energy_later) { /* the same on every rank */
    snprintf(x->why, sizeof x->why, "not measured: later, if the app chooses this row");
    return;
  }
  const int me = pp_mpi_rank(), P = pp_mpi_size();
  const int calls = spec->calls > 0 ? spec->calls : 1;
  const double row_s = row->time.median;
  /* the timed runs serve where every reader's do; else the runs again, alone */
  const double min_s = s->opt.energy_min_s;
  double again[2] = {e->available && !er->failed && !usable(e, er, row_s, calls, min_s),
                     er->runs > 0 ? (er->t - er->t0) / (double)er->runs : row_s * calls};
  pp_mpi_max(again, 2);
  pp_energy_region rep;
  pp_energy_region *r = er;
  if (again[0] > 0) {
    repeat(s, m, e, &rep, min_s, fmax(s->opt.energy_max_s, min_s), again[1], fn, ctx);
    r = &rep;
    x->repeated = 1;
  }
  const int ok = e->available && !r->failed && r->runs > 0 && r->t > r->t0;
  const double watts = ok ? pp_energy_region_watts(r) : 0;
  const double call_s = ok ? per_call(r, calls) : 0;
  const double joules = watts * call_s; /* the runs' power over their time per call */
  /* sums over ranks: [0] joules/call, [1] watts, [2] idle W, [3] readers, [4] throttled,
   * then per rank: joules + 1 (0: none), read_by + 1 (0: none) */
  const int R = P < PP_ENERGY_RANKS ? P : PP_ENERGY_RANKS;
  double v[5 + 2 * PP_ENERGY_RANKS] = {0};
  v[0] = joules;
  v[1] = watts;
  v[2] = ok ? e->cal.idle_w : 0;
  v[3] = ok;
  v[4] = ok && (r->reasons & PP_THROTTLE_MASK);
  if (me < R) {
    v[5 + me] = ok ? joules + 1 : 0;
    v[5 + R + me] = e->available || !e->reader ? e->read_by + 1 : 0; /* 0: it could not read its device */
  }
  pp_mpi_sum(v, 5 + 2 * R);
  /* the worst reader's error, update interval, step, window, and the slowest pace */
  double worst[6] = {ok ? pp_energy_region_error(e, r) : 0, ok ? e->cal.update_s : 0, ok ? e->cal.step_j : 0,
                     ok && r->window == 2 ? -(r->w_t1 - r->w_t0) : 0, ok ? call_s : 0, ok ? r->t - r->t0 : 0};
  pp_mpi_max(worst, 6);
  double span[1] = {ok ? (double)r->runs : 0};
  pp_mpi_max(span, 1);
  x->readers = (int)v[3];
  for (int i = 0; i < PP_ENERGY_RANKS; i++) x->rank_joules[i] = NAN, x->read_by[i] = -1;
  for (int i = 0; i < R; i++) {
    x->rank_joules[i] = v[5 + i] > 0 ? v[5 + i] - 1 : NAN;
    x->read_by[i] = (int)v[5 + R + i] - 1;
  }
  if (!x->readers) { /* rank 0's reason: the same cause on every rank as a rule */
    snprintf(x->why, sizeof x->why, "%s", !e->available ? e->why : r->failed ? r->why : "not available: no run");
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
  x->window_s = -worst[3];
  x->below_resolution = !(x->error < PP_ENERGY_MAX_ERROR);
  x->seconds = worst[5];
  x->runs = (long long)span[0];
  x->calls = calls;
  if (ok) fill_local(x, e, r);
  else snprintf(x->source, sizeof x->source, "rank 0: %.110s", e->why);
  pp_row_per_joule(row, spec, x->joules, &x->per_joule, x->per_joule_unit, sizeof x->per_joule_unit);
  /* a device another rank could not read is missing from the sum: say so */
  int missing = 0;
  for (int i = 0; i < R; i++) missing += x->read_by[i] < 0;
  const double pace = worst[4] / row_s;
  x->pace = pace;
  if (missing)
    snprintf(x->why, sizeof x->why, "incomplete: %d rank%s without a readable counter", missing,
             missing > 1 ? "s" : "");
  else if (!(fabs(pace - 1) <= PP_ENERGY_MAX_ERROR))
    snprintf(x->why, sizeof x->why, "the metered runs took %.3gx the row's time per repetition (time the row's "
             "timer leaves out: launch gaps, host work between parts); J/rep is theirs", pace);
}

void pp_measure_energy_of(pp_session *s, pp_model m, int index, const pp_measure *spec, pp_run_fn run, void *ctx) {
  pp_energy_region none;
  memset(&none, 0, sizeof none); /* no timed runs of its own: the runs are repeated */
  const int later = s->energy_later;
  s->energy_later = 0;
  pp_measure_energy_row(s, m, pp_report_row(s->report, index), spec, &none, run, ctx);
  s->energy_later = later;
}

void pp_measure_energy_skip(pp_session *s, int index, const char *why) {
  pp_row_energy *x = &pp_report_row(s->report, index)->energy;
  if (x->measured || s->opt.no_energy) return;
  snprintf(x->why, sizeof x->why, "not measured: %s", why);
}
