/* libFuzzer harness: the whole command line (pp_cli_parse) on arbitrary
 * arguments (the input split at NUL bytes). Every error must come back as a
 * usage message; --help is left out (it exits 0 by design). */
#include <stdlib.h>
#include <string.h>
#include "pp/cli.h"
#include "pp/fault.h"

static const char *flag(const char *v, void *ctx) {
  (void)v;
  (void)ctx;
  return NULL;
}
static const char *list(const char *v, void *ctx) {
  pp_list l;
  (void)ctx;
  return pp_parse_list(v, 32, 1024, &l);
}
static const pp_app_option options[] = {{"--tpb", "LIST", "t", list}, {"--flag", NULL, "f", flag},
                                        {NULL, NULL, NULL, NULL}};
static const pp_app app = {.name = "fuzz_cli", .summary = "fuzz", .size_help = "sizes", .default_sizes = "2^12,2^18",
                           .max_size = 1ll << 32, .options = options};

typedef struct run {
  int argc;
  char **argv;
  pp_options opt;
} run;

static void parse(void *ctx) {
  run *r = ctx;
  pp_cli_parse(r->argc, r->argv, &app, &r->opt);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  char *buf = malloc(size + 1);
  char **argv = malloc(sizeof *argv * (size + 3));
  if (!buf || !argv) abort();
  memcpy(buf, data, size);
  buf[size] = '\0';
  int argc = 0;
  argv[argc++] = "fuzz_cli";
  for (size_t i = 0; i <= size;) {
    const char *a = buf + i;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) goto out;
    argv[argc++] = buf + i;
    i += strlen(a) + 1;
  }
  argv[argc] = NULL;
  run r = {argc, argv, {0}};
  char *msg = pp_usage_try(parse, &r);
  if (!msg) {
    if (r.opt.sizes.n < 1 || r.opt.samples < 1 || r.opt.samples > PP_MAX_SAMPLES) abort();
    if (r.opt.bootstrap.resamples > 0 &&
        (double)r.opt.samples * r.opt.bootstrap.resamples > PP_MAX_SAMPLES_X_BOOTSTRAP)
      abort();
    if (r.opt.json_path && r.opt.json_path[0] == '-' && r.opt.json_path[1] == '-') abort();
  }
  free(msg);
out:
  free(argv);
  free(buf);
  return 0;
}
