#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "pp/escape.h"
#include "pp/omp_env.h"

/* Reads a decimal integer after blanks into *v; returns the end, or NULL if
 * there is no digit or it overflows. */
static const char *read_uint(const char *s, unsigned long long *v) {
  while (isblank((unsigned char)*s)) s++;
  if (!isdigit((unsigned char)*s)) return NULL;
  char *end;
  errno = 0;
  *v = strtoull(s, &end, 10);
  if (errno == ERANGE) return NULL;
  return end;
}

static const char *skip_blanks(const char *s) {
  while (isblank((unsigned char)*s)) s++;
  return s;
}

static char msg[512];

static const char *bad(const char *var, const char *value, const char *why) {
  snprintf(msg, sizeof msg, "%s='%.100s' %s", var, value, why); /* printed escaped */
  return msg;
}

static const char *check_num_threads(const char *v) {
  const char *s = v;
  for (;;) {
    unsigned long long n;
    s = read_uint(s, &n);
    if (!s) return bad("OMP_NUM_THREADS", v, "is not a comma-separated list of positive integers");
    s = skip_blanks(s);
    if (n == 0) return bad("OMP_NUM_THREADS", v, "is not a comma-separated list of positive integers");
    if (n > PP_MAX_OMP_THREADS) {
      static char why[128];
      snprintf(why, sizeof why, "asks for more than %d threads (the OpenMP runtime could abort)",
               PP_MAX_OMP_THREADS);
      return bad("OMP_NUM_THREADS", v, why);
    }
    if (!*s) return NULL;
    if (*s++ != ',') return bad("OMP_NUM_THREADS", v, "is not a comma-separated list of positive integers");
  }
}

static const char *check_stacksize(const char *v) {
  static const char form[] = "is not a size (an integer, optional unit B, K, M or G)";
  unsigned long long n, unit = 1024;
  const char *s = read_uint(v, &n);
  if (!s) return bad("OMP_STACKSIZE", v, form);
  s = skip_blanks(s);
  switch (toupper((unsigned char)*s)) {
  case 'B': unit = 1, s++; break;
  case 'K': s++; break;
  case 'M': unit = 1ull << 20, s++; break;
  case 'G': unit = 1ull << 30, s++; break;
  case 'T': unit = 1ull << 40, s++; break; /* libomp's extension */
  default: break;
  }
  if (*skip_blanks(s)) return bad("OMP_STACKSIZE", v, form);
  if (n == 0) return bad("OMP_STACKSIZE", v, "is zero");
  if (n > PP_MAX_OMP_STACK_BYTES / unit) {
    static char why[128];
    snprintf(why, sizeof why, "is more than %llu MiB per thread (the OpenMP runtime could abort)",
             PP_MAX_OMP_STACK_BYTES >> 20);
    return bad("OMP_STACKSIZE", v, why);
  }
  return NULL;
}

static const char *check(const char *nthreads, const char *stacksize) {
  const char *err = nthreads ? check_num_threads(nthreads) : NULL;
  if (!err && stacksize) err = check_stacksize(stacksize);
  return err;
}

const char *pp_omp_env_check(void) { return check(getenv("OMP_NUM_THREADS"), getenv("OMP_STACKSIZE")); }

/* A sanitizer's runtime starts after .preinit_array, so instrumented code
 * cannot run there: such builds check in pp_cli_parse only. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer) || \
    __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define PP_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define PP_SANITIZED 1
#endif

#if defined(__ELF__) && !defined(PP_SANITIZED)
/* libomptarget's constructor starts libomp (which reads the environment and
 * can abort) before any constructor of the program runs; only the program's
 * .preinit_array runs earlier, before every shared library's initializer.
 * There, environ is not yet set (envp is) and nothing but the check may run:
 * "<program>: <problem> (see --help)", exit 2, without exit()'s handlers
 * (the libraries are not initialized). */
static void preinit_check(int argc, char **argv, char **envp) {
  const char *nthreads = NULL, *stacksize = NULL;
  for (char **e = envp; e && *e; e++) {
    if (!strncmp(*e, "OMP_NUM_THREADS=", 16)) nthreads = *e + 16;
    if (!strncmp(*e, "OMP_STACKSIZE=", 14)) stacksize = *e + 14;
  }
  const char *err = check(nthreads, stacksize);
  if (!err) return;
  const char *app = argc > 0 && argv[0] ? argv[0] : "proxyport";
  if (strrchr(app, '/')) app = strrchr(app, '/') + 1;
  pp_error_line(app, "%s (see --help)", err);
  fflush(stderr);
  _exit(2);
}
__attribute__((section(".preinit_array"), used)) static void (*const pp_omp_env_preinit)(int, char **, char **) =
    preinit_check;
#endif
