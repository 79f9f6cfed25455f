/* AMD SMI (pp/energy.h), loaded at run time (pp/dynlib.h: libamd_smi.so;
 * PP_AMDSMI_LIBRARY names another). Compiled and documented but not run
 * here: no AMD GPU was at hand. The entry points are declared from amdsmi.h (ROCm 6): handles
 * are pointers, statuses int; the energy counter is an accumulator in units
 * of `counter_resolution` microjoules. Structures whose layout changed
 * between releases are read only through their first member. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pp/dynlib.h"
#include "pp/energy.h"

typedef void *amd_h;
#define AMDSMI_INIT_AMD_GPUS (1u << 1)

static struct {
  int tried, ok;
  char why[224];
  int (*init)(uint64_t);
  int (*sockets)(uint32_t *, amd_h *);
  int (*procs)(amd_h, uint32_t *, amd_h *);
  int (*bdf_id)(amd_h, uint64_t *);
  int (*energy)(amd_h, uint64_t *, float *, uint64_t *);
  int (*cap)(amd_h, uint32_t, void *);
  int (*clk)(amd_h, int, void *);
  int (*str)(int, const char **);
} A;

static const char *amd_err(int rc) {
  static char buf[40];
  const char *s = NULL;
  if (A.str && !A.str(rc, &s) && s) return s;
  snprintf(buf, sizeof buf, "AMD SMI status %d", rc);
  return buf;
}

/* The device look-ups are needed; energy, power cap, clocks and the status
 * text may be missing (each use says so). */
static const pp_dynsym amdsmi_syms[] = {
    {.name = "amdsmi_init", .at = &A.init},
    {.name = "amdsmi_get_socket_handles", .at = &A.sockets},
    {.name = "amdsmi_get_processor_handles", .at = &A.procs},
    {.name = "amdsmi_get_gpu_bdf_id", .at = &A.bdf_id},
    {.name = "amdsmi_get_energy_count", .at = &A.energy, .optional = 1},
    {.name = "amdsmi_get_power_cap_info", .at = &A.cap, .optional = 1},
    {.name = "amdsmi_get_clock_info", .at = &A.clk, .optional = 1},
    {.name = "amdsmi_status_code_to_string", .at = &A.str, .optional = 1},
    {.name = NULL}};
static pp_dynlib amdsmi = {.env = "PP_AMDSMI_LIBRARY", .names = {"libamd_smi.so"}, .syms = amdsmi_syms};

static int load(void) {
  if (A.tried) return A.ok ? 0 : -1;
  A.tried = 1;
  if (pp_dynlib_load(&amdsmi) != 0) return snprintf(A.why, sizeof A.why, "%s", amdsmi.why), -1;
  int rc = A.init(AMDSMI_INIT_AMD_GPUS);
  if (rc) {
    snprintf(A.why, sizeof A.why, "not available: amdsmi_init: %s", amd_err(rc));
    return -1;
  }
  A.ok = 1;
  return 0;
}

/* The processor whose PCI address is d's ("0000:c1:00.0"). */
static int handle(const pp_device_info *d, amd_h *out, char *why, size_t n) {
  if (load() != 0) return snprintf(why, n, "%s", A.why), -1;
  unsigned dom, bus, dev, fn;
  if (sscanf(d->pci_bus_id, "%x:%x:%x.%x", &dom, &bus, &dev, &fn) != 4)
    return snprintf(why, n, "not available: no PCI bus id to find the GPU by in AMD SMI"), -1;
  const uint64_t want = (uint64_t)dom << 32 | (bus & 0xffu) << 8 | (dev & 0x1fu) << 3 | (fn & 7u);
  amd_h socks[64], procs[64];
  uint32_t ns = 64;
  if (A.sockets(&ns, socks)) return snprintf(why, n, "not available: amdsmi_get_socket_handles failed"), -1;
  for (uint32_t s = 0; s < ns && s < 64; s++) {
    uint32_t np = 64;
    if (A.procs(socks[s], &np, procs)) continue;
    for (uint32_t p = 0; p < np && p < 64; p++) {
      uint64_t id = 0;
      /* bits 28-31 hold a partition number on partitioned GPUs: not part of the address */
      if (!A.bdf_id(procs[p], &id) && (id & ~(0xfull << 28)) == want) return *out = procs[p], 0;
    }
  }
  return snprintf(why, n, "not available: AMD SMI lists no GPU at %s", d->pci_bus_id), -1;
}

