/* Full system disclosure (pp/system.h): what a centre needs to reproduce a
 * result beyond the host and devices: environment modules and the Cray PE,
 * the MPI library, CPU frequency governor, load average at start and end,
 * the scheduler's allocation, each GPU's clocks, power limits and ECC mode,
 * and the site configuration file. All without root; every field says
 * "not available: <reason>" when it cannot be read. */
#define _GNU_SOURCE /* sched_getaffinity */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifdef __linux__
#include <sys/vfs.h> /* fstatfs */
#endif
#include <unistd.h>
#ifdef PP_HAVE_MPI
#include <mpi.h>
#endif
#include "pp/sysfile.h"
#include "pp/sha256.h"
#include "pp/system.h"

extern char **environ;

/* Appends `item` (len bytes) to a packed list "a\0b\0\0" of capacity cap;
 * 0, or -1 when it does not fit (nothing half-written). */
static int pack(char *list, size_t cap, size_t *len, const char *item, size_t n) {
  if (*len + n + 2 > cap) return -1;
  memcpy(list + *len, item, n);
  *len += n;
  list[(*len)++] = 0;
  list[*len] = 0;
  return 0;
}

/* A colon-separated variable as a packed list; whole items only. */
static void colon_list(const char *var, char *out, size_t cap, char *why, size_t wn) {
  const char *v = getenv(var);
  size_t len = 0;
  out[0] = out[1] = 0;
  if (!v || !*v) {
    snprintf(why, wn, "not available: %s is not set (no environment modules loaded)", var);
    return;
  }
  int cut = 0;
  for (const char *p = v; *p;) {
    size_t n = strcspn(p, ":");
    if (n && pack(out, cap, &len, p, n) != 0) cut++;
    p += n + (p[n] == ':');
  }
  why[0] = 0;
  if (cut) snprintf(why, wn, "%d more not recorded (list longer than %zu bytes)", cut, cap);
}

/* Cray Programming Environment: CRAY* and PE_* variables (versions, targets,
 * the PrgEnv), leaving out the long search paths. */
static void cray_probe(pp_system *s) {
  size_t len = 0;
  int n = 0;
  s->cray_pe[0] = s->cray_pe[1] = 0;
  for (char **e = environ; e && *e; e++) {
    const char *eq = strchr(*e, '=');
    if (!eq || !(strncmp(*e, "CRAY", 4) == 0 || strncmp(*e, "PE_", 3) == 0)) continue;
    size_t k = (size_t)(eq - *e);
    int ok = 1;
    for (size_t i = 0; i < k; i++)
      ok &= (*e)[i] == '_' || ((*e)[i] >= 'A' && (*e)[i] <= 'Z') || ((*e)[i] >= '0' && (*e)[i] <= '9');
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)k, *e);
    if (!ok || strstr(name, "PATH")) continue;
    if (pack(s->cray_pe, sizeof s->cray_pe, &len, *e, strlen(*e)) == 0) n++;
  }
  if (!n) snprintf(s->cray_pe_why, sizeof s->cray_pe_why,
                   "not available: no CRAY* or PE_* variables set (not a Cray Programming Environment)");
}

static void mpi_probe(pp_system *s) {
#ifdef PP_HAVE_MPI
  char v[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  if (MPI_Get_library_version(v, &len) == MPI_SUCCESS && len > 0) {
    v[len < (int)sizeof v ? len : (int)sizeof v - 1] = 0;
    for (char *p = v; *p; p++) if (*p == '\n' || *p == '\t') *p = ' ';
    size_t k = strlen(v);
    while (k && v[k - 1] == ' ') v[--k] = 0;
    snprintf(s->mpi_library, sizeof s->mpi_library, "%s", v);
  } else {
    snprintf(s->mpi_library, sizeof s->mpi_library, "not available: MPI_Get_library_version failed");
  }
#else
  snprintf(s->mpi_library, sizeof s->mpi_library, "not available: built without MPI");
#endif
}

static int read_line(const char *path, char *out, size_t n) {
  FILE *f = pp_sysfile_open(path);
  if (!f) return -1;
  int ok = fgets(out, (int)n, f) != NULL;
  fclose(f);
  if (!ok) return errno = EIO, -1;
  out[strcspn(out, "\n")] = 0;
  return 0;
}

/* The governor of each CPU this rank may use, grouped: "performance (CPUs
 * 0-15), powersave (CPUs 16-31)". PP_CPUFREQ_ROOT replaces
 * /sys/devices/system/cpu (tests). */
static void governor_probe(pp_system *s) {
  const char *root = getenv("PP_CPUFREQ_ROOT");
  if (!root || !*root) root = "/sys/devices/system/cpu";
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) CPU_SET(0, &set);
  enum { G = 4 };
  char names[G][32];
  int first[G], last[G], count[G], ng = 0, seen = 0, err = 0, errcpu = -1;
  char path[512], g[64];
  for (int c = 0; c < CPU_SETSIZE; c++) {
    if (!CPU_ISSET(c, &set)) continue;
    snprintf(path, sizeof path, "%s/cpu%d/cpufreq/scaling_governor", root, c);
    if (read_line(path, g, sizeof g) != 0) {
      if (errcpu < 0) err = errno, errcpu = c;
      continue;
    }
    seen++;
    int k = 0;
    while (k < ng && strcmp(names[k], g)) k++;
    if (k == ng && ng < G) snprintf(names[ng], sizeof names[0], "%.31s", g), first[ng] = c, count[ng] = 0, ng++;
    if (k < ng) last[k] = c, count[k]++;
  }
  if (!seen) {
    snprintf(path, sizeof path, "%s/cpu%d/cpufreq", root, errcpu < 0 ? 0 : errcpu);
    snprintf(s->cpu_governor, sizeof s->cpu_governor, "not available: %.120s: %s%s", path, pp_sysfile_error(err),
             err == ENOENT ? " (no cpufreq driver, e.g. a virtual machine)" : "");
  } else {
    size_t len = 0;
    for (int k = 0; k < ng && len < sizeof s->cpu_governor; k++) {
      int w = snprintf(s->cpu_governor + len, sizeof s->cpu_governor - len, "%s%s (%d CPU%s, %d-%d)",
                       k ? ", " : "", names[k], count[k], count[k] > 1 ? "s" : "", first[k], last[k]);
      if (w > 0) len += (size_t)w;
    }
    if (errcpu >= 0 && len < sizeof s->cpu_governor)
      snprintf(s->cpu_governor + len, sizeof s->cpu_governor - len, "; unreadable from CPU %d", errcpu);
  }
  snprintf(path, sizeof path, "%s/cpu0/cpufreq/scaling_driver", root);
  if (read_line(path, g, sizeof g) == 0) snprintf(s->cpu_freq_driver, sizeof s->cpu_freq_driver, "%s", g);
  else snprintf(s->cpu_freq_driver, sizeof s->cpu_freq_driver, "not available: %.60s: %s", path, strerror(errno));
}

