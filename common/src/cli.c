#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pp/buildinfo.h"
#include "pp/cli.h"
#include "pp/agree.h"
#include "pp/device.h"
#include "pp/escape.h"
#include "pp/fault.h"
#include "pp/omp_env.h"
#include "pp/json.h"
#include "pp/mpi.h"

static void print_usage(const char *app, const char *msg) {
  fprintf(stderr, "%s: ", app);
  if (pp_mpi_size() > 1) fprintf(stderr, "rank %d of %d: ", pp_mpi_rank(), pp_mpi_size());
  pp_fputs_escaped(stderr, msg);
  fprintf(stderr, " (see --help)\n");
  fflush(stderr);
}

/* Inside pp_usage_collective a usage error becomes this rank's verdict. */
static jmp_buf *usage_jmp;
static const char *usage_app;
static char *usage_msg;

void pp_usage_error(const char *app, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *msg = malloc(n > 0 ? (size_t)n + 1 : 1);
  if (!msg) { fprintf(stderr, "%s: bad usage (out of memory)\n", app); pp_mpi_abort(2); }
  va_start(ap, fmt);
  vsnprintf(msg, (size_t)n + 1, fmt, ap);
  va_end(ap);
  if (usage_jmp) {
    usage_app = app;
    usage_msg = msg;
    longjmp(*usage_jmp, 1);
  }
  print_usage(app, msg);
  pp_mpi_abort(2); /* the other ranks cannot know: end the job */
}

void pp_usage_check_all(const char *app, const char *msg) {
  int P = pp_mpi_size(), me = pp_mpi_rank();
  /* Ranks given other options or inputs than rank 0 stop here too, with
   * their own usage error first if they have one (pp/agree.h). */
  char *differs = pp_agree_check();
  if (!msg) msg = differs;
  double who = msg ? (double)(P - me) : 0; /* max over ranks -> the lowest failing rank */
  pp_mpi_max(&who, 1);
  if (who == 0) return;
  if (me == P - (int)who) print_usage(app, msg);
  free(differs);
  pp_mpi_barrier();
  pp_mpi_finalize();
  /* Nothing ran: no exit handler has work to do, and a runtime loaded before main
   * (libomptarget, where no .preinit_array check ran) would write its profile to a
   * refused LIBOMPTARGET_PROFILE on the way out and block on a FIFO. */
  fflush(NULL);
  _Exit(2);
}

char *pp_usage_try(void (*fn)(void *ctx), void *ctx) {
  if (usage_jmp) { /* nested: the outer call catches */
    fn(ctx);
    return NULL;
  }
  jmp_buf jb;
  usage_jmp = &jb;
  if (setjmp(jb) == 0) {
    fn(ctx);
    usage_jmp = NULL;
    return NULL;
  }
  usage_jmp = NULL;
  return usage_msg;
}

void pp_usage_collective(const char *app, void (*fn)(void *ctx), void *ctx) {
  int nested = usage_jmp != NULL;
  char *msg = pp_usage_try(fn, ctx);
  if (nested) return; /* the outermost call decides */
  pp_usage_check_all(msg ? usage_app : app, msg);
}

/* 0 and *out, or -1 (not a size) or -2 (above LLONG_MAX). */
int pp_parse_size(const char *s, long long *out) {
  char *end;
  if (!s || !isdigit((unsigned char)*s)) return -1;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  int big = errno == ERANGE;
  if (*end == '^' || (end[0] == '<' && end[1] == '<')) { /* B^N or B<<N */
    const char *p = end + (*end == '^' ? 1 : 2);
    if (!isdigit((unsigned char)*p)) return -1;
    char *e2;
    errno = 0;
    long long ex = strtoll(p, &e2, 10);
    if (*e2) return -1;
    if (big) return -2;
    if (errno == ERANGE) ex = LLONG_MAX;
    if (v == 0 || (v == 1 && *end == '^')) { /* 0^N, 1^N, 0<<N: no overflow whatever N */
      *out = *end == '^' && (v == 1 || ex == 0);
      return 0;
    }
    if (ex > 63) return -2;
    long double r = 1, max = (long double)LLONG_MAX;
    if (*end == '^') {
      for (long long i = 0; i < ex && r <= max; i++) r *= (long double)v;
    } else {
      r = (long double)v * (long double)(1ull << ex);
    }
    if (r > max) return -2;
    *out = (long long)r;
    return 0;
  }
  long long mult = 1;
  if (*end == 'K' || *end == 'k') mult = 1ll << 10, end++;
  else if (*end == 'M' || *end == 'm') mult = 1ll << 20, end++;
  else if (*end == 'G' || *end == 'g') mult = 1ll << 30, end++;
  if (*end) return -1;
  if (big || v > LLONG_MAX / mult) return -2;
  *out = v * mult;
  return 0;
}

