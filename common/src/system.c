/* Provenance probes (pp/system.h): files and calls every Linux node has;
 * whatever cannot be read stays "" and never stops a run. */
#define _GNU_SOURCE /* sched_getaffinity, dladdr */
#include <dlfcn.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "pp/sysfile.h"
#include "pp/machine.h"
#include "pp/mpi.h"
#include "pp/system.h"

const char *const pp_system_env_watched[] = {
    "OMP_*", "KMP_*", "GOMP_*", "LIBOMP_*", "LIBOMPTARGET_*",
    "CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER", "CUDA_LAUNCH_BLOCKING", "CUDA_MODULE_LOADING",
    "ROCR_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "GPU_DEVICE_ORDINAL", "HSA_XNACK",
    "PP_TEST_MEMORY_GIB", NULL};

/* snprintf that cuts on purpose: provenance strings may be longer than their
 * fields (vsnprintf, so that compilers do not warn of the cut). */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void put(char *dst, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (vsnprintf(dst, n, fmt, ap) < 0 && n) dst[0] = 0;
  va_end(ap);
}
static void copy(char *dst, size_t n, const char *src) { put(dst, n, "%s", src ? src : ""); }

/* Trailing newline and blanks off. */
static void chomp(char *s) {
  size_t k = strlen(s);
  while (k && (s[k - 1] == '\n' || s[k - 1] == ' ' || s[k - 1] == '\t')) s[--k] = 0;
}

/* The value of "KEY<sep>value" lines: the first line of `path` starting with key. */
static int file_value(const char *path, const char *key, char sep, char *out, size_t n) {
  FILE *f = pp_sysfile_open(path);
  char line[512];
  int found = 0;
  size_t k = strlen(key);
  while (f && !found && fgets(line, sizeof line, f)) {
    if (strncmp(line, key, k)) continue;
    char *v = strchr(line + k, sep);
    if (!v) continue;
    for (v++; *v == ' ' || *v == '\t' || *v == '"'; v++) {}
    chomp(v);
    size_t l = strlen(v);
    if (l && v[l - 1] == '"') v[l - 1] = 0;
    copy(out, n, v);
    found = 1;
  }
  if (f) fclose(f);
  return found;
}

/* A CPU set as a list: "0-3,8,10-11". */
static void cpu_list(const cpu_set_t *set, char *out, size_t n) {
  size_t len = 0;
  out[0] = 0;
  for (int c = 0; c < CPU_SETSIZE && len < n; c++) {
    if (!CPU_ISSET(c, set)) continue;
    int e = c;
    while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, set)) e++;
    int w = e > c ? snprintf(out + len, n - len, "%s%d-%d", len ? "," : "", c, e)
                  : snprintf(out + len, n - len, "%s%d", len ? "," : "", c);
    if (w < 0 || (size_t)w >= n - len) { /* cut: say so rather than list part of it */
      snprintf(out + (len < n - 4 ? len : n - 4), 4, "...");
      return;
    }
    len += (size_t)w;
    c = e;
  }
}

static int watched(const char *name, size_t len) {
  for (size_t i = 0; i < len; i++) /* the name becomes a JSON key, written unescaped */
    if (!(name[i] == '_' || (name[i] >= 'A' && name[i] <= 'Z') || (name[i] >= 'a' && name[i] <= 'z') ||
          (name[i] >= '0' && name[i] <= '9')))
      return 0;
  for (const char *const *w = pp_system_env_watched; *w; w++) {
    size_t k = strlen(*w);
    if ((*w)[k - 1] == '*' ? len >= k - 1 && !strncmp(name, *w, k - 1) : len == k && !strncmp(name, *w, k))
      return 1;
  }
  return 0;
}

extern char **environ;

/* The watched variables that are set, sorted as the environment has them. */
static void env_probe(pp_system *s) {
  size_t len = 0, cap = sizeof s->env - 1; /* one byte kept for the final NUL */
  for (char **e = environ; e && *e; e++) {
    const char *eq = strchr(*e, '=');
    if (!eq || !watched(*e, (size_t)(eq - *e))) continue;
    size_t need = (size_t)(eq - *e) + 2; /* name, '=', NUL */
    if (len + need + 1 > cap) break;     /* no room for the name: stop, never half a name */
    int w = snprintf(s->env + len, cap - len, "%s", *e);
    len += (size_t)w < cap - len ? (size_t)w + 1 : cap - len;
  }
  s->env[len] = 0;
}

