#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pp/cli.h"
#include "pp/device.h"
#include "pp/fault.h"
#include "pp/mpi.h"

void pp_usage_error(const char *app, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (pp_mpi_rank() == 0) {
    fprintf(stderr, "%s: ", app);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, " (see --help)\n");
  }
  va_end(ap);
  pp_mpi_exit(2);
}

void pp_usage_check_all(const char *app, const char *msg) {
  int P = pp_mpi_size(), me = pp_mpi_rank();
  double who = msg ? (double)(P - me) : 0; /* max over ranks -> the lowest failing rank */
  pp_mpi_max(&who, 1);
  if (who == 0) return;
  if (me == P - (int)who) {
    fprintf(stderr, "%s: %s (see --help)\n", app, msg);
    fflush(stderr);
  }
  pp_mpi_barrier();
  pp_mpi_finalize();
  exit(2);
}

int pp_parse_size(const char *s, long long *out) {
  char *end;
  errno = 0;
  if (!s || !*s || *s == '-' || !isdigit((unsigned char)*s)) return -1;
  long long v = strtoll(s, &end, 10);
  if (errno) return -1;
  if (*end == '^' || (end[0] == '<' && end[1] == '<')) {
    /* 2^N or B<<N */
    const char *p = end + (*end == '^' ? 1 : 2);
    char *e2;
    long long ex = strtoll(p, &e2, 10);
    if (e2 == p || *e2 || ex < 0 || ex > 62) return -1;
    long double r = 1;
    if (*end == '^') for (long long i = 0; i < ex; i++) r *= (long double)v;
    else r = (long double)v * (long double)(1ll << ex);
    if (r > 9.2e18L) return -1;
    *out = (long long)r;
    return 0;
  }
  long long mult = 1;
  if (*end == 'K' || *end == 'k') mult = 1ll << 10, end++;
  else if (*end == 'M' || *end == 'm') mult = 1ll << 20, end++;
  else if (*end == 'G' || *end == 'g') mult = 1ll << 30, end++;
  if (*end) return -1;
  if (v > (long long)(9.2e18 / (double)mult)) return -1;
  *out = v * mult;
  return 0;
}

const char *pp_parse_int(const char *s, long long lo, long long hi, long long *out) {
  static char msg[160];
  long long v;
  if (pp_parse_size(s, &v) != 0) {
    snprintf(msg, sizeof msg, "'%s' is not a non-negative integer", s ? s : "");
    return msg;
  }
  if (v < lo || v > hi) {
    snprintf(msg, sizeof msg, "%lld is outside [%lld, %lld]", v, lo, hi);
    return msg;
  }
  *out = v;
  return NULL;
}

const char *pp_parse_double(const char *s, double lo, double hi, double *out) {
  static char msg[160];
  char *end;
  errno = 0;
  double x = s && *s ? strtod(s, &end) : 0;
  if (!s || !*s || *end || errno == ERANGE || !(x >= lo && x <= hi)) {
    snprintf(msg, sizeof msg, "'%s' is not a number in [%g, %g]", s ? s : "", lo, hi);
    return msg;
  }
  *out = x;
  return NULL;
}

const char *pp_parse_list(const char *s, long long lo, long long hi, pp_list *out) {
  static char msg[200];
  char buf[1024];
  if (!s || !*s) return "empty list";
  if (strlen(s) >= sizeof buf) return "list too long";
  strcpy(buf, s);
  out->n = 0;
  for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
    if (out->n == PP_MAX_LIST) {
      snprintf(msg, sizeof msg, "more than %d values", PP_MAX_LIST);
      return msg;
    }
    const char *err = pp_parse_int(tok, lo, hi, &out->v[out->n]);
    if (err) {
      snprintf(msg, sizeof msg, "%s", err);
      return msg;
    }
    out->n++;
  }
  return out->n ? NULL : "empty list";
}