const char *pp_parse_int(const char *s, long long lo, long long hi, long long *out) {
  static char msg[160];
  long long v;
  int rc = pp_parse_size(s, &v);
  if (rc == -2) {
    snprintf(msg, sizeof msg, "'%.40s' is too large (at most %lld)", s, hi);
    return msg;
  }
  if (rc != 0) {
    snprintf(msg, sizeof msg, "'%.40s' is not a non-negative integer", s ? s : "");
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
    snprintf(msg, sizeof msg, "'%.40s' is not a number in [%g, %g]", s ? s : "", lo, hi);
    return msg;
  }
  *out = x;
  return NULL;
}

const char *pp_parse_choice(const char *s, const char *const *names, int *out) {
  static char msg[200];
  int n = 0;
  for (; names[n]; n++)
    if (s && !strcmp(s, names[n])) {
      *out = n;
      return NULL;
    }
  size_t len = (size_t)snprintf(msg, sizeof msg, "expected");
  for (int i = 0; i < n && len < sizeof msg; i++)
    len += (size_t)snprintf(msg + len, sizeof msg - len, "%s'%s'", i == 0 ? " " : i == n - 1 ? " or " : ", ",
                            names[i]);
  return msg;
}

const char *pp_parse_list(const char *s, long long lo, long long hi, pp_list *out) {
  static char msg[200];
  if (!s || !*s) return "empty list";
  out->n = 0;
  for (const char *p = s;; p++) { /* one element per comma-separated field */
    size_t len = strcspn(p, ",");
    if (len == 0) return "empty element in the list (two commas, or a comma at either end)";
    if (out->n == PP_MAX_LIST) {
      snprintf(msg, sizeof msg, "more than %d values", PP_MAX_LIST);
      return msg;
    }
    char tok[64];
    if (len >= sizeof tok) {
      snprintf(msg, sizeof msg, "'%.20s...' is not a size", p);
      return msg;
    }
    memcpy(tok, p, len);
    tok[len] = '\0';
    const char *err = pp_parse_int(tok, lo, hi, &out->v[out->n]);
    if (err) {
      snprintf(msg, sizeof msg, "%s", err);
      return msg;
    }
    out->n++;
    p += len;
    if (!*p) return NULL;
  }
}

static void parse_backends(const char *app, const char *s, pp_model_set *out) {
  pp_model_set built = pp_models_built(), set = 0;
  char names[128];
  for (const char *p = s;; p++) {
    size_t len = strcspn(p, ",");
    char tok[16];
    if (len == 0) pp_usage_error(app, "--backend: empty element in '%s'", s);
    snprintf(tok, sizeof tok, "%.*s", (int)(len < sizeof tok ? len : sizeof tok - 1), p);
    int m = len < sizeof tok ? pp_model_from_name(tok) : -1;
    if (len < sizeof tok && !strcmp(tok, "all")) set |= built;
    else if (m < 0)
      pp_usage_error(app, "--backend: unknown model '%.*s' (%s, all)", (int)(len > 40 ? 40 : len), p,
                     pp_model_set_names(~0u, ", ", names, sizeof names));
    else if (!(built & (1u << m)))
      pp_usage_error(app, "--backend: model '%s' is %s", tok, pp_model_absent_reason((pp_model)m));
    else set |= 1u << m;
    p += len;
    if (!*p) break;
  }
  *out = set;
}

