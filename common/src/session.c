/* The session (pp/session.h): command line, devices, copy ceilings, fit
 * checks and the report's start and end. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "pp/session.h"
#include "pp/buildinfo.h"
#include "pp/ceiling.h"
#include "pp/machine.h"
#include "pp/mpi.h"
#include "pp/outfile.h"
#include "pp/runfiles.h"
#include "pp/system.h"
#include "pp/timer.h"

void pp_progress(const pp_session *s, const char *fmt, ...) {
  if (!s->opt.progress || pp_mpi_rank() != 0) return;
  va_list ap;
  va_start(ap, fmt);
  /* elapsed since the session started: long runs show where the time goes */
  fprintf(stderr, "[%s %.1fs] ", s->app->name, pp_wtime() - s->t0);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

/* Rank 0 writes every output, so rank 0 checks it and holds the list of
 * outputs that inputs are compared with (pp/runfiles.h); the verdict is
 * collective. */
void pp_session_check_outfile(const pp_session *s, const char *opt, const char *path) {
  const char *err = path && pp_mpi_rank() == 0 ? pp_outfile_check(path) : NULL;
  char *msg = NULL;
  if (err) {
    size_t n = strlen(opt) + strlen(path) + strlen(err) + 32;
    if ((msg = malloc(n))) snprintf(msg, n, "%s: cannot write '%s': %s", opt, path, err);
  } else if (path && pp_mpi_rank() == 0) {
    msg = pp_runfiles_output(opt, path); /* not an input, not another output */
  }
  pp_usage_check_all(s->app->name, err && !msg ? "cannot write a result file" : msg);
  free(msg);
}

/* Initializes model m on device `index` once per process and returns its
 * ops; later calls return the same ops. The record gets the device's
 * identity (provenance, pp_device_identify: never fails). */
static const pp_device_ops *open_device(pp_model m, int index, pp_device_info *info) {
  static int opened[PP_MODEL_COUNT];
  static pp_device_info infos[PP_MODEL_COUNT];
  const pp_device_ops *ops = pp_device_ops_for(m);
  if (!ops) pp_device_fail(m, "open", "model not in this build");
  if (!opened[m]) {
    memset(&infos[m], 0, sizeof infos[m]);
    infos[m].native_index = -1; /* a GPU model's init sets it */
    ops->init(index, &infos[m]);
    pp_device_identify(m, &infos[m]);
    opened[m] = 1;
  }
  *info = infos[m];
  return ops;
}

/* Buffers of the host ceiling: max(256 MiB, 8 x the last-level cache), so
 * the copy streams from memory; 0 when --ceiling-mib asks for
 * less (a cache-resident copy is no roof) or the host cannot spare them. */
static size_t host_ceiling_bytes(const pp_session *s, size_t llc) {
  size_t want = (size_t)256 << 20;
  if (8 * llc > want) want = 8 * llc;
  size_t bytes = s->opt.ceiling_mib ? (size_t)s->opt.ceiling_mib << 20 : want;
  size_t avail = pp_host_available_bytes() / 4;
  if (bytes > avail) bytes = avail;
  return bytes >= 8 * llc ? bytes : 0;
}

static size_t gpu_ceiling_bytes(const pp_session *s, pp_model m) {
  size_t bytes = (s->opt.ceiling_mib ? (size_t)s->opt.ceiling_mib : 1024) << 20;
  size_t free_mem = s->info[m].free_mem, total;
  /* the app may hold memory by now: ask again where the driver can tell */
  pp_native_mem_info(s->info[m].index, &free_mem, &total);
  if (free_mem && bytes > free_mem / 4) bytes = free_mem / 4;
  return bytes;
}

static double measure(pp_session *s, pp_model m, const pp_device_ops *ops, size_t bytes) {
  /* The ceiling is the device's: CUDA/HIP measure it with events whatever --timer says
   * (the model's own timer; --timer wall is pp_measure_run's). */
  pp_progress(s, "measuring the copy ceiling with %s (2 x %.0f MiB buffers)", pp_model_name(m),
              bytes / 1048576.0);
  return pp_measure_copy_gbs(ops, bytes, 10);
}

