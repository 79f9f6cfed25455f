/* xsbench_like driver: options -> XSBench's data -> each model's event
 * variants (variants.c; or the history method) -> checksum check -> report. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pp/pp.h"
#include "xs_options.h"
#include "xsbench_like.h"

#define GIB 1073741824.0

typedef struct plan {
  xs_config c;
  xs_sizes z;
  long long total;     /* event: lookups; history: particles */
  long long per;       /* history: lookups per particle; event: 1 */
  long long first, n;  /* this rank's share of `total` */
  long long n_most;    /* the largest rank's share: what every rank checks a model's limits by */
  int band;            /* the sorted variants split by energy band (--split energy) */
  double band_lo, band_hi; /* this rank's band */
  long long band_n;    /* lookups in it, counted on the host */
  long long band_most; /* the largest rank's band */
  long long work_n;    /* the scratch's lookups: the larger share this rank runs */
  unsigned long long expect;
  const char *expect_why;
} plan;

/* One timed simulation: the model's variant over this rank's share. */
typedef struct call_ctx {
  const xs_kernels *k;
  const xs_data *d;
  xs_work *work;
  int variant; /* -1: history */
  const plan *p;
  unsigned long long sum;
  int changed; /* a later run returned a different sum */
  int runs;
  int band;            /* this row splits by energy band */
  double band_lo;      /* the band's lower edge as the device gets it */
  long long kept_wrong; /* a band count the device got wrong (-1: none) */
} call_ctx;

static void call(void *arg) {
  call_ctx *x = arg;
  const plan *p = x->p;
  unsigned long long s;
  if (x->variant < 0) s = x->k->history(x->d, x->work, p->first, p->n, p->per);
  else if (!x->band) s = xs_event(x->k, x->d, x->work, x->variant, p->first, p->n);
  else {
    long long kept;
    s = xs_event_band(x->k, x->d, x->work, x->variant, p->total, x->band_lo, p->band_hi, p->work_n, &kept);
    if (kept != p->band_n) {
      if (x->kept_wrong < 0)
        fprintf(stderr, "xsbench_like: rank %d: the device kept %lld lookups of its energy band, the host "
                "counts %lld\n", pp_mpi_rank(), kept, p->band_n);
      x->kept_wrong = kept;
    }
  }
  if (x->runs++ && s != x->sum) x->changed = 1;
  x->sum = s;
}

/* Lookups of [0, total) with energy in [lo, hi), counted on the host by the
 * device's lanes (the count the device must reach, and the scratch's size). */
static long long band_count(long long total, double lo, double hi) {
  const long long lanes = xs_band_lanes(total);
  long long kept = 0;
#pragma omp parallel for schedule(static) reduction(+ : kept)
  for (long long j = 0; j < lanes; j++) kept += xs_band_lane_count(j, total, lo, hi);
  return kept;
}

/* The checksum of all ranks' sums (exact: below 2^53). */
static unsigned long long global_checksum(unsigned long long local) {
  double v = (double)local;
  pp_mpi_sum(&v, 1);
  return (unsigned long long)v % XS_HASH_MOD;
}

static void *up(const pp_device_ops *o, const void *src, size_t bytes) {
  return src ? pp_device_upload(o, src, bytes ? bytes : 1) : NULL;
}
/* Device copy of the data; returns the seconds the transfer took. */
static double upload(pp_model m, const pp_device_ops *o, const xs_data *h, xs_data *dd) {
  *dd = *h;
  if (m == PP_HOST) return 0;
  double t0 = pp_wtime();
  const size_t row = sizeof(int) * XS_MATERIALS * (size_t)h->max_num_nucs;
  dd->num_nucs = up(o, h->num_nucs, sizeof(int) * XS_MATERIALS);
  dd->mats = up(o, h->mats, row);
  dd->concs = up(o, h->concs, sizeof(double) * XS_MATERIALS * (size_t)h->max_num_nucs);
  dd->egrid = up(o, h->egrid, h->len_egrid * sizeof(double));
  dd->index_grid = up(o, h->index_grid, h->len_index * sizeof(int));
  dd->nuclide_grid = up(o, h->nuclide_grid,
                        (size_t)h->n_isotopes * (size_t)h->n_gridpoints * sizeof(xs_point));
  o->sync();
  return pp_wtime() - t0;
}
static void release_data(pp_model m, const pp_device_ops *o, xs_data *dd) {
  if (m == PP_HOST) return;
  const void *p[] = {dd->num_nucs, dd->mats, dd->concs, dd->egrid, dd->index_grid, dd->nuclide_grid};
  for (int i = 0; i < 6; i++)
    if (p[i]) o->free((void *)p[i]);
}

