/* libFuzzer harness: the input deck reader (pp/deck.h) on arbitrary bytes.
 * Every error must come back as a usage message (never a crash, hang or
 * sanitizer report); accepted decks are queried like an app would. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "pp/cli.h"
#include "pp/deck.h"

static char path[64];

typedef struct run {
  pp_deck *d;
} run;

static void read_deck(void *ctx) {
  run *r = ctx;
  r->d = pp_deck_read("fuzz_deck", path);
  static const char *const known[] = {"N", "max_iters", "tol", "name", NULL};
  (void)pp_deck_int_or(r->d, "N", 1, 1000, 10);
  (void)pp_deck_double_or(r->d, "tol", 0, 1, 1e-8);
  (void)pp_deck_string_or(r->d, "name", "");
  pp_deck_only(r->d, known);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  if (!path[0]) /* memory-backed when possible: one file write per input */
    snprintf(path, sizeof path, "%s/fuzz_deck.%d.deck", access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm",
             (int)getpid());
  FILE *f = fopen(path, "wb");
  if (!f) abort();
  fwrite(data, 1, size, f);
  fclose(f);
  run r = {NULL};
  char *msg = pp_usage_try(read_deck, &r);
  if (msg && !strstr(msg, path) && !strstr(msg, "too large")) abort(); /* errors name the deck */
  free(msg);
  pp_deck_free(r.d);
  return 0;
}
