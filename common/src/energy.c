/* The energy meter (pp/energy.h): a backend per device, calibrated when it
 * opens (resolution, update interval, idle power), one reader per device
 * under MPI, and regions read around timed runs. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "pp/energy.h"
#include "pp/mpi.h"
#include "pp/timer.h"

int pp_nvml_gpu_state(const pp_device_info *d, pp_gpu_state *st);
int pp_amdsmi_gpu_state(const pp_device_info *d, pp_gpu_state *st);

static int is_amd(const pp_device_info *d) {
  return !strncmp(d->driver_api, "HIP", 3) || !strncmp(d->driver, "amdgpu", 6);
}

void pp_gpu_state_query(const pp_device_info *d, pp_gpu_state *st) {
  memset(st, 0, sizeof *st);
  if (!d->is_gpu) {
    snprintf(st->why, sizeof st->why, "not available: not a GPU");
    return;
  }
  if (!is_amd(d)) {
    if (pp_nvml_gpu_state(d, st) == 0) return;
    char nv[160]; /* NVIDIA's reason is the one to keep if AMD SMI has none either */
    snprintf(nv, sizeof nv, "%s", st->why);
    memset(st, 0, sizeof *st);
    if (pp_amdsmi_gpu_state(d, st) == 0) return;
    memset(st, 0, sizeof *st);
    snprintf(st->why, sizeof st->why, "%s", nv);
    return;
  }
  if (pp_amdsmi_gpu_state(d, st) != 0) st->nfields = 0;
}

/* ---- calibration ------------------------------------------------------------------- */
static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int pp_energy_calibrate(const pp_energy_source *src, const pp_energy_clock *clk, int min_changes,
                        double min_s, double max_s, pp_energy_calib *out, char *why, size_t n) {
  enum { MAXE = 1024 };
  double gaps[MAXE], te[MAXE], ee[MAXE]; /* intervals; the changes' times and values */
  int ngaps = 0, changes = 0, ne = 0;
  double e_prev, e, t0 = clk->now(clk->ctx), t_last = 0;
  double step = INFINITY;
  memset(out, 0, sizeof *out);
  if (src->read(src->impl, &e_prev, why, n) != 0) return -1;
  for (;;) {
    double t = clk->now(clk->ctx);
    if (t - t0 > max_s || (changes >= min_changes && t - t0 >= min_s)) break;
    clk->pause(clk->ctx, 1e-4);
    if (src->read(src->impl, &e, why, n) != 0) return -1;
    t = clk->now(clk->ctx);
    if (e == e_prev) continue;
    if (e > e_prev && e - e_prev < step) step = e - e_prev;
    if (changes && ngaps < MAXE) gaps[ngaps++] = t - t_last;
    if (ne < MAXE) te[ne] = t, ee[ne] = e, ne++;
    t_last = t, e_prev = e;
    changes++;
  }
  out->seconds = clk->now(clk->ctx) - t0;
  out->changes = changes;
  if (changes < 3) {
    snprintf(why, n, "not available: the counter changed %d time%s in %.2f s (at least 3 needed to measure "
             "its update interval)", changes, changes == 1 ? "" : "s", out->seconds);
    return -1;
  }
  qsort(gaps, (size_t)ngaps, sizeof *gaps, cmp_double);
  out->update_s = ngaps % 2 ? gaps[ngaps / 2] : 0.5 * (gaps[ngaps / 2 - 1] + gaps[ngaps / 2]);
  out->step_j = step;
  /* idle power: the least-squares slope of energy over time through every change
   * (each is seen a little late, by a random delay: all of them average it out,
   * where the first and last alone would not) */
  double mt = 0, me = 0, stt = 0, ste = 0;
  for (int i = 0; i < ne; i++) mt += te[i], me += ee[i];
  mt /= ne, me /= ne;
  for (int i = 0; i < ne; i++) stt += (te[i] - mt) * (te[i] - mt), ste += (te[i] - mt) * (ee[i] - me);
  out->idle_w = stt > 0 ? ste / stt : NAN;
  return 0;
}

double pp_energy_rel_error(const pp_energy_calib *c, double unit_j, double joules, double seconds) {
  if (!(joules > 0) || !(seconds > 0)) return INFINITY;
  return (unit_j + joules / seconds * c->update_s) / joules;
}

/* ---- the meters -------------------------------------------------------------------- */
static double real_now(void *ctx) { (void)ctx; return pp_wtime(); }
static void real_pause(void *ctx, double s) {
  (void)ctx;
  struct timespec ts = {0, (long)(s * 1e9)};
  nanosleep(&ts, NULL);
}

