/* Drives the input layer directly, for tests/common/input.cmake:
 *   test_input deck FILE [KEY...]         read a deck, print those keys' values
 *   test_input deck-only FILE KEY...      the same, after pp_deck_only(KEY...)
 *   test_input cli ARGS...                pp_cli_parse, then print what it understood
 *   test_input command-json OUT ARGS...   pp_cli_parse, then write the command as JSON
 *   test_input partial OUT kill|abort     write half a result file, then die by SIGKILL
 *                                         or give up (pp_outfile_abort)
 *   test_input rank1-error                under MPI: a usage error on rank 1 only
 *   test_input collective-error           a collective check failing on rank 1 only */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "pp/pp.h"
#include "pp/deck.h"
#include "pp/json.h"
#include "pp/outfile.h"

static const char *parse_name(const char *v, void *ctx) {
  (void)ctx;
  printf("--name %s\n", v);
  return NULL;
}

static const pp_app_option options[] = {{"--name", "X", "a value", parse_name}, {NULL, NULL, NULL, NULL}};
static const pp_app app = {.name = "test_input", .summary = "input layer tests", .size_help = "sizes",
                           .default_sizes = "64", .max_size = 1ll << 40, .options = options};

static void fail_on_rank1(void *ctx) {
  (void)ctx;
  if (pp_mpi_rank() == 1) pp_usage_error("test_input", "bad input seen by rank 1 only");
}

int main(int argc, char **argv) {
  if (argc >= 3 && (!strcmp(argv[1], "deck") || !strcmp(argv[1], "deck-only"))) {
    pp_deck *d = pp_deck_read("test_input", argv[2]);
    if (!strcmp(argv[1], "deck-only")) pp_deck_only(d, (const char *const *)&argv[3]);
    for (int i = 3; i < argc; i++)
      if (pp_deck_has(d, argv[i])) printf("%s = %s\n", argv[i], pp_deck_string(d, argv[i]));
    printf("deck read\n");
    pp_deck_free(d);
    return 0;
  }
  if (argc >= 2 && !strcmp(argv[1], "cli")) {
    pp_options opt;
    pp_cli_parse(argc - 1, argv + 1, &app, &opt);
    printf("sizes %d:", opt.sizes.n);
    for (int i = 0; i < opt.sizes.n; i++) printf(" %lld", opt.sizes.v[i]);
    printf("\njson %s\ncsv %s\nsamples %d bootstrap %d warmup %d\n", opt.json_path ? opt.json_path : "-",
           opt.csv_path ? opt.csv_path : "-", opt.samples, opt.bootstrap.resamples, opt.warmup);
    return 0;
  }
  if (argc >= 3 && !strcmp(argv[1], "command-json")) {
    pp_options opt;
    pp_cli_parse(argc - 2, argv + 2, &app, &opt);
    pp_outfile o;
    if (pp_outfile_open(&o, argv[2]) != 0) return 3;
    pp_json j;
    pp_json_begin(&j, o.f);
    pp_json_str(&j, "command", opt.command);
    pp_json_int(&j, "command_bytes", (long long)strlen(opt.command));
    pp_json_end(&j);
    return pp_outfile_commit(&o) == 0 ? 0 : 3;
  }
  if (argc == 4 && !strcmp(argv[1], "partial")) {
    pp_outfile o;
    if (pp_outfile_open(&o, argv[2]) != 0) return 3;
    fputs("{\"half\": ", o.f);
    fflush(o.f);
    if (!strcmp(argv[3], "kill")) raise(SIGKILL);
    pp_outfile_abort(&o);
    return 0;
  }
  if (argc == 2 && !strcmp(argv[1], "rank1-error")) {
    pp_mpi_init(&argc, &argv);
    if (pp_mpi_rank() == 1) pp_usage_error("test_input", "bad input seen by rank 1 only");
    pp_mpi_barrier(); /* rank 0 waits here until the job is ended */
    pp_mpi_finalize();
    printf("no rank saw an error (%d rank(s))\n", pp_mpi_size());
    return 0;
  }
  if (argc == 2 && !strcmp(argv[1], "collective-error")) {
    pp_mpi_init(&argc, &argv);
    pp_usage_collective("test_input", fail_on_rank1, NULL);
    pp_mpi_finalize();
    printf("no rank saw an error (%d rank(s))\n", pp_mpi_size());
    return 0;
  }
  fprintf(stderr, "usage: see the comment at the top of test_input.c\n");
  return 2;
}
