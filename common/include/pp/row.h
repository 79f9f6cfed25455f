/* A result row: one (kernel, model, size, variant) measurement; what an app
 * says a row measures (pp_measure); and the one place a row is built, from
 * the timed samples to its statistics, figure of merit, verdict, combined
 * ranks and figures (pp_row_build). pp/measure.h times the runs and hands
 * their samples here; pp/report.h stores the built rows. */
#ifndef PP_ROW_H
#define PP_ROW_H
#include <stddef.h>
#include "pp/model.h"
#include "pp/stats.h"
PP_EXTERN_C_BEGIN

#define PP_MAX_METRICS 12

typedef struct pp_metric {
  char name[32];
  char unit[16];
  double value;
} pp_metric;

/* Energy of a row's timed region (pp/energy.h; filled by the measurement,
 * measure_energy.c). Under MPI every device is read by one rank only and
 * the figures are the readers' sum. */
#define PP_ENERGY_RANKS 64 /* per-rank values kept for the first 64 ranks */
typedef struct pp_row_energy {
  int measured;            /* 1: the figures below; 0: `why` says why not */
  char why[200];           /* "not available: <reason>", "not measured (--no-energy)" */
  double joules;           /* per repetition (per call, as time_s), readers summed */
  double watts;            /* average over the region, readers summed */
  double idle_watts;       /* the devices' idle power before the runs, summed */
  double per_joule;        /* the figure of merit's work per joule */
  char per_joule_unit[24]; /* "GB/J", "GFLOP/J", "lookups/J", "atom-step/J" */
  double seconds;          /* length of the region */
  double utc_start, utc_end; /* rank 0's region, seconds since 1970 */
  long long runs;          /* runs in it */
  int calls;               /* calls per run: joules is per call */
  int repeated;            /* 1: the runs were repeated after the timed ones, for resolution */
  double error;            /* the counter's relative error over the region (largest reader's) */
  int below_resolution;    /* error >= 2% even after repeating for --energy-max-s */
  double update_s, step_j; /* the counter's update interval and smallest step (largest reader's) */
  double window_s;         /* the shortest reader's time between the two counter updates its power
                              comes from (0: none, the whole region's readings) */
  double pace;             /* the metered runs' time per call over the row's median time (1: J/rep =
                              W x the row's time; the slowest reader's) */
  double sm_start, sm_end, limit_start, limit_end; /* rank 0's device: MHz, W (NaN: none) */
  int throttled;           /* a reader's clocks were lowered for power or heat in the region */
  char reasons[96];        /* rank 0's clock event reasons in the region */
  int readers;             /* ranks that read a device */
  char source[128];        /* rank 0's counter */
  double rank_joules[PP_ENERGY_RANKS]; /* per rank, per repetition (NaN: read by another rank or none) */
  int read_by[PP_ENERGY_RANKS];        /* the rank that read this rank's device (-1: none) */
} pp_row_energy;

typedef struct pp_row {
  char kernel[40];
  pp_model model;
  long long size;
  char variant[64];     /* model/launch parameters, e.g. "tpb=256" */
  pp_stats time;        /* seconds per timed run */
  double fom;           /* figure of merit of the median time */
  char fom_unit[16];    /* "GB/s", "lookups/s", "us", ... */
  int higher_is_better; /* 0 for times */
  double bytes;         /* bytes one run is counted to move, 0 if n/a */
  double flops;         /* flops of one run, 0 if n/a */
  double frac_ceiling;  /* of the measured copy bandwidth, NaN if n/a */
  int valid;            /* 1 PASS, 0 FAIL */
  char check[128];      /* what was checked: "max rel err 0 <= 1e-15"; room for an app's
                         * rate before its 96-byte check text (testsnap) */
  double ratio_native;  /* performance relative to cuda/hip, NaN if n/a */
  int nmetrics;
  pp_metric metrics[PP_MAX_METRICS];
  int ranks;            /* MPI ranks that contributed */
  /* Every timed run's seconds, as pp_row_build received them (stored in the
   * JSON so later comparisons can resample them). Heap memory: pp_report_add
   * takes it over and clears the caller's pointer. */
  double *samples;
  int nsamples;
  pp_bootstrap bootstrap; /* how time.ci_* were computed */
  pp_row_energy energy;
} pp_row;

