/* A stand-in for libnvidia-ml.so.1 in tests (PP_NVML_LIBRARY=its path): one
 * GPU, "GPU-fake-0" at PCI 00000000:19:00.0, whose energy counter grows at
 * FAKE_NVML_POWER_W watts (default 100) in steps every FAKE_NVML_UPDATE_MS
 * milliseconds (default 10) from FAKE_NVML_START_MJ. FAKE_NVML_ENERGY=unsupported:
 * the counter answers NOT_SUPPORTED; FAKE_NVML_INIT=fail: nvmlInit fails;
 * FAKE_NVML_REASONS: the clock event reasons (a number). Only the entry
 * points the suite uses, with NVML's documented signatures and codes. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { OK = 0, INVALID_ARGUMENT = 2, NOT_SUPPORTED = 3, NOT_FOUND = 6, DRIVER_NOT_LOADED = 9 };
static int dev_token; /* the one handle */
static double t_load = -1;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}
static double env_num(const char *name, double dflt) {
  const char *v = getenv(name);
  return v && *v ? strtod(v, NULL) : dflt;
}

int nvmlInit_v2(void) {
  const char *v = getenv("FAKE_NVML_INIT");
  if (v && !strcmp(v, "fail")) return DRIVER_NOT_LOADED;
  t_load = now();
  return OK;
}
int nvmlShutdown(void) { return OK; }
const char *nvmlErrorString(int rc) {
  switch (rc) {
  case OK: return "Success";
  case NOT_SUPPORTED: return "Not Supported";
  case NOT_FOUND: return "Not Found";
  case DRIVER_NOT_LOADED: return "Driver Not Loaded";
  default: return "Unknown Error";
  }
}
int nvmlSystemGetDriverVersion(char *v, unsigned n) {
  snprintf(v, n, "999.1.2-fake");
  return OK;
}
int nvmlDeviceGetHandleByUUID(const char *uuid, void **dev) {
  if (!uuid || strcmp(uuid, "GPU-fake-0")) return NOT_FOUND;
  *dev = &dev_token;
  return OK;
}
int nvmlDeviceGetHandleByPciBusId_v2(const char *bus, void **dev) {
  if (!bus || strcmp(bus, "00000000:19:00.0")) return NOT_FOUND;
  *dev = &dev_token;
  return OK;
}
int nvmlDeviceGetTotalEnergyConsumption(void *dev, unsigned long long *mj) {
  if (dev != &dev_token || t_load < 0) return INVALID_ARGUMENT;
  const char *v = getenv("FAKE_NVML_ENERGY");
  if (v && !strcmp(v, "unsupported")) return NOT_SUPPORTED;
  const double step = env_num("FAKE_NVML_UPDATE_MS", 10) * 1e-3;
  const double t = (double)(long long)((now() - t_load) / step) * step; /* the last update */
  *mj = (unsigned long long)(env_num("FAKE_NVML_START_MJ", 5e6) + env_num("FAKE_NVML_POWER_W", 100) * t * 1e3);
  return OK;
}
int nvmlDeviceGetClockInfo(void *dev, int type, unsigned *mhz) {
  (void)dev;
  *mhz = type == 1 ? 1755 : type == 2 ? 2619 : 0;
  return type == 1 || type == 2 ? OK : INVALID_ARGUMENT;
}
int nvmlDeviceGetMaxClockInfo(void *dev, int type, unsigned *mhz) {
  (void)dev;
  *mhz = type == 1 ? 1980 : 2619;
  return OK;
}
int nvmlDeviceGetApplicationsClock(void *dev, int type, unsigned *mhz) {
  (void)dev, (void)type, (void)mhz;
  return NOT_SUPPORTED;
}
int nvmlDeviceGetPowerManagementLimit(void *dev, unsigned *mw) { (void)dev; *mw = 700000; return OK; }
int nvmlDeviceGetPowerManagementDefaultLimit(void *dev, unsigned *mw) { (void)dev; *mw = 700000; return OK; }
int nvmlDeviceGetEnforcedPowerLimit(void *dev, unsigned *mw) { (void)dev; *mw = 650000; return OK; }
int nvmlDeviceGetPowerUsage(void *dev, unsigned *mw) {
  (void)dev;
  *mw = (unsigned)(env_num("FAKE_NVML_POWER_W", 100) * 1e3);
  return OK;
}
int nvmlDeviceGetEccMode(void *dev, int *cur, int *pend) { (void)dev; *cur = 1, *pend = 1; return OK; }
int nvmlDeviceGetPersistenceMode(void *dev, int *mode) { (void)dev; *mode = 1; return OK; }
int nvmlDeviceGetCurrentClocksEventReasons(void *dev, unsigned long long *r) {
  (void)dev;
  *r = (unsigned long long)env_num("FAKE_NVML_REASONS", 0);
  return OK;
}
