/* microbench driver: for each size, model and threads-per-block, run every
 * selected kernel, check its result exactly against the host, and report. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "microbench.h"
#include "pp/pp.h"

enum { K_INIT, K_AXPY_D, K_AXPY_F, K_AXPY_I, K_COPY, K_MUL, K_ADD, K_TRIAD, K_DOT,
       K_ATOMIC_UPDATE, K_ATOMIC_CAPTURE, K_REDUCE, K_LAUNCH_EMPTY, K_CHAIN_SYNC,
       K_CHAIN_ASYNC, K_COUNT };
static const char *const kernel_names[K_COUNT] = {
    "init", "zaxpy_d", "zaxpy_f", "zaxpy_i", "copy", "mul", "add", "triad", "dot",
    "atomic_update", "atomic_capture", "reduce", "launch_empty", "launch_sync", "launch_async"};
/* Timed launches of launch_empty per sample (one launch is a few microseconds). */
#define LAUNCH_REPS 100

int mb_blocks = 0;

typedef struct config {
  pp_list tpb;
  unsigned kernels; /* bit k: kernel k selected */
} config;

static const char *parse_tpb(const char *v, void *ctx) {
  config *c = ctx;
  const char *err = pp_parse_list(v, 32, 1024, &c->tpb);
  if (err) return err;
  for (int i = 0; i < c->tpb.n; i++)
    if (c->tpb.v[i] % 32) return "threads per block must be multiples of 32";
  return NULL;
}

static const char *parse_blocks(const char *v, void *ctx) {
  long long b;
  (void)ctx;
  const char *err = pp_parse_int(v, 0, 0x7fffffff, &b);
  if (!err) mb_blocks = (int)b;
  return err;
}

static const char *parse_kernels(const char *v, void *ctx) {
  static char msg[128];
  config *c = ctx;
  char buf[512];
  if (strlen(v) >= sizeof buf) return "list too long";
  strcpy(buf, v);
  c->kernels = 0;
  for (char *t = strtok(buf, ","); t; t = strtok(NULL, ",")) {
    int k = 0;
    if (!strcmp(t, "all")) { c->kernels = (1u << K_COUNT) - 1; continue; }
    while (k < K_COUNT && strcmp(t, kernel_names[k])) k++;
    if (k == K_COUNT) {
      snprintf(msg, sizeof msg, "unknown kernel '%s'", t);
      return msg;
    }
    c->kernels |= 1u << k;
  }
  return c->kernels ? NULL : "empty list";
}

/* ---- data -------------------------------------------------------------- */

/* Multiples of 1/8 in [0.5, 1.5]: with the dyadic scalar every result is exact. */
static double eighth(uint64_t seed, size_t i) {
  return (4 + (int)(pp_hash_uniform(seed, i) * 9)) / 8.0;
}
/* Integers in [-2^20, 2^20): sums of up to 2^31 of them are exact in double. */
static double small_int(uint64_t seed, size_t i) {
  return (double)((int64_t)(pp_hash_uniform(seed, i) * 2097152.0) - 1048576);
}

typedef struct host_data {
  size_t n;
  double *a, *b, *c;      /* stream arrays (and the double axpy operands) */
  float *xf, *yf;
  int *xi, *yi;
  double *v;              /* integer-valued, for atomics and the reduction */
  double v_sum;           /* exact */
  long long v_pos;        /* positive elements of v */
  uint64_t v_pos_hash;    /* order-independent hash of the positive elements */
} host_data;

static uint64_t value_hash(double x) {
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  return pp_splitmix64(&bits);
}