/* A 52-bit hash of what names the device on its node (exact in a double). */
static double device_key(const char *host, const char *kind, const char *id) {
  uint64_t h = 1469598103934665603ull; /* FNV-1a over the three parts and their ends */
  const char *parts[3] = {host, kind, id};
  for (int p = 0; p < 3; p++) {
    for (const char *c = parts[p]; *c; c++) h = (h ^ (unsigned char)*c) * 1099511628211ull;
    h = (h ^ 0x1f) * 1099511628211ull;
  }
  return (double)((h & ((1ull << 52) - 1)) | 1); /* never 0: 0 is "no key" */
}

/* Collective: this rank reads the device unless a lower rank has the same key
 * (the same device on the same host). */
static void elect(pp_energy_meter *e, double key) {
  const int P = pp_mpi_size(), me = pp_mpi_rank();
  double *keys = calloc((size_t)P, sizeof *keys);
  if (!keys) { e->reader = 1, e->read_by = me; return; }
  keys[me] = key;
  pp_mpi_sum(keys, P);
  e->read_by = me;
  for (int r = 0; r < me; r++)
    if (key != 0 && keys[r] == key) { e->read_by = r; break; }
  e->reader = e->read_by == me;
  free(keys);
}

static pp_energy_meter meters[PP_MODEL_COUNT];
static void watch_start(pp_energy_meter *e);

pp_energy_meter *pp_energy_meter_for(pp_model m, const pp_device_info *info, int off) {
  pp_energy_meter *e = &meters[m];
  if (e->open) return e;
  memset(e, 0, sizeof *e);
  e->open = 1;
  if (off) {
    snprintf(e->why, sizeof e->why, "not measured (--no-energy)");
    return e;
  }
  char why[200] = "", host[128] = "";
  const int amd = info->is_gpu && is_amd(info);
  snprintf(e->kind, sizeof e->kind, "%s", !info->is_gpu ? "RAPL" : amd ? "AMD SMI" : "NVML");
  if (gethostname(host, sizeof host - 1) != 0) host[0] = 0;
  /* one reader per device and node, elected before anyone touches the counter */
  elect(e, device_key(host, e->kind, !info->is_gpu ? "host" : info->uuid[0] ? info->uuid : info->pci_bus_id));
  if (!e->reader) {
    snprintf(e->why, sizeof e->why, "shared: read by rank %d", e->read_by);
    return e;
  }
  int rc = !info->is_gpu ? pp_energy_rapl_open(&e->src, why, sizeof why)
           : amd         ? pp_energy_amdsmi_open(info, &e->src, why, sizeof why)
                         : pp_energy_nvml_open(info, &e->src, why, sizeof why);
  if (rc != 0) {
    snprintf(e->why, sizeof e->why, "%s", why);
    return e;
  }
  /* another model's meter on the same counter (cuda, omp and ompx share a GPU) was calibrated */
  const pp_energy_meter *same = NULL;
  for (int i = 0; i < PP_MODEL_COUNT && !same; i++)
    if (meters[i].available && !strcmp(meters[i].src.name, e->src.name)) same = &meters[i];
  if (same) {
    e->cal = same->cal;
  } else {
    /* the device settles after the copy ceiling's runs: the idle power is idle */
    real_pause(NULL, 0.3);
    pp_energy_clock clk = {real_now, real_pause, NULL};
    if (pp_energy_calibrate(&e->src, &clk, 5, 0.25, 2.0, &e->cal, why, sizeof why) != 0) {
      snprintf(e->why, sizeof e->why, "%s", why);
      return e;
    }
  }
  /* a change is seen within a poll: fractions of a millisecond, whatever the update interval */
  e->poll_s = fmin(fmax(e->cal.update_s / 200, 5e-4), 1e-3);
  e->margin_s = fmin(fmax(e->cal.update_s / 4, 1e-3), 0.025);
  e->available = 1;
  watch_start(e);
  return e;
}

/* ---- regions ----------------------------------------------------------------------- */
static double utc_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static void fail(pp_energy_region *r, const char *why) {
  r->failed = 1;
  snprintf(r->why, sizeof r->why, "%s", why);
}

