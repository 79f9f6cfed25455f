/* The halo path choice (halo_pick.h): no MPI, no device; the facts and the table of paths only. */
#include <stdio.h>
#include <string.h>
#include "halo_pick.h"

int cg_halo_memory(int is_gpu, const char *arch) {
  if (!is_gpu) return CG_MEM_HOST;
  if (arch && !strncmp(arch, "sm_", 3)) return CG_MEM_CUDA;
  if (arch && !strncmp(arch, "gfx", 3)) return CG_MEM_HIP;
  return CG_MEM_OTHER_GPU;
}

/* Path p is one auto considers for memory kind `memory`. */
static int candidate(int memory, int p) {
  const int made_for = cg_halo_paths[p]->memory;
  if (made_for == CG_MEM_ANY || made_for == memory) return 1;
  for (int q = 0; q < CG_PATH_COUNT; q++)
    if (cg_halo_paths[q]->memory == memory) return 0; /* another path is made for it */
  return 1;
}

int cg_halo_tries(const cg_halo_facts *f, int p) {
  if (f->request != CG_HALO_AUTO) return f->request == p;
  if (p == CG_PATH_STAGED || !candidate(f->memory, p)) return 0;
  for (int q = CG_PATH_STAGED + 1; q < p; q++)
    if (candidate(f->memory, q) && !cg_halo_paths[q]->why_not(cg_halo_paths[q], f)) return 0; /* q is taken first */
  return 1;
}

/* The fallback's reasons: one per family, from the last candidate tried back
 * to the first ("IPC: ...; MPI: ..."). */
static void reasons(const cg_halo_facts *f, const int *tried, int ntried, char *out, size_t n) {
  size_t len = 0;
  out[0] = 0;
  for (int i = ntried - 1; i >= 0; i--) {
    const cg_halo_path *p = cg_halo_paths[tried[i]];
    int named = 0;
    for (int j = ntried - 1; j > i; j--) named |= !strcmp(cg_halo_paths[tried[j]]->family, p->family);
    if (named || len >= n) continue;
    snprintf(out + len, n - len, "%s%s: %s", len ? "; " : "", p->family, p->why_not(p, f));
    len = strlen(out);
  }
}

cg_halo_pick cg_halo_pick_path(const cg_halo_facts *f) {
  cg_halo_pick r = {.path = CG_PATH_STAGED};
  int tried[CG_PATH_COUNT], ntried = 0;
  if (f->request != CG_HALO_AUTO) {
    const cg_halo_path *p = cg_halo_paths[f->request];
    if (!(r.refused = p->why_not(p, f))) {
      r.path = f->request;
      p->describe(p, f, NULL, r.text, sizeof r.text);
      return r;
    }
    tried[ntried++] = f->request;
  } else {
    for (int p = CG_PATH_STAGED + 1; p < CG_PATH_COUNT; p++) {
      if (!candidate(f->memory, p)) continue;
      const cg_halo_path *e = cg_halo_paths[p];
      if (!e->why_not(e, f)) {
        r.path = p;
        e->describe(e, f, NULL, r.text, sizeof r.text);
        return r;
      }
      tried[ntried++] = p;
    }
  }
  char why[320];
  reasons(f, tried, ntried, why, sizeof why);
  const cg_halo_path *fallback = cg_halo_paths[CG_PATH_STAGED];
  fallback->describe(fallback, f, why, r.text, sizeof r.text);
  return r;
}
