/* Unit test of cgsolve's halo path choice (cgsolve/halo_pick.c over the
 * table of paths, cgsolve/halo_path.h): every combination of request,
 * memory, GPU-aware MPI, node layout and IPC verdict against the rules of
 * docs/running.md, written here as a table of their own; then the reasons a
 * user reads, --halo's names and what the table promises. Exits non-zero on
 * a failure. */
#include <stdio.h>
#include <string.h>
#include "halo_pick.h"

#include "check.h"

static const char *const mem_name[] = {"host", "cuda", "hip", "other"};

/* The rules: the path, and whether the request is refused. */
static int expected(int req, int mem, int aware, int one_node, int ipc_ok, int *refused) {
  const int host = mem == CG_MEM_HOST, vendor = mem == CG_MEM_CUDA ? CG_PATH_CUDA_IPC
                                                : mem == CG_MEM_HIP ? CG_PATH_HIP_IPC : -1;
  const int ipc = vendor >= 0 && one_node && ipc_ok;
  *refused = 0;
  switch (req) {
  case CG_PATH_STAGED: return CG_PATH_STAGED;
  case CG_PATH_MPI_DEVICE:
    if (host || aware) return CG_PATH_MPI_DEVICE;
    *refused = 1;
    return CG_PATH_STAGED;
  case CG_HALO_AUTO:
    if (host || aware) return CG_PATH_MPI_DEVICE;
    return ipc ? vendor : CG_PATH_STAGED;
  default: { /* cuda-ipc, hip-ipc: that vendor's memory only */
    const int want = req;
    if (ipc && vendor == want) return want;
    *refused = 1;
    return CG_PATH_STAGED;
  }
  }
}

static void test_every_combination(void) {
  int cases = 0;
  for (int req = CG_HALO_AUTO; req < CG_PATH_COUNT; req++)
    for (int mem = CG_MEM_HOST; mem <= CG_MEM_OTHER_GPU; mem++)
      for (int aware = 0; aware < 2; aware++)
        for (int ranks = 2; ranks <= 3; ranks++)
          for (int per_node = 1; per_node <= ranks; per_node++)
            for (int ipc_ok = 0; ipc_ok < 2; ipc_ok++) {
              cg_halo_facts f = {req, mem, aware, aware ? "aware: yes" : "aware: no", ranks, per_node,
                                 ipc_ok ? NULL : "driver: no"};
              const cg_halo_pick p = cg_halo_pick_path(&f);
              int refused, want = expected(req, mem, aware, per_node == ranks, ipc_ok, &refused);
              cases++;
              if (p.path != want || (p.refused != NULL) != refused || !p.text[0]) {
                fprintf(stderr, "--halo %s, %s memory, aware %d, %d ranks, %d per node, ipc %d: path %d (want %d), "
                        "refused %s (want %s)\n", cg_halo_request_name(req), mem_name[mem], aware, ranks, per_node,
                        ipc_ok, p.path, want, p.refused ? p.refused : "no", refused ? "yes" : "no");
                failures++;
              }
              /* the report says what was taken */
              if (p.path == CG_PATH_CUDA_IPC || p.path == CG_PATH_HIP_IPC)
        CHECK(strstr(p.text, cg_halo_paths[p.path]->name) != NULL);
              if (p.path == CG_PATH_STAGED) CHECK(strstr(p.text, "staged") != NULL);
            }
  CHECK(cases == 5 * 4 * 2 * (2 + 3) * 2);
}

/* The reasons, as a user reads them in the one line of a refusal. */
static const char *refusal(int req, int mem, int aware, int ranks, int per_node, const char *ipc_why) {
  static cg_halo_pick p;
  cg_halo_facts f = {req, mem, aware, "MPIX_Query_cuda_support() = 0", ranks, per_node, ipc_why};
  p = cg_halo_pick_path(&f);
  return p.refused ? p.refused : "";
}