void pp_energy_window_add(pp_energy_region *r, double t, double d, double joules, long long k) {
  r->changes++;
  if (t < r->t0 + r->margin) return; /* the device may not have settled into the runs yet */
  r->last_t = t, r->last_d = d, r->last_e = joules, r->last_k = k;
  /* this change as the window's end, against every start kept: the relative
   * error of a window, but for the counter's unit, is (d0 + d1 + stale) / T */
  double best = r->window == 2 ? (r->w_d0 + r->w_d1 + r->stale) / (r->w_t1 - r->w_t0) : INFINITY;
  for (int i = 0; i < r->nstarts; i++) {
    if (!(t > r->start_t[i])) continue;
    const double cost = (r->start_d[i] + d + r->stale) / (t - r->start_t[i]);
    if (cost < best) {
      best = cost;
      r->w_t0 = r->start_t[i], r->w_d0 = r->start_d[i], r->w_e0 = r->start_e[i], r->w_k0 = r->start_k[i];
      r->w_t1 = t, r->w_d1 = d, r->w_e1 = joules, r->w_k1 = k;
      r->window = 2;
    }
  }
  if (r->nstarts < PP_ENERGY_STARTS) {
    r->start_t[r->nstarts] = t, r->start_d[r->nstarts] = d, r->start_e[r->nstarts] = joules;
    r->start_k[r->nstarts] = k;
    r->nstarts++;
  }
  if (!r->window) r->window = 1;
}

/* ---- the counter's period ------------------------------------------------------------ */
/* The width of the phase band at period U: max(a - kU) - min(b - kU) (> 0:
 * no phase fits every update). Convex in U: a max of lines minus a min. */
static double band(const long long *k, const double *a, const double *b, int n, double U, double *lo, double *hi) {
  double l = -INFINITY, h = INFINITY;
  for (int i = 0; i < n; i++) {
    const double x = a[i] - (double)k[i] * U, y = b[i] - (double)k[i] * U;
    if (x > l) l = x;
    if (y < h) h = y;
  }
  *lo = l, *hi = h;
  return l - h;
}

void pp_energy_fit_period(const long long *k, const double *a, const double *b, int n, pp_energy_period *fit) {
  memset(fit, 0, sizeof *fit);
  int first = 0, last = 0;
  for (int i = 1; i < n; i++) {
    if (k[i] < k[first]) first = i;
    if (k[i] > k[last]) last = i;
  }
  if (n < 16 || k[last] - k[first] < 16) return;
  const double span = (double)(k[last] - k[first]);
  /* the period lies within the ends' own bounds */
  double ulo = (a[last] - b[first]) / span, uhi = (b[last] - a[first]) / span, lo, hi;
  if (!(ulo > 0 && uhi >= ulo)) return;
  const double u0 = ulo, u1 = uhi;
  for (int it = 0; it < 200 && uhi - ulo > 1e-13; it++) { /* ternary search of a convex function */
    const double m1 = ulo + (uhi - ulo) / 3, m2 = uhi - (uhi - ulo) / 3;
    if (band(k, a, b, n, m1, &lo, &hi) <= band(k, a, b, n, m2, &lo, &hi)) uhi = m2;
    else ulo = m1;
  }
  fit->U = 0.5 * (ulo + uhi);
  const double S = band(k, a, b, n, fit->U, &lo, &hi);
  fit->phi = 0.5 * (lo + hi);
  fit->W = fabs(S);
  /* the periods whose band stays within S + W (+ 1 ns): bisect each side of U */
  const double lim = S + fit->W + 1e-9;
  double in = fit->U, out = u0;
  for (int it = 0; it < 100; it++) {
    const double mid = 0.5 * (in + out);
    if (band(k, a, b, n, mid, &lo, &hi) <= lim) in = mid;
    else out = mid;
  }
  const double left = in;
  in = fit->U, out = u1;
  for (int it = 0; it < 100; it++) {
    const double mid = 0.5 * (in + out);
    if (band(k, a, b, n, mid, &lo, &hi) <= lim) in = mid;
    else out = mid;
  }
  fit->dU = 0.5 * (in - left);
  fit->updates = n;
  fit->ok = 1;
}

/* The window from its first change to its last, m periods: where the
 * period's bound on its length (W + m dU) is tighter than the changes as
 * seen (d0 + d1), 1 and its energy, length and length's error. */
static int periodic_window(const pp_energy_region *r, double *joules, double *secs, double *err_s) {
  if (!r->period.ok || r->window != 2 || r->nstarts < 1 || r->start_k[0] < 0 || r->last_k <= r->start_k[0])
    return 0;
  const double m = (double)(r->last_k - r->start_k[0]), T = m * r->period.U;
  const double err = r->period.W + m * r->period.dU;
  if (err / T >= (r->w_d0 + r->w_d1) / (r->w_t1 - r->w_t0)) return 0;
  *joules = r->last_e - r->start_e[0], *secs = T, *err_s = err;
  return 1;
}

