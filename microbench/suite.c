/* microbench's kernels as pp_kernel descriptors: for each row, the run
 * function of the same name, its setup and its check against gold values
 * (problem.c). Planted faults (--inject-fault): NAME-missed for every row
 * (pp/kernel.h), NAME-element for the element-wise rows, NAME-sum for dot,
 * atomic_update and reduce, atomic_capture-count, atomic_capture-value and
 * launch_empty-skip-one. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pp/dispatch.h"
#include "pp/kernel.h"
#include "pp/measure.h"
#include "pp/report.h"
#include "pp/fault.h"
#include "pp/reduce.h"
#include "pp/validate.h"
#include "suite.h"

/* One model at one size and tpb. Inputs a b c v xf yf xi yi are uploaded
 * once and never written; each kernel writes z/zf/zi (compaction: z),
 * result, count_out, flag or chain. */
typedef struct mb_state {
  pp_session *s;
  const pp_device_ops *ops;
  const mb_kernels *k;
  const pp_reduce_ops *red;
  const mb_inputs *in;
  const mb_gold *gold;
  size_t n;
  int tpb;
  int blocks; /* --blocks (0: one per tpb elements) */
  int per_thread; /* --per-thread: elements per thread of the streaming kernels without blocks */
  double *a, *b, *c, *v, *z, *scratch, *acc, *chain; /* device */
  float *xf, *yf, *zf;
  int *xi, *yi, *zi, *flag;
  unsigned long long *count;
  double result;       /* dot, reduce, atomic_update */
  long long count_out; /* atomic_capture */
  int skip_one;        /* planted: launch_empty misses one launch */
  void *host;          /* one downloaded result (n doubles), reused by every check */
} mb_state;

/* Runs of a kernel in one measurement: warm-up and timed. */
static long long runs(const mb_state *r) { return r->s->opt.warmup + r->s->opt.samples; }

/* ---- run functions, named for their rows ----------------------------------- */
#define R mb_state *r = ctx
/* Blocks of the streaming kernels (mb_stream_blocks). */
#define SB mb_stream_blocks(r->n, r->tpb, r->blocks, r->per_thread)
static void init(void *ctx) { R; r->k->init(r->z, r->n, r->tpb, SB); }
static void zaxpy_d(void *ctx) { R; r->k->zaxpy_d(r->z, MB_AXPY_A, r->a, r->b, r->n, r->tpb, SB); }
static void zaxpy_f(void *ctx) { R; r->k->zaxpy_f(r->zf, (float)MB_AXPY_A, r->xf, r->yf, r->n, r->tpb, SB); }
static void zaxpy_i(void *ctx) { R; r->k->zaxpy_i(r->zi, MB_AXPY_I, r->xi, r->yi, r->n, r->tpb, SB); }
static void copy(void *ctx) { R; r->k->copy(r->z, r->a, r->n, r->tpb, SB); }
static void mul(void *ctx) { R; r->k->mul(r->z, r->c, r->n, r->tpb, SB); }
static void add(void *ctx) { R; r->k->add(r->z, r->a, r->b, r->n, r->tpb, SB); }
static void triad(void *ctx) { R; r->k->triad(r->z, r->b, r->c, r->n, r->tpb, SB); }
#undef SB
static void dot(void *ctx) {
  R;
  r->result = r->red->dot(r->a, r->b, r->n, r->tpb, r->blocks, r->scratch);
}
static void atomic_update(void *ctx) { R; r->result = r->k->atomic_update(r->v, r->n, r->tpb, r->blocks, r->acc); }
static void atomic_capture(void *ctx) {
  R;
  r->count_out = r->k->atomic_capture(r->v, r->n, r->tpb, r->blocks, r->z, r->count);
}
static void reduce(void *ctx) { R; r->result = r->red->sum(r->v, r->n, r->tpb, r->blocks, r->scratch); }
static void launch_empty(void *ctx) {
  R;
  if (r->skip_one) pp_fault_fire("launch_empty-skip-one");
  for (int i = r->skip_one; i < MB_LAUNCH_REPS; i++) r->k->launch_empty(r->flag, r->tpb);
  r->skip_one = 0;
}
static void launch_sync(void *ctx) { R; r->k->launch_sync(r->chain, r->tpb, r->blocks); }
static void launch_async(void *ctx) { R; r->k->launch_async(r->chain, r->tpb, r->blocks); }