/* Keys and values of the first n lookups, the keys twice. */
static void sort_input(uint64_t *key, uint64_t *ref, double *val, long long n) {
  for (long long i = 0; i < n; i++) {
    int mat;
    xs_sample(i, &val[i], &mat);
    key[i] = ref[i] = xs_sort_key(mat, val[i]);
  }
}

/* The model's sort alone, on keys of the first lookups, over the bits the
 * sorted-energy variant sorts (8-bit and narrower passes): sorted by those
 * bits, a permutation of the input, every value still with its key. The
 * pairs are read back from where the sort left them. */
static int check_sort(pp_model m, const pp_device_ops *o, const xs_kernels *k, xs_work *work,
                      long long n, int all, char *why, size_t len) {
  if (n > 100003 && !all) n = 100003;
  uint64_t *key = pp_host_alloc("xsbench_like", (size_t)n * 8, "the sort check's keys");
  uint64_t *ref = pp_host_alloc("xsbench_like", (size_t)n * 8, "the sort check's keys");
  double *val = pp_host_alloc("xsbench_like", (size_t)n * 8, "the sort check's values");
  sort_input(key, ref, val, n);
  uint64_t *dk = key;
  double *dv = val;
  if (m != PP_HOST) dk = pp_device_upload(o, key, (size_t)n * 8), dv = pp_device_upload(o, val, (size_t)n * 8);
  double secs = 0;
  if (all) { /* --sort-check: an untimed run, the input again, a timed run */
    k->sort_pairs(work, dk, dv, n, XS_KEY_ENERGY_LO_BIT, 64);
    if (m != PP_HOST) o->to_device(dk, ref, (size_t)n * 8), o->to_device(dv, val, (size_t)n * 8);
    else sort_input(key, ref, val, n);
    o->sync();
    secs = pp_wtime();
  }
  const int moved = k->sort_pairs(work, dk, dv, n, XS_KEY_ENERGY_LO_BIT, 64);
  if (all) o->sync(), secs = pp_wtime() - secs;
  const uint64_t *sk = moved ? work->key_alt : dk;
  const double *sv = moved ? work->val_alt : dv;
  if (sk != key) o->to_host(key, sk, (size_t)n * 8), o->to_host(val, sv, (size_t)n * 8);
  if (m != PP_HOST) o->free(dk), o->free(dv);
  if (n > 1 && pp_fault_fire("xs-sort")) { double t = val[0]; val[0] = val[n - 1]; val[n - 1] = t; }
  /* order, each value still with its key, and the same keys (by their sum) */
  int ok = 1;
  unsigned long long in_sum = 0, out_sum = 0;
  for (long long i = 0; i < n; i++) {
    in_sum += ref[i], out_sum += key[i];
    if (i && key[i] >> XS_KEY_ENERGY_LO_BIT < key[i - 1] >> XS_KEY_ENERGY_LO_BIT) ok = 0;
    if (xs_sort_key(xs_key_mat(key[i]), val[i]) != key[i]) ok = 0;
  }
  if (in_sum != out_sum) ok = 0;
  snprintf(why, len, "sort of %lld keys %s", n, ok ? "ok" : "WRONG");
  if (all && pp_mpi_rank() == 0)
    printf("%s sort alone: %lld keys, bits [%d, 64), %.3f ms (host wall clock), %s\n",
           pp_model_name(m), n, XS_KEY_ENERGY_LO_BIT, secs * 1e3, ok ? "ok" : "WRONG");
  free(key), free(ref), free(val);
  return ok;
}

/* The band check's reference: xs_sample's lookups of the first `total`
 * (at most 1,000,003; all of them with --sort-check) in this rank's band, as
 * (key, energy) pairs in order; built once for every model. */
