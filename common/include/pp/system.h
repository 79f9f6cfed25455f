/* Provenance: where a result was measured. Each rank probes its own node
 * (host, OS, CPU, the CPUs it may use, the environment variables that change
 * results, the batch scheduler's job) and the GPUs its models opened; the
 * report gathers every rank's record into the result file's "system" array. */
#ifndef PP_SYSTEM_H
#define PP_SYSTEM_H
#include <stddef.h>
#include "pp/device.h"
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
} pp_system;

/* Fills everything but the devices; never fails (unknowns stay ""/0). */
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
