/* Unit tests of the energy meter (pp/energy.h), one mode per process (the
 * libraries are loaded once per process):
 *   core              wrap-around, calibration on a synthetic counter and clock,
 *                     the error estimate, the counter-update window, work per
 *                     joule, clock event reasons
 *   rapl DIR          a powercap tree planted in DIR: package + dram summed,
 *                     core left out, wraps, limit, the shortest wrap
 *   rapl-missing      PP_POWERCAP_ROOT names no directory: not available
 *   nvml              PP_NVML_LIBRARY = the fake library: GPU state, calibration,
 *                     a region, throttle reasons (FAKE_NVML_REASONS=4)
 *   nvml-pci          the GPU found by its PCI bus id alone
 *   nvml-unknown      a UUID NVML does not know: not available, with NVML's words
 *   nvml-missing      PP_NVML_LIBRARY names no library: not available
 *   nvml-unsupported  the counter says Not Supported: no meter, the state still read
 *   nvml-initfail     nvmlInit fails: not available with its reason */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "pp/energy.h"
#include "pp/row.h"
#include "check.h"

#define HAS(s, sub) CHECK(strstr((s), (sub)) != NULL)

/* ---- a synthetic counter: 1 J every 10 ms (100 W) on a clock that pauses advance ---- */
static double fake_t;
static double syn_now(void *ctx) { (void)ctx; return fake_t; }
static void syn_pause(void *ctx, double s) { (void)ctx; fake_t += s; }
static int syn_read(void *impl, double *j, char *why, size_t n) {
  (void)why, (void)n;
  const double step = *(double *)impl; /* seconds between updates; 0: never changes */
  *j = step > 0 ? floor(fake_t / step + 1e-9) * (100.0 * step) : 7.0;
  return 0;
}

