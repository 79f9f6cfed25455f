#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "pp/buildinfo.h"
#include "pp/escape.h"
#include "pp/json.h"
#include "pp/mpi.h"
#include "pp/report.h"
#include "pp/fault.h"
#include "pp/outfile.h"
#include "pp/system.h"

typedef struct kv { char key[48]; char val[208]; } kv;

struct pp_report {
  char app[32];
  const pp_options *opt;
  kv params[48];
  int nparams;
  int have_device[PP_MODEL_COUNT];
  pp_device_info device[PP_MODEL_COUNT];
  double copy_gbs[PP_MODEL_COUNT];
  double ceiling_min_bytes[PP_MODEL_COUNT];
  char skipped[PP_MODEL_COUNT][160];
  pp_row *rows;
  int nrows, cap;
  char started[32];
  pp_system *systems; /* rank 0: every rank's, in rank order (pp_report_finish) */
};

pp_report *pp_report_new(const char *app, const pp_options *opt) {
  pp_report *r = calloc(1, sizeof *r);
  snprintf(r->app, sizeof r->app, "%s", app);
  r->opt = opt;
  time_t now = time(NULL);
  strftime(r->started, sizeof r->started, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
  for (int m = 0; m < PP_MODEL_COUNT; m++) r->copy_gbs[m] = NAN;
  return r;
}

void pp_report_free(pp_report *r) {
  if (!r) return;
  for (int i = 0; i < r->nrows; i++) free(r->rows[i].samples);
  free(r->rows);
  free(r->systems);
  free(r);
}

void pp_report_param(pp_report *r, const char *key, const char *fmt, ...) {
  kv *p = NULL;
  for (int i = 0; i < r->nparams; i++)
    if (!strcmp(r->params[i].key, key)) p = &r->params[i];
  if (!p) {
    if (r->nparams == (int)(sizeof r->params / sizeof r->params[0])) return;
    p = &r->params[r->nparams++];
  }
  snprintf(p->key, sizeof p->key, "%s", key);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(p->val, sizeof p->val, fmt, ap);
  va_end(ap);
}

void pp_report_device(pp_report *r, pp_model m, const pp_device_info *info, double copy_gbs) {
  r->have_device[m] = 1;
  r->device[m] = *info;
  r->copy_gbs[m] = copy_gbs;
}

void pp_report_ceiling_min_bytes(pp_report *r, pp_model m, double bytes) {
  r->ceiling_min_bytes[m] = bytes;
}

void pp_report_skip(pp_report *r, pp_model m, const char *why) {
  snprintf(r->skipped[m], sizeof r->skipped[m], "%s", why);
}

void pp_row_init(pp_row *row, const char *kernel, pp_model m, long long size) {
  memset(row, 0, sizeof *row);
  snprintf(row->kernel, sizeof row->kernel, "%s", kernel);
  row->model = m;
  row->size = size;
  row->higher_is_better = 1;
  row->frac_ceiling = NAN;
  row->ratio_native = NAN;
  row->ranks = 1;
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

void pp_row_time(pp_row *row, const double *samples, int n, const pp_bootstrap *bs,
                 double work_per_run, const char *unit) {
  pp_stats_compute(samples, n, bs, &row->time);
  row->bootstrap = *bs;
  row->samples = malloc(sizeof(double) * (size_t)n);
  if (!row->samples) pp_device_fail(PP_HOST, "alloc", "out of host memory for the samples");
  memcpy(row->samples, samples, sizeof(double) * (size_t)n);
  row->nsamples = n;
  snprintf(row->fom_unit, sizeof row->fom_unit, "%s", unit);
  if (work_per_run > 0) {
    row->fom = work_per_run / row->time.median;
    row->higher_is_better = 1;
  } else {
    row->fom = row->time.median * 1e6;
    row->higher_is_better = 0;
  }
}

void pp_row_combine_ranks(pp_row *row) {
  int n = pp_mpi_size(), me = pp_mpi_rank();
  if (n == 1) return;
  row->valid = pp_mpi_all(row->valid);
  /* The slowest rank: largest median, the lowest rank among equals. */
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
  double work = row->fom * mine; /* this rank's work per run (higher_is_better) */
  free(row->samples);
  row->samples = all;
  row->nsamples = ns;
  pp_stats_compute(all, ns, &row->bootstrap, &row->time);
  if (row->higher_is_better) row->fom = n * work / row->time.median;
  else row->fom = row->time.median * 1e6;
  if (isfinite(row->frac_ceiling)) row->frac_ceiling *= mine / row->time.median;
  row->bytes *= n;
  row->flops *= n;
  row->ranks = n;
}

pp_row *pp_report_add(pp_report *r, pp_row *row) {
  if (r->nrows == r->cap) {
    r->cap = r->cap ? 2 * r->cap : 64;
    r->rows = realloc(r->rows, sizeof *r->rows * (size_t)r->cap);
    if (!r->rows) pp_device_fail(PP_HOST, "alloc", "out of host memory for the report");
  }
  pp_row *dst = &r->rows[r->nrows++];
  *dst = *row;
  row->samples = NULL; /* the report owns them now */
  row->nsamples = 0;
  if (isnan(dst->frac_ceiling) && !strcmp(dst->fom_unit, "GB/s") && isfinite(r->copy_gbs[dst->model]))
    dst->frac_ceiling = dst->fom / (r->copy_gbs[dst->model] * dst->ranks);
  /* A cache-resident working set is not bounded by a DRAM ceiling. */
  if (dst->bytes < r->ceiling_min_bytes[dst->model] * dst->ranks) dst->frac_ceiling = NAN;
  if (!isfinite(r->copy_gbs[dst->model])) dst->frac_ceiling = NAN;
  return dst;
}

pp_row *pp_report_row(pp_report *r, int i) { return &r->rows[i]; }
int pp_report_rows(const pp_report *r) { return r->nrows; }

int pp_report_failures(const pp_report *r) {
  int bad = 0;
  for (int i = 0; i < r->nrows; i++) bad += !r->rows[i].valid;
  return bad;
}

const char *pp_model_label(pp_model m, char *buf, size_t n) {
  const char *tag = pp_build_info()->tag;
  if (pp_model_is_cc_built(m) && tag[0])
    snprintf(buf, n, "%s[%s]", pp_model_name(m), tag);
  else
    snprintf(buf, n, "%s", pp_model_name(m));
  return buf;
}

/* Width of the widest label, for the text tables' model column. */
static int label_width(void) {
  int w = 5;
  char l[96];
  for (int m = 0; m < PP_MODEL_COUNT; m++) {
    int k = (int)strlen(pp_model_label((pp_model)m, l, sizeof l));
    if (k > w) w = k;
  }
  return w;
}

/* The native model of the GPU the rows ran on: CUDA on NVIDIA, HIP on AMD. */
static int native_model(const pp_report *r) {
  for (int m = 0; m < PP_MODEL_COUNT; m++)
    for (int i = 0; i < r->nrows && pp_model_is_native((pp_model)m); i++)
      if ((int)r->rows[i].model == m) return m;
  return -1;
}

static void compute_ratios(pp_report *r) {
  int nat = native_model(r);
  if (nat < 0) return;
  for (int i = 0; i < r->nrows; i++) {
    pp_row *a = &r->rows[i];
    if (!pp_model_is_device(a->model)) continue; /* host vs GPU is not a model comparison */
    for (int j = 0; j < r->nrows; j++) {
      const pp_row *b = &r->rows[j];
      if ((int)b->model != nat || b->size != a->size || strcmp(b->kernel, a->kernel) ||
          strcmp(b->variant, a->variant))
        continue;
      a->ratio_native = a->higher_is_better ? a->fom / b->fom : b->fom / a->fom;
      break;
    }
  }
}

static void fmt_time(char *buf, size_t n, double s) {
  if (s < 1e-3) snprintf(buf, n, "%.2f us", s * 1e6);
  else if (s < 1) snprintf(buf, n, "%.3f ms", s * 1e3);
  else snprintf(buf, n, "%.3f s", s);
}

static void print_summary(const pp_report *r, FILE *f);

/* One line: rank 0's host and GPU; under MPI, how many hosts the ranks used. */
static void print_system(const pp_report *r, FILE *f) {
  char line[512];
  int n = pp_mpi_size(), hosts = 0;
  pp_system_summary(&r->systems[0], line, sizeof line);
  for (int i = 0; i < n; i++) {
    int seen = 0;
    for (int k = 0; k < i && !seen; k++) seen = !strcmp(r->systems[k].hostname, r->systems[i].hostname);
    hosts += !seen;
  }
  fprintf(f, "   %-22s ", "system");
  pp_fputs_escaped(f, line); /* host and driver strings are not ours to trust */
  if (n > 1) fprintf(f, " (rank 0; %d ranks on %d host%s)", n, hosts, hosts > 1 ? "s" : "");
  fputc('\n', f);
}

static void print_table(const pp_report *r, FILE *f) {
  const pp_buildinfo *b = pp_build_info();
  fprintf(f, "\n== %s  (ProxyPort %s, git %s%s%s, %d rank%s)\n", r->app, b->version, b->git_revision,
          b->git_diff_hash[0] ? " diff " : "", b->git_diff_hash, pp_mpi_size(), pp_mpi_size() > 1 ? "s" : "");
  fprintf(f, "   %-22s %s (%s; flag set %s%s%s; omp simd %s)\n", "build", b->tag,
          b->omp_compiler_banner, b->omp_flag_set, b->omp_extra_flags[0] ? ": " : "",
          b->omp_extra_flags, b->omp_simd ? "on" : "off");
  if (b->omp_forced_flags[0]) fprintf(f, "   %-22s %s\n", "forced flags", b->omp_forced_flags);
  if (r->systems) print_system(r, f);
  for (int i = 0; i < r->nparams; i++) { /* values may quote file names: escaped, one line each */
    fprintf(f, "   %-22s ", r->params[i].key);
    pp_fputs_escaped(f, r->params[i].val);
    fputc('\n', f);
  }
  int lw = label_width();
  char lab[96];
  for (int m = 0; m < PP_MODEL_COUNT; m++) {
    pp_model_label((pp_model)m, lab, sizeof lab);
    if (r->have_device[m]) {
      const pp_device_info *d = &r->device[m];
      fprintf(f, "   %-*s device %d: %s [%s]", lw, lab, d->index, d->name, d->arch);
      if (d->total_mem) fprintf(f, ", %.1f GiB", d->total_mem / 1073741824.0);
      if (isfinite(r->copy_gbs[m])) fprintf(f, ", copy ceiling %.1f GB/s", r->copy_gbs[m]);
      fprintf(f, "\n");
    } else if (r->skipped[m][0]) {
      fprintf(f, "   %-*s NOT RUN: %s\n", lw, lab, r->skipped[m]);
    }
  }
  /* Rows keep the bare model name (scripts and tests match "KERNEL +MODEL +SIZE"):
   * one binary has one tag, shown in the header, device lines and summary. */
  fprintf(f, "\n%-16s %-5s %11s %-18s %11s %12s %-10s %6s %7s  %s\n", "kernel", "model", "size",
          "variant", "median", "FOM", "unit", "%copy", "vs-nat", "check");
  for (int i = 0; i < r->nrows; i++) {
    const pp_row *w = &r->rows[i];
    char t[32], frac[16] = "-", ratio[16] = "-";
    fmt_time(t, sizeof t, w->time.median);
    if (isfinite(w->frac_ceiling)) snprintf(frac, sizeof frac, "%.1f%%", 100 * w->frac_ceiling);
    if (isfinite(w->ratio_native)) snprintf(ratio, sizeof ratio, "%.3f", w->ratio_native);
    fprintf(f, "%-16s %-5s %11lld %-18s %11s %12.5g %-10s %6s %7s  %s %s\n", w->kernel,
            pp_model_name(w->model), w->size, w->variant[0] ? w->variant : "-", t, w->fom,
            w->fom_unit, frac, ratio, w->valid ? "PASS" : "FAIL", w->check);
  }
  int bad = pp_report_failures(r);
  char natives[64];
  fprintf(f, "\n%d result%s, %d passed, %d failed. FOM is of the median time; vs-nat is performance\n"
             "relative to the native model (%s) on the same kernel, size and variant;\n"
             "%%copy is GB/s over the device's copy ceiling ('-': none, or a working set that fits\n"
             "in a cache the ceiling's buffers do not).\n",
          r->nrows, r->nrows == 1 ? "" : "s", r->nrows - bad, bad,
          pp_model_set_names(pp_models_native(), "/", natives, sizeof natives));
  if (r->nrows) print_summary(r, f);
}

/* The best valid row of kernel k, model m at size n (NULL if none; *seen set
 * when the model has rows there at all). */
static const pp_row *best_row(const pp_report *r, const char *k, int m, long long n, int *seen) {
  const pp_row *best = NULL;
  *seen = 0;
  for (int i = 0; i < r->nrows; i++) {
    const pp_row *w = &r->rows[i];
    if ((int)w->model != m || w->size != n || strcmp(w->kernel, k)) continue;
    *seen = 1;
    if (!w->valid) continue;
    if (!best || (w->higher_is_better ? w->fom > best->fom : w->fom < best->fom)) best = w;
  }
  return best;
}

/* At a glance: per kernel at its largest size, each model at its fastest
 * variant, its ratio to the native model's fastest and its %copy. Kernels
 * with neither figure for any model are left out. */
static void print_summary(const pp_report *r, FILE *f) {
  int nat = native_model(r), present[PP_MODEL_COUNT] = {0}, lines = 0;
  int cw = label_width() > 13 ? label_width() : 13;
  for (int i = 0; i < r->nrows; i++) present[r->rows[i].model] = 1;
  char buf[512], lab[96];
  for (int i = 0; i < r->nrows; i++) {
    const char *k = r->rows[i].kernel;
    int first = 1, any = 0, seen, len = 0;
    for (int j = 0; j < i && first; j++) first = strcmp(r->rows[j].kernel, k) != 0;
    if (!first) continue;
    long long n = 0;
    for (int j = i; j < r->nrows; j++)
      if (!strcmp(r->rows[j].kernel, k) && r->rows[j].size > n) n = r->rows[j].size;
    const pp_row *ref = nat >= 0 ? best_row(r, k, nat, n, &seen) : NULL;
    len += snprintf(buf + len, sizeof buf - (size_t)len, "%-16s %11lld", k, n);
    for (int m = 0; m < PP_MODEL_COUNT; m++) {
      if (!present[m]) continue;
      const pp_row *b = best_row(r, k, m, n, &seen);
      char ratio[16] = "-", frac[16] = "-", cell[40];
      if (b && ref && pp_model_is_device((pp_model)m)) {
        snprintf(ratio, sizeof ratio, "%.2f", b->higher_is_better ? b->fom / ref->fom : ref->fom / b->fom);
        any = 1;
      }
      if (b && isfinite(b->frac_ceiling)) {
        snprintf(frac, sizeof frac, "%.1f%%", 100 * b->frac_ceiling);
        any = 1;
      }
      if (b) snprintf(cell, sizeof cell, "%5s %7s", ratio, frac);
      else snprintf(cell, sizeof cell, "%13s", seen ? "FAIL" : "");
      len += snprintf(buf + len, sizeof buf - (size_t)len, "  %-*s", cw, cell);
    }
    if (!any) continue;
    if (!lines++) {
      fprintf(f, "\nSummary: each kernel at its largest size, each model at its fastest variant:\n");
      if (nat >= 0) fprintf(f, "vs-nat (ratio to %s's fastest) and %%copy.\n", pp_model_name((pp_model)nat));
      else fprintf(f, "%%copy (no native model ran, so no vs-nat).\n");
      fprintf(f, "%-16s %11s", "kernel", "size");
      for (int m = 0; m < PP_MODEL_COUNT; m++)
        if (present[m]) fprintf(f, "  %-*s", cw, pp_model_label((pp_model)m, lab, sizeof lab));
      fputc('\n', f);
    }
    fprintf(f, "%s\n", buf);
  }
  if (!lines)
    fprintf(f, "\nSummary: no native model ran and no row has a %%copy (working sets in cache), so\n"
               "there is no ratio to summarize.\n");
}

static void json_stats(pp_json *j, const pp_stats *s) {
  pp_json_obj(j, "time_s");
  pp_json_int(j, "samples", s->n);
  pp_json_num(j, "min", s->min);
  pp_json_num(j, "median", s->median);
  pp_json_num(j, "mean", s->mean);
  pp_json_num(j, "max", s->max);
  pp_json_num(j, "stddev", s->stddev);
  pp_json_num(j, "ci_low", s->ci_lo);
  pp_json_num(j, "ci_high", s->ci_hi);
  pp_json_num(j, "confidence", s->confidence);
  pp_json_obj_end(j);
}

static void json_build(pp_json *j) {
  const pp_buildinfo *b = pp_build_info();
  pp_json_obj(j, "build");
  pp_json_str(j, "version", b->version);
  pp_json_str(j, "git_revision", b->git_revision);
  pp_json_bool(j, "git_dirty", pp_build_dirty());
  pp_json_str(j, "git_diff_sha256", b->git_diff_hash); /* first 12 hex of `git diff HEAD | sha256sum` */
  pp_json_str(j, "build_type", b->build_type);
  pp_json_str(j, "c_compiler", b->c_compiler);
  pp_json_str(j, "c_flags", b->c_flags);
  pp_json_str(j, "offload", b->offload);
  pp_json_str(j, "offload_flags", b->offload_flags);
  pp_json_str(j, "cuda_compiler", b->cuda_compiler);
  pp_json_str(j, "cuda_flags", b->cuda_flags);
  pp_json_str(j, "hip_compiler", b->hip_compiler);
  pp_json_str(j, "hip_flags", b->hip_flags);
  pp_json_str(j, "mpi", b->mpi);
  pp_json_str(j, "tag", b->tag);
  pp_json_str(j, "omp_compiler_id", b->omp_compiler_id);
  pp_json_str(j, "omp_compiler_version", b->omp_compiler_version);
  pp_json_str(j, "omp_compiler_banner", b->omp_compiler_banner);
  pp_json_str(j, "omp_compiler_tag", b->compiler_tag);
  pp_json_str(j, "omp_flag_set", b->omp_flag_set);
  pp_json_str(j, "omp_extra_flags", b->omp_extra_flags);
  pp_json_str(j, "omp_forced_flags", b->omp_forced_flags);
  pp_json_str(j, "ompx_absent", b->ompx_absent);
  pp_json_bool(j, "omp_simd", b->omp_simd);
  pp_json_obj_end(j);
}

/* A string that may be unknown: "" is written as null. */
static void json_known(pp_json *j, const char *key, const char *v) { pp_json_str(j, key, v[0] ? v : NULL); }

/* The identity fields of a device record (pp/device.h), null where unknown. */
static void json_identity(pp_json *j, const pp_device_info *d) {
  pp_json_bool(j, "is_gpu", d->is_gpu);
  if (d->native_index >= 0) pp_json_int(j, "native_index", d->native_index);
  else pp_json_str(j, "native_index", NULL);
  json_known(j, "uuid", d->uuid);
  json_known(j, "pci_bus_id", d->pci_bus_id);
  json_known(j, "driver", d->driver);
  json_known(j, "driver_api", d->driver_api);
  json_known(j, "runtime", d->runtime);
}

/* One rank's record (pp/system.h). */
static void json_system(pp_json *j, const pp_system *s) {
  char lab[96];
  pp_json_obj(j, NULL);
  pp_json_int(j, "rank", s->rank);
  pp_json_int(j, "local_rank", s->local_rank);
  pp_json_int(j, "local_ranks", s->local_ranks);
  json_known(j, "hostname", s->hostname);
  json_known(j, "os", s->os);
  json_known(j, "kernel", s->kernel);
  json_known(j, "kernel_version", s->kernel_version);
  json_known(j, "machine", s->machine);
  json_known(j, "cpu_model", s->cpu_model);
  pp_json_num(j, "cpus_online", s->cpus_online ? s->cpus_online : NAN);
  pp_json_num(j, "cpus_allowed", s->cpus_allowed ? s->cpus_allowed : NAN);
  json_known(j, "cpu_affinity", s->cpu_affinity);
  pp_json_int(j, "memory_bytes", (long long)s->memory_bytes);
  pp_json_obj(j, "openmp");
  pp_json_num(j, "version", s->openmp_version ? s->openmp_version : NAN);
  json_known(j, "runtime", s->openmp_runtime);
  pp_json_obj_end(j);
  pp_json_obj(j, "env");
  for (const char *e = s->env; *e; e += strlen(e) + 1) {
    char name[128];
    const char *eq = strchr(e, '=');
    snprintf(name, sizeof name, "%.*s", (int)(eq - e), e);
    pp_json_str(j, name, eq + 1);
  }
  pp_json_obj_end(j);
  if (s->sched[0]) {
    pp_json_obj(j, "scheduler");
    pp_json_str(j, "name", s->sched);
    json_known(j, "job_id", s->job_id);
    json_known(j, "nodelist", s->nodelist);
    json_known(j, "nodes", s->nodes);
    json_known(j, "task_rank", s->task_rank);
    json_known(j, "task_local_rank", s->task_local_rank);
    pp_json_obj_end(j);
  } else {
    pp_json_str(j, "scheduler", NULL);
  }
  pp_json_arr(j, "devices");
  for (int m = 0; m < PP_MODEL_COUNT; m++) {
    if (!s->have_device[m]) continue;
    const pp_device_info *d = &s->device[m];
    pp_json_obj(j, NULL);
    pp_json_str(j, "model", pp_model_name((pp_model)m));
    pp_json_str(j, "label", pp_model_label((pp_model)m, lab, sizeof lab));
    pp_json_str(j, "name", d->name);
    pp_json_str(j, "arch", d->arch);
    pp_json_int(j, "index", d->index);
    json_identity(j, d);
    pp_json_obj_end(j);
  }
  pp_json_arr_end(j);
  pp_json_obj_end(j);
}

static int write_json(const pp_report *r, const char *path) {
  pp_outfile out;
  if (pp_outfile_open(&out, path) != 0) return -1;
  FILE *f = out.f;
  pp_json j;
  char lab[96];
  pp_json_begin(&j, f);
  pp_json_str(&j, "schema", "proxyport-result-1");
  pp_json_str(&j, "app", r->app);
  pp_json_str(&j, "command", r->opt->command);
  pp_json_str(&j, "started_utc", r->started);
  pp_json_int(&j, "mpi_ranks", pp_mpi_size());
  json_build(&j);
  pp_json_arr(&j, "system"); /* one record per rank, in rank order */
  for (int i = 0; i < pp_mpi_size(); i++) json_system(&j, &r->systems[i]);
  pp_json_arr_end(&j);
  pp_json_obj(&j, "problem");
  for (int i = 0; i < r->nparams; i++) pp_json_str(&j, r->params[i].key, r->params[i].val);
  pp_json_obj_end(&j);
  pp_json_obj(&j, "timing");
  pp_json_int(&j, "warmup", r->opt->warmup);
  pp_json_int(&j, "samples", r->opt->samples);
  pp_json_int(&j, "bootstrap_resamples", r->opt->bootstrap.resamples);
  pp_json_num(&j, "confidence", r->opt->bootstrap.confidence);
  pp_json_int(&j, "seed", (long long)r->opt->seed);
  pp_json_obj_end(&j);
  pp_json_arr(&j, "devices");
  for (int m = 0; m < PP_MODEL_COUNT; m++) {
    if (!r->have_device[m] && !r->skipped[m][0]) continue;
    pp_json_obj(&j, NULL);
    pp_json_str(&j, "model", pp_model_name((pp_model)m));
    pp_json_str(&j, "label", pp_model_label((pp_model)m, lab, sizeof lab));
    pp_json_bool(&j, "ran", r->have_device[m]);
    if (r->have_device[m]) {
      const pp_device_info *d = &r->device[m];
      pp_json_str(&j, "name", d->name);
      pp_json_str(&j, "arch", d->arch);
      pp_json_int(&j, "index", d->index);
      pp_json_int(&j, "count", d->count);
      pp_json_int(&j, "total_mem_bytes", (long long)d->total_mem);
      pp_json_num(&j, "copy_ceiling_gbs", r->copy_gbs[m]);
      pp_json_num(&j, "copy_ceiling_min_row_bytes", r->ceiling_min_bytes[m]);
      json_identity(&j, d);
    } else {
      pp_json_str(&j, "reason", r->skipped[m]);
    }
    pp_json_obj_end(&j);
  }
  pp_json_arr_end(&j);
  pp_json_arr(&j, "results");
  for (int i = 0; i < r->nrows; i++) {
    const pp_row *w = &r->rows[i];
    pp_json_obj(&j, NULL);
    pp_json_str(&j, "kernel", w->kernel);
    pp_json_str(&j, "model", pp_model_name(w->model));
    pp_json_str(&j, "label", pp_model_label(w->model, lab, sizeof lab));
    pp_json_int(&j, "size", w->size);
    pp_json_str(&j, "variant", w->variant);
    pp_json_int(&j, "ranks", w->ranks);
    json_stats(&j, &w->time);
    pp_json_num_array(&j, "samples", w->samples, w->nsamples);
    pp_json_num(&j, "fom", w->fom);
    pp_json_str(&j, "fom_unit", w->fom_unit);
    pp_json_bool(&j, "fom_higher_is_better", w->higher_is_better);
    pp_json_num(&j, "bytes_per_run", w->bytes);
    pp_json_num(&j, "flops_per_run", w->flops);
    pp_json_num(&j, "fraction_of_copy_ceiling", w->frac_ceiling);
    pp_json_num(&j, "ratio_to_native", w->ratio_native);
    pp_json_obj(&j, "metrics");
    for (int k = 0; k < w->nmetrics; k++) {
      char key[56];
      snprintf(key, sizeof key, "%s_%s", w->metrics[k].name, w->metrics[k].unit);
      for (char *p = key; *p; p++) if (*p == '/') *p = 'p';
      pp_json_num(&j, key, w->metrics[k].value);
    }
    pp_json_obj_end(&j);
    pp_json_bool(&j, "valid", w->valid);
    pp_json_str(&j, "check", w->check);
    pp_json_obj_end(&j);
  }
  pp_json_arr_end(&j);
  pp_json_int(&j, "failures", pp_report_failures(r));
  pp_json_bool(&j, "validated", pp_report_failures(r) == 0 && r->nrows > 0);
  pp_json_end(&j);
  return pp_outfile_commit(&out); /* atomic: a crash never leaves a half file */
}

static void csv_field(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"') fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

static int write_csv(const pp_report *r, const char *path) {
  pp_outfile out;
  if (pp_outfile_open(&out, path) != 0) return -1;
  FILE *f = out.f;
  const pp_buildinfo *b = pp_build_info();
  fprintf(f, "app,kernel,model,size,variant,ranks,samples,time_min_s,time_median_s,time_mean_s,"
             "time_stddev_s,time_ci_low_s,time_ci_high_s,fom,fom_unit,bytes_per_run,flops_per_run,"
             "fraction_of_copy_ceiling,ratio_to_native,valid,check,device,git_revision,c_compiler,label\n");
  for (int i = 0; i < r->nrows; i++) {
    const pp_row *w = &r->rows[i];
    fprintf(f, "%s,%s,%s,%lld,", r->app, w->kernel, pp_model_name(w->model), w->size);
    csv_field(f, w->variant);
    fprintf(f, ",%d,%d,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%s,%.9g,%.9g,%.6g,%.6g,%s,", w->ranks,
            w->time.n, w->time.min, w->time.median, w->time.mean, w->time.stddev, w->time.ci_lo,
            w->time.ci_hi, w->fom, w->fom_unit, w->bytes, w->flops, w->frac_ceiling,
            w->ratio_native, w->valid ? "PASS" : "FAIL");
    csv_field(f, w->check);
    fputc(',', f);
    csv_field(f, r->have_device[w->model] ? r->device[w->model].name : "");
    fputc(',', f);
    csv_field(f, b->git_revision);
    fputc(',', f);
    csv_field(f, b->c_compiler);
    fputc(',', f);
    char lab[96];
    csv_field(f, pp_model_label(w->model, lab, sizeof lab));
    fputc('\n', f);
  }
  return pp_outfile_commit(&out);
}

/* Collective: every rank's provenance (its node and its devices) to rank 0. */
static void gather_systems(pp_report *r) {
  pp_system *mine = malloc(sizeof *mine);
  if (!mine) pp_device_fail(PP_HOST, "alloc", "out of host memory for the system record");
  pp_system_probe(mine);
  for (int m = 0; m < PP_MODEL_COUNT; m++) {
    mine->have_device[m] = r->have_device[m];
    if (r->have_device[m]) mine->device[m] = r->device[m];
  }
  if (pp_mpi_rank() == 0) {
    free(r->systems);
    r->systems = malloc(sizeof *mine * (size_t)pp_mpi_size());
    if (!r->systems) pp_device_fail(PP_HOST, "alloc", "out of host memory for the system records");
  }
  pp_mpi_gather(mine, r->systems, (int)sizeof *mine);
  free(mine);
}

int pp_report_finish(pp_report *r) {
  compute_ratios(r);
  if (pp_fault_unused()) { /* a misspelled fault must not let a fault test pass */
    if (pp_mpi_rank() == 0)
      fprintf(stderr, "%s: --inject-fault '%s' is not a fault this run can plant\n", r->app,
              pp_fault_requested());
    return 2;
  }
  gather_systems(r);
  if (pp_mpi_rank() != 0) return pp_report_failures(r) ? 1 : 0;
  print_table(r, stdout);
  fflush(stdout);
  int io = 0;
  if (r->opt->json_path && write_json(r, r->opt->json_path) != 0) {
    fprintf(stderr, "%s: cannot write JSON file '%s'\n", r->app, r->opt->json_path);
    io = 1;
  }
  if (r->opt->csv_path && write_csv(r, r->opt->csv_path) != 0) {
    fprintf(stderr, "%s: cannot write CSV file '%s'\n", r->app, r->opt->csv_path);
    io = 1;
  }
  if (io) return 3;
  return pp_report_failures(r) || r->nrows == 0 ? 1 : 0;
}