typedef struct band_ref {
  xs_key_val *pair;
  long long n, total;
} band_ref;
static band_ref band_ref_make(const plan *p) {
  band_ref r = {.total = p->c.sort_check || p->total < 1000003 ? p->total : 1000003};
  /* at most `total` lookups are in the band, and at most work_n fit */
  const long long room = r.total < p->work_n ? r.total : p->work_n;
  r.pair = pp_host_alloc("xsbench_like", (size_t)room * sizeof *r.pair + 1, "the band check's pairs");
  long long n = 0;
#pragma omp parallel for schedule(static)
  for (long long i = 0; i < r.total; i++) {
    double e;
    int mat;
    xs_sample(i, &e, &mat);
    if (xs_in_band(e, p->band_lo, p->band_hi)) {
      long long at;
#pragma omp atomic capture
      at = n++;
      if (at < room) r.pair[at].key = xs_sort_key(mat, e), r.pair[at].val = e;
    }
  }
  r.n = n < room ? n : room;
  qsort(r.pair, (size_t)r.n, sizeof *r.pair, xs_key_val_order);
  return r;
}

/* The model's band sampler alone over the reference's lookups, its band
 * starting at lo: the pairs it keeps must be exactly the reference's (any
 * order). */
static int check_band(pp_model m, const pp_device_ops *o, const xs_kernels *k, xs_work *work,
                      const plan *p, const band_ref *ref, double lo, char *why, size_t len) {
  const long long kept = k->sample_band(work, ref->total, lo, p->band_hi, p->work_n);
  /* more than the reference: wrong, and kept != ref->n says so */
  const long long n = kept < ref->n ? kept : ref->n;
  xs_key_val *got = pp_host_alloc("xsbench_like", (size_t)n * sizeof *got + 1, "the band check's pairs");
  uint64_t *key = pp_host_alloc("xsbench_like", (size_t)n * 8 + 1, "the band check's keys");
  double *val = pp_host_alloc("xsbench_like", (size_t)n * 8 + 1, "the band check's values");
  if (n > 0) o->to_host(key, work->key, (size_t)n * 8), o->to_host(val, work->energy, (size_t)n * 8);
  for (long long i = 0; i < n; i++) got[i].key = key[i], got[i].val = val[i];
  if (n > 0 && pp_fault_fire("xs-band-check")) got[0].val = -got[0].val;
  qsort(got, (size_t)n, sizeof *got, xs_key_val_order);
  int ok = kept == ref->n;
  for (long long i = 0; ok && i < n; i++) ok = got[i].key == ref->pair[i].key && got[i].val == ref->pair[i].val;
  snprintf(why, len, "; band %s", ok ? "ok" : "WRONG");
  if (pp_mpi_rank() == 0 && (p->c.sort_check || !ok))
    printf("%s band sampling alone: %lld lookups, %lld kept (host: %lld), %s\n", pp_model_name(m), ref->total,
           kept, ref->n, ok ? "the host's lookups" : "WRONG: not the host's lookups");
  free(got), free(key), free(val);
  return ok;
}

/* One row's verdict: the global checksum, the same in every run, and for the
 * sorted variants the model's sort checked alone. */
typedef struct row_ctx {
  call_ctx x;
  pp_model m;
  const char *vname;
  int is_sorted, sort_ok;
  const char *sort_check; /* the sort checked alone: "sort of N keys ok" */
  int band_check_ok;      /* the band sampler checked alone (band rows; else 1) */
  const char *band_check; /* "; band ok" or "" */
  double t_h2d, lookups; /* all ranks' */
} row_ctx;

static void verify_row(void *arg, pp_row *row) {
  row_ctx *r = arg;
  const plan *p = r->x.p;
  unsigned long long sum = r->x.sum;
  if (pp_fault_fire("xs-checksum")) sum += 1;
  const unsigned long long cs = global_checksum(sum);
  const int stable = pp_mpi_all(!r->x.changed);
  const int band_ok = pp_mpi_all(r->x.kept_wrong < 0);
  char band[64] = "";
  if (!band_ok) /* rank 0's counts; every rank's on stderr (call) */
    snprintf(band, sizeof band, "; band count %lld != %lld", r->x.kept_wrong < 0 ? p->band_n : r->x.kept_wrong,
             p->band_n);
  pp_row_metric(row, "checksum", "", (double)cs);
  row->valid = cs == p->expect && stable && band_ok && r->band_check_ok && (!r->is_sorted || r->sort_ok);
  snprintf(row->check, sizeof row->check, "checksum %llu %s %llu (%s)%s%s%s%s%s", cs,
           cs == p->expect ? "==" : "!=", p->expect, p->expect_why, stable ? "" : "; runs differ", band,
           r->is_sorted && band_ok ? "; " : "", r->is_sorted && band_ok ? r->sort_check : "",
           r->band_check);
  if (pp_mpi_rank() == 0)
    printf("checksum %llu\n%s %s: %s %s\n", cs, pp_model_name(r->m), r->vname,
           row->valid ? "PASS" : "FAIL", row->check);
}