/* The node list of a PBS job: its node file's distinct host names. */
static void pbs_nodes(const char *path, char *out, size_t n) {
  FILE *f = path ? pp_sysfile_open(path) : NULL;
  char line[256];
  size_t len = 0;
  out[0] = 0;
  while (f && fgets(line, sizeof line, f)) {
    chomp(line);
    if (!line[0]) continue;
    /* the file repeats a host once per slot; it lists them grouped */
    const char *last = len ? strrchr(out, ',') : NULL;
    if (len && !strcmp(last ? last + 1 : out, line)) continue;
    int w = snprintf(out + len, n - len, "%s%s", len ? "," : "", line);
    if (w < 0 || (size_t)w >= n - len) {
      out[len] = 0;
      break;
    }
    len += (size_t)w;
  }
  if (f) fclose(f);
}

static void sched_probe(pp_system *s) {
  const char *v;
  if ((v = getenv("SLURM_JOB_ID"))) {
    copy(s->sched, sizeof s->sched, "slurm");
    copy(s->job_id, sizeof s->job_id, v);
    copy(s->nodelist, sizeof s->nodelist, getenv("SLURM_JOB_NODELIST") ? getenv("SLURM_JOB_NODELIST")
                                                                      : getenv("SLURM_NODELIST"));
    copy(s->nodes, sizeof s->nodes, getenv("SLURM_JOB_NUM_NODES"));
    copy(s->task_rank, sizeof s->task_rank, getenv("SLURM_PROCID"));
    copy(s->task_local_rank, sizeof s->task_local_rank, getenv("SLURM_LOCALID"));
  } else if ((v = getenv("FLUX_JOB_ID"))) {
    /* Flux's job shell exports no node list; each rank's hostname places it */
    copy(s->sched, sizeof s->sched, "flux");
    copy(s->job_id, sizeof s->job_id, v);
    copy(s->nodelist, sizeof s->nodelist, getenv("FLUX_JOB_NODELIST"));
    copy(s->nodes, sizeof s->nodes, getenv("FLUX_JOB_NNODES"));
    copy(s->task_rank, sizeof s->task_rank, getenv("FLUX_TASK_RANK"));
    copy(s->task_local_rank, sizeof s->task_local_rank, getenv("FLUX_TASK_LOCAL_ID"));
  } else if ((v = getenv("PBS_JOBID"))) {
    copy(s->sched, sizeof s->sched, "pbs");
    copy(s->job_id, sizeof s->job_id, v);
    pbs_nodes(getenv("PBS_NODEFILE"), s->nodelist, sizeof s->nodelist);
    copy(s->nodes, sizeof s->nodes, getenv("PBS_NUM_NODES"));
    /* PBS starts no ranks itself; Cray PALS (mpiexec under PBS) numbers them */
    copy(s->task_rank, sizeof s->task_rank, getenv("PALS_RANKID"));
    copy(s->task_local_rank, sizeof s->task_local_rank, getenv("PALS_LOCAL_RANKID"));
  }
}

void pp_openmp_runtime_desc(char *buf, size_t n, int version, const void *sym) {
  Dl_info di;
  char path[4096];
  const char *lib = NULL;
  if (sym && dladdr(sym, &di) && di.dli_fname && di.dli_fname[0])
    lib = realpath(di.dli_fname, path) ? path : di.dli_fname;
  if (lib) put(buf, n, "OpenMP %d (%s)", version, lib);
  else put(buf, n, "OpenMP %d", version);
}

void pp_system_probe(pp_system *s) {
  memset(s, 0, sizeof *s);
  s->rank = pp_mpi_rank();
  s->local_rank = pp_mpi_local_rank();
  s->local_ranks = pp_mpi_local_size();
  if (gethostname(s->hostname, sizeof s->hostname - 1) != 0) s->hostname[0] = 0;
  if (!file_value("/etc/os-release", "PRETTY_NAME", '=', s->os, sizeof s->os))
    file_value("/usr/lib/os-release", "PRETTY_NAME", '=', s->os, sizeof s->os);
  struct utsname u;
  if (uname(&u) == 0) {
    put(s->kernel, sizeof s->kernel, "%s %s", u.sysname, u.release);
    copy(s->kernel_version, sizeof s->kernel_version, u.version);
    copy(s->machine, sizeof s->machine, u.machine);
  }
  /* x86: "model name"; Arm: none per core on many kernels, "Model" on some */
  if (!file_value("/proc/cpuinfo", "model name", ':', s->cpu_model, sizeof s->cpu_model))
    file_value("/proc/cpuinfo", "Model", ':', s->cpu_model, sizeof s->cpu_model);
  long on = sysconf(_SC_NPROCESSORS_ONLN);
  s->cpus_online = on > 0 ? (int)on : 0;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    s->cpus_allowed = CPU_COUNT(&set);
    cpu_list(&set, s->cpu_affinity, sizeof s->cpu_affinity);
  }
  s->memory_bytes = pp_host_physical_bytes();
