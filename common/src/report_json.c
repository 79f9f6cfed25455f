/* The result file (pp/report_writers.h): the schema proxyport-result-1 that
 * validate/schema/result.schema.json defines and the tools read. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "pp/buildinfo.h"
#include "pp/json.h"
#include "pp/mpi.h"
#include "pp/outfile.h"
#include "pp/report_writers.h"

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
  pp_json_str(j, "ompx_grid", b->ompx_grid);
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

/* A packed list "a\0b\0\0" as an array of strings. */
static void json_packed(pp_json *j, const char *key, const char *list) {
  pp_json_arr(j, key);
  for (const char *e = list; *e; e += strlen(e) + 1) pp_json_str(j, NULL, e);
  pp_json_arr_end(j);
}

/* Packed "NAME=value" items as an object, or the reason there are none. */
static void json_vars(pp_json *j, const char *key, const char *list, const char *why) {
  if (!list[0]) {
    pp_json_str(j, key, why);
    return;
  }
  pp_json_obj(j, key);
  for (const char *e = list; *e; e += strlen(e) + 1) {
    char name[128];
    const char *eq = strchr(e, '=');
    if (!eq) continue;
    snprintf(name, sizeof name, "%.*s", (int)(eq - e), e);
    pp_json_str(j, name, eq + 1);
  }
  pp_json_obj_end(j);
}

static void json_load(pp_json *j, const char *key, const double v[3], const char *why) {
  if (!isfinite(v[0])) {
    pp_json_str(j, key, why);
    return;
  }
  pp_json_num_array(j, key, v, 3);
}

/* A GPU's management state: its readings (a number, or text), or why none. */
static void json_gpu_state(pp_json *j, const char *key, const pp_gpu_state *g) {
  if (!g->source[0]) {
    pp_json_str(j, key, g->why[0] ? g->why : "not available: not read");
    return;
  }
  pp_json_obj(j, key);
  pp_json_str(j, "source", g->source);
  for (int i = 0; i < g->nfields; i++) {
    if (isfinite(g->f[i].value)) pp_json_num(j, g->f[i].key, g->f[i].value);
    else pp_json_str(j, g->f[i].key, g->f[i].text);
  }
  pp_json_obj_end(j);
}

/* The disclosure fields of a rank's record (system_disclose.c). */
static void json_disclosure(pp_json *j, const pp_system *s) {
  if (!s->modules[0]) {
    pp_json_str(j, "modules", s->modules_why);
  } else {
    pp_json_obj(j, "modules");
    json_packed(j, "loaded", s->modules);
    if (s->module_files[0]) json_packed(j, "files", s->module_files);
    else pp_json_str(j, "files", s->module_files_why);
    if (s->modules_why[0]) pp_json_str(j, "cut", s->modules_why);
    pp_json_obj_end(j);
  }
  json_vars(j, "cray_pe", s->cray_pe, s->cray_pe_why);
  pp_json_str(j, "mpi_library", s->mpi_library);
  pp_json_str(j, "cpu_governor", s->cpu_governor);
  pp_json_str(j, "cpu_freq_driver", s->cpu_freq_driver);
  pp_json_obj(j, "load_average");
  json_load(j, "start", s->load_start, s->load_start_why);
  json_load(j, "end", s->load_end, s->load_end_why);
  pp_json_obj_end(j);
  json_vars(j, "allocation", s->allocation, s->allocation_why);
}

/* The site configuration file, whole, or why it is not here. */
static void json_site(pp_json *j) {
  const pp_site_file *f = pp_site_file_get();
  if (!f->text) {
    pp_json_str(j, "site_file", f->why);
    return;
  }
  pp_json_obj(j, "site_file");
  pp_json_str(j, "path", f->path);
  pp_json_int(j, "bytes", (long long)f->bytes);
  pp_json_str(j, "sha256", f->sha256);
  pp_json_str(j, "text", f->text);
  pp_json_obj_end(j);
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
  json_disclosure(j, s);
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
    json_gpu_state(j, "gpu_state_open", &s->gpu_open[m]);
    json_gpu_state(j, "gpu_state_end", &s->gpu_end[m]);
    pp_json_obj_end(j);
  }
  pp_json_arr_end(j);
  pp_json_obj_end(j);
}