void pp_session_ready(pp_session *s) {
  if (s->ready) return;
  s->ready = 1;
  /* One streaming ceiling per device: GPU models are all measured against the
   * native model's copy when it is built, so they share a yardstick. */
  pp_model gpu_order[PP_MODEL_COUNT];
  const int ngpu_order = pp_model_yardstick_order(gpu_order);
  int any_gpu = 0, any_cpu = 0;
  for (int m = 0; m < PP_MODEL_COUNT; m++) {
    if (!s->ops[m]) continue;
    if (s->info[m].is_gpu) any_gpu = 1;
    else any_cpu = 1;
  }
  double gpu = NAN, host = NAN;
  for (int k = 0; k < ngpu_order && any_gpu && isnan(gpu); k++) {
    pp_model g = gpu_order[k];
    if (!(pp_models_built() & (1u << g))) continue;
    pp_device_info info;
    const pp_device_ops *ops = s->ops[g] ? s->ops[g] : open_device(g, s->opt.device, &info);
    if (!s->ops[g]) s->info[g] = info; /* opened only to measure */
    gpu = measure(s, g, ops, gpu_ceiling_bytes(s, g));
  }
  /* The host, and OpenMP offloading to the host (the same cores and memory,
   * whose omp_target_memcpy is one thread: no roof), share the host's ceiling:
   * all threads, buffers well beyond the last-level cache. */
  size_t llc = pp_host_llc_bytes();
  if (any_cpu) {
    size_t bytes = host_ceiling_bytes(s, llc);
    if (bytes) host = measure(s, PP_HOST, pp_device_ops_for(PP_HOST), bytes);
    else pp_progress(s, "no host copy ceiling: buffers below 8 x the %.0f MiB last-level cache "
                     "would stay in it (%%copy shows '-')", llc / 1048576.0);
  }
  for (int m = 0; m < PP_MODEL_COUNT; m++) {
    if (!s->ops[m]) continue;
    s->copy_gbs[m] = s->info[m].is_gpu ? gpu : host;
    pp_report_device(s->report, (pp_model)m, &s->info[m], s->copy_gbs[m]);
    /* rows whose working set fits in 4 x the cache could run from it */
    if (!s->info[m].is_gpu) pp_report_ceiling_min_bytes(s->report, (pp_model)m, 4.0 * (double)llc);
  }
}

/* --gpu-wait applied, and the header's "gpu wait" line: the mode in force, or
 * why none is (never "driver default" while --help says spin is the default). */
static void report_gpu_wait(pp_session *s) {
  static const char *const waits[] = {"driver default", "spin", "yield", "block"};
  const char *offload = pp_build_info()->offload, *mode = waits[s->opt.gpu_wait & 3];
  int gpu = (pp_models_built() & pp_models_native()) || (strcmp(offload, "cpu") && strcmp(offload, "none"));
  if (!gpu) {
    if (s->opt.gpu_wait_set && pp_mpi_rank() == 0)
      fprintf(stderr, "%s: --gpu-wait: this build has no GPU model (offload to %s); ignored\n", s->app->name, offload);
    pp_report_param(s->report, "gpu wait", "none: no GPU model in this build (offload to %s)", offload);
    return;
  }
  if (!(s->opt.backends & ~(1u << PP_HOST))) return; /* only the host model runs: no GPU to wait for */
  if (!s->opt.gpu_wait || pp_native_set_wait(s->opt.device, s->opt.gpu_wait) == 0) {
    pp_report_param(s->report, "gpu wait", "%s", mode);
    return;
  }
  char natives[64];
  if (s->opt.gpu_wait_set && pp_mpi_rank() == 0)
    fprintf(stderr, "%s: --gpu-wait needs the CUDA driver or the %s model in the build; ignored\n", s->app->name,
            pp_model_set_names(pp_models_native(), " or ", natives, sizeof natives));
  pp_report_param(s->report, "gpu wait", "%s%s not applied (no GPU driver or device to set it through): the "
                  "driver's default", mode, s->opt.gpu_wait_set ? "" : " (the default)");
}