static void mode_core(void) {
  /* a counter of range 999 counts 0..999: 990 -> 10 is 20 steps */
  CHECK(pp_energy_wrap_delta(990, 10, 999) == 20);
  CHECK(pp_energy_wrap_delta(5, 8, 999) == 3);
  CHECK(pp_energy_wrap_delta(999, 0, 999) == 1);

  double step = 0.010;
  pp_energy_source src = {.unit_j = 1e-3, .read = syn_read, .impl = &step};
  pp_energy_clock clk = {syn_now, syn_pause, NULL};
  pp_energy_calib c;
  char why[200] = "";
  fake_t = 0.0031;
  CHECK(pp_energy_calibrate(&src, &clk, 8, 0.25, 2.0, &c, why, sizeof why) == 0);
  NEAR(c.update_s, 0.010, 2e-4); /* read every 100 us: each change seen within one read */
  NEAR(c.step_j, 1.0, 1e-9);
  NEAR(c.idle_w, 100.0, 2.0);
  CHECK(c.changes >= 25 && c.seconds >= 0.25 && c.seconds < 0.3);
  /* (unit + P U) / E over 1 s at 100 W */
  NEAR(pp_energy_rel_error(&c, 1e-3, 100.0, 1.0), (1e-3 + 100.0 * c.update_s) / 100.0, 1e-12);
  CHECK(isinf(pp_energy_rel_error(&c, 1e-3, 0.0, 1.0)));

  step = 0; /* a counter that never changes: not available, with the count */
  fake_t = 0;
  CHECK(pp_energy_calibrate(&src, &clk, 8, 0.25, 2.0, &c, why, sizeof why) == -1);
  HAS(why, "not available: the counter changed 0 times in 2.00 s");

  /* the window: the first change past the margin opens it, the last closes it; the
   * power is theirs, the error one unit plus the power times how late each was seen */
  pp_energy_region r;
  memset(&r, 0, sizeof r);
  r.t0 = 10.0, r.e0 = 500.0, r.margin = 0.025, r.t = 10.5, r.e = 550.0;
  pp_energy_window_add(&r, 10.01, 1e-4, 501.0, -1); /* inside the margin: not the window's */
  CHECK(r.window == 0 && r.changes == 1);
  pp_energy_window_add(&r, 10.11, 2e-4, 511.0, -1);
  CHECK(r.window == 1);
  pp_energy_window_add(&r, 10.21, 1e-4, 521.0, -1);
  pp_energy_window_add(&r, 10.41, 3e-4, 541.0, -1);
  CHECK(r.window == 2 && r.changes == 4);
  NEAR(pp_energy_region_watts(&r), 100.0, 1e-9); /* 30 J in 0.3 s */
  pp_energy_meter m;
  memset(&m, 0, sizeof m);
  m.src.unit_j = 1e-3, m.cal.update_s = 0.1;
  NEAR(pp_energy_region_error(&m, &r), (1e-3 + 100.0 * 5e-4) / 30.0, 1e-12);
  pp_energy_window_add(&r, 10.45, 0.2, 545.0, -1); /* seen 0.2 s late: a worse end, passed over */
  CHECK(r.w_t1 == 10.41 && r.changes == 5);
  pp_energy_window_add(&r, 10.91, 1e-4, 591.0, -1); /* later and seen at once: the better end */
  CHECK(r.w_t1 == 10.91);
  NEAR(pp_energy_region_watts(&r), 100.0, 1e-9);
  /* a start seen late is passed over for a later one seen at once */
  pp_energy_region q;
  memset(&q, 0, sizeof q);
  q.t0 = 10.0, q.margin = 0.025;
  pp_energy_window_add(&q, 10.1, 0.3, 510.0, -1);
  pp_energy_window_add(&q, 10.2, 1e-4, 520.0, -1);
  pp_energy_window_add(&q, 10.5, 1e-4, 550.0, -1);
  CHECK(q.window == 2 && q.w_t0 == 10.2 && q.w_t1 == 10.5);
  /* the period of updates seen 0 to 4 ms late (and polls that began 0 to 4 ms
   * before): 100 updates 0.1 s apart, phase 5 s */
  enum { NU = 100 };
  long long hk[NU];
  double ha[NU], hb[NU];
  unsigned seed = 7;
  for (int i = 0; i < NU; i++) {
    const double u = 5.0 + 0.1 * i;
    seed = seed * 1103515245u + 12345u;
    hk[i] = i + 3, ha[i] = u - 4e-3 * (seed >> 16 & 0xff) / 255.0;
    seed = seed * 1103515245u + 12345u;
    hb[i] = u + 4e-3 * (seed >> 16 & 0xff) / 255.0;
  }
  pp_energy_period per;
  pp_energy_fit_period(hk, ha, hb, NU, &per);
  CHECK(per.ok && per.updates == NU);
  CHECK(fabs(per.U - 0.1) <= per.dU + 1e-12 && per.dU < 2e-5); /* the true period within the range */
  NEAR(per.phi + 3 * per.U, 5.0, 4e-3); /* update 3 is at 5 s */
  CHECK(per.W < 1e-3); /* reads begun or ended within 1 ms of an update: a band that narrow */
  pp_energy_fit_period(hk, ha, hb, 15, &per); /* too few to trust */
  CHECK(!per.ok);
  hb[50] -= 0.01; /* an update 10 ms out of step: no phase fits all; the jitter is the error */
  pp_energy_fit_period(hk, ha, hb, NU, &per);
  CHECK(per.ok && per.W > 3e-3);
  hb[50] += 0.01;
  /* a region whose window is known to the period's err, not to its changes' 4 ms */
  pp_energy_region p;
  memset(&p, 0, sizeof p);
  p.t0 = 9.0, p.margin = 0.025;
  pp_energy_window_add(&p, 9.0 + 0.1 + 3e-3, 4e-3, 600.0, 43); /* updates 43 and 48: 0.5 s at 200 W */
  pp_energy_window_add(&p, 9.5 + 0.1 + 1e-3, 4e-3, 700.0, 48);
  pp_energy_fit_period(hk, ha, hb, NU, &p.period);
  NEAR(pp_energy_region_watts(&p), 100.0 / (5 * p.period.U), 1e-9); /* 5 periods, not the 0.498 s seen */
  NEAR(pp_energy_region_watts(&p), 200.0, 0.1);
  NEAR(pp_energy_region_error(&m, &p), (1e-3 + 200.0 * (p.period.W + 5 * p.period.dU)) / 100.0, 1e-3);
  CHECK(pp_energy_region_error(&m, &p) < 0.003); /* the changes as seen: 8 ms in 0.5 s, 1.6% */
  r.w_t1 = 10.41, r.w_e1 = 541.0, r.w_d1 = 3e-4;
  r.window = 1; /* one change only: the whole region, a reading up to an update old */
  NEAR(pp_energy_region_watts(&r), 100.0, 1e-9);
  NEAR(pp_energy_region_error(&m, &r), (1e-3 + 100.0 * 0.1) / 50.0, 1e-12);

  char txt[96];
  pp_energy_reasons_text(0x1 | 0x4 | 0x40, txt, sizeof txt);
  CHECK(!strcmp(txt, "sw_power_cap,hw_thermal")); /* idle is not a slowdown */
  CHECK((0x1 & PP_THROTTLE_MASK) == 0 && (0x4 & PP_THROTTLE_MASK) && (0x80 & PP_THROTTLE_MASK));

  /* work per joule: a rate is FOM x median per joule; a time unit its items per joule */
  pp_row row;
  memset(&row, 0, sizeof row);
  row.fom = 100.0, row.time.median = 0.5, row.ranks = 2;
  pp_measure gb = {.unit = "GB/s", .ranks = PP_RANKS_REPLICATED};
  double v;
  char unit[24];
  pp_row_per_joule(&row, &gb, 10.0, &v, unit, sizeof unit);
  NEAR(v, 5.0, 1e-12);
  CHECK(!strcmp(unit, "GB/J"));
  pp_measure grind = {.unit = "ms/atom-step", .work = 2000, .ranks = PP_RANKS_SPLIT};
  pp_row_per_joule(&row, &grind, 4.0, &v, unit, sizeof unit);
  NEAR(v, 500.0, 1e-12); /* split: the ranks share the 2000 atom-steps */
  CHECK(!strcmp(unit, "atom-step/J"));
  grind.ranks = PP_RANKS_REPLICATED;
  pp_row_per_joule(&row, &grind, 4.0, &v, unit, sizeof unit);
  NEAR(v, 1000.0, 1e-12); /* replicated: each of 2 ranks did 2000 */
  pp_measure look = {.unit = "lookups/s", .ranks = PP_RANKS_SPLIT};
  pp_row_per_joule(&row, &look, 0.0, &v, unit, sizeof unit);
  CHECK(isnan(v) && !strcmp(unit, "-")); /* no energy: no figure, never a zero */
}

