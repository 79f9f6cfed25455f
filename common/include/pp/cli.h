/* The command line every app shares, plus app-specific options.
 * Errors print one line "<app>: <problem>" and exit 2 before any large
 * allocation. */
#ifndef PP_CLI_H
#define PP_CLI_H
#include <stddef.h>
#include <stdint.h>
#include "pp/model.h"
#include "pp/stats.h"
PP_EXTERN_C_BEGIN

#define PP_MAX_LIST 32

/* Bounds on the timing options, so that no combination runs for hours:
 * the bootstrap costs samples x resamples random draws per result row
 * (1e8 is about a second; a run has tens to hundreds of rows). */
#define PP_MAX_WARMUP 100000
#define PP_MAX_SAMPLES 100000
#define PP_MAX_BOOTSTRAP 100000
#define PP_MAX_SAMPLES_X_BOOTSTRAP 1e8

typedef struct pp_list {
  int n;
  long long v[PP_MAX_LIST];
} pp_list;

typedef struct pp_options {
  pp_model_set backends;  /* models asked for (only built ones) */
  pp_list sizes;          /* the app's problem sizes */
  int size_given;         /* --size was on the command line */
  int warmup;             /* untimed runs before sampling */
  int samples;            /* timed runs */
  pp_bootstrap bootstrap;
  const char *json_path;  /* NULL: no JSON */
  const char *csv_path;   /* NULL: no CSV */
  int device;             /* -1: by node-local MPI rank */
  int quiet;
  int progress;           /* progress lines on stderr */
  long long ceiling_mib;  /* buffer size of the copy-bandwidth measurement */
  /* --timer wall: every timed run on a synchronized host wall clock, as the
   * OpenMP models always are, instead of CUDA/HIP events (pp_measure_run) */
  int timer_wall;
  /* --gpu-wait: how the host waits for the GPU, 0 the driver's default (auto),
   * 1 spin (default), 2 yield, 3 block (pp_native_set_wait) */
  int gpu_wait;
  int gpu_wait_set;       /* --gpu-wait was given */
  int no_energy;          /* --no-energy: no energy meter, no energy columns (pp/energy.h) */
  double energy_max_s;    /* --energy-max-s: longest repeat of a row for the counter's resolution */
  double energy_min_s;    /* --energy-min-s: shortest metered region (0: as the counter needs) */
  uint64_t seed;
  char command[1024];     /* the command line, for reports */
} pp_options;

/* An app-specific option. `parse` returns NULL on success or a message.
 * Every option, common or the app's, is given at most once (the last would
 * silently win): options that share a parse function (XSBench's -s and
 * --problem) are one option, and so are those pp_app.same_options pairs. */
typedef struct pp_app_option {
  const char *name;       /* "--tpb" */
  const char *arg;        /* "LIST", or NULL for a flag */
  const char *help;
  const char *(*parse)(const char *value, void *ctx);
} pp_app_option;

typedef struct pp_app {
  const char *name;          /* "microbench" */
  const char *summary;       /* one line */
  const char *size_help;     /* what --size means, with its defaults */
  const char *default_sizes; /* e.g. "2^12,2^18,2^24" */
  long long max_size;        /* larger sizes are refused */
  const pp_app_option *options; /* terminated by {NULL} */
  void *ctx;                 /* handed to every parse() */
  const char *epilog;        /* extra --help text (kernels, output), may be NULL */
  /* Every name --inject-fault may take in this app (pp/fault.h), NULL-terminated:
   * the app's pp_fault_fire("NAME") calls and ROW-missed for each row it measures
   * (pp_measure_run, pp_kernel_bench). Any other name is refused at start-up
   * (exit 2), not after the run. NULL: the app plants none. */
  const char *const *faults;
  /* NULL, or pairs "spelling", "option", NULL-terminated: options parsed
   * apart that set one thing, so one option (xsbench_like's -k and --variant). */
  const char *const *same_options;
  /* NULL, or called after the last option, inside the command line's
   * collective check (so an error there is printed once, exit 2, on every
   * rank): checks of options against each other, and options that set the
   * shared ones (a deck's N becomes the size). ctx: the app's ctx. */
  void (*check)(pp_options *opt, void *ctx);
} pp_app;

/* Parses argv; exits 0 after --help, 2 on bad usage (an option given twice too). */
void pp_cli_parse(int argc, char **argv, const pp_app *app, pp_options *opt);

/* Parses "2^24", "16M", "1<<10", "4096" (K/M/G are powers of 1024).
 * Returns 0 and sets *out, -1 if `s` is not such a number, -2 if it is one
 * but larger than LLONG_MAX. */
int pp_parse_size(const char *s, long long *out);
/* Comma-separated list of sizes, each in [lo, hi]; an empty element
 * ("1,,2", "1,") is refused. Returns NULL or a message (static storage). */
const char *pp_parse_list(const char *s, long long lo, long long hi, pp_list *out);
/* Parses a non-negative integer in [lo, hi]; NULL or a message. */
const char *pp_parse_int(const char *s, long long lo, long long hi, long long *out);

/* Parses a finite number in [lo, hi]; NULL or a message (static storage). */
const char *pp_parse_double(const char *s, double lo, double hi, double *out);
/* Parses one of `names` (NULL-terminated): *out = its index. NULL, or the
 * message "expected 'a', 'b' or 'c'" (static storage). */
const char *pp_parse_choice(const char *s, const char *const *names, int *out);

/* Collective usage check: every rank calls it with its own verdict (`msg`
 * NULL when this rank found nothing wrong). If any rank has a message, the
 * lowest such rank prints "<app>: <msg>" once and every rank exits 2 cleanly
 * (no MPI_Abort); otherwise it returns. Without MPI: one rank, the same. */
void pp_usage_check_all(const char *app, const char *msg);

/* Runs fn(ctx) on every rank as one collective usage check: a
 * pp_usage_error() inside fn, on any rank, becomes that rank's verdict of
 * pp_usage_check_all (printed once, every rank exits 2, no MPI_Abort).
 * Every rank must call it (pp_cli_parse does, so app option parsers and deck
 * readers are covered). Nested calls join the outermost one. */
void pp_usage_collective(const char *app, void (*fn)(void *ctx), void *ctx);

/* Runs fn(ctx); a pp_usage_error() inside it returns here with its message
 * (malloc'ed, the caller frees it) instead of exiting; NULL if none. For
 * tests and fuzzers; memory fn allocated before the error is not freed.
 * Nested calls (and pp_usage_collective) inside fn join the outermost one. */
char *pp_usage_try(void (*fn)(void *ctx), void *ctx);

/* Prints "<app>: <message> (see --help)" to stderr from the calling rank
 * (with "rank R of P: " under MPI) and exits 2: MPI_Abort when several ranks
 * run, as the others cannot know; inside pp_usage_collective, see there.
 * Control characters and bytes that are not UTF-8 are printed as \xNN. */
void pp_usage_error(const char *app, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3), noreturn))
#endif
    ;

PP_EXTERN_C_END
#endif