static void test_reasons(void) {
  CHECK(!strcmp(refusal(CG_PATH_CUDA_IPC, CG_MEM_HOST, 1, 2, 2, NULL), "the model's memory is host memory"));
  CHECK(strstr(refusal(CG_PATH_CUDA_IPC, CG_MEM_CUDA, 0, 3, 1, NULL), "more than one node"));
  CHECK(strstr(refusal(CG_PATH_HIP_IPC, CG_MEM_HIP, 0, 2, 1, NULL), "more than one node"));
  CHECK(strstr(refusal(CG_PATH_CUDA_IPC, CG_MEM_HIP, 0, 2, 2, NULL), "--halo hip-ipc"));
  CHECK(strstr(refusal(CG_PATH_HIP_IPC, CG_MEM_CUDA, 0, 2, 2, NULL), "--halo cuda-ipc"));
  CHECK(strstr(refusal(CG_PATH_CUDA_IPC, CG_MEM_OTHER_GPU, 0, 2, 2, NULL), "neither CUDA nor HIP"));
  CHECK(!strcmp(refusal(CG_PATH_CUDA_IPC, CG_MEM_CUDA, 0, 2, 2, "no CUDA driver"), "no CUDA driver"));
  CHECK(!strcmp(refusal(CG_PATH_MPI_DEVICE, CG_MEM_CUDA, 0, 2, 2, NULL), "MPIX_Query_cuda_support() = 0"));
  /* IPC asked on a GPU-aware MPI: IPC, not MPI */
  CHECK(!strcmp(refusal(CG_PATH_CUDA_IPC, CG_MEM_CUDA, 1, 2, 2, NULL), ""));
  /* auto: the MPI's answer is in the report */
  cg_halo_facts f = {CG_HALO_AUTO, CG_MEM_HIP, 1, "MPIX_Query_rocm_support() = 1", 3, 3, NULL};
  CHECK(strstr(cg_halo_pick_path(&f).text, "MPIX_Query_rocm_support() = 1") != NULL);
}

static void test_memory_kind(void) {
  CHECK(cg_halo_memory(0, "x86_64") == CG_MEM_HOST);
  CHECK(cg_halo_memory(0, "sm_90") == CG_MEM_HOST); /* omp offloaded to the CPU keeps host memory */
  CHECK(cg_halo_memory(1, "sm_90") == CG_MEM_CUDA);
  CHECK(cg_halo_memory(1, "gfx90a") == CG_MEM_HIP);
  CHECK(cg_halo_memory(1, "spir64") == CG_MEM_OTHER_GPU);
  CHECK(cg_halo_memory(1, "") == CG_MEM_OTHER_GPU);
}

/* --halo's names, in table order after "auto", and back. */
static void test_requests(void) {
  static const char *const names[] = {"auto", "host", "mpi-device", "cuda-ipc", "hip-ipc"};
  for (int req = CG_HALO_AUTO; req < CG_PATH_COUNT; req++) {
    int parsed = -2;
    CHECK(!strcmp(cg_halo_request_name(req), names[req + 1]));
    CHECK(cg_halo_parse_request(names[req + 1], &parsed) == NULL && parsed == req);
  }
  int untouched = 7;
  CHECK(cg_halo_parse_request("ipc", &untouched) != NULL && untouched == 7);
}

/* What the rest of cgsolve reads from the table: every entry complete; the
 * fallback (entry 0) runs everywhere and on any layout; names and requests
 * unique, so that a report or --halo names one path. */
static void test_table(void) {
  const cg_halo_facts any = {CG_HALO_AUTO, CG_MEM_OTHER_GPU, 0, "aware: no", 3, 1, "driver: no"};
  const cg_halo_path *fallback = cg_halo_paths[CG_PATH_STAGED];
  CHECK(fallback->why_not(fallback, &any) == NULL);
  CHECK(fallback->memory == CG_MEM_ANY && !fallback->whole_planes);
  for (int p = 0; p < CG_PATH_COUNT; p++) {
    const cg_halo_path *e = cg_halo_paths[p];
    CHECK(e && e->name && e->request && e->family && e->why_not && e->describe && e->exchange);
    for (int q = 0; e && q < p; q++)
      CHECK(strcmp(e->name, cg_halo_paths[q]->name) && strcmp(e->request, cg_halo_paths[q]->request));
  }
}

int main(void) {
  test_every_combination();
  test_reasons();
  test_memory_kind();
  test_requests();
  test_table();
  if (failures) fprintf(stderr, "test_halo_pick: %d checks failed\n", failures);
  return failures != 0;
}