static void parse_backends(const char *app, const char *s, pp_model_set *out) {
  char buf[256];
  if (strlen(s) >= sizeof buf) pp_usage_error(app, "--backend: list too long");
  strcpy(buf, s);
  pp_model_set built = pp_models_built(), set = 0;
  for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
    if (strcmp(tok, "all") == 0) { set |= built; continue; }
    int m = pp_model_from_name(tok);
    if (m < 0) pp_usage_error(app, "--backend: unknown model '%s' (host, omp, ompx, cuda, hip, all)", tok);
    if (!(built & (1u << m)))
      pp_usage_error(app, "--backend: model '%s' is %s", tok, pp_model_absent_reason((pp_model)m));
    set |= 1u << m;
  }
  if (!set) pp_usage_error(app, "--backend: empty list");
  *out = set;
}

static void print_help(const pp_app *app) {
  printf("%s: %s\n\nUsage: %s [options]\n\nCommon options:\n", app->name, app->summary, app->name);
  printf("  --backend LIST     models to run, comma-separated, or 'all' (default: all built)\n");
  printf("  --size LIST        %s (default %s)\n", app->size_help, app->default_sizes);
  printf("  --warmup N         untimed runs before timing (default 2)\n");
  printf("  --samples N        timed runs per measurement (default 10)\n");
  printf("  --timer events|wall  CUDA/HIP timing: device events (default) or a synchronized host wall\n"
         "                     clock, the way OpenMP models are always timed (compares like with like)\n");
  printf("  --gpu-wait MODE     how the host waits for the GPU, for every model on it: spin (default),\n"
         "                     yield, block, auto (the driver's choice); set on the native model's context\n");
  printf("  --bootstrap N      bootstrap resamples for the confidence interval (default 1000, 0 = off)\n");
  printf("  --confidence X     confidence level of that interval (default 0.95)\n");
  printf("  --seed N           seed of data generation and bootstrap (default 42)\n");
  printf("  --json FILE        write every result, the build and the device as JSON\n");
  printf("  --csv FILE         write one CSV row per result\n");
  printf("  --device N         device index (default: node-local MPI rank modulo device count)\n");
  printf("  --ceiling-mib N    buffer size of the copy-bandwidth ceiling measurement (default 1024 on GPUs, 256 on CPUs)\n");
  printf("  --quiet            print only the table (no progress)\n");
  printf("  --inject-fault NAME  testing: corrupt one result before its check (it must FAIL)\n");
  printf("  --help             this text\n");
  if (app->options && app->options[0].name) {
    printf("\n%s options:\n", app->name);
    for (const pp_app_option *o = app->options; o->name; o++) {
      char head[64];
      snprintf(head, sizeof head, "%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
      printf("  %-18s %s\n", head, o->help);
    }
  }
  printf("\nModels in this build:");
  pp_model_set built = pp_models_built();
  for (int m = 0; m < PP_MODEL_COUNT; m++)
    if (built & (1u << m)) printf(" %s", pp_model_name((pp_model)m));
  printf("\n");
  for (int m = 0; m < PP_MODEL_COUNT; m++)
    if (!(built & (1u << m)))
      printf("  %s: %s\n", pp_model_name((pp_model)m), pp_model_absent_reason((pp_model)m));
  printf("\nExit codes: 0 all results validated, 1 a validation failed, 2 bad usage or input,\n"
         "3 runtime or device error.\n");
  if (app->epilog) printf("\n%s", app->epilog);
}

static const char *need_arg(const pp_app *app, int argc, char **argv, int *i) {
  if (*i + 1 >= argc) pp_usage_error(app->name, "%s needs a value", argv[*i]);
  return argv[++*i];
}

static long long int_opt(const pp_app *app, const char *name, const char *v, long long lo, long long hi) {
  long long x;
  const char *err = pp_parse_int(v, lo, hi, &x);
  if (err) pp_usage_error(app->name, "%s: %s", name, err);
  return x;
}

void pp_cli_parse(int argc, char **argv, const pp_app *app, pp_options *opt) {
  memset(opt, 0, sizeof *opt);
  opt->backends = pp_models_built();
  opt->warmup = 2;
  opt->samples = 10;
  opt->bootstrap.resamples = 1000;
  opt->bootstrap.confidence = 0.95;
  opt->seed = 42;
  opt->device = -1;
  opt->progress = 1;
  const char *err = pp_parse_list(app->default_sizes, 1, app->max_size, &opt->sizes);
  if (err) pp_usage_error(app->name, "internal: default sizes: %s", err);

  size_t len = 0;
  for (int i = 0; i < argc && len + 2 < sizeof opt->command; i++)
    len += (size_t)snprintf(opt->command + len, sizeof opt->command - len, "%s%s", i ? " " : "", argv[i]);

  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      if (pp_mpi_rank() == 0) print_help(app);
      pp_mpi_exit(0);
    } else if (!strcmp(a, "--backend")) {
      parse_backends(app->name, need_arg(app, argc, argv, &i), &opt->backends);
    } else if (!strcmp(a, "--size")) {
      err = pp_parse_list(need_arg(app, argc, argv, &i), 1, app->max_size, &opt->sizes);
      if (err) pp_usage_error(app->name, "--size: %s", err);
      opt->size_given = 1;
    } else if (!strcmp(a, "--warmup")) {
      opt->warmup = (int)int_opt(app, a, need_arg(app, argc, argv, &i), 0, 1000000);
    } else if (!strcmp(a, "--samples")) {
      opt->samples = (int)int_opt(app, a, need_arg(app, argc, argv, &i), 1, 1000000);
    } else if (!strcmp(a, "--timer")) {
      const char *v = need_arg(app, argc, argv, &i);
      if (strcmp(v, "events") && strcmp(v, "wall"))
        pp_usage_error(app->name, "--timer: '%s' is neither 'events' nor 'wall'", v);
      pp_timer_wall = !strcmp(v, "wall");
    } else if (!strcmp(a, "--gpu-wait")) {
      static const char *const modes[] = {"auto", "spin", "yield", "block"};
      const char *v = need_arg(app, argc, argv, &i);
      int k = 0;
      while (k < 4 && strcmp(v, modes[k])) k++;
      if (k == 4) pp_usage_error(app->name, "--gpu-wait: '%s' is not auto, spin, yield or block", v);
      pp_gpu_wait = k;
      opt->gpu_wait_set = 1;
    } else if (!strcmp(a, "--bootstrap")) {
      opt->bootstrap.resamples = (int)int_opt(app, a, need_arg(app, argc, argv, &i), 0, 1000000);
    } else if (!strcmp(a, "--confidence")) {
      const char *v = need_arg(app, argc, argv, &i);
      char *end;
      double c = strtod(v, &end);
      if (*end || !(c > 0 && c < 1)) pp_usage_error(app->name, "--confidence: '%s' is not in (0,1)", v);
      opt->bootstrap.confidence = c;
    } else if (!strcmp(a, "--seed")) {
      opt->seed = (uint64_t)int_opt(app, a, need_arg(app, argc, argv, &i), 0, (long long)9e18);
    } else if (!strcmp(a, "--json")) {
      opt->json_path = need_arg(app, argc, argv, &i);
    } else if (!strcmp(a, "--csv")) {
      opt->csv_path = need_arg(app, argc, argv, &i);
    } else if (!strcmp(a, "--device")) {
      opt->device = (int)int_opt(app, a, need_arg(app, argc, argv, &i), 0, 1023);
    } else if (!strcmp(a, "--ceiling-mib")) {
      opt->ceiling_mib = int_opt(app, a, need_arg(app, argc, argv, &i), 1, 1 << 20);
    } else if (!strcmp(a, "--inject-fault")) {
      pp_fault_set(need_arg(app, argc, argv, &i));
    } else if (!strcmp(a, "--quiet")) {
      opt->quiet = 1;
      opt->progress = 0;
    } else {
      const pp_app_option *o = app->options;
      while (o && o->name && strcmp(o->name, a) != 0) o++;
      if (!o || !o->name) pp_usage_error(app->name, "unknown option '%s'", a);
      const char *v = o->arg ? need_arg(app, argc, argv, &i) : NULL;
      const char *msg = o->parse(v, app->ctx);
      if (msg) pp_usage_error(app->name, "%s: %s", a, msg);
    }
  }
  opt->bootstrap.seed = opt->seed;
}
