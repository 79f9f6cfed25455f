/* The table of halo paths (halo_path.h) and --halo's names, read from it. */
#include "halo_path.h"
#include "pp/cli.h"

const cg_halo_path *const cg_halo_paths[CG_PATH_COUNT] = {
    [CG_PATH_STAGED] = &cg_halo_staged,
    [CG_PATH_MPI_DEVICE] = &cg_halo_mpi_device,
    [CG_PATH_CUDA_IPC] = &cg_halo_cuda_ipc,
    [CG_PATH_HIP_IPC] = &cg_halo_hip_ipc,
};

const char *cg_halo_request_name(int request) {
  return request == CG_HALO_AUTO ? "auto" : cg_halo_paths[request]->request;
}

const char *cg_halo_parse_request(const char *v, int *request) {
  const char *names[CG_PATH_COUNT + 2] = {"auto"};
  for (int p = 0; p < CG_PATH_COUNT; p++) names[p + 1] = cg_halo_paths[p]->request;
  int k = 0;
  const char *err = pp_parse_choice(v, names, &k);
  if (!err) *request = k == 0 ? CG_HALO_AUTO : k - 1;
  return err;
}