double pp_energy_region_watts(const pp_energy_region *r) {
  double J, T, d;
  if (periodic_window(r, &J, &T, &d)) return J / T;
  if (r->window == 2 && r->w_t1 > r->w_t0) return (r->w_e1 - r->w_e0) / (r->w_t1 - r->w_t0);
  return r->t > r->t0 ? (r->e - r->e0) / (r->t - r->t0) : 0;
}

double pp_energy_region_error(const pp_energy_meter *e, const pp_energy_region *r) {
  double J, T, d;
  if (periodic_window(r, &J, &T, &d) && J > 0) return (e->src.unit_j + J / T * (d + r->stale)) / J;
  if (r->window == 2 && r->w_t1 > r->w_t0 && r->w_e1 > r->w_e0) {
    const double J = r->w_e1 - r->w_e0, P = J / (r->w_t1 - r->w_t0);
    return (e->src.unit_j + P * (r->w_d0 + r->w_d1 + r->stale)) / J;
  }
  return pp_energy_rel_error(&e->cal, e->src.unit_j, r->e - r->e0, r->t - r->t0);
}

/* ---- the meter's thread: reads the counter while a region is open ------------------- */
#ifdef PP_HAVE_THREADS
#include <pthread.h>
#define HISTORY 4096 /* the updates kept for the period's fit */
typedef struct watch {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  pp_energy_meter *e;
  int armed;
  int always;            /* read between regions too: every update counted (GPU counters) */
  unsigned gen;          /* regions opened: a read begun in an earlier one is dropped */
  pp_energy_region r;    /* the region's window, changes and reasons so far */
  double last_e, last_t0; /* the previous read: its value, when it began */
  long long updates;     /* changes counted since the thread started (always) */
  int nh;                /* history: update number, the previous read's start, this read's end */
  long long hk[HISTORY];
  double ha[HISTORY], hb[HISTORY];
} watch;

static void *watch_thread(void *arg) {
  watch *w = arg;
  pp_energy_meter *e = w->e;
  const struct timespec nap = {0, (long)(e->poll_s * 1e9)};
  double next_sample = 0;
  pthread_mutex_lock(&w->mu);
  for (;;) {
    while (!w->armed && !w->always) pthread_cond_wait(&w->cv, &w->mu);
    const unsigned gen = w->gen;
    const int armed = w->armed;
    pthread_mutex_unlock(&w->mu);
    nanosleep(&nap, NULL);
    char why[160];
    double j = 0, sm, lim;
    uint64_t reasons = 0;
    const double t0 = pp_wtime(); /* the value is read somewhere in [t0, t] */
    const int rc = e->src.read(e->src.impl, &j, why, sizeof why);
    const double t = pp_wtime();
    const int sample = rc == 0 && armed && e->src.sample && t >= next_sample;
    if (sample) e->src.sample(e->src.impl, &sm, &lim, &reasons), next_sample = t + 0.02;
    pthread_mutex_lock(&w->mu);
    if (rc != 0) {
      if (w->armed && gen == w->gen && !w->r.failed) fail(&w->r, why);
      w->always = 0; /* a counter that fails is read again only in a region */
      continue;
    }
    const int changed = w->last_t0 > 0 && j != w->last_e;
    long long k = -1;
    if (changed && w->always) {
      k = ++w->updates;
      const int i = w->nh < HISTORY ? w->nh++ : (int)(k % HISTORY);
      w->hk[i] = k, w->ha[i] = w->last_t0, w->hb[i] = t;
    }
    if (w->armed && gen == w->gen && !w->r.failed) {
      if (changed) pp_energy_window_add(&w->r, t, t - w->last_t0, j, k);
      w->r.reasons |= reasons;
    }
    w->last_e = j, w->last_t0 = t0;
  }
  return NULL;
}

/* One thread per counter (cuda, omp and ompx on one GPU share it). */
static void watch_start(pp_energy_meter *e) {
  for (int i = 0; i < PP_MODEL_COUNT; i++)
    if (&meters[i] != e && meters[i].watch && !strcmp(meters[i].src.name, e->src.name)) {
      e->watch = meters[i].watch;
      return;
    }
  watch *w = calloc(1, sizeof *w);
  if (!w) return;
  w->e = e;
  w->always = strcmp(e->kind, "RAPL") != 0; /* the host's counters: only in regions (its cores run them) */
  pthread_t th;
  if (pthread_mutex_init(&w->mu, NULL) != 0 || pthread_cond_init(&w->cv, NULL) != 0 ||
      pthread_create(&th, NULL, watch_thread, w) != 0) {
    free(w);
    return;
  }
  pthread_detach(th);
  e->watch = w;
}