#ifdef _OPENMP
  s->openmp_version = _OPENMP;
  pp_openmp_runtime_desc(s->openmp_runtime, sizeof s->openmp_runtime, _OPENMP,
                         (const void *)omp_get_max_threads);
#endif
  env_probe(s);
  sched_probe(s);
  pp_system_disclose(s);
}

/* The GPU kernel driver's release: NVIDIA's /proc file names it; amdgpu's
 * module version exists only for the out-of-tree (DKMS) driver. */
static void kernel_driver(char *out, size_t n) {
  char line[256];
  FILE *f = pp_sysfile_open("/proc/driver/nvidia/version");
  if (f) {
    /* "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.95.05  Thu ..." or, for
     * the open modules, "... Open Kernel Module for x86_64  580.159.04  Release ...":
     * the release is the first word after "Module" that starts with a digit. */
    if (fgets(line, sizeof line, f)) {
      char *p = strstr(line, "Kernel Module");
      for (char *tok = p ? strtok(p + 13, " \t\n") : NULL; tok; tok = strtok(NULL, " \t\n")) {
        if (*tok >= '0' && *tok <= '9') {
          put(out, n, "%s", tok);
          fclose(f);
          return;
        }
      }
    }
    fclose(f);
  }
  if ((f = pp_sysfile_open("/sys/module/amdgpu/version"))) {
    if (fgets(line, sizeof line, f)) {
      chomp(line);
      put(out, n, "amdgpu %s", line);
    }
    fclose(f);
  }
}

void pp_device_identify(pp_model m, pp_device_info *info) {
  if (info->is_gpu) {
    pp_device_info gpu;
    memset(&gpu, 0, sizeof gpu);
    if (pp_native_identity(info->native_index, &gpu) == 0) {
      if (!pp_model_is_native(m) && gpu.name[0]) { /* "<GPU> (OpenMP offload device 0 of 1)" */
        char own[sizeof info->name];
        copy(own, sizeof own, info->name);
        put(info->name, sizeof info->name, "%.*s (%s)", (int)(sizeof info->name / 2), gpu.name, own);
      }
      copy(info->uuid, sizeof info->uuid, gpu.uuid);
      copy(info->pci_bus_id, sizeof info->pci_bus_id, gpu.pci_bus_id);
      copy(info->driver_api, sizeof info->driver_api, gpu.driver_api);
      if (!info->runtime[0]) copy(info->runtime, sizeof info->runtime, gpu.runtime);
    }
    kernel_driver(info->driver, sizeof info->driver);
  }
  pp_system_note_gpu(m, info); /* clocks, power limits, ECC as the model opened it */
#ifdef _OPENMP
  if (!info->runtime[0])
    pp_openmp_runtime_desc(info->runtime, sizeof info->runtime, _OPENMP, (const void *)omp_get_max_threads);
#endif
}

void pp_gpu_uuid_text(const unsigned char b[16], char *out, size_t n) {
  int text = 1;
  for (int i = 0; i < 16; i++) text &= (b[i] >= '0' && b[i] <= '9') || (b[i] >= 'a' && b[i] <= 'f') ||
                                       (b[i] >= 'A' && b[i] <= 'F');
  if (text) {
    snprintf(out, n, "GPU-%.16s", (const char *)b);
    return;
  }
  snprintf(out, n, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2],
           b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

void pp_cuda_version_text(char *out, size_t n, const char *what, int v) {
  if (v > 0) snprintf(out, n, "%s %d.%d", what, v / 1000, v % 1000 / 10);
  else if (n) out[0] = 0;
}

void pp_hip_version_text(char *out, size_t n, const char *what, int v) {
  if (v > 0) snprintf(out, n, "%s %d.%d.%d", what, v / 10000000, v / 100000 % 100, v % 100000);
  else if (n) out[0] = 0;
}

void pp_system_summary(const pp_system *s, char *buf, size_t n) {
  int len = snprintf(buf, n, "%s, %s, %s", s->hostname[0] ? s->hostname : "unknown host",
                     s->os[0] ? s->os : s->kernel, s->cpu_model[0] ? s->cpu_model : "unknown CPU");
  int pick = -1; /* the native model's GPU, else any model's */
  for (int m = 0; m < PP_MODEL_COUNT; m++)
    if (s->have_device[m] && s->device[m].is_gpu && (pick < 0 || pp_model_is_native((pp_model)m))) pick = m;
  if (pick < 0 || len < 0 || (size_t)len >= n) return;
  const pp_device_info *d = &s->device[pick];
  put(buf + len, n - (size_t)len, "; GPU %s, driver %s (%s)", d->name, d->driver[0] ? d->driver : "unknown",
           d->driver_api[0] ? d->driver_api : "API unknown");
}
