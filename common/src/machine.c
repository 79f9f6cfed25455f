/* Machine probes (pp/machine.h): sysconf, /proc and sysfs; never fail. */
#define _GNU_SOURCE /* _SC_LEVEL3_CACHE_SIZE */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "pp/sysfile.h"
#include "pp/machine.h"

size_t pp_host_physical_bytes(void) {
  return (size_t)sysconf(_SC_PHYS_PAGES) * (size_t)sysconf(_SC_PAGESIZE);
}

/* MemAvailable (what can be allocated without swapping: free memory plus
 * reclaimable caches); the physical size where the kernel does not say. */
size_t pp_host_available_bytes(void) {
  FILE *f = pp_sysfile_open("/proc/meminfo");
  char line[128];
  unsigned long long kib = 0;
  while (f && fgets(line, sizeof line, f))
    if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1) break;
  if (f) fclose(f);
  return kib ? (size_t)kib * 1024 : pp_host_physical_bytes();
}

/* CPUs in a sysfs list such as "0-7,64-71". */
static int cpu_list_count(const char *s) {
  int n = 0;
  while (*s) {
    char *end;
    long lo = strtol(s, &end, 10), hi = lo;
    if (end == s) break;
    if (*end == '-') hi = strtol(end + 1, &end, 10);
    n += (int)(hi - lo + 1);
    s = *end == ',' ? end + 1 : end;
  }
  return n;
}

/* The machine's last-level cache: the largest data/unified cache of cpu0 in
 * sysfs times its instances (CPUs online / CPUs sharing it), since a copy on
 * all threads spreads over every instance; glibc's sysconf as a fallback (in
 * VMs it may report the host's); 32 MiB if neither knows. */
size_t pp_host_llc_bytes(void) {
  size_t best = 0;
  int sharing = 1;
  for (int i = 0; i < 16; i++) {
    char path[96], type[32] = "", list[256] = "", unit = 0;
    unsigned long long v = 0;
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
    FILE *f = pp_sysfile_open(path);
    if (!f) break;
    int ok = fscanf(f, "%31s", type) == 1;
    fclose(f);
    if (!ok || !strcmp(type, "Instruction")) continue;
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
    if (!(f = pp_sysfile_open(path))) continue;
    ok = fscanf(f, "%llu%c", &v, &unit) >= 1;
    fclose(f);
    size_t b = (size_t)v * (unit == 'K' ? 1024 : unit == 'M' ? 1048576 : 1);
    if (!ok || b <= best) continue;
    best = b;
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/shared_cpu_list", i);
    sharing = 1;
    if ((f = pp_sysfile_open(path))) {
      if (fscanf(f, "%255s", list) == 1 && cpu_list_count(list) > 0) sharing = cpu_list_count(list);
      fclose(f);
    }
  }
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  if (best && cpus > sharing) best *= (size_t)((cpus + sharing - 1) / sharing);
#ifdef _SC_LEVEL3_CACHE_SIZE
  if (!best && sysconf(_SC_LEVEL3_CACHE_SIZE) > 0) best = (size_t)sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
  return best ? best : (size_t)32 << 20;
}
