/* The one measurement path of every app's rows: warm-up and timed runs of
 * one run function (pp_measure_run) or of a run made of parts timed alone
 * (pp_measure_parts: TestSNAP's step of five kernels, a CG solve of SpMVs,
 * dots and axpbys); their samples become rows (pp_row_build, pp/row.h) that
 * go to the report. An app describes a row (pp_measure) and gives its run
 * and verify functions; it never times, builds or combines rows itself.
 * pp_kernel_bench (pp/kernel.h) is this path for a static table. */
#ifndef PP_MEASURE_H
#define PP_MEASURE_H
#include "pp/row.h"
#include "pp/session.h"
PP_EXTERN_C_BEGIN

/* One run of a row's work (all of it, or a run made of parts). */
typedef void (*pp_run_fn)(void *ctx);

/* Times run(ctx) on model m: opt.warmup untimed runs, then opt.samples
 * runs each timed by the model's device-synchronized timer (the copy
 * ceilings are measured first, pp_session_ready, if the app has not); builds
 * the row of `spec` (pp_row_build: verify is called there) and adds it to
 * the report. `--inject-fault NAME-missed` skips every run, so verify must
 * find the result poisoned.
 * Collective under MPI. Returns the stored row (valid until the next row is
 * added): the app may add cross-row metrics to it before the report ends. */
pp_row *pp_measure_run(pp_session *s, pp_model m, const pp_measure *spec, pp_run_fn run, void *ctx,
                       pp_verify_fn verify);

/* ---- runs made of parts ------------------------------------------------------ */
#define PP_MAX_PARTS 8

/* Per-call times of a run's parts. The run brackets every part call with
 * pp_part_begin/pp_part_end; calls are always counted, and timed only while
 * the measurement has the timer on. */
typedef struct pp_parts {
  const pp_device_ops *ops;
  int count;                 /* parts */
  int wall;                  /* 1: sync + host wall clock (parts with host work, MPI
                                inside); 0: the model's timer (events on CUDA/HIP) */
  int on;                    /* set by pp_measure_parts */
  long long calls[PP_MAX_PARTS];
  long long cap;             /* entries of t[p] */
  double *t[PP_MAX_PARTS];   /* seconds of each timed call */
  double t0;
} pp_parts;

/* Room for `cap` timed calls of each of `count` parts (exit 3 when the host
 * has no memory for them). */
void pp_parts_init(pp_parts *pt, const pp_device_ops *ops, int count, long long cap, int wall);
void pp_parts_free(pp_parts *pt);
void pp_part_begin(pp_parts *pt);
void pp_part_end(pp_parts *pt, int part);
/* Calls of part p in the last run (the counts restart at every run). */
static inline long long pp_part_calls(const pp_parts *pt, int p) { return pt->calls[p]; }

typedef enum pp_parts_mode {
  /* Every run is timed part by part (warm-up included); a sample of the
   * whole is the sum of its parts' times in that run (the gaps between
   * parts are not counted), a sample of a part its time in that run. Part
   * specs count per run. */
  PP_PARTS_EVERY_RUN,
  /* The runs are timed whole, untouched; then one more run with every part
   * call synchronized and timed gives the parts' rows, one sample per call,
   * and the result verify sees. Part specs count per call. */
  PP_PARTS_EXTRA_RUN
} pp_parts_mode;

/* Measures `whole` as pp_measure_run does, then adds a row per part that
 * was called (parts[p], p < pt->count): the part's samples, its figure of
 * merit, metrics "calls" (per run) and "share" (percent of the parts'
 * time), and the whole's verdict ("part of NAME (validated)"). The call
 * counts restart at every run. */
pp_row *pp_measure_parts(pp_session *s, pp_model m, const pp_measure *whole, const pp_measure *parts,
                         pp_parts *pt, pp_parts_mode mode, pp_run_fn run, void *ctx,
                         pp_verify_fn verify);

/* The energy of stored row `index`, measured while s->energy_later was set:
 * its runs repeated alone (run(ctx), spec as it was measured with), as for
 * a row whose timed runs are too short. Collective under MPI. */
void pp_measure_energy_of(pp_session *s, pp_model m, int index, const pp_measure *spec, pp_run_fn run,
                          void *ctx);
/* Marks stored row `index` "not measured: <why>" ("the kernel's energy is ..."). */
void pp_measure_energy_skip(pp_session *s, int index, const char *why);

PP_EXTERN_C_END
#endif