/* --version: the build record (the JSON's "build" object), one field a line. */
static void print_version(const pp_app *app) {
  const pp_buildinfo *b = pp_build_info();
  char models[128];
  printf("%s (ProxyPort %s)\n", app->name, b->version);
  const char *const f[][2] = {
      {"git revision", b->git_revision}, {"git diff sha256", b->git_diff_hash},
      {"build type", b->build_type},     {"tag", b->tag},
      {"C compiler", b->c_compiler},     {"C flags", b->c_flags},
      {"OpenMP compiler", b->omp_compiler_banner}, {"offload", b->offload},
      {"offload flags", b->offload_flags}, {"flag set", b->omp_flag_set},
      {"omp simd", b->omp_simd ? "on" : "off"}, {"ompx blocks", b->ompx_grid},
      {"CUDA compiler", b->cuda_compiler}, {"CUDA flags", b->cuda_flags},
      {"HIP compiler", b->hip_compiler}, {"HIP flags", b->hip_flags}, {"MPI", b->mpi}};
  for (size_t i = 0; i < sizeof f / sizeof *f; i++)
    if (f[i][1] && *f[i][1]) printf("  %-16s %s\n", f[i][0], f[i][1]);
  printf("  %-16s %s\n", "models", pp_model_set_names(pp_models_built(), ",", models, sizeof models));
}

static void print_help(const pp_app *app) {
  printf("%s: %s\n\nUsage: %s [options]\n\nCommon options:\n", app->name, app->summary, app->name);
  printf("  --backend LIST     models to run, comma-separated, or 'all' (default: all built)\n");
  printf("  --size LIST        %s (default %s)\n", app->size_help, app->default_sizes);
  printf("  --warmup N         untimed runs before timing (default 2)\n");
  printf("  --samples N        timed runs per measurement (default 10)\n");
  char natives[64];
  printf("  --timer events|wall  %s timing: device events (default) or a synchronized host wall\n"
         "                     clock, the way OpenMP models are always timed (compares like with like)\n",
         pp_model_set_names(pp_models_native(), "/", natives, sizeof natives));
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
  printf("  --no-energy        no energy meter (NVML, AMD SMI, RAPL) and no energy columns\n");
  printf("  --energy-max-s S   a row whose timed runs are too short for the energy counter (error < 2%%\n"
         "                     between two of its updates) is run again alone for at most S seconds\n"
         "                     (default 1; a counter updated every 100 ms needs 0.2 to 0.5 s); past it\n"
         "                     the row is marked below the counter's resolution\n"
         "  --energy-min-s S   meter every row over at least S seconds (default 0: as long as it needs;\n"
         "                     validate/energy-check compares long regions with nvidia-smi)\n");
  printf("  --inject-fault NAME  testing: corrupt one result before its check (it must FAIL)\n");
  printf("  --version          the build record (compilers, flags, git revision, models) and exit\n");
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
  printf("\nEach option is given at most once: a repeated one (or two spellings of one) is refused,\n"
         "exit 2 (the last would silently win).\n");
  printf("\nExit codes: 0 all results validated, 1 a validation failed, 2 bad usage or input,\n"
         "3 runtime or device error.\n");
  char env[1024];
  printf("\nEnvironment: values of these variables on which the OpenMP runtime (libomp,\n"
         "libomptarget) would abort or hang are refused before it starts (exit 2):\n%s\n",
         pp_omp_env_names(env, sizeof env));
  if (app->epilog) printf("\n%s", app->epilog);
}

/* The value of option argv[*i]. A value that starts with "--" is the next
 * option, not a value (`--json --quiet` must not write a file "--quiet");
 * a file whose name starts with "--" can be given as ./--name. */
static const char *need_arg(const pp_app *app, int argc, char **argv, int *i) {
  if (*i + 1 >= argc) pp_usage_error(app->name, "%s needs a value", argv[*i]);
  const char *v = argv[*i + 1];
  if (v[0] == '-' && v[1] == '-')
    pp_usage_error(app->name, "%s needs a value, found the option '%s'", argv[*i], v);
  if (!*v) pp_usage_error(app->name, "%s needs a value, found an empty string", argv[*i]);
  ++*i;
  return v;
}

static long long int_opt(const pp_app *app, const char *name, const char *v, long long lo, long long hi) {
  long long x;
  const char *err = pp_parse_int(v, lo, hi, &x);
  if (err) pp_usage_error(app->name, "%s: %s", name, err);
  return x;
}

/* The command line for reports, cut at a character boundary (never inside a
 * UTF-8 sequence) with "..." when it does not fit. */
