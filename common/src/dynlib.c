/* pp/dynlib.h: dlopen and dlsym behind one table. */
#include "pp/dynlib.h"
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The address of `name` (or of `alt`), NULL when neither is there. */
static void *resolve(void *handle, const pp_dynsym *s) {
  void *p = dlsym(handle, s->name);
  if (!p && s->alt) p = dlsym(handle, s->alt);
  return p;
}

int pp_dynlib_load(pp_dynlib *lib) {
  if (lib->tried) return lib->handle ? 0 : -1;
  lib->tried = 1;
  const char *path = lib->env ? getenv(lib->env) : NULL;
  const char *const *names = lib->names, *one[2] = {path, NULL};
  if (path && *path) names = one;
  const int flags = RTLD_NOW | (lib->global ? RTLD_GLOBAL : RTLD_LOCAL);
  char first_error[160] = "";
  void *h = NULL;
  const char *opened = names[0];
  for (int i = 0; i < PP_DYNLIB_NAMES && names[i] && !h; i++) {
    h = dlopen(names[i], flags);
    const char *e = h ? NULL : dlerror();
    if (h) opened = names[i];
    else if (i == 0) snprintf(first_error, sizeof first_error, "%s", e ? e : "dlopen failed");
  }
  if (!h) {
    snprintf(lib->why, sizeof lib->why, "not available: cannot load %s (%s)", opened ? opened : "(no name)",
             first_error);
    return -1;
  }
  for (const pp_dynsym *s = lib->syms; s && s->name; s++) {
    void *p = resolve(h, s);
    /* a function pointer has void *'s representation (POSIX dlsym) */
    memcpy(s->at, &p, sizeof p);
    if (!p && !s->optional) {
      snprintf(lib->why, sizeof lib->why, "not available: %s: %s missing", opened, s->name);
      return -1; /* the handle stays open: dlclose of a driver library is not safe everywhere */
    }
  }
  lib->handle = h;
  return 0;
}
