/* The miniFE apps' --deck: N, and optionally cgsolve's recorded reference
 * (written by inputs/minife/reference/cg_reference.py). */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "minife.h"
#include "pp/session.h"
#include "pp/deck.h"
#include "pp/datadir.h"

static const char *const known_keys[] = {"N", "cg_iters", "cg_seed", "cg_relres", "cg_xerr", NULL};

/* --deck NAME: a file, else inputs/minife/NAME.deck (pp_input_named). The
 * path found is kept here: an app reads one deck (the last --deck given). */
static const char *find_deck(const char *app, const char *name) {
  static char found[4096];
  char cwd[4096], as[256];
  if (pp_input_shipped_as(name, "minife", ".deck", as, sizeof as)) {
    if (name[0] == '/') pp_usage_error(app, "--deck %s: no such file; the shipped deck of that name is --deck %s", name, as);
    pp_usage_error(app, "--deck %s: no such file here (a path is relative to the current folder, %s); the shipped "
                   "deck of that name is --deck %s", name, getcwd(cwd, sizeof cwd) ? cwd : "?", as);
  }
  if (pp_input_named(name, "minife", ".deck", found, sizeof found)) return found;
  char dir[4096 + 16], names[512];
  snprintf(dir, sizeof dir, "%.*s", (int)(strrchr(found, '/') ? strrchr(found, '/') - found : 0), found);
  if (pp_dir_names(dir, ".deck", 0, names, sizeof names))
    pp_usage_error(app, "--deck %s: no such file, nor %s (the decks there: %s)", name, found, names);
  pp_usage_error(app, "--deck %s: no such file, nor a deck of that name in the inputs folder (%s); give a path, "
                 "or set PP_INPUTS to the suite's inputs/", name, found);
  return NULL;
}

void minife_deck_read(const char *app, const char *name, minife_deck *d) {
  const char *path = find_deck(app, name);
  pp_deck *deck = pp_deck_read(app, path);
  pp_deck_only(deck, known_keys); /* a typo such as `n = 150` is refused, not ignored */
  d->n = (int)pp_deck_int(deck, "N", 1, MINIFE_MAX_N);
  d->path = path;
  d->cg_iters = 0;
  /* The reference comes whole or not at all: cg_iters asks for the rest. */
  if (pp_deck_has(deck, "cg_iters") || pp_deck_has(deck, "cg_relres")) {
    d->cg_iters = pp_deck_int(deck, "cg_iters", 1, 1000000);
    d->cg_seed = (unsigned long long)pp_deck_int(deck, "cg_seed", 0, (1ll << 62));
    d->cg_relres = pp_deck_double(deck, "cg_relres", 0, 1);
    d->cg_xerr = pp_deck_double(deck, "cg_xerr", 0, 1e3);
  }
  pp_deck_free(deck);
}

void minife_deck_check(const char *app, const minife_deck *d, pp_options *opt) {
  if (!d->path) return;
  if (opt->size_given) pp_usage_error(app, "give --deck or --size, not both");
  opt->sizes.n = 1;
  opt->sizes.v[0] = d->n;
}

void minife_deck_apply(const minife_deck *d, struct pp_session *s) {
  if (!d->path) return;
  pp_report_param(s->report, "deck", "%s (N = %d)", d->path, d->n);
}
