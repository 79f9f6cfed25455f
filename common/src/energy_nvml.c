/* NVIDIA's management library (pp/energy.h), loaded at run time
 * (pp/dynlib.h): no link dependency, no header. The few entry points used
 * are declared here with the types NVML's documentation gives (handles are
 * pointers, return codes and enums are int). PP_NVML_LIBRARY names another
 * library (tests). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pp/dynlib.h"
#include "pp/energy.h"

typedef void *nvml_dev;
enum { NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2 };

static struct {
  int tried, ok;
  char why[224];
  int (*init)(void);
  const char *(*err)(int);
  int (*by_uuid)(const char *, nvml_dev *);
  int (*by_pci)(const char *, nvml_dev *);
  int (*energy)(nvml_dev, unsigned long long *);
  int (*clock)(nvml_dev, int, unsigned *);
  int (*max_clock)(nvml_dev, int, unsigned *);
  int (*app_clock)(nvml_dev, int, unsigned *);
  int (*limit)(nvml_dev, unsigned *);
  int (*default_limit)(nvml_dev, unsigned *);
  int (*enforced_limit)(nvml_dev, unsigned *);
  int (*usage)(nvml_dev, unsigned *);
  int (*ecc)(nvml_dev, int *, int *);
  int (*persistence)(nvml_dev, int *);
  int (*reasons)(nvml_dev, unsigned long long *);
  int (*driver)(char *, unsigned);
} L;

static const char *nv_err(int rc) {
  static char buf[32];
  const char *s = L.err ? L.err(rc) : NULL;
  if (s) return s;
  snprintf(buf, sizeof buf, "NVML error %d", rc);
  return buf;
}

/* The entry points: all but nvmlInit_v2 may be missing (an older driver),
 * each call says so where it is used; one of the two device look-ups must be there. */
static const pp_dynsym nvml_syms[] = {
    {.name = "nvmlInit_v2", .at = &L.init},
    {.name = "nvmlErrorString", .at = &L.err, .optional = 1},
    {.name = "nvmlDeviceGetHandleByUUID", .at = &L.by_uuid, .optional = 1},
    {.name = "nvmlDeviceGetHandleByPciBusId_v2", .at = &L.by_pci, .optional = 1},
    {.name = "nvmlDeviceGetTotalEnergyConsumption", .at = &L.energy, .optional = 1},
    {.name = "nvmlDeviceGetClockInfo", .at = &L.clock, .optional = 1},
    {.name = "nvmlDeviceGetMaxClockInfo", .at = &L.max_clock, .optional = 1},
    {.name = "nvmlDeviceGetApplicationsClock", .at = &L.app_clock, .optional = 1},
    {.name = "nvmlDeviceGetPowerManagementLimit", .at = &L.limit, .optional = 1},
    {.name = "nvmlDeviceGetPowerManagementDefaultLimit", .at = &L.default_limit, .optional = 1},
    {.name = "nvmlDeviceGetEnforcedPowerLimit", .at = &L.enforced_limit, .optional = 1},
    {.name = "nvmlDeviceGetPowerUsage", .at = &L.usage, .optional = 1},
    {.name = "nvmlDeviceGetEccMode", .at = &L.ecc, .optional = 1},
    {.name = "nvmlDeviceGetPersistenceMode", .at = &L.persistence, .optional = 1},
    {.name = "nvmlDeviceGetCurrentClocksEventReasons", .alt = "nvmlDeviceGetCurrentClocksThrottleReasons",
     .at = &L.reasons, .optional = 1},
    {.name = "nvmlSystemGetDriverVersion", .at = &L.driver, .optional = 1},
    {.name = NULL}};
static pp_dynlib nvml = {.env = "PP_NVML_LIBRARY", .names = {"libnvidia-ml.so.1"}, .syms = nvml_syms};

/* Loads and initializes NVML once per process; 0, or -1 (L.why says why). */
static int load(void) {
  if (L.tried) return L.ok ? 0 : -1;
  L.tried = 1;
  if (pp_dynlib_load(&nvml) != 0) return snprintf(L.why, sizeof L.why, "%s", nvml.why), -1;
  if (!L.by_uuid && !L.by_pci) {
    snprintf(L.why, sizeof L.why, "not available: %s: nvmlDeviceGetHandleByUUID and "
             "nvmlDeviceGetHandleByPciBusId_v2 missing", nvml.names[0]);
    return -1;
  }
  int rc = L.init();
  if (rc) {
    snprintf(L.why, sizeof L.why, "not available: nvmlInit: %s", nv_err(rc));
    return -1;
  }
  L.ok = 1;
  return 0;
}

/* The NVML handle of d: by UUID, else by PCI bus id. */
static int handle(const pp_device_info *d, nvml_dev *dev, char *why, size_t n) {
  if (load() != 0) return snprintf(why, n, "%s", L.why), -1;
  int rc = -1;
  if (d->uuid[0] && L.by_uuid) rc = L.by_uuid(d->uuid, dev);
  if (rc && d->pci_bus_id[0] && L.by_pci) rc = L.by_pci(d->pci_bus_id, dev);
  if (!rc) return 0;
  if (!d->uuid[0] && !d->pci_bus_id[0])
    snprintf(why, n, "not available: the device has no UUID or PCI bus id to find it by in NVML");
  else
    snprintf(why, n, "not available: NVML does not know %s: %s", d->uuid[0] ? d->uuid : d->pci_bus_id,
             rc > 0 ? nv_err(rc) : "no look-up");
  return -1;
}

