#define _DEFAULT_SOURCE
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
