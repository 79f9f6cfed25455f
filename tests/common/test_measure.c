/* Unit tests of the common measurement path (pp/measure.h) with a fake
 * device whose clock advances only when a run says so: every time, figure
 * of merit, part row and share is known exactly. Exits non-zero on the
 * first failed check. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "pp/pp.h"
#include "check.h"

/* exact but for rounding */
#define SAME(a, b) NEAR(a, b, 1e-12 * (fabs(b) + 1))

/* ---- the fake device: a clock in seconds that runs advance ------------------------ */
static double clock_now, clock_start;
static void fake_sync(void) {}
static void fake_start(void) { clock_start = clock_now; }
static double fake_stop(void) { return clock_now - clock_start; }
static pp_device_ops fake = {.model = PP_HOST, .sync = fake_sync, .timer_start = fake_start, .timer_stop = fake_stop};

static double metric(const pp_row *row, const char *name) {
  for (int i = 0; i < row->nmetrics; i++)
    if (!strcmp(row->metrics[i].name, name)) return row->metrics[i].value;
  return NAN;
}

/* ---- one run function --------------------------------------------------------------- */
typedef struct job {
  int runs;
  double secs;   /* per run */
  int valid;
  pp_parts *pt;  /* parts: part 0 called twice (1 s each), part 1 once (3 s) */
} job;

static void run_whole(void *ctx) {
  job *j = ctx;
  j->runs++;
  clock_now += j->secs;
}
static void run_parts(void *ctx) {
  job *j = ctx;
  j->runs++;
  for (int c = 0; c < 2; c++) {
    pp_part_begin(j->pt);
    clock_now += 1.0;
    pp_part_end(j->pt, 0);
  }
  clock_now += 0.5; /* between parts: not a part's time */
  pp_part_begin(j->pt);
  clock_now += 3.0;
  pp_part_end(j->pt, 1);
}
static void verify(void *ctx, pp_row *row) {
  job *j = ctx;
  row->valid = j->valid;
  snprintf(row->check, sizeof row->check, "checked");
}
static void count_flops(void *ctx, pp_measure *spec) {
  (void)ctx;
  spec->flops = 6e9;
}

static void test_run(pp_session *s) {
  job j = {0, 0.5, 1, NULL};
  /* GB/s: 2 GB per run of 2 calls, 0.5 s per run: 0.25 s per call, 8 GB/s */
  pp_measure gbs = {.name = "copyish", .unit = "GB/s", .size = 100, .variant = "tpb=32", .bytes = 2e9, .calls = 2,
                    .ranks = PP_RANKS_REPLICATED};
  pp_row *r = pp_measure_run(s, PP_HOST, &gbs, run_whole, &j, verify);
  CHECK(j.runs == s->opt.warmup + s->opt.samples);
  SAME(r->time.median, 0.25);
  SAME(r->fom, 8.0);
  CHECK(r->higher_is_better && r->valid && !strcmp(r->variant, "tpb=32") && r->size == 100);
  CHECK(!strcmp(r->check, "checked"));
  /* a time per item: 2 s per run over 1000 items is 2 ms per item */
  j.secs = 2.0;
  pp_measure per = {.name = "step", .unit = "ms/atom-step", .size = 1000, .flops = 4e9, .work = 1000,
                    .ranks = PP_RANKS_SPLIT};
  r = pp_measure_run(s, PP_HOST, &per, run_whole, &j, verify);
  SAME(r->fom, 2.0);
  CHECK(!r->higher_is_better);
  SAME(metric(r, "rate"), 2.0); /* 4 GFLOP in 2 s */
  /* counts set after the runs (CG's iterations): GFLOP/s from them */
  pp_measure late = {.name = "late", .unit = "GFLOP/s", .size = 1, .ranks = PP_RANKS_SPLIT, .count = count_flops};
  j.valid = 0;
  r = pp_measure_run(s, PP_HOST, &late, run_whole, &j, verify);
  SAME(r->fom, 3.0);
  CHECK(!r->valid);
}

/* --timer wall (the session's option): the run timed between two syncs of the
 * model by the host's clock, never by the model's timer (whose fake clock
 * would say 0.5 s). */