static void row_figures(void *arg, pp_row *row) {
  const row_ctx *r = arg;
  pp_row_metric(row, "end_to_end", "lookups/s", r->lookups / (r->t_h2d + row->time.median));
  pp_row_metric(row, "h2d", "s", r->t_h2d);
}

/* Variant v splits by energy band (--split energy: the sorted ones). */
static int by_band(const plan *p, int v) {
  return p->band && v >= 0 && (XS_SORTED_VARIANTS & (1u << v));
}

/* Why model k cannot run variant v (-1: history) of this plan, or NULL;
 * `buf` holds a formatted reason. The same verdict on every rank. */
static const char *cannot_run(const xs_kernels *k, const plan *p, int v, char *buf, size_t len) {
  if (v < 0) return k->history ? NULL : "the history method runs on the host model only";
  const char *absent = xs_event_absent(k, v);
  if (absent) return absent;
  if (by_band(p, v) && !k->sample_band)
    return "no band sampling in this model (--split lookups runs it)";
  const long long most = by_band(p, v) ? p->band_most : p->n_most;
  if (k->max_lookups && most > k->max_lookups) {
    snprintf(buf, len, "%lld lookups per rank, more than its %lld (32-bit sort offsets; use more "
             "MPI ranks)", most, k->max_lookups);
    return buf;
  }
  if (p->c.sort_vendor && (XS_SORTED_VARIANTS & (1u << v)) && most > k->vendor_sort_max) {
    if (!k->vendor_sort_max) return "--sort vendor: no vendor sort in this model (cuda has CUB)";
    snprintf(buf, len, "--sort vendor: %lld keys per rank, more than its vendor sort's %lld",
             most, k->vendor_sort_max);
    return buf;
  }
  return NULL;
}

/* The rows of this plan: -1 (history), or the asked variants. */
static int asked(const plan *p, int v) {
  return p->c.history ? v < 0 : v >= 0 && (p->c.variants & (1u << v));
}

/* A request that no opened model can honour is bad usage, said before
 * anything large is allocated: a row that no model runs (where some model
 * runs it, the others' NOT RUN notes stay). NULL when every row runs. */
static const char *row_nowhere(const pp_session *s, const plan *p) {
  static char why[320];
  for (int v = -1; v < XS_VARIANT_COUNT; v++) {
    if (!asked(p, v)) continue;
    int runs = 0, said = 0;
    char buf[160];
    for (int m = 0; m < PP_MODEL_COUNT && !runs; m++) {
      if (!s->ops[m]) continue;
      const char *no = cannot_run(PP_MODEL_DISPATCH(m, xs_kernels_), p, v, buf, sizeof buf);
      if (!no) runs = 1;
      else if (!said++)
        snprintf(why, sizeof why, "no asked model can run %s: %s: %s", v < 0 ? "history" : xs_variant_name(v),
                 pp_model_name((pp_model)m), no);
    }
    if (!runs) return why;
  }
  return NULL;
}

#define ROW_BIT(v) (1u << ((v) + 1)) /* row v (-1: history) in a set of rows */

/* --phases: the row of `whole` timed as always, then one more run with every
 * phase synchronized and timed alone (a row each: its time, its share). */