static void make_data(host_data *h, size_t n, uint64_t seed) {
  h->n = n;
  h->a = malloc(n * sizeof(double));
  h->b = malloc(n * sizeof(double));
  h->c = malloc(n * sizeof(double));
  h->v = malloc(n * sizeof(double));
  h->xf = malloc(n * sizeof(float));
  h->yf = malloc(n * sizeof(float));
  h->xi = malloc(n * sizeof(int));
  h->yi = malloc(n * sizeof(int));
  double sum = 0;
  long long pos = 0;
  uint64_t hash = 0;
#pragma omp parallel for reduction(+ : sum, pos, hash)
  for (size_t i = 0; i < n; i++) {
    h->a[i] = eighth(seed, i);
    h->b[i] = eighth(seed + 1, i);
    h->c[i] = eighth(seed + 2, i);
    h->xf[i] = (float)eighth(seed + 3, i);
    h->yf[i] = (float)eighth(seed + 4, i);
    h->xi[i] = (int)(pp_hash_uniform(seed + 5, i) * 2001) - 1000;
    h->yi[i] = (int)(pp_hash_uniform(seed + 6, i) * 2001) - 1000;
    h->v[i] = small_int(seed + 7, i);
    sum += h->v[i];
    if (h->v[i] > 0) pos++, hash += value_hash(h->v[i]);
  }
  h->v_sum = sum;
  h->v_pos = pos;
  h->v_pos_hash = hash;
}

static void free_data(host_data *h) {
  free(h->a), free(h->b), free(h->c), free(h->v);
  free(h->xf), free(h->yf), free(h->xi), free(h->yi);
}

/* ---- one model at one size and tpb ----------------------------------------- */

typedef struct run {
  pp_session *s;
  pp_model m;
  const pp_device_ops *ops;
  const mb_kernels *k;
  const host_data *h;
  size_t n;
  int tpb;
  double *a, *b, *c, *v, *out, *scratch; /* device */
  float *xf, *yf, *zf;
  int *xi, *yi, *zi, *flag;
  unsigned long long *count;
  double *acc;
  int kernel, launches;
  double result;     /* the last run's reduction value */
  long long count_out;
  double *samples;
} run;

static void call(void *ctx) {
  run *r = ctx;
  size_t n = r->n;
  int t = r->tpb;
  switch (r->kernel) {
  case K_INIT: r->k->fill_zero(r->a, n, t); break;
  case K_AXPY_D: r->k->axpy_d(r->c, MB_AXPY_A, r->a, r->b, n, t); break;
  case K_AXPY_F: r->k->axpy_f(r->zf, (float)MB_AXPY_A, r->xf, r->yf, n, t); break;
  case K_AXPY_I: r->k->axpy_i(r->zi, 3, r->xi, r->yi, n, t); break;
  case K_COPY: r->k->copy(r->c, r->a, n, t); break;
  case K_MUL: r->k->mul(r->b, r->c, n, t); break;
  case K_ADD: r->k->add(r->c, r->a, r->b, n, t); break;
  case K_TRIAD: r->k->triad(r->a, r->b, r->c, n, t); break;
  case K_DOT: r->result = r->k->dot(r->a, r->b, n, t, r->scratch); break;
  case K_ATOMIC_UPDATE: r->result = r->k->atomic_sum(r->v, n, t, r->acc); break;
  case K_ATOMIC_CAPTURE: r->count_out = r->k->atomic_compact(r->v, n, t, r->out, r->count); break;
  case K_REDUCE: r->result = r->k->reduce_sum(r->v, n, t, r->scratch); break;
  case K_LAUNCH_EMPTY:
    for (int i = 0; i < LAUNCH_REPS; i++) r->k->empty(r->flag, ++r->launches, t);
    break;
  case K_CHAIN_SYNC: r->k->chain(r->a, 0, t); r->launches++; break;
  case K_CHAIN_ASYNC: r->k->chain(r->a, 1, t); r->launches++; break;
  }
}

static double *download_d(const run *r, const double *d, size_t n) {
  double *x = malloc(n * sizeof *x);
  r->ops->to_host(x, d, n * sizeof *x);
  return x;
}

/* Exact elementwise check of device array d against ref; returns mismatches. */
static size_t mismatches_d(const run *r, const double *d, const double *ref, size_t n) {
  double *x = download_d(r, d, n);
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) bad += !(x[i] == ref[i]);
  free(x);
  return bad;
}

static void poison_device_d(const run *r, double *d, size_t n) {
  double *x = malloc(n * sizeof *x);
  pp_poison_d(x, n);
  r->ops->to_device(d, x, n * sizeof *x);
  free(x);
}

