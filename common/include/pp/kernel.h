/* One kernel of an app, described once, and the one driver loop that runs,
 * times, checks and reports it (the shape of RAJAPerf's KernelBase).
 *
 * An app writes a table of pp_kernel (name, unit, bytes/flops of one run,
 * setup, run, verify) and, for each model, size and launch variant, builds
 * its state `ctx` (device arrays, inputs, launch parameters) and calls
 * pp_kernel_bench for each selected kernel. Everything else is here:
 *
 *   setup(ctx)                 inputs in place, outputs and results poisoned
 *   pp_bench(run)              opt.warmup untimed runs, opt.samples timed ones
 *   pp_row_init/pp_row_time    row named k->name: statistics and figure of merit
 *   verify(ctx, row)           PASS/FAIL against gold values
 *   pp_row_combine_ranks       every rank ran the same kernel (collective)
 *   pp_report_add
 *
 * Rules for verify: compare with gold values that do not come from the
 * kernel's per-item math (closed forms of the input generator, sums computed
 * independently); plant the app's faults (pp_fault, "pp/fault.h") on the
 * downloaded result just before comparing; set the row with pp_check_*.
 * Every kernel also gets one fault for free: `--inject-fault NAME-missed`
 * makes the loop skip every run of kernel NAME, so its verify must FAIL
 * (setup must poison whatever run writes, results included). */
#ifndef PP_KERNEL_H
#define PP_KERNEL_H
#include <stddef.h>
#include <stdint.h>
#include "pp/session.h"
#include "pp/report.h"
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
 * MPI. Returns 1 if the row validated. */
int pp_kernel_bench(pp_session *s, pp_model m, const pp_kernel *k, void *ctx, long long n,
                    const char *variant);

/* Parses a kernel list ("all" or comma-separated names of table[0..count-1],
 * count <= 64) into *mask (bit i: table[i]). NULL, or a message. */
const char *pp_kernel_select(const char *list, const pp_kernel *table, int count,
                             uint64_t *mask);
/* Writes "  name  help" lines for the table into buf (for pp_app.epilog). */
void pp_kernel_help(char *buf, size_t len, const pp_kernel *table, int count);

/* ---- for verify: set row->valid and row->check ---------------------------- */
/* Element-wise exact comparison: `bad` of n elements differ. */
void pp_check_mismatches(pp_row *row, size_t bad, size_t n);
/* One exact value (sums of exactly representable terms, counts). */
void pp_check_equal(pp_row *row, double got, double want);
/* An error measure within a tolerance: "<what> <err> <= <tol>". */
void pp_check_within(pp_row *row, const char *what, double err, double tol);

/* ---- for setup and verify ---------------------------------------------------- */
/* Host memory, or one line "<app>: cannot allocate N MiB of host memory for
 * <what>" and exit 3. Callers check sizes against memory up front (exit 2),
 * so this is the runtime failure. */
void *pp_host_alloc(const char *app, size_t bytes, const char *what);
/* Sets `count` elements of `elem` bytes at device pointer d to *value,
 * through a bounded host buffer (no n-sized host copy). */
void pp_device_fill(const pp_device_ops *ops, void *d, const void *value, size_t elem,
                    size_t count);
/* Fills n device doubles/floats with NaN, which no correct kernel writes. */
void pp_device_poison_d(const pp_device_ops *ops, double *d, size_t n);
void pp_device_poison_f(const pp_device_ops *ops, float *d, size_t n);

PP_EXTERN_C_END
#endif