static void field(pp_gpu_state *st, const char *key, int rc, double v) {
  if (st->nfields == PP_GPU_FIELDS) return;
  pp_gpu_field *f = &st->f[st->nfields++];
  snprintf(f->key, sizeof f->key, "%s", key);
  f->value = rc ? NAN : v;
  f->text[0] = 0;
  if (rc) snprintf(f->text, sizeof f->text, "not available: %s", rc < 0 ? "no such entry point" : nv_err(rc));
}

static void text_field(pp_gpu_state *st, const char *key, int rc, const char *v) {
  field(st, key, rc, NAN);
  if (!rc) snprintf(st->f[st->nfields - 1].text, sizeof st->f[0].text, "%s", v);
}

#define CALL(fn, ...) (L.fn ? L.fn(__VA_ARGS__) : -1)

void pp_energy_reasons_text(uint64_t reasons, char *out, size_t n) {
  static const struct { uint64_t bit; const char *name; } t[] = {
      {0x4, "sw_power_cap"}, {0x8, "hw_slowdown"}, {0x20, "sw_thermal"}, {0x40, "hw_thermal"},
      {0x80, "hw_power_brake"}};
  size_t len = 0;
  if (n) out[0] = 0;
  for (size_t i = 0; i < sizeof t / sizeof *t; i++)
    if (reasons & t[i].bit) {
      int w = snprintf(out + len, n - len, "%s%s", len ? "," : "", t[i].name);
      if (w < 0 || (size_t)w >= n - len) break;
      len += (size_t)w;
    }
}

int pp_nvml_gpu_state(const pp_device_info *d, pp_gpu_state *st);
int pp_nvml_gpu_state(const pp_device_info *d, pp_gpu_state *st) {
  nvml_dev dev;
  if (handle(d, &dev, st->why, sizeof st->why) != 0) return -1;
  char drv[96] = "";
  if (L.driver && !L.driver(drv, sizeof drv)) snprintf(st->source, sizeof st->source, "NVML (driver %s)", drv);
  else snprintf(st->source, sizeof st->source, "NVML");
  unsigned u = 0;
  int rc;
  rc = CALL(clock, dev, NVML_CLOCK_SM, &u), field(st, "sm_clock_mhz", rc, u);
  rc = CALL(clock, dev, NVML_CLOCK_MEM, &u), field(st, "mem_clock_mhz", rc, u);
  rc = CALL(max_clock, dev, NVML_CLOCK_SM, &u), field(st, "sm_clock_max_mhz", rc, u);
  rc = CALL(max_clock, dev, NVML_CLOCK_MEM, &u), field(st, "mem_clock_max_mhz", rc, u);
  rc = CALL(app_clock, dev, NVML_CLOCK_SM, &u), field(st, "sm_app_clock_mhz", rc, u);
  rc = CALL(app_clock, dev, NVML_CLOCK_MEM, &u), field(st, "mem_app_clock_mhz", rc, u);
  rc = CALL(limit, dev, &u), field(st, "power_limit_w", rc, u / 1000.0);
  rc = CALL(default_limit, dev, &u), field(st, "power_limit_default_w", rc, u / 1000.0);
  rc = CALL(enforced_limit, dev, &u), field(st, "power_limit_enforced_w", rc, u / 1000.0);
  rc = CALL(usage, dev, &u), field(st, "power_draw_w", rc, u / 1000.0);
  int cur = 0, pend = 0;
  rc = CALL(ecc, dev, &cur, &pend);
  char txt[64];
  snprintf(txt, sizeof txt, "%s%s", cur ? "enabled" : "disabled",
           cur != pend ? (pend ? " (enabled at next reboot)" : " (disabled at next reboot)") : "");
  text_field(st, "ecc_mode", rc, txt);
  rc = CALL(persistence, dev, &cur), text_field(st, "persistence_mode", rc, cur ? "enabled" : "disabled");
  unsigned long long r = 0;
  rc = CALL(reasons, dev, &r);
  pp_energy_reasons_text(r, txt, sizeof txt);
  text_field(st, "clock_event_reasons", rc, txt[0] ? txt : (r & 1) ? "gpu_idle" : "none");
  return 0;
}

/* ---- the energy counter ------------------------------------------------------------ */
static int nv_read(void *impl, double *joules, char *why, size_t n) {
  unsigned long long mj = 0;
  int rc = L.energy((nvml_dev)impl, &mj);
  if (rc) return snprintf(why, n, "not available: nvmlDeviceGetTotalEnergyConsumption: %s", nv_err(rc)), -1;
  *joules = mj * 1e-3; /* millijoules since the driver loaded: no wrap in practice (64 bits) */
  return 0;
}

static void nv_sample(void *impl, double *sm_mhz, double *limit_w, uint64_t *reasons) {
  unsigned u = 0;
  unsigned long long r = 0;
  *sm_mhz = CALL(clock, (nvml_dev)impl, NVML_CLOCK_SM, &u) ? NAN : u;
  *limit_w = CALL(enforced_limit, (nvml_dev)impl, &u) ? NAN : u / 1000.0;
  if (!CALL(reasons, (nvml_dev)impl, &r)) *reasons |= r;
}

int pp_energy_nvml_open(const pp_device_info *d, pp_energy_source *src, char *why, size_t n) {
  nvml_dev dev;
  if (handle(d, &dev, why, n) != 0) return -1;
  if (!L.energy) return snprintf(why, n, "not available: NVML lacks nvmlDeviceGetTotalEnergyConsumption"), -1;
  memset(src, 0, sizeof *src);
  snprintf(src->name, sizeof src->name, "NVML total energy of %s", d->uuid[0] ? d->uuid : d->pci_bus_id);
  src->unit_j = 1e-3;
  src->wrap_s = INFINITY;
  src->read = nv_read;
  src->sample = nv_sample;
  src->impl = dev;
  double j;
  return nv_read(dev, &j, why, n); /* unsupported (before Volta, some VMs): say so now */
}