/* A row's energy (pp/row.h): its figures, or why there are none. */
static void json_energy(pp_json *j, const pp_report *r, const pp_row *w) {
  const pp_row_energy *e = &w->energy;
  if (!e->measured) {
    pp_json_str(j, "energy", e->why[0] ? e->why : "not measured");
    return;
  }
  pp_json_obj(j, "energy");
  pp_json_num(j, "joules_per_rep", e->joules);
  pp_json_num(j, "watts", e->watts);
  pp_json_num(j, "idle_watts", e->idle_watts);
  pp_json_num(j, "fom_per_joule", e->per_joule);
  pp_json_str(j, "fom_per_joule_unit", e->per_joule_unit);
  pp_json_num(j, "region_s", e->seconds);
  pp_json_num(j, "region_start_unix_s", e->utc_start);
  pp_json_num(j, "region_end_unix_s", e->utc_end);
  pp_json_int(j, "region_runs", e->runs);
  pp_json_int(j, "calls_per_run", e->calls);
  pp_json_bool(j, "repeated_for_resolution", e->repeated);
  pp_json_num(j, "counter_error", e->error);
  pp_json_bool(j, "below_counter_resolution", e->below_resolution);
  pp_json_num(j, "counter_update_s", e->update_s);
  pp_json_num(j, "counter_step_j", e->step_j);
  pp_json_num(j, "counter_window_s", e->window_s);
  pp_json_num(j, "metered_time_ratio", e->pace);
  pp_json_num(j, "sm_clock_mhz_start", e->sm_start);
  pp_json_num(j, "sm_clock_mhz_end", e->sm_end);
  pp_json_num(j, "power_limit_w_start", e->limit_start);
  pp_json_num(j, "power_limit_w_end", e->limit_end);
  pp_json_bool(j, "throttled", e->throttled);
  pp_json_str(j, "clock_event_reasons", e->reasons);
  pp_json_int(j, "readers", e->readers);
  pp_json_str(j, "source", e->source);
  if (e->why[0]) pp_json_str(j, "note", e->why);
  /* per rank, and per node: one reader per device, so each device is counted once */
  const int R = pp_mpi_size() < PP_ENERGY_RANKS ? pp_mpi_size() : PP_ENERGY_RANKS;
  pp_json_arr(j, "per_rank");
  for (int i = 0; i < R; i++) {
    pp_json_obj(j, NULL);
    pp_json_int(j, "rank", i);
    pp_json_num(j, "joules_per_rep", e->rank_joules[i]);
    if (e->read_by[i] >= 0) pp_json_int(j, "read_by", e->read_by[i]);
    else pp_json_str(j, "read_by", NULL);
    pp_json_obj_end(j);
  }
  pp_json_arr_end(j);
  pp_json_obj(j, "per_node");
  for (int i = 0; i < R && r->systems; i++) {
    const char *host = r->systems[i].hostname;
    int first = 1;
    for (int k = 0; k < i && first; k++) first = strcmp(r->systems[k].hostname, host) != 0;
    if (!first) continue;
    double sum = 0;
    for (int k = i; k < R; k++)
      if (!strcmp(r->systems[k].hostname, host) && isfinite(e->rank_joules[k])) sum += e->rank_joules[k];
    pp_json_num(j, host[0] ? host : "unknown", sum);
  }
  pp_json_obj_end(j);
  pp_json_obj_end(j);
}

int pp_report_write_json(const pp_report *r, const char *path) {
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
  json_site(&j);
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
    json_energy(&j, r, w);
    pp_json_bool(&j, "valid", w->valid);
    pp_json_str(&j, "check", w->check);
    pp_json_obj_end(&j);
  }
  pp_json_arr_end(&j);
  pp_json_int(&j, "failures", pp_report_failures(r));
  pp_json_bool(&j, "validated", pp_report_failures(r) == 0 && r->nrows > 0);
  pp_json_end(&j);
  return pp_outfile_stage(&out); /* published with the run's other outputs, or none is */
}
