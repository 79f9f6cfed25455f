/* Energy to solution: an energy meter per model's device (NVML on NVIDIA,
 * AMD SMI on AMD, the host's RAPL counters through powercap for host
 * models), and the management state of a GPU (clocks, power limits, ECC,
 * clock event reasons) for the system record. Every library is loaded at
 * run time (pp/dynlib.h), so builds and runs without it work: what cannot be
 * read says "not available: <reason>", never a zero.
 *
 * A meter is read around a timed region (pp/measure.h calls it, no app
 * does): pp_energy_begin, pp_energy_end. Between them a thread of the
 * meter's own reads the counter every fraction of a millisecond and keeps
 * the first change it sees after the region has settled and the last one:
 * the energy between two counter updates over the time between them is the
 * region's power, with an error set by how late each update can have been
 * seen (a poll interval), not by the update interval (NVML: 100 ms). The
 * runs themselves do no host work for the meter. Its counter's update
 * interval and the device's idle power are measured when it opens, once per
 * device, before the first timed run on it. Test-only environment: PP_NVML_LIBRARY, PP_AMDSMI_LIBRARY (the
 * library to load instead of the driver's), PP_POWERCAP_ROOT (instead of
 * /sys/class/powercap). */
#ifndef PP_ENERGY_H
#define PP_ENERGY_H
#include <stddef.h>
#include <stdint.h>
#include "pp/device.h"
#include "pp/model.h"
PP_EXTERN_C_BEGIN

/* ---- GPU management state ------------------------------------------------------ */
#define PP_GPU_FIELDS 14
/* One reading: a number in `unit`, or text ("enabled", a list of clock event
 * reasons, or "not available: <reason>"). */
typedef struct pp_gpu_field {
  char key[32];   /* JSON key, e.g. "sm_clock_mhz" */
  double value;   /* NaN: see text */
  char text[96];
} pp_gpu_field;

typedef struct pp_gpu_state {
  char source[64];   /* "NVML", "AMD SMI"; "" not read */
  char why[160];     /* "" or "not available: <reason>" for the whole record */
  int nfields;
  pp_gpu_field f[PP_GPU_FIELDS];
} pp_gpu_state;

/* The state of the GPU `d` names (UUID, else PCI bus id) through NVML or AMD
 * SMI. Never fails: st->why says why nothing could be read. */
void pp_gpu_state_query(const pp_device_info *d, pp_gpu_state *st);

/* ---- counters -------------------------------------------------------------------- */
/* A backend's counter: joules since an arbitrary origin, wrap-arounds
 * already accounted (it must be read at least once per wrap). */
typedef struct pp_energy_source {
  char name[128];     /* what it measures: "NVML GPU-..." or "RAPL package-0 + dram" */
  double unit_j;      /* the counter's unit: 1e-3 (NVML), 1e-6 (RAPL) */
  double wrap_s;      /* shortest time of one wrap at the domain's peak power; inf: none */
  int parts;          /* counters summed, each updated on its own (RAPL's domains): a change of
                         the sum may leave the others up to one update old */
  int (*read)(void *impl, double *joules, char *why, size_t n); /* 0, or -1 with why */
  /* Clock and power-limit readings at a region's ends, clock event reasons
   * since the last call (may be NULL). */
  void (*sample)(void *impl, double *sm_mhz, double *limit_w, uint64_t *reasons);
  /* The longest time between two reads of the counter (by anyone) since the
   * last call, for counters read by a thread of their own (may be NULL). */
  double (*gap)(void *impl);
  void *impl;
} pp_energy_source;

/* Opens a backend for a device (0, or -1 with `why`). */
int pp_energy_nvml_open(const pp_device_info *d, pp_energy_source *src, char *why, size_t n);
int pp_energy_amdsmi_open(const pp_device_info *d, pp_energy_source *src, char *why, size_t n);
/* The host: every package domain of the powercap tree and its dram subdomains. */
int pp_energy_rapl_open(pp_energy_source *src, char *why, size_t n);
/* The clock-event reasons (NVML bits) that lower clocks for power or heat,
 * as text ("sw_power_cap,hw_thermal"); "" for none of them. */
void pp_energy_reasons_text(uint64_t reasons, char *out, size_t n);
#define PP_THROTTLE_MASK 0xECull /* sw power cap, hw slowdown, sw/hw thermal, power brake */

/* Counter wrap-around: the increase from `prev` to `now` of a counter that
 * counts modulo range+1 (one wrap at most). */
uint64_t pp_energy_wrap_delta(uint64_t prev, uint64_t now, uint64_t range);

/* ---- calibration: resolution, update interval, idle power ------------------------- */
typedef struct pp_energy_clock {
  double (*now)(void *ctx);          /* seconds */
  void (*pause)(void *ctx, double s);
  void *ctx;
} pp_energy_clock;

typedef struct pp_energy_calib {
  double update_s;   /* median time between counter changes */
  double step_j;     /* smallest change seen */
  double idle_w;     /* power between the first and last change seen */
  int changes;
  double seconds;    /* spent calibrating */
} pp_energy_calib;

/* Reads `src` until it has changed `min_changes` times over at least
 * min_s, or max_s passed. 0, or -1 with why (no change, a read error). */
int pp_energy_calibrate(const pp_energy_source *src, const pp_energy_clock *clk, int min_changes,
                        double min_s, double max_s, pp_energy_calib *out, char *why, size_t n);

/* The counter's error over a region of `joules` in `seconds`: one unit
 * plus the power times the update interval (a reading is up to one update
 * old at either end). Relative; inf for no energy. */