static void measure_phases(pp_session *s, pp_model m, const pp_device_ops *o, const pp_measure *whole,
                           xs_work *work, row_ctx *r) {
  static const char *const names[XS_PHASES] = {"event_sample", "event_sort", "event_ranges",
                                               "event_lookups", "event_checksum"};
  pp_measure phases[XS_PHASES];
  for (int i = 0; i < XS_PHASES; i++) {
    phases[i] = *whole;
    phases[i].name = names[i], phases[i].figures = NULL;
  }
  pp_parts pt;
  pp_parts_init(&pt, o, XS_PHASES, 2, 1);
  work->phases = &pt;
  pp_measure_parts(s, m, whole, phases, &pt, PP_PARTS_EXTRA_RUN, call, r, verify_row);
  work->phases = NULL;
  pp_parts_free(&pt);
}

static void run_model(pp_session *s, pp_model m, const plan *p, const band_ref *ref, const xs_data *h) {
  const xs_kernels *k = PP_MODEL_DISPATCH(m, xs_kernels_);
  const pp_device_ops *o = s->ops[m];
  /* the rows this model cannot run are notes; with none to run, nothing is uploaded */
  unsigned runs = 0;
  for (int v = -1; v < XS_VARIANT_COUNT; v++) {
    if (!asked(p, v)) continue;
    char key[64], buf[160];
    const char *no = cannot_run(k, p, v, buf, sizeof buf);
    snprintf(key, sizeof key, "%s %s", pp_model_name(m), v < 0 ? "history" : xs_variant_name(v));
    if (no) pp_report_param(s->report, key, "NOT RUN: %s", no);
    else runs |= ROW_BIT(v);
  }
  if (!runs) return;
  xs_data dd;
  double t_h2d = upload(m, o, h, &dd);
  pp_mpi_max(&t_h2d, 1);
  xs_work *work = k->prepare(&dd, p->work_n);
  if (!work) pp_device_fail(m, "xsbench_like scratch", "allocation failed");
  const int sorts = (runs & (ROW_BIT(XS_SORTED_MATERIAL) | ROW_BIT(XS_SORTED_ENERGY))) != 0;
  /* --sort vendor: cannot_run let the sorted rows run only where it fits */
  const char *sort_note = sorts && p->c.sort_vendor ? k->vendor_sort(work) : k->sort_note;
  const int launch = p->c.material_launch;
  work->ranges_concurrent = launch == XS_LAUNCH_CONCURRENT && k->ranges_join;
  work->ranges_single = launch == XS_LAUNCH_SINGLE && k->sorted_lookups;
  if (sorts) {
    char key[64];
    snprintf(key, sizeof key, "%s material launch", pp_model_name(m));
    const char *how = work->ranges_concurrent ? k->concurrent_note
                      : work->ranges_single   ? "single: one kernel over all the sorted lookups, each of "
                                                "the material its sort key holds (no material ranges, no "
                                                "host round trip)"
                      : launch == XS_LAUNCH_CONCURRENT ? "serial (this model has no concurrent launch)"
                      : launch == XS_LAUNCH_SINGLE     ? "serial (this model has no single launch)"
                                                       : "serial, one kernel per material (XSBench's)";
    pp_report_param(s->report, key, "%s", how);
  }
  char sort_check[64] = "";
  const long long sort_n = p->band ? p->band_n : p->n; /* the sorted rows' keys on this rank */
  const int sort_ok = !sorts || pp_mpi_all(check_sort(m, o, k, work, sort_n, p->c.sort_check,
                                                      sort_check, sizeof sort_check));
  /* xs-band: the device's band starts a little late, so it keeps too few */
  const double band_lo =
      p->band_lo + (sorts && p->band && pp_fault_fire("xs-band") ? (p->band_hi - p->band_lo) * 1e-3 : 0);
  char band_check[16] = "";
  const int band_check_ok = !(sorts && p->band) ||
      pp_mpi_all(check_band(m, o, k, work, p, ref, band_lo, band_check, sizeof band_check));
  for (int v = -1; v < XS_VARIANT_COUNT; v++) {
    if (!(runs & ROW_BIT(v))) continue;
    const char *vname = v < 0 ? "history" : xs_variant_name(v);
    const int is_sorted = v >= 0 && (XS_SORTED_VARIANTS & (1u << v));
    if (is_sorted && sort_note) {
      char key[64];
      snprintf(key, sizeof key, "%s %s", pp_model_name(m), vname);
      pp_report_param(s->report, key, "%s", sort_note);
    }
    pp_progress(s, "%s %s: %lld %s", pp_model_name(m), vname, by_band(p, v) ? p->band_n : p->n,
                v < 0 ? "particles" : "lookups");
    char variant[64];
    if (v < 0) snprintf(variant, sizeof variant, "%lld lookups/particle", p->per);
    else snprintf(variant, sizeof variant, "%s (-k %d)", vname, xs_variant_kernel_id(v));
    const double lookups = (double)p->total * (double)p->per;
    row_ctx r = {.x = {.k = k, .d = &dd, .work = work, .variant = v, .p = p, .band = by_band(p, v),
                       .band_lo = band_lo, .kept_wrong = -1},
                 .m = m,
                 .vname = vname,
                 .is_sorted = is_sorted,
                 .sort_ok = sort_ok,
                 .sort_check = sort_check,
                 .band_check_ok = !by_band(p, v) || band_check_ok,
                 .band_check = by_band(p, v) ? band_check : "",
                 .t_h2d = t_h2d,
                 .lookups = lookups};
    const pp_measure spec = {.name = v < 0 ? "history" : "event",
                             .unit = "lookups/s",
                             .size = p->total * p->per,
                             .variant = variant,
                             .work = lookups,
                             .ranks = PP_RANKS_SPLIT,
                             .figures = row_figures};
    if (p->c.phases && v >= 0) measure_phases(s, m, o, &spec, work, &r);
    else pp_measure_run(s, m, &spec, call, &r, verify_row);
  }
  k->release(work);
  release_data(m, o, &dd);
}