static void loadavg(double v[3], char *why, size_t n) {
  char line[128];
  why[0] = 0;
  v[0] = v[1] = v[2] = NAN;
  if (read_line("/proc/loadavg", line, sizeof line) != 0)
    snprintf(why, n, "not available: /proc/loadavg: %s", strerror(errno));
  else if (sscanf(line, "%lf %lf %lf", &v[0], &v[1], &v[2]) != 3)
    v[0] = v[1] = v[2] = NAN, snprintf(why, n, "not available: /proc/loadavg: unexpected text");
}

/* The scheduler's allocation: the variables that say what the job was given. */
static void allocation_probe(pp_system *s) {
  static const char *const vars[] = {
      "SLURM_JOB_ID", "SLURM_JOB_NODELIST", "SLURM_JOB_NUM_NODES", "SLURM_NTASKS", "SLURM_NTASKS_PER_NODE",
      "SLURM_CPUS_PER_TASK", "SLURM_CPUS_ON_NODE", "SLURM_JOB_CPUS_PER_NODE", "SLURM_GPUS",
      "SLURM_GPUS_PER_NODE", "SLURM_GPUS_PER_TASK", "SLURM_JOB_GPUS", "SLURM_STEP_GPUS",
      "SLURM_MEM_PER_NODE", "SLURM_MEM_PER_CPU", "SLURM_JOB_PARTITION", "SLURM_JOB_QOS",
      "SLURM_JOB_ACCOUNT", "SLURM_CLUSTER_NAME", "SLURM_STEP_ID", "SLURM_DISTRIBUTION", "SLURM_CPU_BIND",
      "FLUX_JOB_ID", "FLUX_JOB_SIZE", "FLUX_JOB_NNODES", "FLUX_JOB_NODELIST",
      "PBS_JOBID", "PBS_QUEUE", "PBS_ACCOUNT", "PBS_NUM_NODES", "PBS_NUM_PPN", "PBS_NP", "NCPUS",
      "PBS_NODEFILE", NULL};
  size_t len = 0;
  s->allocation[0] = s->allocation[1] = 0;
  int n = 0;
  char item[512];
  for (int i = 0; vars[i]; i++) {
    const char *v = getenv(vars[i]);
    if (!v) continue;
    int w = snprintf(item, sizeof item, "%s=%s", vars[i], v);
    if (w > 0 && pack(s->allocation, sizeof s->allocation, &len, item, strlen(item)) == 0) n++;
  }
  if (!n) snprintf(s->allocation_why, sizeof s->allocation_why,
                   "not available: no batch job (SLURM_JOB_ID, FLUX_JOB_ID and PBS_JOBID are not set)");
}

/* ---- at start: the site file and the load ------------------------------------------ */
static pp_site_file site;
static double load0[3] = {NAN, NAN, NAN};
static char load0_why[96] = "not available: not read at start";

/* The kernel's own file systems: their files are regular files whose bytes the
 * kernel makes when read (/proc/self/environ is the process environment, and
 * would be copied into every result), not a file anyone wrote. */