/* ---- setup: poison what the run writes -------------------------------------- */
static void poison_z(void *ctx) { R; pp_device_poison_d(r->ops, r->z, r->n); }
static void poison_zf(void *ctx) { R; pp_device_poison_f(r->ops, r->zf, r->n); }
static void poison_zi(void *ctx) {
  R;
  int bad = INT32_MIN; /* no zaxpy_i result here: |3x + y| <= 4000 */
  pp_device_fill(r->ops, r->zi, &bad, sizeof bad, r->n);
}
static void poison_result(void *ctx) { R; r->result = NAN; }
static void poison_capture(void *ctx) {
  R;
  r->count_out = -1;
  pp_device_poison_d(r->ops, r->z, r->n);
}
static void reset_flag(void *ctx) {
  R;
  int zero = 0;
  r->ops->to_device(r->flag, &zero, sizeof zero);
  r->skip_one = pp_fault("launch_empty-skip-one");
}
static void reset_chain(void *ctx) {
  R;
  double x[MB_CHAIN_LEN];
  for (int i = 0; i < MB_CHAIN_LEN; i++) x[i] = i;
  r->ops->to_device(r->chain, x, sizeof x);
}

/* ---- verify ----------------------------------------------------------------- */

/* "<row>-<what>" was planted: the caller changes the result when this says 1. */
static int planted(const pp_row *row, const char *what) {
  char name[64];
  snprintf(name, sizeof name, "%s-%s", row->kernel, what);
  return pp_fault_fire(name);
}

/* Element-wise, exact, against gold(seed, i); fault <row>-element. */
static void check_d(mb_state *r, pp_row *row, double (*gold)(uint64_t, size_t)) {
  size_t n = r->n, bad = 0;
  uint64_t seed = r->in->seed;
  double *x = r->host;
  r->ops->to_host(x, r->z, n * sizeof *x);
  if (planted(row, "element")) x[n / 2] += 0.125;
#pragma omp parallel for reduction(+ : bad)
  for (size_t i = 0; i < n; i++) bad += !(x[i] == gold(seed, i));
  pp_check_mismatches(row, bad, n);
}
#define CHECK_D(row_name)                                                               \
  static void verify_##row_name(void *ctx, pp_row *row) { check_d(ctx, row, mb_gold_##row_name); }
CHECK_D(init)
CHECK_D(zaxpy_d)
CHECK_D(copy)
CHECK_D(mul)
CHECK_D(add)
CHECK_D(triad)

static void verify_zaxpy_f(void *ctx, pp_row *row) {
  R;
  size_t n = r->n, bad = 0;
  float *x = r->host;
  r->ops->to_host(x, r->zf, n * sizeof *x);
  if (planted(row, "element")) x[n / 2] += 0.125f;
#pragma omp parallel for reduction(+ : bad)
  for (size_t i = 0; i < n; i++) bad += !(x[i] == mb_gold_zaxpy_f(r->in->seed, i));
  pp_check_mismatches(row, bad, n);
}
static void verify_zaxpy_i(void *ctx, pp_row *row) {
  R;
  size_t n = r->n, bad = 0;
  int *x = r->host;
  r->ops->to_host(x, r->zi, n * sizeof *x);
  if (planted(row, "element")) x[n / 2] += 1;
#pragma omp parallel for reduction(+ : bad)
  for (size_t i = 0; i < n; i++) bad += x[i] != mb_gold_zaxpy_i(r->in->seed, i);
  pp_check_mismatches(row, bad, n);
}