/* The published value where XSBench has one, else --expect-checksum, else
 * the host computation of this configuration. */
static void choose_expected(plan *p, const xs_data *h) {
  const xs_config *c = &p->c;
  const int is_small = !strcmp(p->z.name, "small"), is_large = !strcmp(p->z.name, "large");
  const int defaults = !c->gridpoints && !c->lookups_set && (!c->history || !c->particles_set);
  if (c->expect_set) {
    p->expect = c->expect, p->expect_why = "--expect-checksum";
  } else if (defaults && (is_small || is_large)) {
    p->expect = c->history ? (is_small ? XS_VALID_HISTORY_SMALL : XS_VALID_HISTORY_LARGE)
                           : (is_small ? XS_VALID_EVENT_SMALL : XS_VALID_EVENT_LARGE);
    p->expect_why = "XSBench's published value";
  } else {
    const xs_kernels *k = xs_kernels_host();
    xs_work *w = k->prepare(h, 0);
    unsigned long long sum = c->history ? k->history(h, w, p->first, p->n, p->per)
                                        : xs_event(k, h, w, XS_BASELINE, p->first, p->n);
    k->release(w);
    p->expect = global_checksum(sum);
    p->expect_why = "host reference";
  }
}

static void explain(const plan *p) {
  if (pp_mpi_rank() != 0) return;
  if (!strcmp(p->expect_why, "XSBench's published value"))
    printf("valid: %llu is XSBench's published checksum for its default %s %s run\n", p->expect,
           p->z.name, p->c.history ? "history" : "event");
  else
    printf("XSBench publishes checksums only for its default runs (event: small %llu, large %llu;\n"
           "history: small %llu, large %llu) and prints any other run's checksum marked INVALID,\n"
           "which means unpublished, not wrong. Expected here: %llu, %s.\n",
           XS_VALID_EVENT_SMALL, XS_VALID_EVENT_LARGE, XS_VALID_HISTORY_SMALL, XS_VALID_HISTORY_LARGE,
           p->expect, p->c.expect_set
               ? "given by --expect-checksum (e.g. recorded from XSBench, validate/xsbench/)"
               : "this configuration computed by the host model, which reproduces XSBench's\n"
                 "checksum in every run recorded in validate/xsbench/");
  if (!p->c.history && (p->c.variants & XS_SORTED_VARIANTS))
    printf("sorted-material and sorted-energy sort the lookups first (XSBench's optimized event\n"
           "method): the same lookups in another order, so a different memory-access workload.\n");
}

/* The bands' exact sizes (after the fit check, which the contiguous shares
 * size well: a band holds total/R lookups give or take a few sqrt(total)). */