/* Opens the thread's region from the one begun (its first reading). */
static void watch_arm(pp_energy_meter *e, const pp_energy_region *r) {
  watch *w = e->watch;
  pthread_mutex_lock(&w->mu);
  w->e = e; /* the model measured now */
  w->r = *r;
  if (!w->always) w->last_e = r->e0, w->last_t0 = r->t0;
  w->gen++;
  w->armed = 1;
  pthread_cond_signal(&w->cv);
  pthread_mutex_unlock(&w->mu);
}

/* The thread's view of the region so far: window, changes, reasons, failure,
 * and the counter's period from every update seen. */
static void watch_copy(pp_energy_meter *e, pp_energy_region *r, int disarm) {
  watch *w = e->watch;
  pthread_mutex_lock(&w->mu);
  if (disarm) w->armed = 0;
  const double t = r->t, j = r->e;
  *r = w->r;
  r->t = t, r->e = j;
  pp_energy_fit_period(w->hk, w->ha, w->hb, w->nh, &r->period);
  pthread_mutex_unlock(&w->mu);
}
#else
static void watch_start(pp_energy_meter *e) { (void)e; }
static void watch_arm(pp_energy_meter *e, const pp_energy_region *r) { (void)e, (void)r; }
static void watch_copy(pp_energy_meter *e, pp_energy_region *r, int disarm) { (void)e, (void)r, (void)disarm; }
#endif

void pp_energy_begin(pp_energy_meter *e, pp_energy_region *r) {
  memset(r, 0, sizeof *r);
  r->sm_start = r->sm_end = r->limit_start = r->limit_end = NAN;
  if (!e->available) return;
  char why[160];
  r->margin = e->margin_s;
  r->stale = e->src.parts > 1 ? 2 * e->cal.update_s : 0;
  if (e->src.sample) e->src.sample(e->src.impl, &r->sm_start, &r->limit_start, &r->reasons);
  r->reasons = 0; /* reasons that held before the region are not the region's */
  if (e->src.gap) e->src.gap(e->src.impl); /* the region's gaps from here */
  if (e->src.read(e->src.impl, &r->e0, why, sizeof why) != 0) return fail(r, why);
  r->t0 = r->t = pp_wtime();
  r->e = r->e0;
  r->utc0 = utc_now();
  if (e->watch) watch_arm(e, r);
}

/* Without the thread: a reading between runs, at most every millisecond. */
static void poll_now(pp_energy_meter *e, pp_energy_region *r) {
  char why[160];
  double j, t;
  if (e->src.read(e->src.impl, &j, why, sizeof why) != 0) return fail(r, why);
  t = pp_wtime();
  if (t - r->t > r->max_gap) r->max_gap = t - r->t;
  if (j != r->e) pp_energy_window_add(r, t, t - r->t, j, -1);
  r->t = t, r->e = j;
  double sm, lim;
  if (e->src.sample) e->src.sample(e->src.impl, &sm, &lim, &r->reasons);
}

void pp_energy_poll(pp_energy_meter *e, pp_energy_region *r) {
  if (e->available && !e->watch && !r->failed && pp_wtime() - r->t >= 1e-3) poll_now(e, r);
}

int pp_energy_enough(pp_energy_meter *e, pp_energy_region *r, double max_err) {
  if (!e->available || r->failed) return 1;
  if (e->watch) watch_copy(e, r, 0);
  return r->window == 2 && pp_energy_region_error(e, r) < max_err;
}

void pp_energy_end(pp_energy_meter *e, pp_energy_region *r, long long runs) {
  r->runs = runs;
  if (!e->available || r->failed) return;
  char why[160];
  double j;
  const int rc = e->src.read(e->src.impl, &j, why, sizeof why);
  const double t = pp_wtime();
  if (e->watch) {
    watch_copy(e, r, 1);
    r->runs = runs;
  } else if (rc == 0) {
    if (t - r->t > r->max_gap) r->max_gap = t - r->t;
    if (j != r->e) pp_energy_window_add(r, t, t - r->t, j, -1);
  }
  if (r->failed) return;
  if (rc != 0) return fail(r, why);
  r->t = t, r->e = j;
  if (e->src.sample) e->src.sample(e->src.impl, &r->sm_end, &r->limit_end, &r->reasons);
  if (e->src.gap) r->max_gap = e->src.gap(e->src.impl); /* its own reader's gaps, not the polls' */
  r->utc1 = r->utc0 + (r->t - r->t0);
  if (r->max_gap > e->src.wrap_s) {
    snprintf(why, sizeof why, "not available: %.3g s between two readings, longer than one wrap of the counter "
             "at peak power (%.3g s)", r->max_gap, e->src.wrap_s);
    fail(r, why);
  }
}
