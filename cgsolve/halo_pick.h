/* The halo path of one model: a pure function of the facts (the model's
 * memory, what the MPI library says, the ranks per node, the driver check,
 * the --halo request) over the table of paths (halo_path.h), so that a unit
 * test can try every combination. halo_choose.c gathers the facts
 * (collectively) and reports the result.
 *
 * The rule: a request that names a path takes it or is refused with its
 * why_not. auto takes the first entry after the fallback (table order) that
 * is a candidate for the memory and can run, else the fallback (entry 0),
 * whose text gives the candidates' reasons. The candidates of a memory kind:
 * the paths for any memory and those made for it; when no path is made for
 * it, every path (each then says why it cannot carry that memory). */
#ifndef CGSOLVE_HALO_PICK_H
#define CGSOLVE_HALO_PICK_H
#include "halo_path.h"

typedef struct cg_halo_pick {
  int path;            /* CG_PATH_* */
  const char *refused; /* why the path asked for cannot be taken (exit 2), or NULL */
  char text[400];      /* the path and why, for the report */
} cg_halo_pick;

cg_halo_pick cg_halo_pick_path(const cg_halo_facts *f);
/* 1 when the choice tries path p (asked for, or auto reaches it): where its
 * driver check (cg_halo_path.check) is worth running. */
int cg_halo_tries(const cg_halo_facts *f, int p);
/* The memory kind of a model's vectors from its device info (is_gpu; arch
 * "sm_*" NVIDIA, "gfx*" AMD). */
int cg_halo_memory(int is_gpu, const char *arch);

#endif