static void set_check_count(pp_row *row, size_t bad, size_t n) {
  row->valid = bad == 0;
  snprintf(row->check, sizeof row->check, "%zu of %zu elements differ (exact)", bad, n);
}

static void set_check_value(pp_row *row, double got, double want) {
  row->valid = got == want;
  snprintf(row->check, sizeof row->check, "%.17g vs %.17g (exact)", got, want);
}

/* Times r->kernel into a row: work per run in the unit's numerator (ignored
 * for GB/s, which counts `bytes`), 0 for time-per-launch units. */
static pp_row time_kernel(run *r, int kernel, long long size, double work, const char *unit,
                          double bytes, int launches_per_run) {
  pp_row row;
  r->kernel = kernel;
  pp_bench(r->s, r->m, call, r, r->samples);
  for (int i = 0; i < r->s->opt.samples; i++) r->samples[i] /= launches_per_run;
  pp_row_init(&row, kernel_names[kernel], r->m, size);
  if (r->m != PP_HOST) snprintf(row.variant, sizeof row.variant, "tpb=%d", r->tpb);
  /* GB/s rows count bytes; other units bring their own work count */
  if (!strcmp(unit, "GB/s")) work = bytes / 1e9;
  pp_row_time(&row, r->samples, r->s->opt.samples, &r->s->opt.bootstrap, work, unit);
  row.bytes = bytes;
  return row;
}

static void add_row(run *r, pp_row *row) {
  pp_row_combine_ranks(row);
  pp_report_add(r->s->report, row);
}

static void bench_stream(run *r, unsigned sel) {
  const host_data *h = r->h;
  size_t n = r->n;
  double dn = (double)n;
  pp_row row;
  /* Host mirror of the BabelStream sequence copy, mul, add, triad, dot. */
  double *ha = malloc(n * sizeof *ha), *hb = malloc(n * sizeof *hb), *hc = malloc(n * sizeof *hc);
  memcpy(ha, h->a, n * sizeof *ha);
  memcpy(hb, h->b, n * sizeof *hb);
  memcpy(hc, h->c, n * sizeof *hc);
  r->ops->to_device(r->a, ha, n * sizeof *ha);
  r->ops->to_device(r->b, hb, n * sizeof *hb);

  if (sel & (1u << K_INIT)) {
    poison_device_d(r, r->c, n);
    double *save = r->a;
    r->a = r->c; /* init fills c, so a keeps its data */
    row = time_kernel(r, K_INIT, (long long)n, 8 * dn, "GB/s", 8 * dn, 1);
    r->a = save;
    double *x = download_d(r, r->c, n);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) bad += !(x[i] == 0.0);
    free(x);
    set_check_count(&row, bad, n);
    add_row(r, &row);
  }
  if (sel & (1u << K_AXPY_D)) {
    poison_device_d(r, r->c, n);
    row = time_kernel(r, K_AXPY_D, (long long)n, 24 * dn, "GB/s", 24 * dn, 1);
#pragma omp parallel for
    for (size_t i = 0; i < n; i++) hc[i] = mb_axpy_d(MB_AXPY_A, ha[i], hb[i]);
    set_check_count(&row, mismatches_d(r, r->c, hc, n), n);
    add_row(r, &row);
  }
  r->ops->to_device(r->c, h->c, n * sizeof(double));
  memcpy(hc, h->c, n * sizeof *hc);

  struct { int k; double bytes; } seq[] = {
      {K_COPY, 16 * dn}, {K_MUL, 16 * dn}, {K_ADD, 24 * dn}, {K_TRIAD, 24 * dn}};
  for (int s = 0; s < 4; s++) {
    int k = seq[s].k;
    double *dst = k == K_COPY ? r->c : k == K_MUL ? r->b : k == K_ADD ? r->c : r->a;
    double *hdst = k == K_COPY ? hc : k == K_MUL ? hb : k == K_ADD ? hc : ha;
    if (sel & (1u << k)) {
      poison_device_d(r, dst, n);
      row = time_kernel(r, k, (long long)n, seq[s].bytes, "GB/s", seq[s].bytes, 1);
    }
#pragma omp parallel for
    for (size_t i = 0; i < n; i++) {
      if (k == K_COPY) hc[i] = ha[i];
      else if (k == K_MUL) hb[i] = mb_mul(hc[i]);
      else if (k == K_ADD) hc[i] = ha[i] + hb[i];
      else ha[i] = mb_triad(hb[i], hc[i]);
    }
    if (sel & (1u << k)) {
      set_check_count(&row, mismatches_d(r, dst, hdst, n), n);
      add_row(r, &row);
    } else {
      r->ops->to_device(dst, hdst, n * sizeof(double)); /* keep the sequence's state */
    }
  }
  if (sel & (1u << K_DOT)) {
    row = time_kernel(r, K_DOT, (long long)n, 16 * dn, "GB/s", 16 * dn, 1);
    double want = 0;
#pragma omp parallel for reduction(+ : want)
    for (size_t i = 0; i < n; i++) want += ha[i] * hb[i];
    set_check_value(&row, r->result, want);
    add_row(r, &row);
  }
  free(ha), free(hb), free(hc);
}

