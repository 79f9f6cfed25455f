/* One kernel of an app, described once, and the one driver loop that runs,
 * times, checks and reports it (the shape of RAJAPerf's KernelBase).
 *
 * An app writes a table of pp_kernel (name, unit, bytes/flops of one run,
 * setup, run, verify) and, for each model, size and launch variant, builds
 * its state `ctx` (device arrays, inputs, launch parameters) and calls
 * pp_kernel_bench for each selected kernel. Everything else is here:
 *
 *   setup(ctx)                 inputs in place, outputs and results poisoned
 *   pp_measure_run             opt.warmup untimed runs, opt.samples timed ones,
 *                              then the row (pp_row_build: statistics, figure
 *                              of merit, verify(ctx, row), every rank ran the
 *                              same kernel) added to the report
 *
 * Rules for verify: compare with gold values that do not come from the
 * kernel's per-item math (closed forms of the input generator, sums computed
 * independently); plant the app's faults (pp_fault, "pp/fault.h") on the
 * downloaded result just before comparing; set the row with pp_check_*
 * (pp/row.h). setup poisons with pp_device_poison_* (pp/buffers.h).
 * Every kernel also gets one fault for free: `--inject-fault NAME-missed`
 * makes the loop skip every run of kernel NAME, so its verify must FAIL
 * (setup must poison whatever run writes, results included). */
#ifndef PP_KERNEL_H
#define PP_KERNEL_H
#include <stddef.h>
#include <stdint.h>
#include "pp/buffers.h"
#include "pp/measure.h"
#include "pp/row.h"
#include "pp/session.h"
PP_EXTERN_C_BEGIN

typedef struct pp_kernel {
  const char *name; /* row name; the app's run function has the same name */
  const char *help; /* one line for --help */
  /* Figure of merit: "GB/s" is bytes(n) per second, "GFLOP/s" flops(n) per
   * second, any other rate work(n) per second; with work NULL it is the time
   * of one call in microseconds (unit e.g. "us/launch"). */
  const char *unit;
  double (*bytes)(long long n); /* bytes one run moves; NULL: not counted */
  double (*flops)(long long n); /* flops of one run; NULL: not counted */
  double (*work)(long long n);  /* FOM numerator of one run, other rates */
  int calls;       /* time units: calls per run, times are divided by it (0: 1) */
  long long size;  /* > 0: the kernel's own fixed size, reported instead of n */
  void (*setup)(void *ctx);              /* before the runs; NULL: nothing */
  void (*run)(void *ctx);                /* one run */
  void (*verify)(void *ctx, pp_row *row); /* after the runs; on every rank */
} pp_kernel;

/* The driver loop (above) for kernel k of model m on the app's state ctx at
 * problem size n (k->size when it is > 0); variant names the launch
 * parameters ("tpb=256"; NULL or "" for none). Rate rows other than GB/s
 * that count bytes also get metric "bandwidth" (GB/s). Collective under
 * MPI. Returns the row's index in the report (pp_report_row). */
int pp_kernel_bench(pp_session *s, pp_model m, const pp_kernel *k, void *ctx, long long n,
                    const char *variant);
/* The row description pp_kernel_bench measures k with (for
 * pp_measure_energy_of). */
pp_measure pp_kernel_measure(const pp_kernel *k, long long n, const char *variant);

/* Parses a kernel list ("all" or comma-separated names of table[0..count-1],
 * count <= 64) into *mask (bit i: table[i]). NULL, or a message. */
const char *pp_kernel_select(const char *list, const pp_kernel *table, int count,
                             uint64_t *mask);
/* Writes "  name  help" lines for the table into buf (for pp_app.epilog). */
void pp_kernel_help(char *buf, size_t len, const pp_kernel *table, int count);

PP_EXTERN_C_END
#endif