/* One exact sum; fault <row>-sum. */
static void check_sum(mb_state *r, pp_row *row, double want) {
  double got = r->result;
  if (planted(row, "sum")) got += 1;
  pp_check_equal(row, got, want);
}
static void verify_dot(void *ctx, pp_row *row) { R; check_sum(r, row, r->gold->dot); }
static void verify_atomic_update(void *ctx, pp_row *row) { R; check_sum(r, row, r->gold->v_sum); }
static void verify_reduce(void *ctx, pp_row *row) { R; check_sum(r, row, r->gold->v_sum); }

/* The count exactly; the captured values as a multiset, through an
 * order-independent hash. Faults: atomic_capture-count, -value. */
static void verify_atomic_capture(void *ctx, pp_row *row) {
  R;
  long long c = r->count_out, want = r->gold->v_pos;
  uint64_t hash = 0;
  if (planted(row, "count")) c += 1;
  int same_count = c == want;
  if (same_count && c > 0) {
    double *x = r->host; /* c <= n: the count was checked */
    r->ops->to_host(x, r->z, (size_t)c * sizeof *x);
    if (planted(row, "value")) x[c / 2] += 1;
    for (long long i = 0; i < c; i++) hash += mb_value_hash(x[i]);
  }
  row->valid = same_count && hash == r->gold->v_pos_hash;
  snprintf(row->check, sizeof row->check, "count %lld vs %lld, multiset %s", c, want,
           !same_count ? "not compared" : hash == r->gold->v_pos_hash ? "equal" : "DIFFERS");
  pp_row_metric(row, "captures", "count", (double)c);
}

/* Every launch of every run added 1; fault launch_empty-skip-one. */
static void verify_launch_empty(void *ctx, pp_row *row) {
  R;
  int got = -1;
  long long want = runs(r) * MB_LAUNCH_REPS;
  r->ops->to_host(&got, r->flag, sizeof got);
  row->valid = got == want;
  snprintf(row->check, sizeof row->check, "%d launches counted, %lld made", got, want);
}
/* Element i started at i; each of the chain's launches in each run added 1. */
static void verify_chain(void *ctx, pp_row *row) {
  R;
  double x[MB_CHAIN_LEN];
  size_t bad = 0;
  double add = (double)(runs(r) * MB_CHAIN_KERNELS);
  r->ops->to_host(x, r->chain, sizeof x);
  for (int i = 0; i < MB_CHAIN_LEN; i++) bad += !(x[i] == i + add);
  pp_check_mismatches(row, bad, MB_CHAIN_LEN);
}
#undef R

/* ---- the table ---------------------------------------------------------------- */
static double b8(long long n) { return 8.0 * n; }
static double b12(long long n) { return 12.0 * n; }
static double b16(long long n) { return 16.0 * n; }
static double b24(long long n) { return 24.0 * n; }
static double giga(long long n) { return n / 1e9; }

