/* Finishing the report (pp_report_finish, pp/report.h): the ratios to the
 * native model, the planted-fault check, every rank's provenance, then the
 * writers (pp/report_writers.h) on rank 0. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pp/escape.h"
#include "pp/fault.h"
#include "pp/mpi.h"
#include "pp/outfile.h"
#include "pp/report_writers.h"
#include "pp/system.h"

static void compute_ratios(pp_report *r) {
  int nat = pp_report_native(r);
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
  /* a planted fault that changed nothing, or that no check caught, must not let a test pass */
  double fired = pp_fault_fired();
  pp_mpi_max(&fired, 1);
  if (pp_fault_requested() && !fired) {
    if (pp_mpi_rank() == 0)
      pp_error_line(r->app, "--inject-fault '%s' changed no result in this run: the code it corrupts did not run "
                    "with these options (see --help for where each fault applies)", pp_fault_requested());
    return 2;
  }
  gather_systems(r);
  const int uncaught = pp_fault_requested() && !pp_report_failures(r);
  if (pp_mpi_rank() != 0) return pp_report_failures(r) || uncaught ? 1 : 0;
  pp_report_print(r, stdout);
  fflush(stdout);
  /* every output or none: a failed one (here, or the app's --dump, --history) removes the rest */
  if (r->opt->json_path && pp_report_write_json(r, r->opt->json_path) != 0)
    pp_error_line(r->app, "cannot write JSON file '%s': %s", r->opt->json_path, strerror(errno));
  if (r->opt->csv_path && pp_report_write_csv(r, r->opt->csv_path) != 0)
    pp_error_line(r->app, "cannot write CSV file '%s': %s", r->opt->csv_path, strerror(errno));
  const int published = pp_outfiles_publish();
  if (published != 0) {
    if (published < 0) pp_error_line(r->app, "cannot put the output files in place: %s", strerror(errno));
    pp_error_line(r->app, "no output file was written (all of them or none)");
    return PP_EXIT_OUTPUT;
  }
  if (uncaught) {
    pp_error_line(r->app, "--inject-fault '%s' changed a result but every check passed: a check is missing",
                  pp_fault_requested());
    return 1;
  }
  return pp_report_failures(r) || r->nrows == 0 ? 1 : 0;
}