static void plan_bands(const pp_session *s, plan *p) {
  if (!p->band) return;
  const double t0 = pp_wtime();
  p->band_n = band_count(p->total, p->band_lo, p->band_hi);
  double most = (double)p->band_n;
  pp_mpi_max(&most, 1);
  p->band_most = (long long)most;
  const int others = (p->c.variants & ~XS_SORTED_VARIANTS) != 0;
  p->work_n = others && p->n > p->band_n ? p->n : p->band_n;
  pp_report_param(s->report, "split", "sorted variants: energy bands [r/%d, (r+1)/%d), every rank "
                  "samples all lookups, keeps its band (rank 0: %lld, largest %lld; host count %.2f s, "
                  "untimed); others: contiguous blocks", pp_mpi_size(), pp_mpi_size(), p->band_n,
                  p->band_most, pp_wtime() - t0);
}

/* This rank's plan from the options; the first problem with them, or NULL. */
static const char *make_plan(const pp_session *s, const xs_config *c, plan *p) {
  memset(p, 0, sizeof *p);
  p->c = *c;
  xs_sizes_for(c->problem, (long)c->gridpoints, &p->z);
  p->total = c->history ? (c->particles_set ? c->particles : XS_DEFAULT_PARTICLES)
                        : (c->lookups_set ? c->lookups : XS_DEFAULT_EVENT_LOOKUPS);
  p->per = !c->history ? 1 : c->lookups_set ? c->lookups : XS_DEFAULT_HISTORY_LOOKUPS;
  const int P = pp_mpi_size(), r = pp_mpi_rank();
  p->first = p->total * r / P;
  p->n = p->total * (r + 1) / P - p->first;
  p->n_most = (p->total + P - 1) / P;
  const int sorted = !c->history && (c->variants & XS_SORTED_VARIANTS);
  /* the bands until plan_bands counts them: about the contiguous shares */
  p->band = sorted && c->split_energy;
  p->work_n = p->n, p->band_n = p->n, p->band_most = p->n_most;
  if (p->band) xs_band_bounds(r, P, &p->band_lo, &p->band_hi);
  if (s->opt.size_given) return "--size is not used; give --problem SIZE and --lookups N";
  if (c->history && c->variants_set) return "variants (--variant, -k) are event-method kernels";
  if (!c->history && c->particles_set) return "--particles is for the history method (--method history)";
  if ((double)p->total * (double)p->per > 1099511627776.0)
    return "particles x lookups per particle is beyond 2^40";
  /* options that would be ignored */
  if (c->hash_bins_set && c->grid != XS_HASH)
    return "--hash-bins (XSBench's -h N) is for the hash grid: add --grid hash (-G hash)";
  if (c->split_set && !sorted)
    return "--split is how ranks share the sorted variants' lookups: add --variant sorted-energy "
           "or sorted-material (-k 6, -k 4)";
  if (c->phases && c->history)
    return "--phases times the event method's phases: not with --method history";
  if (c->material_set && !sorted)
    return "--material-launch is how the sorted variants launch their per-material lookups: add "
           "--variant sorted-energy or sorted-material (-k 6, -k 4)";
  if (c->sort_check && !sorted)
    return "--sort-check checks the sorted variants' sort: add --variant sorted-energy (-k 6)";
  if (c->sort_vendor && !sorted)
    return "--sort vendor is the sorted variants' sort: add --variant sorted-material or "
           "sorted-energy (-k 4, -k 6)";
  return row_nowhere(s, p);
}

