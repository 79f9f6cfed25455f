/* The host's RAPL counters through the powercap files (pp/energy.h): every
 * package domain and its dram subdomain, summed. The counters wrap at
 * max_energy_range_uj; each read adds the increase since the previous one
 * (one wrap at most between reads: a thread reads them every quarter of the
 * shortest wrap at peak power, at most every 0.1 s, and a region during
 * which two readings were further apart than one wrap is refused).
 * PP_POWERCAP_ROOT replaces /sys/class/powercap. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#ifdef PP_HAVE_THREADS
#include <pthread.h>
#define LOCK() pthread_mutex_lock(&R.lock)
#define UNLOCK() pthread_mutex_unlock(&R.lock)
#else /* no threads: no reader thread, nothing to lock */
#define LOCK() ((void)0)
#define UNLOCK() ((void)0)
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "pp/energy.h"
#include "pp/sysfile.h"

#define MAX_DOMAINS 16

typedef struct rapl_domain {
  char path[512]; /* its directory */
  uint64_t range, last;
  double joules;  /* accumulated since open */
} rapl_domain;

static struct {
  int n;
  rapl_domain d[MAX_DOMAINS];
#ifdef PP_HAVE_THREADS
  pthread_mutex_t lock;  /* the reads: the poller's and the meter's */
#endif
  double last_t, max_gap; /* seconds: the last read, the longest gap since `gap` was asked */
  double interval;
  int poller;
} R
#ifdef PP_HAVE_THREADS
    = {.lock = PTHREAD_MUTEX_INITIALIZER}
#endif
;