static void record_command(int argc, char **argv, char *out, size_t cap) {
  size_t len = 0;
  out[0] = '\0';
  for (int i = 0; i < argc; i++) {
    for (const char *p = i ? " " : ""; *p; p++) out[len++] = *p;
    for (const unsigned char *p = (const unsigned char *)argv[i]; *p;) {
      int n = pp_utf8_len(p);
      if (n == 0) n = 1; /* a stray byte: kept here, replaced in the JSON */
      if (len + (size_t)n + 4 > cap) {
        memcpy(out + len, "...", 4);
        return;
      }
      memcpy(out + len, p, (size_t)n);
      len += (size_t)n;
      p += n;
    }
    if (i + 1 < argc && len + 1 + 4 > cap) {
      memcpy(out + len, "...", 4);
      return;
    }
    out[len] = '\0';
  }
}

/* The common options that take a value; the others are flags (--help and
 * --version end the parse). */
static const char *const common_valued[] = {
    "--backend", "--size", "--warmup", "--samples", "--timer", "--gpu-wait", "--bootstrap", "--confidence",
    "--seed", "--json", "--csv", "--device", "--ceiling-mib", "--inject-fault", "--energy-max-s",
    "--energy-min-s", NULL};
static const char *const common_flags[] = {"--quiet", "--no-energy", NULL};

static int listed(const char *const *names, const char *a) {
  for (; *names; names++)
    if (!strcmp(*names, a)) return 1;
  return 0;
}

/* The option pp_app.same_options makes `name` one with, else name itself. */
static const char *same_option(const pp_app *app, const char *name) {
  for (const char *const *p = app->same_options; p && p[0] && p[1]; p += 2)
    if (!strcmp(p[0], name)) return p[1];
  return name;
}

/* The app option spelled a, or NULL; *one is the first option of the table
 * that is the same option (a shared parse function, or same_options). */
static const pp_app_option *app_option(const pp_app *app, const char *a, const pp_app_option **one) {
  const pp_app_option *o = app->options;
  while (o && o->name && strcmp(o->name, a)) o++;
  if (!o || !o->name) return NULL;
  const char *canon = same_option(app, o->name);
  for (const pp_app_option *p = app->options; p->name; p++)
    if (p->parse == o->parse || !strcmp(same_option(app, p->name), canon)) {
      *one = p;
      break;
    }
  return o;
}

/* Every option is given once: a second --samples (or -s after --problem) would
 * silently replace the first. Walks argv as cli_parse does and stops where it
 * would stop (an unknown option, a missing value: cli_parse says which). */
static void refuse_repeats(const pp_app *app, int argc, char **argv) {
  enum { MAX_SEEN = 128 };
  const void *key[MAX_SEEN]; /* the app option (its table's first spelling), or the common option's name */
  int at[MAX_SEEN], app_opt[MAX_SEEN];
  int n = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const pp_app_option *o = NULL, *one = NULL;
    int valued;
    if (!strcmp(a, "--help") || !strcmp(a, "-h") || !strcmp(a, "--version")) return;
    if (listed(common_valued, a)) valued = 1;
    else if (listed(common_flags, a)) valued = 0;
    else if ((o = app_option(app, a, &one))) valued = o->arg != NULL;
    else return;
    const void *k = one ? (const void *)one : (const void *)a;
    for (int j = 0; j < n; j++) {
      const int same = one ? app_opt[j] && key[j] == k : !app_opt[j] && !strcmp((const char *)key[j], a);
      if (!same) continue;
      const char *first = argv[at[j]];
      if (strcmp(first, a))
        pp_usage_error(app->name, "%s and %s are one option, given twice: give it once", first, a);
      if (valued)
        pp_usage_error(app->name, "%s given twice ('%s', then '%s'): give each option once (the last "
                       "would silently win)", a, at[j] + 1 < argc ? argv[at[j] + 1] : "", i + 1 < argc ? argv[i + 1] : "");
      pp_usage_error(app->name, "%s given twice: give each option once", a);
    }
    if (n < MAX_SEEN) key[n] = k, app_opt[n] = one != NULL, at[n++] = i;
    if (valued) {
      if (i + 1 >= argc || (argv[i + 1][0] == '-' && argv[i + 1][1] == '-')) return;
      i++;
    }
  }
}

typedef struct cli_args {
  int argc;
  char **argv;
  const pp_app *app;
  pp_options *opt;
} cli_args;

