/* --history FILE: every solve's residual history, kept in memory and written
 * once at the end through pp/outfile.h, so the file is never written through
 * a symlink and never left half written. Rank 0 holds and writes it. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pp/escape.h"
#include "pp/outfile.h"
#include "pp/pp.h"
#include "problem.h"

static void append(cg_history *h, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void append(cg_history *h, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (h->len + (size_t)n + 1 > h->cap) {
    size_t cap = h->cap ? 2 * h->cap : 4096;
    while (cap < h->len + (size_t)n + 1) cap *= 2;
    char *buf = realloc(h->buf, cap);
    if (!buf) pp_device_fail(PP_HOST, "history", "out of host memory for the --history lines");
    h->buf = buf, h->cap = cap;
  }
  va_start(ap, fmt);
  vsnprintf(h->buf + h->len, h->cap - h->len, fmt, ap);
  va_end(ap);
  h->len += (size_t)n;
}

void cg_history_start(cg_history *h, const pp_session *s, const char *path) {
  memset(h, 0, sizeof *h);
  h->path = path;
  if (!path) return;
  pp_session_check_outfile(s, "--history", path); /* exit 2 now, not after the solves */
  if (pp_mpi_rank() == 0) append(h, "model,N,ranks,iteration,relres\n");
}

void cg_history_add(cg_history *h, const cg_solver *S) {
  if (!h->path || pp_mpi_rank() != 0) return;
  for (int k = 0; k <= S->iters; k++)
    append(h, "%s,%d,%d,%d,%.17g\n", pp_model_name(S->m), S->pb->N, pp_mpi_size(), k, S->hist[k]);
}

int cg_history_finish(cg_history *h, const char *app) {
  int ok = 1;
  if (h->path && pp_mpi_rank() == 0) {
    pp_outfile o;
    ok = pp_outfile_open(&o, h->path) == 0;
    if (ok) {
      fwrite(h->buf, 1, h->len, o.f);
      ok = pp_outfile_stage(&o) == 0; /* published with the run's other outputs */
    }
    if (!ok) pp_error_line(app, "--history: cannot write '%s': %s", h->path, strerror(errno));
  }
  free(h->buf);
  memset(h, 0, sizeof *h);
  return pp_mpi_all(ok);
}