/* How the ranks of an MPI run share a row's work. */
typedef enum pp_ranks {
  /* Every rank runs the same work on its own data (microbench, spmv): the
   * row is the slowest rank's samples, the rate is ranks x work / its
   * median, bytes and flops are ranks x one rank's. */
  PP_RANKS_REPLICATED = 0,
  /* The ranks share one problem (CG, XSBench's lookups, SNAP's atoms): each
   * sample is the slowest rank's (a collective step lasts until it ends),
   * and work, bytes and flops are given for the whole problem. */
  PP_RANKS_SPLIT
} pp_ranks;

struct pp_measure;
/* What a row measures. Fill it with designated initializers; fields left
 * out are 0/NULL. */
typedef struct pp_measure {
  const char *name;    /* row (kernel) name */
  /* Figure of merit: "GB/s" is bytes per second, "GFLOP/s" flops per
   * second, another rate ("lookups/s") work per second; a time unit
   * ("us/launch", "us/call", "ms/atom-step": its prefix before '/' is one of
   * ns, us, ms, s) is the median time per `work` items (per call if 0). */
  const char *unit;
  long long size;      /* the row's problem size */
  const char *variant; /* launch or model parameters ("tpb=256"); NULL: none */
  double bytes, flops; /* of one run (or, for a part, of one sample); 0: not counted */
  double work;         /* of one run: the rate's numerator, or the time unit's items */
  int calls;           /* calls of the kernel per run: times are divided by it (0: 1) */
  pp_ranks ranks;
  /* Counts only the runs can tell (CG's iterations): called after the runs,
   * before the row is built, to set bytes, flops or work. NULL: none. */
  void (*count)(void *ctx, struct pp_measure *spec);
  /* Extra metrics from the final (rank-combined) row, e.g. a second byte
   * count; may set frac_ceiling. NULL: none. */
  void (*figures)(void *ctx, pp_row *row);
} pp_measure;

/* After the runs, on every rank: compare the result with gold values and set
 * row->valid and row->check (pp_check_* below); may add metrics. Planted
 * faults belong here, on the downloaded result. */
typedef void (*pp_verify_fn)(void *ctx, pp_row *row);

/* Builds the row of `spec` on model m from the timed samples t[0..n)
 * (seconds per call; PP_RANKS_SPLIT turns them into the slowest rank's, in
 * place). In order: time statistics (bootstrap bs) and a copy of the
 * samples, the figure of merit, bytes and flops; verify(verify_ctx, row)
 * sets the verdict (the row says "not checked" and FAIL until it does); the
 * ranks combined (SPLIT: valid on every rank; REPLICATED: the slowest
 * rank's samples and statistics, bytes and flops x ranks, a frac_ceiling
 * scaled to that median, metrics stay each rank's own); the metrics
 * "bandwidth" (GB/s) and "rate" (GFLOP/s) of a row whose unit is another
 * but that counts bytes or flops; last spec->figures(ctx, row). Collective
 * under MPI. */
void pp_row_build(pp_row *row, pp_model m, const pp_measure *spec, double *t, int n,
                  const pp_bootstrap *bs, pp_verify_fn verify, void *verify_ctx, void *ctx);

/* The row's work per joule for `joules` per call (every rank's devices):
 * a rate "X/s" gives "X/J" (GB/J, GFLOP/J, lookups/J), a time unit
 * "ms/atom-step" gives "atom-step/J". After pp_row_build (uses row->fom,
 * the median and the ranks). */
void pp_row_per_joule(const pp_row *row, const pp_measure *spec, double joules, double *value, char *unit,
                      size_t n);

/* Adds a metric; more than PP_MAX_METRICS is a program error (exit 3). */
void pp_row_metric(pp_row *row, const char *name, const char *unit, double value);

/* ---- for verify: set row->valid and row->check ---------------------------- */
/* Element-wise exact comparison: `bad` of n elements differ. */
void pp_check_mismatches(pp_row *row, size_t bad, size_t n);
/* One exact value (sums of exactly representable terms, counts). */
void pp_check_equal(pp_row *row, double got, double want);
/* An error measure within a tolerance: "<what> <err> <= <tol>". */
void pp_check_within(pp_row *row, const char *what, double err, double tol);

PP_EXTERN_C_END
#endif