/* ---- RAPL on a planted tree ----------------------------------------------------------- */
static void put(const char *dir, const char *file, const char *text) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", dir, file);
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (f) fputs(text, f), fclose(f);
}

static void domain(const char *root, const char *sub, const char *name, const char *energy) {
  char dir[900];
  snprintf(dir, sizeof dir, "%s/%s", root, sub);
  mkdir(dir, 0755);
  put(dir, "name", name);
  put(dir, "max_energy_range_uj", "1000000\n"); /* 1 J */
  put(dir, "energy_uj", energy);
}

static void mode_rapl(const char *root) {
  mkdir(root, 0755);
  domain(root, "intel-rapl:0", "package-0\n", "900000\n");
  domain(root, "intel-rapl:0:0", "dram\n", "100\n");
  domain(root, "intel-rapl:0:1", "core\n", "5\n");
  domain(root, "intel-rapl-mmio:0", "package-0\n", "5\n"); /* another interface to the same package */
  char dir[900];
  snprintf(dir, sizeof dir, "%s/intel-rapl:0", root);
  put(dir, "constraint_0_power_limit_uw", "125000000\n");
  setenv("PP_POWERCAP_ROOT", root, 1);
  pp_energy_source src;
  char why[200] = "";
  CHECK(pp_energy_rapl_open(&src, why, sizeof why) == 0);
  CHECK(!strcmp(src.name, "RAPL package-0 + dram"));
  NEAR(src.wrap_s, 1.0 / 500.0, 1e-12); /* dram, no limit given: 1 J at 500 W (the package: 1 J at 2 x 125 W) */
  double j0, j1, sm, lim;
  uint64_t reasons = 0;
  CHECK(src.read(src.impl, &j0, why, sizeof why) == 0);
  /* the package wraps (900000 -> 1000000 -> 0 -> 50000: 150001 uJ), dram 100 -> 400, core ignored */
  put(dir, "energy_uj", "50000\n");
  snprintf(dir, sizeof dir, "%s/intel-rapl:0:0", root);
  put(dir, "energy_uj", "400\n");
  snprintf(dir, sizeof dir, "%s/intel-rapl:0:1", root);
  put(dir, "energy_uj", "999999\n");
  CHECK(src.read(src.impl, &j1, why, sizeof why) == 0);
  NEAR(j1 - j0, (150001 + 300) * 1e-6, 1e-12);
  src.sample(src.impl, &sm, &lim, &reasons);
  NEAR(lim, 125.0, 1e-9);
  CHECK(isnan(sm) && reasons == 0);
  /* a counter that cannot be read any more: the reason names the file */
  snprintf(dir, sizeof dir, "%s/intel-rapl:0:0/energy_uj", root);
  remove(dir);
  CHECK(src.read(src.impl, &j1, why, sizeof why) == -1);
  HAS(why, "intel-rapl:0:0/energy_uj: No such file or directory");
}