static double mono(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

uint64_t pp_energy_wrap_delta(uint64_t prev, uint64_t now, uint64_t range) {
  return now >= prev ? now - prev : (range - prev) + now + 1;
}

/* One number from a sysfs file (a regular file: pp/sysfile.h). */
static int read_u64(const char *dir, const char *file, uint64_t *v, char *why, size_t n) {
  char path[600], buf[64];
  snprintf(path, sizeof path, "%s/%s", dir, file);
  FILE *f = pp_sysfile_open(path);
  int err = errno;
  size_t got = 0;
  if (f) {
    got = fread(buf, 1, sizeof buf - 1, f);
    err = ferror(f) ? EIO : 0;
    fclose(f);
  }
  char *end = buf;
  unsigned long long x = 0;
  buf[got] = 0;
  if (got > 0) x = strtoull(buf, &end, 10);
  const int ok = f && got > 0 && end != buf;
  if (!ok && why)
    snprintf(why, n, "not available: %.400s: %s%s", path, f ? "not a number" : pp_sysfile_error(err),
             err == EACCES ? " (RAPL counters are readable by root only on most kernels)" : "");
  *v = x;
  return ok ? 0 : -1;
}

static int read_name(const char *dir, char *out, size_t n) {
  char path[600];
  snprintf(path, sizeof path, "%s/name", dir);
  FILE *f = pp_sysfile_open(path);
  if (!f) return -1;
  int ok = fgets(out, (int)n, f) != NULL;
  fclose(f);
  out[strcspn(out, "\n")] = 0;
  return ok ? 0 : -1;
}

/* Every domain's increase since the last read, under the lock. */
static int read_locked(double *joules, char *why, size_t n) {
  double sum = 0;
  for (int i = 0; i < R.n; i++) {
    uint64_t v;
    if (read_u64(R.d[i].path, "energy_uj", &v, why, n) != 0) return -1;
    R.d[i].joules += pp_energy_wrap_delta(R.d[i].last, v, R.d[i].range) * 1e-6;
    R.d[i].last = v;
    sum += R.d[i].joules;
  }
  const double t = mono();
  if (R.last_t > 0 && t - R.last_t > R.max_gap) R.max_gap = t - R.last_t;
  R.last_t = t;
  *joules = sum;
  return 0;
}

static int rapl_read(void *impl, double *joules, char *why, size_t n) {
  (void)impl;
  LOCK();
  int rc = read_locked(joules, why, n);
  UNLOCK();
  return rc;
}

static double rapl_gap(void *impl) {
  (void)impl;
  LOCK();
  double g = R.max_gap, since = R.last_t > 0 ? mono() - R.last_t : 0;
  R.max_gap = 0;
  UNLOCK();
  return g > since ? g : since;
}

#ifdef PP_HAVE_THREADS
/* Reads the counters often enough that none wraps twice between reads. */
static void *poll_thread(void *arg) {
  (void)arg;
  char why[16];
  struct timespec ts = {(time_t)R.interval, (long)((R.interval - (double)(time_t)R.interval) * 1e9)};
  for (;;) {
    nanosleep(&ts, NULL);
    double j;
    if (rapl_read(NULL, &j, why, sizeof why) != 0) return NULL; /* the meter's own read will say why */
  }
  return NULL;
}
#endif

/* The packages' long-term power limits, summed; no clock, no event reasons. */
static void rapl_sample(void *impl, double *sm_mhz, double *limit_w, uint64_t *reasons) {
  (void)impl, (void)reasons;
  double sum = 0;
  int any = 0;
  for (int i = 0; i < R.n; i++) {
    uint64_t v;
    char name[64] = "";
    if (read_name(R.d[i].path, name, sizeof name) == 0 && !strncmp(name, "package", 7) &&
        read_u64(R.d[i].path, "constraint_0_power_limit_uw", &v, NULL, 0) == 0)
      sum += v * 1e-6, any = 1;
  }
  *sm_mhz = NAN;
  *limit_w = any ? sum : NAN;
}

/* Adds dir as a domain when its name is wanted. */
static int add_domain(const char *dir, pp_energy_source *src, char *why, size_t n) {
  char name[64];
  if (read_name(dir, name, sizeof name) != 0) return 0;
  if (strncmp(name, "package", 7) && strcmp(name, "dram")) return 0; /* core/uncore are inside package; psys overlaps */
  if (R.n == MAX_DOMAINS) return 0;
  rapl_domain *d = &R.d[R.n];
  memset(d, 0, sizeof *d);
  snprintf(d->path, sizeof d->path, "%s", dir);
  if (read_u64(dir, "max_energy_range_uj", &d->range, why, n) != 0) return -1;
  if (read_u64(dir, "energy_uj", &d->last, why, n) != 0) return -1;
  /* the shortest wrap: at the domain's peak power (max_power_uw, else twice the
   * long-term limit, else 500 W) */
  uint64_t pmax = 0, lim = 0;
  double watts = read_u64(dir, "constraint_0_max_power_uw", &pmax, NULL, 0) == 0 && pmax ? pmax * 1e-6
                 : read_u64(dir, "constraint_0_power_limit_uw", &lim, NULL, 0) == 0 && lim ? 2e-6 * lim
                                                                                          : 500.0;
  double wrap = d->range * 1e-6 / watts;
  if (wrap < src->wrap_s) src->wrap_s = wrap;
  size_t len = strlen(src->name);
  snprintf(src->name + len, sizeof src->name - len, "%s%s", len > 5 ? " + " : "", name);
  R.n++;
  return 0;
}

static pp_energy_source opened; /* the host's counters, shared by its models' meters */

int pp_energy_rapl_open(pp_energy_source *src, char *why, size_t n) {
  if (opened.read) return *src = opened, 0;
  const char *root = getenv("PP_POWERCAP_ROOT");
  if (!root || !*root) root = "/sys/class/powercap";
  memset(src, 0, sizeof *src);
  R.n = 0;
  snprintf(src->name, sizeof src->name, "RAPL ");
  src->wrap_s = INFINITY;
  DIR *dir = opendir(root);
  if (!dir)
    return snprintf(why, n, "not available: %.300s: %s (no RAPL powercap interface: not an x86 host, or a "
                            "virtual machine)", root, strerror(errno)), -1;
  /* sorted, so the sum's order and the name do not depend on readdir */
  char names[64][64];
  int k = 0;
  for (struct dirent *e; (e = readdir(dir)) && k < 64;)
    if (!strncmp(e->d_name, "intel-rapl:", 11)) snprintf(names[k++], sizeof names[0], "%.63s", e->d_name);
  closedir(dir);
  qsort(names, (size_t)k, sizeof names[0], (int (*)(const void *, const void *))strcmp);
  for (int i = 0; i < k; i++) {
    char path[512];
    snprintf(path, sizeof path, "%.440s/%.63s", root, names[i]);
    if (add_domain(path, src, why, n) != 0) return -1;
  }
  if (!R.n) return snprintf(why, n, "not available: %.300s has no package or dram domain", root), -1;
  src->unit_j = 1e-6;
  src->parts = R.n;
  src->read = rapl_read;
  src->sample = rapl_sample;
  src->gap = rapl_gap;
  R.interval = src->wrap_s / 4 < 0.1 ? src->wrap_s / 4 : 0.1;
  R.last_t = mono();
#ifdef PP_HAVE_THREADS
  pthread_t th;
  if (!R.poller && pthread_create(&th, NULL, poll_thread, NULL) == 0) R.poller = 1, pthread_detach(th);
#endif
  opened = *src;
  return 0;
}