#define ELEMENTS(nm, text, b, poison)                                                    \
  {.name = #nm, .help = text, .unit = "GB/s", .bytes = b, .setup = poison, .run = nm,       \
   .verify = verify_##nm}
const pp_kernel mb_suite[] = {
    ELEMENTS(init, "zero fill; GB/s (8 bytes/element written)", b8, poison_z),
    ELEMENTS(zaxpy_d, "z = a*x + y in double; GB/s (3 arrays)", b24, poison_z),
    ELEMENTS(zaxpy_f, "the same in float; GB/s", b12, poison_zf),
    ELEMENTS(zaxpy_i, "the same in int; GB/s", b12, poison_zi),
    ELEMENTS(copy, "BabelStream copy z = a; GB/s (2 arrays)", b16, poison_z),
    ELEMENTS(mul, "BabelStream mul z = s*c; GB/s (2 arrays)", b16, poison_z),
    ELEMENTS(add, "BabelStream add z = a + b; GB/s (3 arrays)", b24, poison_z),
    ELEMENTS(triad, "BabelStream triad z = b + s*c; GB/s (3 arrays)", b24, poison_z),
    {.name = "dot", .help = "BabelStream dot a.b (the shared reduction); GB/s (2 arrays)",
     .unit = "GB/s", .bytes = b16, .setup = poison_result, .run = dot, .verify = verify_dot},
    {.name = "atomic_update", .help = "sum of an array through one atomic accumulator; Gatomic/s",
     .unit = "Gatomic/s", .bytes = b8, .work = giga, .setup = poison_result, .run = atomic_update,
     .verify = verify_atomic_update},
    {.name = "atomic_capture",
     .help = "compaction of the positive elements by atomic capture; Gelem/s", .unit = "Gelem/s",
     .bytes = b8, .work = giga, .setup = poison_capture, .run = atomic_capture,
     .verify = verify_atomic_capture},
    {.name = "reduce", .help = "tree reduction, sum (the shared reduction); GB/s", .unit = "GB/s",
     .bytes = b8, .setup = poison_result, .run = reduce, .verify = verify_reduce},
    {.name = "launch_empty", .help = "one launch of a one-thread kernel, synchronized; us/launch",
     .unit = "us/launch", .calls = MB_LAUNCH_REPS, .size = 1, .setup = reset_flag,
     .run = launch_empty, .verify = verify_launch_empty},
    {.name = "launch_sync", .help = "100 small dependent kernels, synchronized after each; us/kernel",
     .unit = "us/kernel", .calls = MB_CHAIN_KERNELS, .size = MB_CHAIN_LEN, .setup = reset_chain,
     .run = launch_sync, .verify = verify_chain},
    {.name = "launch_async",
     .help = "the same launched back to back (nowait+depend / one stream); us/kernel",
     .unit = "us/kernel", .calls = MB_CHAIN_KERNELS, .size = MB_CHAIN_LEN, .setup = reset_chain,
     .run = launch_async, .verify = verify_chain},
};
const int mb_suite_len = (int)(sizeof mb_suite / sizeof mb_suite[0]);

/* The faults planted above (planted(), reset_flag) and KERNEL-missed for every kernel. */
const char *const mb_faults[] = {
    "init-missed", "zaxpy_d-missed", "zaxpy_f-missed", "zaxpy_i-missed", "copy-missed", "mul-missed",
    "add-missed", "triad-missed", "dot-missed", "atomic_update-missed", "atomic_capture-missed",
    "reduce-missed", "launch_empty-missed", "launch_sync-missed", "launch_async-missed",
    "init-element", "zaxpy_d-element", "zaxpy_f-element", "zaxpy_i-element", "copy-element",
    "mul-element", "add-element", "triad-element", "dot-sum", "atomic_update-sum", "reduce-sum",
    "atomic_capture-count", "atomic_capture-value", "launch_empty-skip-one", NULL};

/* ---- one model ------------------------------------------------------------------ */
/* Energy after the sweep: each metered kernel's rows at every tpb, or its
 * fastest alone (the others name it); the kernels metered at another size
 * say which. */
static void meter_rows(pp_session *s, pp_model m, mb_state *r, const int *tpb, int ntpb, uint64_t mask,
                       const mb_energy_plan *plan, const int (*row)[MB_MAX_TPB]) {
  for (int i = 0; i < mb_suite_len; i++) {
    if (!(mask >> i & 1)) continue;
    char variant[32], why[160];
    if (!(plan->metered >> i & 1)) {
      snprintf(why, sizeof why, "the kernel's energy is measured at the largest size, %lld (--energy-sizes all)",
               plan->largest);
      for (int t = 0; t < ntpb; t++) pp_measure_energy_skip(s, row[i][t], why);
      continue;
    }
    int best = 0;
    for (int t = 1; t < ntpb; t++) {
      const pp_row *a = pp_report_row(s->report, row[i][t]), *b = pp_report_row(s->report, row[i][best]);
      if (a->higher_is_better ? a->fom > b->fom : a->fom < b->fom) best = t;
    }
    snprintf(why, sizeof why, "the kernel's energy is measured at its fastest launch, tpb=%d (--energy-tpb all)",
             tpb[best]);
    for (int t = 0; t < ntpb; t++) {
      if (!plan->all_tpb && t != best) {
        pp_measure_energy_skip(s, row[i][t], why);
        continue;
      }
      variant[0] = 0;
      if (m != PP_HOST) snprintf(variant, sizeof variant, "tpb=%d", tpb[t]);
      r->tpb = tpb[t];
      const pp_measure spec = pp_kernel_measure(&mb_suite[i], (long long)r->n, variant);
      pp_measure_energy_of(s, m, row[i][t], &spec, mb_suite[i].run, r);
    }
  }
}

void mb_run_model(pp_session *s, pp_model m, const mb_inputs *in, const mb_gold *gold, const int *tpb,
                  int ntpb, const mb_shape *shape, const mb_energy_plan *plan, uint64_t mask,
                  void *check_buf) {
  mb_state r;
  memset(&r, 0, sizeof r);
  r.s = s, r.ops = s->ops[m], r.in = in, r.gold = gold, r.n = in->n;
  r.blocks = shape->blocks, r.per_thread = shape->per_thread;
  r.host = check_buf;
  r.k = PP_MODEL_DISPATCH(m, mb_kernels_);
  r.red = pp_reduce_for(m);
  const pp_device_ops *o = r.ops;
  size_t n = in->n, nd = n * sizeof(double), nf = n * sizeof(float), ni = n * sizeof(int);
  r.a = pp_device_upload(o, in->a, nd), r.b = pp_device_upload(o, in->b, nd);
  r.c = pp_device_upload(o, in->c, nd), r.v = pp_device_upload(o, in->v, nd);
  r.z = o->alloc(nd);
  r.xf = pp_device_upload(o, in->xf, nf), r.yf = pp_device_upload(o, in->yf, nf);
  r.zf = o->alloc(nf);
  r.xi = pp_device_upload(o, in->xi, ni), r.yi = pp_device_upload(o, in->yi, ni);
  r.zi = o->alloc(ni);
  r.scratch = pp_reduce_scratch_alloc(o);
  r.chain = o->alloc(MB_CHAIN_LEN * sizeof(double)); /* its own: n may be < MB_CHAIN_LEN */
  r.acc = o->alloc(sizeof(double));
  r.flag = o->alloc(sizeof(int));
  r.count = o->alloc(sizeof(unsigned long long));

  static int row[64][MB_MAX_TPB]; /* each kernel's row at each tpb */
  /* rows are metered as they run unless some are chosen after the sweep */
  const int later = (!plan->all_tpb && ntpb > 1) || (mask & ~plan->metered);
  s->energy_later = later;
  for (int t = 0; t < ntpb; t++) {
    char variant[32] = "";
    r.tpb = tpb[t];
    if (m != PP_HOST) snprintf(variant, sizeof variant, "tpb=%d", tpb[t]);
    pp_progress(s, "size %zu, %s, tpb %d", in->n, pp_model_name(m), tpb[t]);
    for (int i = 0; i < mb_suite_len; i++)
      if (mask >> i & 1) row[i][t] = pp_kernel_bench(s, m, &mb_suite[i], &r, (long long)n, variant);
  }
  s->energy_later = 0;
  if (later) meter_rows(s, m, &r, tpb, ntpb, mask, plan, (const int(*)[MB_MAX_TPB])row);

  void *bufs[] = {r.a, r.b, r.c, r.v, r.z, r.xf, r.yf, r.zf, r.xi, r.yi, r.zi,
                  r.scratch, r.chain, r.acc, r.flag, r.count};
  for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) o->free(bufs[i]);
}
