/* The halo path of every model (--halo): the facts gathered on every rank
 * and agreed on (with the driver check of the path the choice would try),
 * handed to the pure choice (halo_pick.c), the choice and the path that ran
 * written to the report ("halo <model>"), a request that cannot be honoured
 * refused once (exit 2 on every rank).
 *
 * PP_TEST_HALO (tests only, like PP_TEST_MEMORY_GIB): makes a model whose
 * memory is host memory (the CPU models) choose as if it were GPU memory, so
 * that the choice can be tested end to end without a GPU. Comma-separated:
 *   memory=cuda|hip|other  the memory kind to choose for
 *   ipc=yes|no             what the driver check would say (default no)
 *   per-node=K             the fewest ranks on one node (default: the real layout)
 * The GPU-aware answer is the MPI library's own (pp_mpi_gpu_aware: set
 * MPICH_GPU_SUPPORT_ENABLED=1 to have it say yes). The data stay host
 * memory: a choice of MPI on the model's memory or of IPC runs as MPI on
 * host memory, a staged one staged; "halo <model> ran" says so. Ignored for
 * GPU memory, whose choice it must never change. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pp/pp.h"
#include "halo_pick.h"
#include "problem.h"

typedef struct fake {
  int on, memory, ipc, per_node; /* per_node 0: not faked */
} fake;

/* PP_TEST_HALO parsed; NULL, or why it is malformed. */
static const char *fake_read(fake *f) {
  memset(f, 0, sizeof *f);
  const char *v = getenv("PP_TEST_HALO");
  if (!v || !*v) return NULL;
  char buf[128];
  if (strlen(v) >= sizeof buf) return "PP_TEST_HALO: too long";
  snprintf(buf, sizeof buf, "%s", v);
  f->on = 1, f->memory = -1;
  for (char *save = NULL, *kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
    if (!strcmp(kv, "memory=cuda")) f->memory = CG_MEM_CUDA;
    else if (!strcmp(kv, "memory=hip")) f->memory = CG_MEM_HIP;
    else if (!strcmp(kv, "memory=other")) f->memory = CG_MEM_OTHER_GPU;
    else if (!strcmp(kv, "ipc=yes")) f->ipc = 1;
    else if (!strcmp(kv, "ipc=no")) f->ipc = 0;
    else if (!strncmp(kv, "per-node=", 9) && atoi(kv + 9) >= 1) f->per_node = atoi(kv + 9);
    else return "PP_TEST_HALO: expected memory=cuda|hip|other, ipc=yes|no, per-node=K, comma-separated";
  }
  return f->memory < 0 ? "PP_TEST_HALO: memory=cuda|hip|other is required" : NULL;
}

/* The fewest ranks any node holds (collective). */
static int fewest_per_node(void) {
  double neg = -(double)pp_mpi_local_size();
  pp_mpi_max(&neg, 1);
  return (int)-neg;
}

/* Path p's driver check of model m's memory on every rank (collective):
 * NULL, or why not. */
static const char *check_verdict(const pp_session *s, pp_model m, const cg_halo_path *p) {
  void *probe = s->ops[m]->alloc(64);
  const char *why = p->check(p, probe);
  s->ops[m]->free(probe);
  if (pp_mpi_all(why == NULL)) return NULL;
  if (why) return why;
  static char other[96];
  snprintf(other, sizeof other, "another rank cannot use %s", p->family);
  return other;
}

const char *cg_halo_choose_all(const pp_session *s, cg_config *c) {
  static char refused[400];
  const char *bad = NULL;
  fake f;
  const char *fake_bad = fake_read(&f);
  if (pp_mpi_size() == 1) return NULL;
  const char *aware_why = "";
  const int aware_here = pp_mpi_gpu_aware(&aware_why), aware = pp_mpi_all(aware_here);
  if (aware_here && !aware) aware_why = "another rank's MPI does not report GPU support";
  const int per_node = fewest_per_node();
  for (int m = 0; m < PP_MODEL_COUNT && !fake_bad; m++) {
    if (!s->ops[m]) continue;
    const char *name = pp_model_name((pp_model)m);
    cg_halo_facts facts = {.request = c->halo,
                           .memory = cg_halo_memory(s->info[m].is_gpu, s->info[m].arch),
                           .mpi_aware = aware,
                           .mpi_why = aware_why,
                           .ranks = pp_mpi_size(),
                           .ranks_per_node = per_node,
                           .check_why = "not asked"};
    const int faked = f.on && facts.memory == CG_MEM_HOST;
    if (faked) {
      facts.memory = f.memory;
      if (f.per_node) facts.ranks_per_node = f.per_node;
    }
    /* the driver check of the path made for this memory, where the choice would try it */
    for (int p = 0; p < CG_PATH_COUNT; p++) {
      const cg_halo_path *hp = cg_halo_paths[p];
      if (hp->check && hp->memory == facts.memory && cg_halo_tries(&facts, p))
        facts.check_why = faked ? (f.ipc ? NULL : "PP_TEST_HALO: ipc=no") : check_verdict(s, (pp_model)m, hp);
    }
    const cg_halo_pick pick = cg_halo_pick_path(&facts);
    char key[48];
    snprintf(key, sizeof key, "halo %s", name);
    c->path[m] = pick.path;
    const int overlapped = cg_overlaps(c, cg_halo_paths[pick.path]);
    pp_report_param(s->report, key, "%s%s", pick.text,
                    overlapped ? "; overlapped with the interior rows (helper thread)" : "");
    if (faked) { /* host memory: what can run on it */
      c->path[m] = pick.path == CG_PATH_STAGED ? CG_PATH_STAGED : CG_PATH_MPI_DEVICE;
      snprintf(key, sizeof key, "halo %s ran", name);
      pp_report_param(s->report, key, "%s on host memory (PP_TEST_HALO=%s: 'halo %s' is the choice for that memory)",
                      c->path[m] == CG_PATH_STAGED ? "staged" : "MPI point to point", getenv("PP_TEST_HALO"), name);
    }
    if (pick.refused && !bad) {
      snprintf(refused, sizeof refused, "--halo %s: not possible for the %s model: %s", cg_halo_request_name(c->halo),
               name, pick.refused);
      bad = refused;
    }
  }
  return fake_bad ? fake_bad : bad;
}
