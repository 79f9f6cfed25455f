/* --history FILE: every iteration's relative residual of every model and
 * size, collected in memory on rank 0 and written once after the runs
 * through pp/outfile.h, so a failed or killed run leaves no partial file and
 * a symlink at the path is replaced, never written through. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pp/outfile.h"
#include "pp/pp.h"
#include "problem.h"

static const char header[] = "model,N,ranks,iteration,relres\n";

void cg_history_start(cg_history *h, const pp_session *s, const char *path) {
  memset(h, 0, sizeof *h);
  h->path = path;
  pp_session_check_outfile(s, "--history", path);
}

/* Appends one formatted line; the text grows by doubling. */
static void append_line(cg_history *h, const char *model, int N, int k, double relres) {
  char line[128]; /* at most 32 + 3 x 11 + 24 + 5 characters: never truncated */
  int n = snprintf(line, sizeof line, "%.32s,%d,%d,%d,%.17g\n", model, N, pp_mpi_size(), k, relres);
  if (h->len + (size_t)n + 1 > h->cap) {
    size_t cap = h->cap ? 2 * h->cap : 4096;
    while (cap < h->len + (size_t)n + 1) cap *= 2;
    char *t = realloc(h->text, cap);
    if (!t) {
      fprintf(stderr, "cgsolve: out of host memory for the --history lines\n");
      pp_mpi_exit(3);
    }
    h->text = t, h->cap = cap;
  }
  memcpy(h->text + h->len, line, (size_t)n + 1);
  h->len += (size_t)n;
}

void cg_history_add(cg_history *h, const cg_solver *S) {
  if (!h->path || pp_mpi_rank() != 0) return;
  for (int k = 0; k <= S->iters; k++) append_line(h, pp_model_name(S->m), S->pb->N, k, S->hist[k]);
}

int cg_history_write(cg_history *h, const char *app) {
  int rc = 0;
  if (h->path && pp_mpi_rank() == 0) {
    pp_outfile o;
    int ok = pp_outfile_open(&o, h->path) == 0;
    if (ok) {
      fputs(header, o.f);
      if (h->len) fwrite(h->text, 1, h->len, o.f);
      ok = pp_outfile_commit(&o) == 0; /* write errors (a full disk) surface here */
    }
    if (!ok) {
      fprintf(stderr, "%s: cannot write --history file '%s': %s\n", app, h->path, strerror(errno));
      rc = -1;
    }
  }
  free(h->text);
  memset(h, 0, sizeof *h);
  return rc;
}