static void mode_rapl_missing(void) {
  setenv("PP_POWERCAP_ROOT", "/nonexistent/powercap", 1);
  pp_energy_source src;
  char why[300] = "";
  CHECK(pp_energy_rapl_open(&src, why, sizeof why) == -1);
  HAS(why, "not available: /nonexistent/powercap: No such file or directory (no RAPL powercap interface");
  /* the meter of a host model says the same, and measures nothing */
  pp_device_info host = {.is_gpu = 0};
  pp_energy_meter *e = pp_energy_meter_for(PP_HOST, &host, 0);
  CHECK(e->open && !e->available);
  HAS(e->why, "not available: /nonexistent/powercap");
  pp_energy_region r;
  pp_energy_begin(e, &r);
  pp_energy_end(e, &r, 3);
  CHECK(r.e == 0 && r.e0 == 0 && !r.failed);
}

/* ---- NVML through the fake library ---------------------------------------------------- */
static pp_device_info fake_gpu(const char *uuid, const char *bus) {
  pp_device_info d;
  memset(&d, 0, sizeof d);
  d.is_gpu = 1;
  snprintf(d.uuid, sizeof d.uuid, "%s", uuid);
  snprintf(d.pci_bus_id, sizeof d.pci_bus_id, "%s", bus);
  snprintf(d.driver_api, sizeof d.driver_api, "CUDA 13.0");
  return d;
}

static const pp_gpu_field *field(const pp_gpu_state *st, const char *key) {
  for (int i = 0; i < st->nfields; i++)
    if (!strcmp(st->f[i].key, key)) return &st->f[i];
  return NULL;
}

static void check_state(const pp_device_info *d) {
  pp_gpu_state st;
  pp_gpu_state_query(d, &st);
  CHECK(!strcmp(st.source, "NVML (driver 999.1.2-fake)"));
  const pp_gpu_field *f;
  CHECK((f = field(&st, "sm_clock_mhz")) && f->value == 1755);
  CHECK((f = field(&st, "sm_clock_max_mhz")) && f->value == 1980);
  CHECK((f = field(&st, "power_limit_w")) && f->value == 700);
  CHECK((f = field(&st, "power_limit_enforced_w")) && f->value == 650);
  CHECK((f = field(&st, "ecc_mode")) && !strcmp(f->text, "enabled"));
  CHECK((f = field(&st, "sm_app_clock_mhz")) && isnan(f->value) && !strcmp(f->text, "not available: Not Supported"));
  CHECK((f = field(&st, "clock_event_reasons")) && !strcmp(f->text, "sw_power_cap")); /* FAKE_NVML_REASONS=4 */
}