int pp_amdsmi_gpu_state(const pp_device_info *d, pp_gpu_state *st);
int pp_amdsmi_gpu_state(const pp_device_info *d, pp_gpu_state *st) {
  amd_h h;
  if (handle(d, &h, st->why, sizeof st->why) != 0) return -1;
  snprintf(st->source, sizeof st->source, "AMD SMI");
  uint64_t cap[16] = {0}; /* amdsmi_power_cap_info_t: power_cap (microwatts) first */
  uint32_t clk[16] = {0}; /* amdsmi_clk_info_t: the current clock (MHz) first */
  int rc = A.cap ? A.cap(h, 0, cap) : -1;
  pp_gpu_field *f = &st->f[st->nfields++];
  snprintf(f->key, sizeof f->key, "power_limit_w");
  f->value = rc ? NAN : cap[0] / 1e6;
  if (rc) snprintf(f->text, sizeof f->text, "not available: %s", rc < 0 ? "no such entry point" : amd_err(rc));
  rc = A.clk ? A.clk(h, 0, clk) : -1; /* AMDSMI_CLK_TYPE_SYS */
  f = &st->f[st->nfields++];
  snprintf(f->key, sizeof f->key, "sm_clock_mhz");
  f->value = rc ? NAN : clk[0];
  if (rc) snprintf(f->text, sizeof f->text, "not available: %s", rc < 0 ? "no such entry point" : amd_err(rc));
  f = &st->f[st->nfields++];
  snprintf(f->key, sizeof f->key, "ecc_mode");
  f->value = NAN;
  snprintf(f->text, sizeof f->text, "not available: not read through AMD SMI by this version");
  return 0;
}

static int amd_read(void *impl, double *joules, char *why, size_t n) {
  uint64_t acc = 0, ts = 0;
  float res = 0;
  int rc = A.energy((amd_h)impl, &acc, &res, &ts);
  if (rc) return snprintf(why, n, "not available: amdsmi_get_energy_count: %s", amd_err(rc)), -1;
  *joules = (double)acc * res * 1e-6; /* 64-bit accumulator: no wrap in practice */
  return 0;
}

static void amd_sample(void *impl, double *sm_mhz, double *limit_w, uint64_t *reasons) {
  uint64_t cap[16] = {0};
  uint32_t clk[16] = {0};
  *sm_mhz = A.clk && !A.clk((amd_h)impl, 0, clk) ? clk[0] : NAN;
  *limit_w = A.cap && !A.cap((amd_h)impl, 0, cap) ? cap[0] / 1e6 : NAN;
  (void)reasons; /* AMD SMI's throttle status is not read by this version */
}

int pp_energy_amdsmi_open(const pp_device_info *d, pp_energy_source *src, char *why, size_t n) {
  amd_h h;
  if (handle(d, &h, why, n) != 0) return -1;
  if (!A.energy) return snprintf(why, n, "not available: AMD SMI lacks amdsmi_get_energy_count"), -1;
  memset(src, 0, sizeof *src);
  snprintf(src->name, sizeof src->name, "AMD SMI energy of %s", d->pci_bus_id);
  uint64_t acc, ts;
  float res = 0;
  if (A.energy(h, &acc, &res, &ts) == 0) src->unit_j = res * 1e-6;
  src->wrap_s = INFINITY;
  src->read = amd_read;
  src->sample = amd_sample;
  src->impl = h;
  double j;
  return amd_read(h, &j, why, n);
}
