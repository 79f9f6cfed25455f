/* Provenance: where a result was measured. Each rank probes its own node
 * (host, OS, CPU, the CPUs it may use, the environment variables that change
 * results, the batch scheduler's job) and the GPUs its models opened; the
 * report gathers every rank's record into the result file's "system" array. */
#ifndef PP_SYSTEM_H
#define PP_SYSTEM_H
#include <stddef.h>
#include "pp/device.h"
#include "pp/energy.h"
#include "pp/model.h"
PP_EXTERN_C_BEGIN

typedef struct pp_system {
  int rank, local_rank, local_ranks; /* MPI placement (0, 0, 1 without MPI) */
  char hostname[128];
  char os[128];             /* /etc/os-release PRETTY_NAME, "" unknown */
  char kernel[128];         /* uname: "Linux 6.1.0-18-amd64" */
  char kernel_version[160]; /* uname's version string */
  char machine[32];         /* uname: "x86_64" */
  char cpu_model[128];      /* /proc/cpuinfo, "" unknown */
  int cpus_online;          /* logical CPUs of the node */
  int cpus_allowed;         /* CPUs this rank may run on (sched_getaffinity), 0 unknown */
  char cpu_affinity[256];   /* those CPUs as a list, "0-7,64-71" */
  size_t memory_bytes;      /* physical */
  int openmp_version;       /* _OPENMP of the host code, 0 without OpenMP */
  char openmp_runtime[192]; /* the OpenMP library loaded, "" unknown */
  /* Set variables of pp_system_env_watched, packed "NAME=value\0...\0\0"
   * (a value too long for the buffer is cut; names never). */
  char env[2048];
  char sched[8];            /* "slurm", "flux", "pbs", "" none */
  char job_id[96];
  char nodelist[512];       /* the job's nodes as the scheduler writes them, "" unknown */
  char nodes[16];           /* the job's node count, "" unknown */
  char task_rank[16];       /* the scheduler's rank of this task, "" unknown */
  char task_local_rank[16];
  int have_device[PP_MODEL_COUNT];
  pp_device_info device[PP_MODEL_COUNT]; /* what this rank's models opened */
  /* Disclosure (system_disclose.c). Text fields hold the value or "not
   * available: <reason>"; packed lists are "item\0item\0\0". */
  char modules[2048];       /* LOADEDMODULES, packed; cut at a whole name */
  char modules_why[96];     /* "" or why there is no list */
  char module_files[2048];  /* _LMFILES_, packed */
  char module_files_why[96];
  char cray_pe[2048];       /* Cray PE variables (CRAY*, PE_*; not *PATH*), "NAME=value" packed */
  char cray_pe_why[96];
  char mpi_library[320];    /* MPI_Get_library_version, or why not */
  char cpu_governor[192];   /* "performance (CPUs 0-63)", or why not */
  char cpu_freq_driver[96]; /* scaling_driver of the first CPU, or why not */
  double load_start[3], load_end[3]; /* /proc/loadavg 1, 5, 15 min; NaN: see *_why */
  char load_start_why[96], load_end_why[96];
  char allocation[1024];    /* the scheduler's allocation variables, "NAME=value" packed */
  char allocation_why[128];
  pp_gpu_state gpu_open[PP_MODEL_COUNT]; /* each GPU when its model opened it */
  pp_gpu_state gpu_end[PP_MODEL_COUNT];  /* ... and when the report was finished */
} pp_system;

/* The site configuration file of the run (env PP_SITE_FILE), read at start. */
#define PP_SITE_FILE_MAX (256 * 1024)
typedef struct pp_site_file {
  char path[1024];   /* as PP_SITE_FILE gives it */
  char sha256[65];
  size_t bytes;
  char *text;        /* NULL: why says */
  char why[1200];    /* "not available: ..." */
} pp_site_file;
const pp_site_file *pp_site_file_get(void);
/* Reads the site file and the load average; done before main (so the load
 * is the node's before this process works), again only in tests. */
void pp_system_start(void);
/* Records model m's device as it opened (its GPU's state: clocks, power
 * limits, ECC), for the system record; pp_device_identify calls it. */
void pp_system_note_gpu(pp_model m, const pp_device_info *info);
/* Fills the disclosure fields of s (system_disclose.c); pp_system_probe calls it. */
void pp_system_disclose(pp_system *s);

/* Fills everything but the devices; never fails (unknowns stay ""/0, the
 * disclosure fields say "not available: <reason>"). */
void pp_system_probe(pp_system *s);

/* The environment variables recorded when set: OMP_*, KMP_*, GOMP_*,
 * LIBOMP_*, LIBOMPTARGET_* and the GPU visibility/ordering/launch variables
 * (NULL-terminated; a name ending in '*' is a prefix). */
extern const char *const pp_system_env_watched[];

/* After a model's init: completes its device record. A GPU's name, UUID,
 * PCI bus id and driver versions come from its native driver (an OpenMP
 * device becomes "<GPU name> (<its own name>)"); the kernel driver's release
 * from /proc or /sys; a record without a runtime gets the host OpenMP
 * runtime's. Never exits. */
void pp_device_identify(pp_model m, pp_device_info *info);

/* "OpenMP 201811 (/usr/lib/llvm-19/lib/libomp.so.5)": the version and the
 * library that defines `sym` (an OpenMP entry point), or just the version. */
void pp_openmp_runtime_desc(char *buf, size_t n, int version, const void *sym);

/* A GPU's 16-byte UUID as its driver's tools print it: NVIDIA's
 * "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"; AMD's bytes are already the
 * text of its unique id, printed "GPU-<those 16 characters>". */
void pp_gpu_uuid_text(const unsigned char bytes[16], char *out, size_t n);
/* A driver or runtime version number as text, after `what`: CUDA's
 * 1000*major + 10*minor ("CUDA 13.0"), HIP's 10^7*major + 10^5*minor + patch
 * ("HIP 5.2.21151"); "" for 0 (unknown). */
void pp_cuda_version_text(char *out, size_t n, const char *what, int v);
void pp_hip_version_text(char *out, size_t n, const char *what, int v);

/* One line for the text report: host, OS, and the first GPU's name and driver. */
void pp_system_summary(const pp_system *s, char *buf, size_t n);

PP_EXTERN_C_END
#endif