static void bench_axpy_fi(run *r, unsigned sel) {
  const host_data *h = r->h;
  size_t n = r->n;
  double dn = (double)n;
  pp_row row;
  if (sel & (1u << K_AXPY_F)) {
    float *zf = malloc(n * sizeof *zf), *ref = malloc(n * sizeof *ref);
    pp_poison_f(zf, n);
    r->ops->to_device(r->zf, zf, n * sizeof *zf);
    row = time_kernel(r, K_AXPY_F, (long long)n, 12 * dn, "GB/s", 12 * dn, 1);
    r->ops->to_host(zf, r->zf, n * sizeof *zf);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) bad += !(zf[i] == mb_axpy_f((float)MB_AXPY_A, h->xf[i], h->yf[i]));
    set_check_count(&row, bad, n);
    add_row(r, &row);
    free(zf), free(ref);
  }
  if (sel & (1u << K_AXPY_I)) {
    int *zi = malloc(n * sizeof *zi);
    for (size_t i = 0; i < n; i++) zi[i] = INT32_MIN; /* not an axpy result here */
    r->ops->to_device(r->zi, zi, n * sizeof *zi);
    row = time_kernel(r, K_AXPY_I, (long long)n, 12 * dn, "GB/s", 12 * dn, 1);
    r->ops->to_host(zi, r->zi, n * sizeof *zi);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) bad += zi[i] != mb_axpy_i(3, h->xi[i], h->yi[i]);
    set_check_count(&row, bad, n);
    add_row(r, &row);
    free(zi);
  }
}

static void bench_atomics(run *r, unsigned sel) {
  const host_data *h = r->h;
  size_t n = r->n;
  double dn = (double)n;
  pp_row row;
  if (sel & (1u << K_ATOMIC_UPDATE)) {
    row = time_kernel(r, K_ATOMIC_UPDATE, (long long)n, dn / 1e9, "Gatomic/s", 8 * dn, 1);
    pp_row_metric(&row, "bandwidth", "GB/s", 8 * dn / row.time.median / 1e9);
    set_check_value(&row, r->result, h->v_sum);
    add_row(r, &row);
  }
  if (sel & (1u << K_ATOMIC_CAPTURE)) {
    poison_device_d(r, r->out, n);
    row = time_kernel(r, K_ATOMIC_CAPTURE, (long long)n, dn / 1e9, "Gelem/s", 8 * dn, 1);
    pp_row_metric(&row, "captures", "count", (double)r->count_out);
    /* count exact; contents as a multiset, through an order-independent hash */
    uint64_t hash = 0;
    long long c = r->count_out;
    if (c == h->v_pos) {
      double *x = download_d(r, r->out, (size_t)c);
      for (long long i = 0; i < c; i++) hash += value_hash(x[i]);
      free(x);
    }
    row.valid = c == h->v_pos && hash == h->v_pos_hash;
    snprintf(row.check, sizeof row.check, "count %lld vs %lld, multiset %s", c, h->v_pos,
             c != h->v_pos ? "not compared" : hash == h->v_pos_hash ? "equal" : "DIFFERS");
    add_row(r, &row);
  }
  if (sel & (1u << K_REDUCE)) {
    row = time_kernel(r, K_REDUCE, (long long)n, 8 * dn, "GB/s", 8 * dn, 1);
    set_check_value(&row, r->result, h->v_sum);
    add_row(r, &row);
  }
}