static void mode_nvml(void) {
  pp_device_info d = fake_gpu("GPU-fake-0", "");
  check_state(&d);
  pp_energy_meter *e = pp_energy_meter_for(PP_HOST, &d, 0); /* any model: the device decides */
  CHECK(e->available && e->reader && !strcmp(e->kind, "NVML"));
  NEAR(e->cal.update_s, 0.010, 1e-3);   /* FAKE_NVML_UPDATE_MS=10 */
  NEAR(e->cal.step_j, 1.0, 1e-9);       /* 100 W x 10 ms */
  NEAR(e->cal.idle_w, 100.0, 5.0);
  pp_energy_region r;
  pp_energy_begin(e, &r);
  struct timespec ts = {0, 200000000L};
  nanosleep(&ts, NULL);
  pp_energy_end(e, &r, 4);
  NEAR(r.e - r.e0, 20.0, 1.0 + 1e-9); /* 200 ms at 100 W, within one update */
  NEAR(r.t - r.t0, 0.2, 0.02);
  CHECK(r.runs == 4 && r.sm_start == 1755 && r.limit_end == 650 && (r.reasons & PP_THROTTLE_MASK));
  /* 20 J read to a 10 ms update: about 5%, above the 2% the rows need ... */
  const double err = pp_energy_rel_error(&e->cal, e->src.unit_j, r.e - r.e0, r.t - r.t0);
  CHECK(err > PP_ENERGY_MAX_ERROR && err < 0.07);
  /* ... but between the first and last updates the meter's thread saw, the
   * power is exact to how late it saw them: well under 2% */
  CHECK(r.window == 2 && r.changes >= 15);
  NEAR(pp_energy_region_watts(&r), 100.0, 2.0);
  CHECK(pp_energy_region_error(e, &r) < PP_ENERGY_MAX_ERROR);
  /* the fake's updates are exactly periodic: the thread, reading since the meter
   * opened, fits their period, and the window's length comes from it */
  CHECK(r.period.ok && r.period.updates >= 16);
  NEAR(r.period.U, 0.010, 1e-4);
  NEAR(pp_energy_region_watts(&r), 100.0, 0.5);
}

static void mode_nvml_pci(void) {
  pp_device_info d = fake_gpu("", "00000000:19:00.0");
  check_state(&d);
}

static void mode_nvml_unknown(void) {
  pp_device_info d = fake_gpu("GPU-other", "");
  pp_gpu_state st;
  pp_gpu_state_query(&d, &st);
  CHECK(!st.source[0]);
  CHECK(!strcmp(st.why, "not available: NVML does not know GPU-other: Not Found"));
  pp_energy_meter *e = pp_energy_meter_for(PP_HOST, &d, 0);
  CHECK(!e->available && !strcmp(e->why, st.why));
}

static void mode_nvml_missing(void) {
  pp_device_info d = fake_gpu("GPU-fake-0", "");
  pp_gpu_state st;
  pp_gpu_state_query(&d, &st);
  HAS(st.why, "not available: cannot load /nonexistent/libnvidia-ml.so.1");
  pp_energy_meter *e = pp_energy_meter_for(PP_HOST, &d, 0);
  CHECK(!e->available);
  HAS(e->why, "not available: cannot load /nonexistent/libnvidia-ml.so.1");
}

static void mode_nvml_unsupported(void) {
  pp_device_info d = fake_gpu("GPU-fake-0", "");
  check_state(&d); /* the state is there ... */
  pp_energy_meter *e = pp_energy_meter_for(PP_HOST, &d, 0);
  CHECK(!e->available); /* ... the counter is not */
  CHECK(!strcmp(e->why, "not available: nvmlDeviceGetTotalEnergyConsumption: Not Supported"));
}

static void mode_nvml_initfail(void) {
  pp_device_info d = fake_gpu("GPU-fake-0", "");
  pp_energy_meter *e = pp_energy_meter_for(PP_HOST, &d, 0);
  CHECK(!e->available && !strcmp(e->why, "not available: nvmlInit: Driver Not Loaded"));
}

int main(int argc, char **argv) {
  const char *m = argc > 1 ? argv[1] : "";
  if (!strcmp(m, "core")) mode_core();
  else if (!strcmp(m, "rapl") && argc > 2) mode_rapl(argv[2]);
  else if (!strcmp(m, "rapl-missing")) mode_rapl_missing();
  else if (!strcmp(m, "nvml")) mode_nvml();
  else if (!strcmp(m, "nvml-pci")) mode_nvml_pci();
  else if (!strcmp(m, "nvml-unknown")) mode_nvml_unknown();
  else if (!strcmp(m, "nvml-missing")) mode_nvml_missing();
  else if (!strcmp(m, "nvml-unsupported")) mode_nvml_unsupported();
  else if (!strcmp(m, "nvml-initfail")) mode_nvml_initfail();
  else {
    fprintf(stderr, "usage: test_energy core|rapl DIR|rapl-missing|nvml|nvml-pci|nvml-unknown|nvml-missing|"
                    "nvml-unsupported|nvml-initfail\n");
    return 2;
  }
  if (failures) fprintf(stderr, "%d checks failed\n", failures);
  else printf("energy %s: all checks passed\n", m);
  return failures != 0;
}