static void cli_parse(void *ctx) {
  const cli_args *c = ctx;
  int argc = c->argc;
  char **argv = c->argv;
  const pp_app *app = c->app;
  pp_options *opt = c->opt;
  const char *err = pp_parse_list(app->default_sizes, 1, app->max_size, &opt->sizes);
  if (err) pp_usage_error(app->name, "internal: default sizes: %s", err);
  /* Before any option: an app's parser may start the OpenMP runtime. */
  if ((err = pp_omp_env_check())) pp_usage_error(app->name, "%s", err);
  refuse_repeats(app, argc, argv);

  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      if (pp_mpi_rank() == 0) print_help(app);
      pp_mpi_exit(0);
    } else if (!strcmp(a, "--version")) {
      if (pp_mpi_rank() == 0) print_version(app);
      pp_mpi_exit(0);
    } else if (!strcmp(a, "--backend")) {
      parse_backends(app->name, need_arg(app, argc, argv, &i), &opt->backends);
    } else if (!strcmp(a, "--size")) {
      err = pp_parse_list(need_arg(app, argc, argv, &i), 1, app->max_size, &opt->sizes);
      if (err) pp_usage_error(app->name, "--size: %s", err);
      opt->size_given = 1;
    } else if (!strcmp(a, "--warmup")) {
      opt->warmup = (int)int_opt(app, a, need_arg(app, argc, argv, &i), 0, PP_MAX_WARMUP);
    } else if (!strcmp(a, "--samples")) {
      opt->samples = (int)int_opt(app, a, need_arg(app, argc, argv, &i), 1, PP_MAX_SAMPLES);
    } else if (!strcmp(a, "--timer")) {
      const char *v = need_arg(app, argc, argv, &i);
      if (strcmp(v, "events") && strcmp(v, "wall"))
        pp_usage_error(app->name, "--timer: '%s' is neither 'events' nor 'wall'", v);
      opt->timer_wall = !strcmp(v, "wall");
    } else if (!strcmp(a, "--gpu-wait")) {
      static const char *const modes[] = {"auto", "spin", "yield", "block"};
      const char *v = need_arg(app, argc, argv, &i);
      int k = 0;
      while (k < 4 && strcmp(v, modes[k])) k++;
      if (k == 4) pp_usage_error(app->name, "--gpu-wait: '%s' is not auto, spin, yield or block", v);
      opt->gpu_wait = k;
      opt->gpu_wait_set = 1;
    } else if (!strcmp(a, "--bootstrap")) {
      opt->bootstrap.resamples = (int)int_opt(app, a, need_arg(app, argc, argv, &i), 0, PP_MAX_BOOTSTRAP);
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
      const char *name = need_arg(app, argc, argv, &i);
      if (!pp_fault_listed(app->faults, name))
        pp_usage_error(app->name, "--inject-fault: '%s' is not a fault %s can plant", name, app->name);
      pp_fault_set(name);
    } else if (!strcmp(a, "--no-energy")) {
      opt->no_energy = 1;
    } else if (!strcmp(a, "--energy-max-s")) {
      if ((err = pp_parse_double(need_arg(app, argc, argv, &i), 0.01, 3600, &opt->energy_max_s)))
        pp_usage_error(app->name, "--energy-max-s: %s", err);
    } else if (!strcmp(a, "--energy-min-s")) {
      if ((err = pp_parse_double(need_arg(app, argc, argv, &i), 0, 3600, &opt->energy_min_s)))
        pp_usage_error(app->name, "--energy-min-s: %s", err);
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
  if (opt->bootstrap.resamples > 0 &&
      (double)opt->samples * opt->bootstrap.resamples > PP_MAX_SAMPLES_X_BOOTSTRAP)
    pp_usage_error(app->name,
                   "--samples %d x --bootstrap %d = %.3g resampled values per result; at most %.0e "
                   "(the interval would take longer than the runs)",
                   opt->samples, opt->bootstrap.resamples,
                   (double)opt->samples * opt->bootstrap.resamples, PP_MAX_SAMPLES_X_BOOTSTRAP);
  if (app->check) app->check(opt, app->ctx);
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
  opt->gpu_wait = 1; /* spin: see pp_native_set_wait */
  opt->progress = 1;
  opt->energy_max_s = 1.0; /* per row, a cap: most rows need two to five counter updates */
  record_command(argc, argv, opt->command, sizeof opt->command);
  pp_agree_args(argc, argv); /* compared across ranks by every collective check */
  /* Every rank parses the same command line (and decks): one collective verdict. */
  cli_args c = {argc, argv, app, opt};
  pp_usage_collective(app->name, cli_parse, &c);
  opt->bootstrap.seed = opt->seed;
}
