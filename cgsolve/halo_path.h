/* The halo paths: how a model's ghost entries reach it from the adjacent
 * ranks. One table (halo_paths.c), one entry per path in the file that
 * implements it; everything else reads the table: --halo's names (main.c),
 * the choice (halo_pick.c), the report's "halo <model>" (halo_choose.c), the
 * exchange (halo.c) and --overlap's helper thread (halo_helper.c).
 *
 * A new path: its entry in a file of its own (the fields below), its index
 * in the enum below, its line in halo_paths.c, its file in CG_HALO_PATH_SOURCES
 * (CMakeLists.txt). */
#ifndef CGSOLVE_HALO_PATH_H
#define CGSOLVE_HALO_PATH_H
#include <stddef.h>
#include "cgsolve.h"
#include "pp/device.h"

/* Indexes of cg_halo_paths, in the order of --halo's names after "auto".
 * Entry 0 is the fallback that every layout and memory can take. */
enum { CG_PATH_STAGED, CG_PATH_MPI_DEVICE, CG_PATH_CUDA_IPC, CG_PATH_HIP_IPC, CG_PATH_COUNT };
/* --halo auto: the request that names no path. */
enum { CG_HALO_AUTO = -1 };

/* Where a model's vectors live: host memory, NVIDIA (CUDA) or AMD (HIP) GPU
 * memory, or another GPU's; CG_MEM_ANY: a path for every kind. */
enum { CG_MEM_ANY = -1, CG_MEM_HOST, CG_MEM_CUDA, CG_MEM_HIP, CG_MEM_OTHER_GPU };

/* What the choice knows, agreed on every rank (halo_choose.c gathers it). */
typedef struct cg_halo_facts {
  int request;           /* CG_HALO_AUTO or the CG_PATH_* asked for */
  int memory;            /* CG_MEM_* (the same on every rank) */
  int mpi_aware;         /* every rank's MPI reports GPU support */
  const char *mpi_why;   /* what the MPI library said (pp_mpi_gpu_aware) */
  int ranks;             /* > 1 */
  int ranks_per_node;    /* the fewest on any node: < ranks when on several nodes */
  /* The driver check (cg_halo_path.check) of the path made for this memory:
   * NULL when it passed on every rank, else why not ("not asked": not run). */
  const char *check_why;
} cg_halo_facts;

/* An entry's functions get the entry itself (`self`), so that paths that
 * differ only in data (the IPC paths: their driver) share the functions. */
typedef struct cg_halo_path cg_halo_path;
struct cg_halo_path {
  const char *name;    /* "CUDA IPC": the report and messages */
  const char *request; /* its --halo name: "cuda-ipc" */
  const char *family;  /* the staged fallback's reasons name it so: "MPI", "IPC" */
  int memory;          /* the memory kind it is made for (CG_MEM_*), or CG_MEM_ANY */
  int whole_planes;    /* sends the owned entries as one block: taken where the send lists are
                          contiguous (slabs), staged otherwise */
  int overlap_auto;    /* --overlap auto runs it on the helper thread (much to hide) */
  /* NULL when it can carry this halo, else why not (static storage). */
  const char *(*why_not)(const cg_halo_path *self, const cg_halo_facts *f);
  /* The report's text when it is taken; `reasons`: NULL, or (the fallback
   * only) why auto's other candidates could not run. */
  void (*describe)(const cg_halo_path *self, const cg_halo_facts *f, const char *reasons, char *text, size_t n);
  /* NULL, or whether its driver can map `device_memory` on this rank: NULL,
   * or why not. Run (on every rank) only when the choice would try it. */
  const char *(*check)(const cg_halo_path *self, const void *device_memory);
  /* Fills x's ghost entries from the neighbours (x: the model's memory,
   * local numbering); the caller has synchronized the model, so x's owned
   * entries are final. 0, or -1 (the caller stops the run). */
  int (*exchange)(const cg_halo_path *self, const cg_halo *h, const pp_device_ops *ops, double *x);
  /* NULL, or releases what the exchange set up for x (before x is freed). */
  void (*forget)(const double *x);
  const void *data; /* what its functions need of their own (the IPC paths: their driver) */
};

extern const cg_halo_path *const cg_halo_paths[CG_PATH_COUNT];

/* The entries (each in the file of its path). */
extern const cg_halo_path cg_halo_staged;     /* halo_mpi.c */
extern const cg_halo_path cg_halo_mpi_device; /* halo_mpi.c */
extern const cg_halo_path cg_halo_cuda_ipc;   /* halo_ipc_cuda.c */
extern const cg_halo_path cg_halo_hip_ipc;    /* halo_ipc_hip.c */

/* --halo: "auto", then each path's name in table order; NULL when `v` is
 * none of them, else the message (pp_parse_choice's). */
const char *cg_halo_parse_request(const char *v, int *request);
/* "auto" or the path's --halo name. */
const char *cg_halo_request_name(int request);

/* The exchange of path `p` (halo.c): no-op on one rank; exits 3, with one
 * line, when it fails. */
void cg_halo_exchange(const cg_halo *h, const cg_halo_path *p, const pp_device_ops *ops, double *x);

#endif