void pp_session_start(pp_session *s, int argc, char **argv, const pp_app *app) {
  /* A reader that goes away (`| head`) ends the text, never the run or its
   * result files: writes to the closed pipe then fail (EPIPE) and are dropped. */
  signal(SIGPIPE, SIG_IGN);
  memset(s, 0, sizeof *s);
  s->t0 = pp_wtime();
  s->app = app;
  pp_mpi_init(&argc, &argv);
  pp_cli_parse(argc, argv, app, &s->opt);
  pp_session_check_outfile(s, "--json", s->opt.json_path);
  pp_session_check_outfile(s, "--csv", s->opt.csv_path);
  s->report = pp_report_new(app->name, &s->opt);
  char natives[64];
  pp_model_set_names(pp_models_native(), "/", natives, sizeof natives);
  if (s->opt.timer_wall) pp_report_param(s->report, "timer", "synchronized host wall clock for every model");
  else pp_report_param(s->report, "timer", "%s: events; the others: synchronized host wall clock", natives);
  for (int m = 0; m < PP_MODEL_COUNT; m++) {
    s->copy_gbs[m] = NAN;
    /* never silently skipped: the report lists the models this build lacks */
    if (!(pp_models_built() & (1u << m))) pp_report_skip(s->report, (pp_model)m, pp_model_absent_reason((pp_model)m));
  }

  report_gpu_wait(s);
  for (int m = 0; m < PP_MODEL_COUNT; m++) {
    if (!(s->opt.backends & (1u << m))) continue;
    pp_progress(s, "opening %s", pp_model_name((pp_model)m));
    s->ops[m] = open_device((pp_model)m, s->opt.device, &s->info[m]);
  }
  /* The copy ceilings are measured later, by pp_session_ready (the app's
   * inputs are checked first); until then copy_gbs is NaN. */
  for (int m = 0; m < PP_MODEL_COUNT; m++)
    if (s->ops[m]) pp_report_device(s->report, (pp_model)m, &s->info[m], NAN);
}

/* PP_TEST_MEMORY_GIB="HOST,DEVICE" (for tests): the memory the fit check
 * assumes instead of asking the machine, so that a too-big test gets the
 * same verdict and message whatever the load. 1: set (host, device in
 * bytes), 0: unset, -1: malformed. */
static int assumed_memory(double *host, double *device) {
  const char *v = getenv("PP_TEST_MEMORY_GIB");
  if (!v || !*v) return 0;
  char *end;
  *host = strtod(v, &end) * 1073741824.0;
  if (*end != ',') return -1;
  *device = strtod(end + 1, &end) * 1073741824.0;
  return !*end && *host > 0 && *device > 0 ? 1 : -1;
}

/* Why `device_bytes`/`host_bytes` do not fit (msg), or NULL. This rank only. */
static const char *fits_why(const pp_session *s, const char *what, double device_bytes, double host_bytes,
                            char *msg, size_t len) {
  const double gib = 1073741824.0;
  const char *bad = NULL;
  double host = 0, device = 0;
  const int assumed = assumed_memory(&host, &device);
  if (assumed < 0) bad = "PP_TEST_MEMORY_GIB: expected 'HOST_GIB,DEVICE_GIB', two positive numbers";
  for (int m = 0; m < PP_MODEL_COUNT && !bad; m++) {
    if (!s->ops[m] || !pp_model_is_device((pp_model)m)) continue;
    const double free_mem = assumed ? device : (double)s->info[m].free_mem;
    if (free_mem && device_bytes > free_mem)
      snprintf(msg, len, "%s needs %.2f GiB of device memory; %s device %d has %.2f GiB free%s",
               what, device_bytes / gib, pp_model_name((pp_model)m), s->info[m].index,
               free_mem / gib, assumed ? " (PP_TEST_MEMORY_GIB)" : ""), bad = msg;
  }
  double avail = assumed ? host : (double)pp_host_available_bytes();
  double phys = assumed ? host : (double)pp_host_physical_bytes();
  if (!bad && host_bytes > avail)
    snprintf(msg, len, "%s needs %.2f GiB of host memory; this node has %.2f GiB "
             "available (%s) of %.2f GiB physical", what, host_bytes / gib,
             avail / gib, assumed ? "PP_TEST_MEMORY_GIB" : "MemAvailable", phys / gib), bad = msg;
  return bad;
}

int pp_session_fits(const pp_session *s, double device_bytes, double host_bytes) {
  char msg[512];
  return fits_why(s, "", device_bytes, host_bytes, msg, sizeof msg) == NULL;
}

void pp_session_check_fits(const pp_session *s, const char *what, double device_bytes,
                           double host_bytes) {
  char msg[512]; /* collective: a rank's own slab may be the one that does not fit */
  pp_usage_check_all(s->app->name, fits_why(s, what, device_bytes, host_bytes, msg, sizeof msg));
}

int pp_session_finish(pp_session *s) {
  int rc = pp_report_finish(s->report);
  pp_report_free(s->report);
  s->report = NULL;
  pp_mpi_finalize();
  return rc;
}