double pp_energy_rel_error(const pp_energy_calib *c, double unit_j, double joules, double seconds);
#define PP_ENERGY_MAX_ERROR 0.02

/* ---- the meter of a model's device on this rank ----------------------------------- */
typedef struct pp_energy_meter {
  int open;             /* opened (available or not) */
  int available;        /* this rank has a counter and reads it */
  int reader;           /* this rank reads the device (one reader per device: no double count) */
  int read_by;          /* the rank that reads it */
  char why[200];        /* "not available: ..." or "shared: read by rank R" */
  pp_energy_source src;
  pp_energy_calib cal;
  char kind[16];        /* "NVML", "AMD SMI", "RAPL" */
  double poll_s;        /* the thread's interval between reads */
  double margin_s;      /* a region's settling time before its window may open */
  void *watch;          /* the thread that reads the counter during regions (NULL: none) */
} pp_energy_meter;

/* The meter of model m (device `info`) on this rank, opened on first use and
 * calibrated. `off` (--no-energy): not measured. Collective under MPI: the
 * ranks sharing a device (same host and device) elect its lowest rank as
 * the one reader. */
pp_energy_meter *pp_energy_meter_for(pp_model m, const pp_device_info *info, int off);

/* The counter's updates, where they come on a fixed period (NVML's every
 * 100 ms): update k at about phi + k U. Fitted over every update the
 * meter's thread has seen since it started, so that the time between two
 * updates of a window is known to far better than one read (a GPU counter's
 * read takes milliseconds): m periods last m U, within W + m dU. */
typedef struct pp_energy_period {
  int ok;            /* 16 updates or more, over 16 periods or more */
  double U, phi;
  double W;          /* the band of phases t - k U at U: its width where every update fits
                        in it (how late a change can be, at best), else the excess no phase
                        absorbs (the updates' jitter): either bounds an end's offset */
  double dU;         /* half the range of periods whose band stays within 2 W of the best */
  int updates;       /* updates fitted */
} pp_energy_period;
/* Fits k[i] -> [a[i], b[i]] (update k seen between a read that began at a
 * and one that ended at b): the period U of the narrowest band. */
void pp_energy_fit_period(const long long *k, const double *a, const double *b, int n, pp_energy_period *fit);

/* A region being measured. */
#define PP_ENERGY_STARTS 128
typedef struct pp_energy_region {
  double t0, e0, t, e;  /* start and end readings: seconds, joules */
  /* The window: the two counter changes, seen at least `margin` after the
   * start, that bound the window of smallest error: as far apart as they
   * can be, each seen as soon after its update as can be (a busy host sees
   * some late). Starts are taken from the first PP_ENERGY_STARTS changes. */
  int window;           /* 2: two changes bound it; 1: one seen; 0: none */
  int nstarts;
  double start_t[PP_ENERGY_STARTS], start_d[PP_ENERGY_STARTS], start_e[PP_ENERGY_STARTS];
  long long start_k[PP_ENERGY_STARTS];
  double w_t0, w_t1;    /* when each was seen (host seconds) */
  double w_e0, w_e1;    /* the counter at each (joules) */
  double w_d0, w_d1;    /* how late each can have been seen: since the poll before it began */
  long long w_k0, w_k1; /* their update numbers (-1: not counted) */
  double last_t, last_d, last_e; /* the last change past the margin */
  long long last_k;
  pp_energy_period period; /* the counter's updates (pp_energy_end) */
  long long changes;    /* counter changes seen in the region */
  double margin;        /* seconds after the start before a change may open the window */
  double stale;         /* seconds a change of the sum can lag at each end (2 U for parts, else 0) */
  double max_gap;       /* longest time between two readings */
  double utc0, utc1;    /* the region's start and end, seconds since 1970 (to line it up with other tools) */
  long long runs;
  double sm_start, sm_end, limit_start, limit_end;
  uint64_t reasons;
  int failed;           /* a read failed: why */
  char why[160];
} pp_energy_region;

void pp_energy_begin(pp_energy_meter *e, pp_energy_region *r);
/* Between runs: without the meter's thread (a build without threads), reads
 * the counter when a millisecond has passed since the last reading; with it,
 * nothing. */
void pp_energy_poll(pp_energy_meter *e, pp_energy_region *r);
/* Ends the region after `runs` runs. */
void pp_energy_end(pp_energy_meter *e, pp_energy_region *r, long long runs);
/* During a region, between runs: 1 when the window so far already gives a
 * relative error below max_err (pp_energy_region_error). */
int pp_energy_enough(pp_energy_meter *e, pp_energy_region *r, double max_err);

/* A counter change seen at time t (host seconds), at most d seconds late,
 * reading `joules`, update number k of the meter's count (-1: not counted):
 * opens the region's window (past its margin) or moves its end. The meter's
 * thread calls it; exposed for the tests. */
void pp_energy_window_add(pp_energy_region *r, double t, double d, double joules, long long k);
/* The region's average power: over its window where it has one, else over
 * the whole region (the readings at its ends). */
double pp_energy_region_watts(const pp_energy_region *r);
/* The relative error of that power, and of the energy it gives the region:
 * over a window (unit + P (d0 + d1 + stale)) / (P (t1 - t0)), stale = 2 U
 * where the counter is a sum of parts updated apart (the other parts up to
 * one update U old at each end); where the updates keep a period
 * (r->period.ok) and that is tighter, the window from its first to its last
 * change, its ends at the fitted times (2 err instead of d0 + d1); without a
 * window, pp_energy_rel_error of the whole region (a reading up to one
 * update old). */
double pp_energy_region_error(const pp_energy_meter *e, const pp_energy_region *r);

PP_EXTERN_C_END
#endif