static void bench_launch(run *r, unsigned sel) {
  pp_row row;
  if (sel & (1u << K_LAUNCH_EMPTY)) {
    r->launches = 0;
    row = time_kernel(r, K_LAUNCH_EMPTY, 1, 0, "us/launch", 0, LAUNCH_REPS);
    int flag = -1;
    r->ops->to_host(&flag, r->flag, sizeof flag);
    row.valid = flag == r->launches;
    snprintf(row.check, sizeof row.check, "last launch wrote %d, expected %d", flag, r->launches);
    add_row(r, &row);
  }
  for (int k = K_CHAIN_SYNC; k <= K_CHAIN_ASYNC; k++) {
    if (!(sel & (1u << k))) continue;
    double ha[MB_CHAIN_LEN], got[MB_CHAIN_LEN];
    for (int i = 0; i < MB_CHAIN_LEN; i++) ha[i] = i;
    r->ops->to_device(r->a, ha, sizeof ha);
    r->launches = 0;
    row = time_kernel(r, k, MB_CHAIN_LEN, 0, "us/kernel", 0, MB_CHAIN_KERNELS);
    r->ops->to_host(got, r->a, sizeof got);
    size_t bad = 0;
    for (int i = 0; i < MB_CHAIN_LEN; i++)
      bad += !(got[i] == ha[i] + (double)r->launches * MB_CHAIN_KERNELS);
    set_check_count(&row, bad, MB_CHAIN_LEN);
    add_row(r, &row);
  }
}

static void run_model(pp_session *s, pp_model m, const mb_kernels *k, const host_data *h,
                      int tpb, unsigned sel) {
  run r;
  memset(&r, 0, sizeof r);
  r.s = s, r.m = m, r.ops = s->ops[m], r.k = k, r.h = h, r.n = h->n, r.tpb = tpb;
  const pp_device_ops *o = r.ops;
  size_t n = h->n, nd = n * sizeof(double), nf = n * sizeof(float), ni = n * sizeof(int);
  r.samples = malloc(sizeof(double) * (size_t)s->opt.samples);
  r.a = o->alloc(nd), r.b = o->alloc(nd), r.c = o->alloc(nd);
  r.v = pp_device_upload(o, h->v, nd);
  r.out = o->alloc(nd);
  r.scratch = o->alloc(mb_scratch_len(n, tpb) * sizeof(double));
  r.xf = pp_device_upload(o, h->xf, nf), r.yf = pp_device_upload(o, h->yf, nf), r.zf = o->alloc(nf);
  r.xi = pp_device_upload(o, h->xi, ni), r.yi = pp_device_upload(o, h->yi, ni), r.zi = o->alloc(ni);
  r.flag = o->alloc(sizeof(int));
  r.count = o->alloc(sizeof(unsigned long long));
  r.acc = o->alloc(sizeof(double));

  bench_stream(&r, sel);
  bench_axpy_fi(&r, sel);
  bench_atomics(&r, sel);
  bench_launch(&r, sel);

  void *bufs[] = {r.a, r.b, r.c, r.v, r.out, r.scratch, r.xf, r.yf, r.zf, r.xi, r.yi, r.zi,
                  r.flag, r.count, r.acc};
  for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) o->free(bufs[i]);
  free(r.samples);
}

static const mb_kernels *kernels_for(pp_model m) {
  return PP_MODEL_DISPATCH(m, mb_kernels_);
}

static const unsigned size_kernels = (1u << K_LAUNCH_EMPTY) - 1;

