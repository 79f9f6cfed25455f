/* The run's inputs and outputs, and the rule that no two are one file
 * (pp/runfiles.h). A run has a handful of files: a list searched in full. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pp/runfiles.h"

typedef struct runfile {
  char *label;   /* "input deck", "--json" */
  char *path;
  int output;
  int exists;    /* dev, ino: the file's; else the directory's, and `name` */
  dev_t dev;
  ino_t ino;
  char *name;
} runfile;

static runfile *files;
static int nfiles;

static char *copy(const char *s) {
  char *c = malloc(strlen(s) + 1);
  return c ? strcpy(c, s) : NULL;
}

/* A new path is its directory and its last name: "a/b.json" and "./a/b.json"
 * are one output. */
static void identify(runfile *f, const char *path) {
  struct stat st;
  if (stat(path, &st) == 0) {
    f->exists = 1, f->dev = st.st_dev, f->ino = st.st_ino;
    return;
  }
  const char *slash = strrchr(path, '/');
  char *dir = slash ? copy(path) : copy(".");
  if (dir && slash) dir[slash == path ? 1 : slash - path] = '\0';
  if (dir && stat(dir, &st) == 0) f->dev = st.st_dev, f->ino = st.st_ino;
  free(dir);
  f->name = copy(slash ? slash + 1 : path);
}

static int same(const runfile *a, const runfile *b) {
  if (a->exists != b->exists || a->dev != b->dev || a->ino != b->ino) return 0;
  return a->exists || (a->name && b->name && !strcmp(a->name, b->name));
}

/* "--json 'a' is also the input deck 'b': ..." (always the output first). */
static char *clash(const runfile *out, const runfile *other) {
  const char *why = other->output ? "each output needs its own file" : "an output never replaces an input";
  const char *kind = other->output ? " file" : "";
  size_t n = strlen(out->label) + strlen(out->path) + strlen(other->label) + strlen(other->path) + strlen(why) + 64;
  char *msg = malloc(n);
  if (msg) snprintf(msg, n, "%s '%s' is also the %s%s '%s': %s", out->label, out->path, other->label, kind,
                    other->path, why);
  return msg ? msg : copy("an output is also an input or another output");
}

static char *add(const char *label, const char *path, int output, const struct stat *st) {
  runfile f = {copy(label), copy(path), output, 0, 0, 0, NULL};
  if (st) f.exists = 1, f.dev = st->st_dev, f.ino = st->st_ino;
  else identify(&f, path);
  for (int i = 0; i < nfiles; i++) {
    const runfile *g = &files[i];
    if (!same(&f, g)) continue;
    /* An input read again (a fuzzer reads one file over and over), or an
     * output checked again: kept once. */
    const int again = output ? g->output && !strcmp(g->path, path) && !strcmp(g->label, label) : !g->output;
    char *msg = again ? NULL : output ? clash(&f, g) : clash(g, &f);
    free(f.label), free(f.path), free(f.name);
    return msg;
  }
  runfile *grown = realloc(files, sizeof *files * (size_t)(nfiles + 1));
  if (!grown || !f.label || !f.path) {
    free(f.label), free(f.path), free(f.name);
    return copy("out of memory for the list of the run's files");
  }
  files = grown;
  files[nfiles++] = f;
  return NULL;
}

char *pp_runfiles_input(const char *what, const char *path, const struct stat *st) {
  return add(what, path, 0, st);
}

char *pp_runfiles_output(const char *opt, const char *path) { return add(opt, path, 1, NULL); }
