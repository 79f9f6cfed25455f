/* Ranks agree on their options and inputs (pp/agree.h). The normal case
 * costs two small collectives per check: rank 0's summary digest is
 * broadcast and compared; only on a difference are rank 0's items sent. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pp/agree.h"
#include "pp/mpi.h"

#define MAX_ITEMS 512 /* a fuzzer reads one file over and over: later inputs fold into the last */

typedef struct item {
  uint64_t digest;
  int arg;         /* 1-based argument number; 0 for an input */
  char what[32];   /* "data file" */
  char text[200];  /* the argument, or the input's path (cut to fit: the digest has it all) */
  char after[48];  /* the option an argument is the value of: "--size" */
} item;

static item items[MAX_ITEMS];
static int nitems;

uint64_t pp_agree_digest(uint64_t h, const void *bytes, size_t n) {
  const unsigned char *p = bytes;
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

static void put(item *it, const char *text) {
  snprintf(it->text, sizeof it->text, "%s", text);
}

void pp_agree_args(int argc, char **argv) {
  nitems = 0;
  for (int i = 1; i < argc && nitems < MAX_ITEMS; i++) {
    item *it = &items[nitems];
    memset(it, 0, sizeof *it);
    it->arg = i;
    /* --device N binds a rank to a GPU: each rank may name its own */
    const char *v = i > 1 && !strcmp(argv[i - 1], "--device") ? "(per rank)" : argv[i];
    it->digest = pp_agree_digest(PP_AGREE_DIGEST0, v, strlen(v) + 1);
    put(it, v);
    if (i > 1 && argv[i - 1][0] == '-' && argv[i][0] != '-')
      snprintf(it->after, sizeof it->after, "%s", argv[i - 1]);
    nitems++;
  }
}

void pp_agree_input(const char *what, const char *path, uint64_t digest, long long bytes) {
  const uint64_t d = pp_agree_digest(digest, &bytes, sizeof bytes);
  if (nitems == MAX_ITEMS) { /* full: later inputs fold into the last item */
    items[MAX_ITEMS - 1].digest = pp_agree_digest(items[MAX_ITEMS - 1].digest, &d, sizeof d);
    return;
  }
  item *it = &items[nitems++];
  memset(it, 0, sizeof *it);
  it->digest = d;
  snprintf(it->what, sizeof it->what, "%s", what);
  put(it, path);
}

static uint64_t summary(const item *v, int n) {
  uint64_t h = pp_agree_digest(PP_AGREE_DIGEST0, &n, sizeof n);
  for (int i = 0; i < n; i++) h = pp_agree_digest(h, &v[i].digest, sizeof v[i].digest);
  return h;
}

static char *message(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
static char *message(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *m = malloc((size_t)(n > 0 ? n : 0) + 1);
  if (!m) return NULL;
  va_start(ap, fmt);
  vsnprintf(m, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return m;
}

#define RULE "every rank must be given the same options and inputs"

/* This rank's difference from rank 0's items `ref` (n0 of them). */
static char *difference(const item *ref, int n0) {
  const int n = nitems < n0 ? nitems : n0;
  for (int i = 0; i < n; i++) {
    const item *a = &items[i], *b = &ref[i];
    if (a->digest == b->digest && a->arg == b->arg) continue;
    if (a->arg && b->arg)
      return a->after[0] && !strcmp(a->after, b->after)
                 ? message("%s %s where rank 0 has %s %s (" RULE ")", a->after, a->text, b->after, b->text)
                 : message("argument %d is '%s' where rank 0's is '%s' (" RULE ")", a->arg, a->text, b->text);
    if (!a->arg && !b->arg)
      return message("the %s '%s' differs from rank 0's %s '%s' (other bytes: " RULE ")",
                     a->what, a->text, b->what, b->text);
    const item *arg = a->arg ? a : b;
    return message("the command line %s argument %d '%s' (" RULE ")",
                   a->arg ? "has an extra" : "lacks rank 0's", arg->arg, arg->text);
  }
  if (nitems > n0) {
    const item *a = &items[n];
    return a->arg ? message("the command line has an extra argument %d '%s' (" RULE ")", a->arg, a->text)
                  : message("this rank read the %s '%s', which rank 0 did not (" RULE ")", a->what, a->text);
  }
  const item *b = &ref[n];
  return b->arg ? message("the command line lacks rank 0's argument %d '%s' (" RULE ")", b->arg, b->text)
                : message("this rank did not read rank 0's %s '%s' (" RULE ")", b->what, b->text);
}

char *pp_agree_check(void) {
  if (pp_mpi_size() < 2) return NULL;
  uint64_t head[2] = {summary(items, nitems), (uint64_t)nitems};
  uint64_t mine = head[0];
  pp_mpi_bcast(head, (int)sizeof head);
  if (pp_mpi_all(head[0] == mine)) return NULL;
  const int n0 = (int)head[1];
  static item ref[MAX_ITEMS];
  if (pp_mpi_rank() == 0) memcpy(ref, items, sizeof *ref * (size_t)n0);
  pp_mpi_bcast(ref, (int)(sizeof *ref * (size_t)n0));
  char *msg = head[0] == mine ? NULL : difference(ref, n0);
  return msg ? msg : head[0] == mine ? NULL : message("ranks disagree (" RULE ")");
}
