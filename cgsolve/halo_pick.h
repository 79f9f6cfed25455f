/* The halo path of one model: a pure function of what the run knows (the
 * model's memory, what the MPI library says, the ranks per node, whether the
 * vendor's IPC can map that memory, the --halo request), so that a unit test
 * can try every combination. halo_path.c gathers those facts (collectively)
 * and reports the result. */
#ifndef CGSOLVE_HALO_PICK_H
#define CGSOLVE_HALO_PICK_H

/* --halo auto|host|mpi-device|cuda-ipc|hip-ipc */
enum { CG_HALO_AUTO, CG_HALO_STAGED, CG_HALO_DEVICE, CG_HALO_IPC, CG_HALO_HIP_IPC };
/* The paths an exchange takes (cg_halo_exchange). */
enum { CG_PATH_STAGED, CG_PATH_MPI_DEVICE, CG_PATH_CUDA_IPC, CG_PATH_HIP_IPC };
static inline int cg_path_is_ipc(int path) { return path == CG_PATH_CUDA_IPC || path == CG_PATH_HIP_IPC; }
/* Where a model's vectors live: host memory, NVIDIA (CUDA) or AMD (HIP) GPU
 * memory, or another GPU's (no IPC written for it). */
enum { CG_MEM_HOST, CG_MEM_CUDA, CG_MEM_HIP, CG_MEM_OTHER_GPU };
/* The vendor IPC path of GPU memory of that kind. */
static inline int cg_ipc_path_of(int memory) { return memory == CG_MEM_HIP ? CG_PATH_HIP_IPC : CG_PATH_CUDA_IPC; }

typedef struct cg_halo_facts {
  int request;         /* CG_HALO_* */
  int memory;          /* CG_MEM_* (the same on every rank) */
  int mpi_aware;       /* every rank's MPI reports GPU support */
  const char *mpi_why; /* what the MPI library said (pp_mpi_gpu_aware) */
  int ranks;           /* > 1 */
  int ranks_per_node;  /* the fewest on any node: < ranks when on several nodes */
  const char *ipc_why; /* NULL: the vendor's IPC maps this memory on every rank; else why not */
} cg_halo_facts;

typedef struct cg_halo_pick {
  int path;            /* CG_PATH_* */
  const char *refused; /* why the path asked for (mpi-device, cuda-ipc, hip-ipc) cannot be taken */
  char text[400];      /* the path and why, for the report */
} cg_halo_pick;

cg_halo_pick cg_halo_pick_path(const cg_halo_facts *f);
/* The memory kind of a model's vectors from its device info (is_gpu; arch
 * "sm_*" NVIDIA, "gfx*" AMD). */
int cg_halo_memory(int is_gpu, const char *arch);
/* "--halo" request names, indexed by CG_HALO_* (NULL-terminated). */
extern const char *const cg_halo_requests[];
/* "CUDA IPC" / "HIP IPC" / ... for a path. */
const char *cg_halo_path_name(int path);

#endif