int main(int argc, char **argv) {
  static config cfg = {{4, {128, 256, 512, 1024}}, (1u << K_COUNT) - 1};
  static const pp_app_option options[] = {
      {"--tpb", "LIST", "threads per block/team, multiples of 32 (default 128,256,512,1024)", parse_tpb},
      {"--blocks", "N", "blocks/teams of the streaming and atomic kernels, threads striding over the "
       "array (default 0: one per tpb elements)", parse_blocks},
      {"--kernels", "LIST",
       "kernels to run (default all): init zaxpy_d zaxpy_f zaxpy_i copy mul add triad dot "
       "atomic_update atomic_capture reduce launch_empty launch_sync launch_async", parse_kernels},
      {NULL, NULL, NULL, NULL}};
  static const pp_app app = {
      "microbench", "array init, zaxpy, BabelStream, atomics, reductions and launch overhead",
      "array lengths in elements", "2^12,2^18,2^24", 1ll << 30, options, &cfg,
      "Kernels and their figures of merit:\n"
      "  init                 zero fill; GB/s (8 bytes/element written)\n"
      "  zaxpy_d/_f/_i        z = a*x + y in double/float/int; GB/s (3 arrays)\n"
      "  copy mul add triad   BabelStream; GB/s (2, 2, 3, 3 arrays)\n"
      "  dot                  BabelStream dot; GB/s (2 arrays)\n"
      "  atomic_update        sum of an array through one atomic accumulator; Gatomic/s\n"
      "  atomic_capture       compaction of the positive elements by atomic capture; Gelem/s\n"
      "  reduce               tree reduction (sum); GB/s\n"
      "  launch_empty         one launch of a one-store kernel, synchronized; us/launch\n"
      "  launch_sync/_async   100 small dependent kernels, synchronized after each launch or\n"
      "                       once (nowait+depend / one stream); us/kernel\n"
      "Every result is checked exactly against the host (inputs are multiples of 1/8, the\n"
      "stream scalar is 3/8, so no rounding can occur). The launch kernels run at the first\n"
      "size only. The host model ignores --tpb.\n"};

  pp_session s;
  pp_session_start(&s, argc, argv, &app);
  unsigned sel = cfg.kernels;
  long long maxn = 0;
  for (int i = 0; i < s.opt.sizes.n; i++) maxn = s.opt.sizes.v[i] > maxn ? s.opt.sizes.v[i] : maxn;
  /* a b c v out (8 bytes), xf yf zf xi yi zi (4 bytes), scratch */
  double dev_bytes = (double)maxn * (5 * 8 + 6 * 4 + 8);
  pp_session_check_fits(&s, "the largest size", dev_bytes, 2.0 * dev_bytes);

  pp_report_param(s.report, "sizes", "%s", "see rows (elements)");
  pp_report_param(s.report, "stream scalar", "%g (axpy a = %g)", MB_SCALAR, MB_AXPY_A);
  char tpbs[128] = "";
  for (int i = 0; i < cfg.tpb.n; i++)
    snprintf(tpbs + strlen(tpbs), sizeof tpbs - strlen(tpbs), "%s%lld", i ? "," : "", cfg.tpb.v[i]);
  pp_report_param(s.report, "threads per block", "%s", tpbs);
  if (mb_blocks) pp_report_param(s.report, "blocks (streaming, atomics)", "%d", mb_blocks);
  else pp_report_param(s.report, "blocks (streaming, atomics)", "one per tpb elements");

  for (int si = 0; si < s.opt.sizes.n; si++) {
    host_data h;
    make_data(&h, (size_t)s.opt.sizes.v[si], s.opt.seed);
    unsigned here = si == 0 ? sel : sel & size_kernels;
    for (int m = 0; m < PP_MODEL_COUNT; m++) {
      if (!s.ops[m] || !here) continue;
      int ntpb = m == PP_HOST ? 1 : cfg.tpb.n;
      for (int t = 0; t < ntpb; t++) {
        int tpb = m == PP_HOST ? 256 : (int)cfg.tpb.v[t];
        pp_progress(&s, "size %zu, %s, tpb %d", h.n, pp_model_name((pp_model)m), tpb);
        run_model(&s, (pp_model)m, kernels_for((pp_model)m), &h, tpb, here);
      }
    }
    free_data(&h);
  }
  return pp_session_finish(&s);
}