int main(int argc, char **argv) {
  static xs_config cfg;
  xs_config_default(&cfg);
  /* The faults this app plants (pp_fault calls, and ROW-missed for each row it times). */
  static const char *const faults[] = {"xs-sort", "xs-checksum", "xs-band", "xs-band-check", "history-missed",
                                       "event-missed", NULL};
  /* -k and --variant both choose the variants: one option */
  static const char *const same_options[] = {"-k", "--variant", NULL};
  static pp_app app = {
      .name = "xsbench_like",
      .summary = "XSBench's macroscopic cross-section lookups, XSBench's checksums",
      .size_help = "not used (see --problem, --lookups)",
      .default_sizes = "1",
      .max_size = 1ll << 40,
      .ctx = &cfg, /* .options: xs_options(), below */
      .faults = faults,
      .same_options = same_options,
      .epilog =
      "Data, random streams and checksum are XSBench 20's, bit for bit: for every run (any\n"
      "size, grid, lookup count, variant, model, number of MPI ranks) the checksum is the one\n"
      "XSBench prints for the same options. FOM: lookups/s of the whole simulation on the\n"
      "device (sampling, sorting, lookups, checksum reduction; data already there);\n"
      "end_to_end adds the host-to-device transfer of the data. Planted faults:\n"
      "xs-checksum, xs-sort, xs-band, xs-band-check.\n"};
  app.options = xs_options();
  xs_rewrite_argv(argc, argv);
  pp_session s;
  pp_session_start(&s, argc, argv, &app);

  plan p;
  pp_usage_check_all("xsbench_like", make_plan(&s, &cfg, &p));
  const int P = pp_mpi_size(), r = pp_mpi_rank();

  /* memory, shown and checked before anything large is allocated */
  const double data = xs_data_bytes(&p.z, cfg.grid, (int)cfg.hash_bins);
  const double work = XS_WORK_BYTES_PER_LOOKUP * (double)p.work_n + XS_WORK_BYTES_FIXED;
  double host = data + ((s.opt.backends & (1u << PP_HOST)) ? work : 0);
  if (s.ops[PP_OMP] && !s.info[PP_OMP].is_gpu) host += data + work; /* offload to the CPU copies */
  pp_report_param(s.report, "problem", "%s: %ld nuclides x %ld points, %s grid, %s method",
                  p.z.name, p.z.n_isotopes, p.z.n_gridpoints, xs_grid_name(cfg.grid),
                  cfg.history ? "history" : "event");
  if (cfg.history) pp_report_param(s.report, "lookups", "%lld particles x %lld lookups", p.total, p.per);
  else pp_report_param(s.report, "lookups", "%lld", p.total);
  pp_report_param(s.report, "memory", "data %.3f GiB per rank, device scratch %.3f GiB, host %.3f GiB",
                  data / GIB, work / GIB, host / GIB);
  if (cfg.grid == XS_HASH) pp_report_param(s.report, "hash bins", "%lld", cfg.hash_bins);
  if (r == 0 && !s.opt.quiet)
    printf("memory: %.3f GiB of XSBench data (%s, %s grid) per rank, %.3f GiB device scratch, "
           "%.3f GiB host in all\n", data / GIB, p.z.name, xs_grid_name(cfg.grid), work / GIB, host / GIB);
  /* say which part is large: the data, or the lookups' scratch */
  char what[192], data_what[96];
  snprintf(data_what, sizeof data_what, "the %s %s-grid data", p.z.name, xs_grid_name(cfg.grid));
  if (work > data)
    snprintf(what, sizeof what, "the scratch of %lld lookups (%.3g GiB) with %s (%.3g GiB)", p.work_n,
             work / GIB, data_what, data / GIB);
  else
    snprintf(what, sizeof what, "%s (%.3g GiB) with the scratch of %lld lookups (%.3g GiB)", data_what,
             data / GIB, p.work_n, work / GIB);
  pp_session_check_fits(&s, what, data + work, host);

  double t0 = pp_wtime();
  xs_problem pb;
  if (xs_problem_make(&p.z, cfg.grid, (int)cfg.hash_bins, &pb) != 0) {
    fprintf(stderr, "xsbench_like: out of host memory generating %s (%.2f GiB)\n", data_what, data / GIB);
    pp_mpi_exit(3);
  }
  pp_report_param(s.report, "init", "%.3f s (data generation, not timed)", pp_wtime() - t0);
  if (P > 1) pp_report_param(s.report, "mpi", "%d ranks split the %s with skip-ahead streams", P,
                             cfg.history ? "particles" : "lookups");
  plan_bands(&s, &p);
  if (!p.band && !cfg.history && (cfg.variants & XS_SORTED_VARIANTS))
    pp_report_param(s.report, "split", "every variant by contiguous blocks of lookups (--split lookups)");
  choose_expected(&p, &pb.d);
  band_ref ref = {0};
  if (p.band) ref = band_ref_make(&p);
  for (int m = 0; m < PP_MODEL_COUNT; m++)
    if (s.ops[m]) run_model(&s, (pp_model)m, &p, &ref, &pb.d);
  free(ref.pair);
  explain(&p);
  xs_problem_free(&pb);
  return pp_session_finish(&s);
}