static const char *kernel_fs(const int fd) {
#ifdef __linux__
  static const struct { unsigned long magic; const char *name; } fs[] = {
      {0x9fa0, "procfs"},        {0x62656572, "sysfs"},    {0x64626720, "debugfs"},
      {0x74726163, "tracefs"},   {0x73636673, "securityfs"}, {0x27e0eb, "cgroupfs"},
      {0x63677270, "cgroup2fs"}, {0x62656570, "configfs"}, {0xcafe4a11, "bpffs"},
      {0xde5e81e4, "efivarfs"},  {0x6165676c, "pstorefs"}};
  struct statfs sf;
  if (fstatfs(fd, &sf) == 0)
    for (size_t i = 0; i < sizeof fs / sizeof *fs; i++)
      if ((unsigned long)sf.f_type == fs[i].magic) return fs[i].name;
#else
  (void)fd;
#endif
  return NULL;
}

static void site_read(void) {
  free(site.text);
  memset(&site, 0, sizeof site);
  const char *p = getenv("PP_SITE_FILE");
  if (!p || !*p) {
    snprintf(site.why, sizeof site.why, "not available: PP_SITE_FILE is not set");
    return;
  }
  snprintf(site.path, sizeof site.path, "%s", p);
  struct stat st;
  const char *fs = NULL;
  /* O_NONBLOCK: a FIFO is refused below, never waited on */
  const int fd = open(p, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0 || fstat(fd, &st) != 0) {
    snprintf(site.why, sizeof site.why, "not available: PP_SITE_FILE '%.1000s': %s", p, strerror(errno));
  } else if (!S_ISREG(st.st_mode)) {
    snprintf(site.why, sizeof site.why, "not available: PP_SITE_FILE '%.1000s' is not a regular file", p);
  } else if ((fs = kernel_fs(fd))) {
    snprintf(site.why, sizeof site.why, "not available: PP_SITE_FILE '%.1000s' is a kernel file (%s), "
             "not a file on a real file system", p, fs);
  } else if (st.st_size > PP_SITE_FILE_MAX) {
    snprintf(site.why, sizeof site.why, "not available: PP_SITE_FILE '%.1000s' has %lld bytes, more than %d", p,
             (long long)st.st_size, PP_SITE_FILE_MAX);
  } else {
    char *buf = malloc(PP_SITE_FILE_MAX + 1);
    size_t n = 0;
    ssize_t r = 0;
    while (buf && n <= PP_SITE_FILE_MAX && (r = read(fd, buf + n, PP_SITE_FILE_MAX + 1 - n)) != 0)
      if (r > 0) n += (size_t)r;
      else if (errno != EINTR) break;
    if (!buf || r < 0 || n > PP_SITE_FILE_MAX || (st.st_size == 0 && n > 0)) {
      /* it grew since fstat: refuse rather than cut; bytes from a size-0 file are
       * the kernel's (a pseudo-file of a file system not named above) */
      snprintf(site.why, sizeof site.why, "not available: PP_SITE_FILE '%.1000s': %s", p,
               !buf ? "out of memory" : r < 0 ? strerror(errno)
               : n > PP_SITE_FILE_MAX ? "grew past the limit while read"
               : "its size is 0, yet it reads bytes (a kernel file, not a file on a real file system)");
      free(buf);
    } else {
      buf[n] = 0;
      site.text = buf;
      site.bytes = n;
      pp_sha256_hex(buf, n, site.sha256);
    }
  }
  if (fd >= 0) close(fd);
}

void pp_system_start(void) {
  site_read();
  loadavg(load0, load0_why, sizeof load0_why);
}

/* Before main: the load is the node's before this process did any work. */
__attribute__((constructor)) static void at_start(void) { pp_system_start(); }

const pp_site_file *pp_site_file_get(void) { return &site; }

/* ---- GPU state: when its model opened it, and at the end ---------------------------- */
static pp_gpu_state opened[PP_MODEL_COUNT];
static pp_device_info opened_info[PP_MODEL_COUNT];
static int opened_gpu[PP_MODEL_COUNT];

void pp_system_note_gpu(pp_model m, const pp_device_info *info) {
  opened_gpu[m] = info->is_gpu;
  opened_info[m] = *info;
  memset(&opened[m], 0, sizeof opened[m]);
  pp_gpu_state_query(info, &opened[m]); /* a host device: "not a GPU" */
}

void pp_system_disclose(pp_system *s) {
  colon_list("LOADEDMODULES", s->modules, sizeof s->modules, s->modules_why, sizeof s->modules_why);
  colon_list("_LMFILES_", s->module_files, sizeof s->module_files, s->module_files_why, sizeof s->module_files_why);
  cray_probe(s);
  mpi_probe(s);
  governor_probe(s);
  memcpy(s->load_start, load0, sizeof load0);
  snprintf(s->load_start_why, sizeof s->load_start_why, "%s", load0_why);
  loadavg(s->load_end, s->load_end_why, sizeof s->load_end_why);
  allocation_probe(s);
  for (int m = 0; m < PP_MODEL_COUNT; m++) {
    s->gpu_open[m] = opened[m];
    if (opened_gpu[m]) pp_gpu_state_query(&opened_info[m], &s->gpu_end[m]);
    else s->gpu_end[m] = opened[m];
  }
}
