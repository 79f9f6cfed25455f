#define _DEFAULT_SOURCE
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "pp/datadir.h"

static int is_dir(const char *p) {
  struct stat st;
  return p && *p && stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* <folder of the running executable>/../share/proxyport/inputs (Linux). */
static int beside_exe(char *buf, size_t len) {
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return -1;
  exe[n] = '\0';
  char *slash = strrchr(exe, '/');
  if (!slash) return -1;
  *slash = '\0';
  int w = snprintf(buf, len, "%s/../share/proxyport/inputs", exe);
  return w < 0 || (size_t)w >= len ? -1 : 0;
}

const char *pp_inputs_dir(const char *given, char *buf, size_t len) {
  if (!len) return NULL;
  if (given) { /* the user's choice, right or wrong: no fallback behind it */
    snprintf(buf, len, "%s", given);
    return is_dir(given) ? buf : NULL;
  }
  const char *env = getenv("PP_INPUTS");
  if (env && *env) {
    snprintf(buf, len, "%s", env);
    return is_dir(env) ? buf : NULL;
  }
  if (beside_exe(buf, len) == 0 && is_dir(buf)) return buf;
  if (beside_exe(buf, len) != 0) snprintf(buf, len, "the executable's ../share/proxyport/inputs");
  return NULL;
}

/* Entries of dir whose name ends in suffix (folders when want_dirs, else
 * regular files), sorted, the suffix dropped, ", "-separated into buf. */
int pp_dir_names(const char *dir, const char *suffix, int want_dirs, char *buf, size_t len) {
  struct dirent **e;
  int n = scandir(dir, &e, NULL, alphasort), found = 0;
  size_t used = 0, sl = strlen(suffix);
  if (len) buf[0] = '\0';
  for (int i = 0; i < n; i++) {
    const char *nm = e[i]->d_name;
    size_t l = strlen(nm);
    char path[PATH_MAX];
    struct stat st;
    int ok = nm[0] != '.' && l > sl && !strcmp(nm + l - sl, suffix) &&
             snprintf(path, sizeof path, "%s/%s", dir, nm) < (int)sizeof path && stat(path, &st) == 0 &&
             (want_dirs ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode));
    if (ok && used < len) {
      int w = snprintf(buf + used, len - used, "%s%.*s", found ? ", " : "", (int)(l - sl), nm);
      used = w < 0 ? len : used + (size_t)w;
    }
    found += ok;
    free(e[i]);
  }
  if (n >= 0) free(e);
  return found;
}

const char *pp_input_named(const char *name, const char *sub, const char *ext, char *buf, size_t len) {
  struct stat st;
  if (!len) return NULL;
  if (stat(name, &st) == 0 || strchr(name, '/')) { /* a path: taken as given, no fallback */
    snprintf(buf, len, "%s", name);
    return name;
  }
  char root[PATH_MAX];
  if (!pp_inputs_dir(NULL, root, sizeof root)) {
    snprintf(buf, len, "%s", root);
    return NULL;
  }
  size_t nl = strlen(name), el = strlen(ext);
  int has_ext = nl >= el && !strcmp(name + nl - el, ext); /* `tiny.deck` as well as `tiny` */
  int w = snprintf(buf, len, "%s/%s/%s%s", root, sub, name, has_ext ? "" : ext);
  if (w < 0 || (size_t)w >= len) return NULL;
  return stat(buf, &st) == 0 && S_ISREG(st.st_mode) ? buf : NULL;
}

const char *pp_input_shipped_as(const char *name, const char *sub, const char *ext, char *buf, size_t len) {
  struct stat st;
  const char *base = strrchr(name, '/');
  if (!len || !base || !base[1] || stat(name, &st) == 0) return NULL;
  char found[PATH_MAX];
  size_t bl = strlen(++base), el = strlen(ext);
  int cut = bl > el && !strcmp(base + bl - el, ext);
  snprintf(buf, len, "%.*s", (int)(cut ? bl - el : bl), base);
  return pp_input_named(buf, sub, ext, found, sizeof found) ? buf : NULL;
}