static int syncs, timer_calls;
static void counting_sync(void) { syncs++; }
static void counting_start(void) { timer_calls++; }
static double counting_stop(void) { return timer_calls++, 0.5; }
static void test_wall_timer(pp_session *s) {
  CHECK(!s->opt.timer_wall && s->opt.gpu_wait == 1); /* the defaults: events, spin */
  const pp_device_ops counting = {.model = PP_HOST, .sync = counting_sync, .timer_start = counting_start,
                                  .timer_stop = counting_stop};
  const pp_device_ops *model = s->ops[PP_HOST];
  s->ops[PP_HOST] = &counting;
  job j = {0, 0.5, 1, NULL};
  const pp_measure m = {.name = "walled", .unit = "us/run", .size = 1, .ranks = PP_RANKS_SPLIT};
  s->opt.timer_wall = 1;
  pp_row *r = pp_measure_run(s, PP_HOST, &m, run_whole, &j, verify);
  CHECK(timer_calls == 0 && syncs == 1 + 2 * s->opt.samples); /* after the warm-up, around each run */
  CHECK(r->time.median < 0.25);
  s->opt.timer_wall = 0;
  r = pp_measure_run(s, PP_HOST, &m, run_whole, &j, verify);
  CHECK(timer_calls == 2 * s->opt.samples);
  SAME(r->time.median, 0.5);
  s->ops[PP_HOST] = model;
}

static void test_parts(pp_session *s, pp_parts_mode mode) {
  const int every = mode == PP_PARTS_EVERY_RUN;
  pp_parts pt;
  pp_parts_init(&pt, &fake, 3, 16, 0); /* part 2 is never called: no row */
  job j = {0, 0, 1, &pt};
  const pp_measure whole = {.name = "whole", .unit = "us/run", .size = 7, .ranks = PP_RANKS_SPLIT};
  const pp_measure parts[3] = {
      {.name = "part_a", .unit = "GB/s", .size = 7, .bytes = 1e9, .ranks = PP_RANKS_SPLIT},
      {.name = "part_b", .unit = "us/call", .size = 7, .ranks = PP_RANKS_SPLIT},
      {.name = "part_c", .unit = "us/call", .size = 7, .ranks = PP_RANKS_SPLIT}};
  pp_report *rep = s->report;
  const int before = pp_report_rows(rep);
  pp_row *w = pp_measure_parts(s, PP_HOST, &whole, parts, &pt, mode, run_parts, &j, verify);
  CHECK(pp_report_rows(rep) == before + 3);
  CHECK(j.runs == s->opt.warmup + s->opt.samples + !every);
  /* every run: the sum of the parts (5 s, the 0.5 s gap not counted); else the whole run */
  SAME(w->time.median, every ? 5.0 : 5.5);
  SAME(w->fom, w->time.median * 1e6);
  const pp_row *a = pp_report_row(rep, before + 1), *b = pp_report_row(rep, before + 2);
  CHECK(!strcmp(a->kernel, "part_a") && !strcmp(b->kernel, "part_b"));
  /* per run (2 calls of 1 s) or per call (1 s) */
  SAME(a->time.median, every ? 2.0 : 1.0);
  CHECK(a->nsamples == (every ? s->opt.samples : 2));
  SAME(a->fom, 1e9 / 1e9 / a->time.median);
  SAME(metric(a, "calls"), 2.0);
  SAME(metric(a, "share"), 40.0);
  SAME(metric(b, "share"), 60.0);
  SAME(b->fom, 3e6);
  CHECK(a->valid && !strcmp(a->check, "part of whole (validated)"));
  pp_parts_free(&pt);
  /* a failed whole fails its parts */
  pp_parts_init(&pt, &fake, 2, 16, 0);
  j.pt = &pt, j.valid = 0;
  pp_measure_parts(s, PP_HOST, &whole, parts, &pt, mode, run_parts, &j, verify);
  const pp_row *f = pp_report_row(rep, pp_report_rows(rep) - 1);
  CHECK(!f->valid && !strcmp(f->check, "part of whole (FAILED)"));
  pp_parts_free(&pt);
}

int main(void) {
  /* --no-energy: a readable RAPL counter would repeat runs for its resolution (tests/common/test_energy.c) */
  char *argv[] = {"test_measure", "--backend", "host", "--warmup", "2", "--samples", "5",
                  "--bootstrap", "0", "--quiet", "--no-energy", NULL};
  static const pp_app app = {
      .name = "test_measure", .summary = "unit test", .size_help = "n", .default_sizes = "1", .max_size = 1000,
      .epilog = ""};
  pp_session s;
  pp_session_start(&s, 11, argv, &app);
  s.ops[PP_HOST] = &fake;
  s.ready = 1; /* no copy ceiling: nothing here moves memory */
  test_run(&s);
  test_wall_timer(&s);
  test_parts(&s, PP_PARTS_EVERY_RUN);
  test_parts(&s, PP_PARTS_EXTRA_RUN);
  /* the report ends with the failures above as FAIL rows: exit 1 is expected */
  pp_report_free(s.report);
  if (failures) fprintf(stderr, "%d checks failed\n", failures);
  else printf("measure: all checks passed\n");
  return failures != 0;
}
