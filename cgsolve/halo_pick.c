/* The halo path choice (halo_pick.h): no MPI, no device, no globals. */
#include <stdio.h>
#include <string.h>
#include "halo_pick.h"

const char *const cg_halo_requests[] = {"auto", "host", "mpi-device", "cuda-ipc", "hip-ipc", NULL};

const char *cg_halo_path_name(int path) {
  switch (path) {
  case CG_PATH_MPI_DEVICE: return "MPI on the model's memory";
  case CG_PATH_CUDA_IPC: return "CUDA IPC";
  case CG_PATH_HIP_IPC: return "HIP IPC";
  default: return "staged through host memory";
  }
}

int cg_halo_memory(int is_gpu, const char *arch) {
  if (!is_gpu) return CG_MEM_HOST;
  if (arch && !strncmp(arch, "sm_", 3)) return CG_MEM_CUDA;
  if (arch && !strncmp(arch, "gfx", 3)) return CG_MEM_HIP;
  return CG_MEM_OTHER_GPU;
}

/* Why the vendor IPC that `request` names (or auto: the memory's own) cannot
 * carry this halo; NULL when it can. *path: the IPC path of the memory. */
static const char *ipc_why(const cg_halo_facts *f, int *path) {
  *path = cg_ipc_path_of(f->memory);
  if (f->memory == CG_MEM_HOST) return "the model's memory is host memory";
  if (f->memory == CG_MEM_OTHER_GPU) return "the model's memory is neither CUDA nor HIP device memory";
  if (f->request == CG_HALO_IPC && f->memory == CG_MEM_HIP)
    return "the model's memory is AMD GPU memory: --halo hip-ipc";
  if (f->request == CG_HALO_HIP_IPC && f->memory == CG_MEM_CUDA)
    return "the model's memory is NVIDIA GPU memory: --halo cuda-ipc";
  if (f->ranks_per_node < f->ranks) return "the ranks are on more than one node (IPC maps memory within one node)";
  return f->ipc_why;
}

cg_halo_pick cg_halo_pick_path(const cg_halo_facts *f) {
  cg_halo_pick p = {CG_PATH_STAGED, NULL, ""};
  const int host = f->memory == CG_MEM_HOST, ipc_asked = f->request == CG_HALO_IPC || f->request == CG_HALO_HIP_IPC;
  const char *mpi = host ? "host memory" : f->mpi_why;
  if (f->request == CG_HALO_STAGED) {
    snprintf(p.text, sizeof p.text, "boundary planes staged through host memory (--halo host), MPI point to point");
    return p;
  }
  if ((host || f->mpi_aware) && !ipc_asked) {
    p.path = CG_PATH_MPI_DEVICE;
    snprintf(p.text, sizeof p.text, "MPI point to point on the model's own memory, no staging (%s)", mpi);
    return p;
  }
  int ipc_path;
  const char *why = f->request == CG_HALO_DEVICE ? "not asked" : ipc_why(f, &ipc_path);
  if (!why) {
    p.path = ipc_path;
    snprintf(p.text, sizeof p.text, "device to device into the neighbours' ghosts through %s (one node), an "
             "MPI message as the signal", cg_halo_path_name(ipc_path));
    return p;
  }
  if (f->request == CG_HALO_DEVICE) p.refused = f->mpi_why;
  if (ipc_asked) p.refused = why;
  snprintf(p.text, sizeof p.text, "boundary planes staged through host memory, MPI point to point (IPC: %s; MPI: %s)",
           why, mpi);
  return p;
}
