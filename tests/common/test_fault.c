/* The planted-fault rule (pp/fault.h) end to end on a fake app of one host
 * row: `test_fault caught|uncaught|unfired` plants fault "f" and ends the
 * run with pp_report_finish, whose exit code the CTests check: a fault that
 * changed a result and was caught exits 1 with a FAIL row, one that changed
 * a result no check caught exits 1 saying so, one that changed nothing
 * exits 2 saying so. Never 0. */
#include <stdio.h>
#include <string.h>
#include "pp/pp.h"

static const char *mode;
static double value;

static void run(void *ctx) {
  (void)ctx;
  value = 1.0;
  if (strcmp(mode, "unfired") != 0 && pp_fault_fire("f")) value = 2.0; /* the planted change */
}
static void verify(void *ctx, pp_row *row) {
  (void)ctx;
  /* "uncaught": the check looks away */
  row->valid = !strcmp(mode, "uncaught") || value == 1.0;
  snprintf(row->check, sizeof row->check, "value %g", value);
}

int main(int argc, char **argv) {
  mode = argc > 1 ? argv[1] : "caught";
  char *args[] = {"test_fault", "--backend", "host", "--warmup", "0", "--samples", "2", "--bootstrap", "0",
                  "--quiet", "--no-energy", "--ceiling-mib", "1", "--inject-fault", "f", NULL};
  static const char *const faults[] = {"f", "row-missed", NULL};
  static const pp_app app = {.name = "test_fault", .summary = "unit test", .size_help = "n",
                             .default_sizes = "1", .max_size = 10, .epilog = "", .faults = faults};
  pp_session s;
  pp_session_start(&s, 15, args, &app);
  pp_measure spec = {.name = "row", .unit = "GB/s", .bytes = 8};
  pp_measure_run(&s, PP_HOST, &spec, run, NULL, verify);
  return pp_report_finish(s.report);
}
