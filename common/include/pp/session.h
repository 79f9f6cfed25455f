/* The part of every driver that is the same: parse the command line, open
 * the asked models' devices, measure the copy ceiling (after the app checked
 * its inputs), finish the report. The rows are measured in between
 * (pp/measure.h). */
#ifndef PP_SESSION_H
#define PP_SESSION_H
#include <stddef.h>
#include "pp/cli.h"
#include "pp/device.h"
#include "pp/report.h"
PP_EXTERN_C_BEGIN

typedef struct pp_session {
  const pp_app *app;
  pp_options opt;
  pp_report *report;
  /* Opened models (NULL: not asked or not built). */
  const pp_device_ops *ops[PP_MODEL_COUNT];
  pp_device_info info[PP_MODEL_COUNT];
  /* Ceiling each model is measured against (GB/s; NaN: none). Filled by
   * pp_session_ready, which the measurement calls before the first timed run. */
  double copy_gbs[PP_MODEL_COUNT];
  int ready; /* pp_session_ready has run */
  /* Rows measured while set get no energy yet: the app meters the ones it
   * chooses with pp_measure_energy_of (microbench: each kernel's fastest
   * launch of a sweep), the others say so. */
  int energy_later;
  double t0; /* pp_wtime() at pp_session_start: progress lines show the time since */
} pp_session;

/* MPI init, command line, devices, report header. Measures nothing yet, so
 * the app can check its inputs first. */
void pp_session_start(pp_session *s, int argc, char **argv, const pp_app *app);
/* Inputs are checked: measures the copy ceilings (2 x 1 GiB on a GPU) and
 * fills copy_gbs. Idempotent; the first measured row calls it, so an app
 * needs it only to measure before it allocates its own data. */
void pp_session_ready(pp_session *s);
/* Exits 2 with the bytes needed and available when `device_bytes` cannot fit
 * in the free memory of an opened device, or `host_bytes` in host memory.
 * Collective under MPI (every rank calls it, with its own figures): the
 * message of the lowest rank that does not fit is printed once (pp_usage_check_all).
 * For tests: PP_TEST_MEMORY_GIB="HOST,DEVICE" (GiB) is the available host
 * memory and every opened device's free memory to assume instead of the
 * machine's, so the verdict does not depend on the load when the test runs. */
void pp_session_check_fits(const pp_session *s, const char *what, double device_bytes,
                           double host_bytes);
/* 1 when they fit (the same rule as pp_session_check_fits), on this rank
 * only, with no message: to find the largest size that fits. */
int pp_session_fits(const pp_session *s, double device_bytes, double host_bytes);
/* Before anything runs, for every file an app writes (`opt` names its
 * option): exits 2 on every rank, one message, when rank 0 (the writer)
 * cannot write `path` (pp_outfile_check); NULL path: nothing to check.
 * Collective under MPI. */
void pp_session_check_outfile(const pp_session *s, const char *opt, const char *path);
/* Finishes the report, finalizes MPI; returns the exit code of
 * pp_report_finish (0 all rows passed, 1 a failure, 2 or 3: see there). */
int pp_session_finish(pp_session *s);
/* Progress line on stderr (rank 0, unless --quiet): "[app  12.3s] text", the
 * seconds since the session started. */
void pp_progress(const pp_session *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

PP_EXTERN_C_END
#endif
