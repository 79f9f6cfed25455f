/* The OpenMP environment a run inherits, checked before the runtime starts
 * (pp/omp_env.h): one table of the variables on which LLVM 19's libomp or
 * libomptarget aborts or hangs, each with its check. What each did is said
 * beside it (microbench, host and omp models, clang 19's runtime). */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
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
static char why[160];

/* "VAR='value' why": the problem (printed escaped, value cut at 100 bytes). */
static const char *bad(const char *var, const char *value, const char *reason) {
  snprintf(msg, sizeof msg, "%s='%.100s' %s", var, value, reason);
  return msg;
}

static const char *check_num_threads(const char *var, const char *v) {
  static const char list[] = "is not a comma-separated list of positive integers";
  const char *s = v;
  for (;;) {
    unsigned long long n;
    s = read_uint(s, &n);
    if (!s || n == 0) return bad(var, v, list);
    s = skip_blanks(s);
    if (n > PP_MAX_OMP_THREADS) {
      snprintf(why, sizeof why, "asks for more than %d threads (the OpenMP runtime could abort)",
               PP_MAX_OMP_THREADS);
      return bad(var, v, why);
    }
    if (!*s) return NULL;
    if (*s++ != ',') return bad(var, v, list);
  }
}

static const char *too_big(const char *var, const char *v) {
  snprintf(why, sizeof why, "is more than %llu MiB per thread (the OpenMP runtime could abort)",
           PP_MAX_OMP_STACK_BYTES >> 20);
  return bad(var, v, why);
}

/* OMP_STACKSIZE in the specification's form (B, K, M or G, default K; libomp's T):
 * libgomp ignores other forms with a warning, so they are refused as malformed. */
static const char *check_omp_stacksize(const char *var, const char *v) {
  static const char form[] = "is not a size (an integer, optional unit B, K, M or G)";
  unsigned long long n, unit = 1024;
  const char *s = read_uint(v, &n);
  if (!s) return bad(var, v, form);
  s = skip_blanks(s);
  switch (toupper((unsigned char)*s)) {
  case 'B': unit = 1, s++; break;
  case 'K': s++; break;
  case 'M': unit = 1ull << 20, s++; break;
  case 'G': unit = 1ull << 30, s++; break;
  case 'T': unit = 1ull << 40, s++; break; /* libomp's extension */
  default: break;
  }
  if (*skip_blanks(s)) return bad(var, v, form);
  if (n == 0) return bad(var, v, "is zero");
  return n > PP_MAX_OMP_STACK_BYTES / unit ? too_big(var, v) : NULL;
}

/* A size as libomp's __kmp_str_to_size reads it: blanks, digits, blanks, an
 * optional unit k m g t p e z y (powers of 1024), an optional b, blanks.
 * 1: *bytes set (UINT64_MAX on overflow); 0: not a size (libomp warns and
 * keeps its default). */
static int libomp_size(const char *v, unsigned long long dfactor, unsigned long long *bytes) {
  static const char units[] = "kmgtpezy";
  unsigned long long n;
  const char *s = read_uint(v, &n);
  if (!s) {
    const char *d = skip_blanks(v);
    if (!isdigit((unsigned char)*d)) return 0;
    while (isdigit((unsigned char)*d)) d++;
    s = d, n = ULLONG_MAX; /* digits beyond 64 bits: libomp's "value too large" */
  }
  s = skip_blanks(s);
  unsigned long long factor = 0;
  const char *u = *s ? strchr(units, tolower((unsigned char)*s)) : NULL;
  if (u) factor = (u - units + 1) * 10 < 64 ? 1ull << ((u - units + 1) * 10) : 0, s++;
  if (u && !factor) n = ULLONG_MAX, factor = 1;
  if (*s == 'b' || *s == 'B') factor = factor ? factor : 1, s++;
  if (*skip_blanks(s)) return 0;
  if (!factor) factor = dfactor;
  *bytes = n > ULLONG_MAX / factor ? ULLONG_MAX : n * factor;
  return 1;
}

/* KMP_STACKSIZE (bytes by default), GOMP_STACKSIZE (K): each thread's stack.
 * libomp clamps a value that overflows to its maximum and then cannot create
 * the threads: KMP_STACKSIZE=1T, GOMP_STACKSIZE=1T or =99999999999999999999
 * aborted ("System unable to allocate necessary resources for OMP thread"). */
static const char *check_stack(const char *var, const char *v, unsigned long long dfactor) {
  unsigned long long b;
  if (!libomp_size(v, dfactor, &b)) return NULL; /* libomp warns, keeps its default */
  if (b == 0) return bad(var, v, "is zero");
  return b > PP_MAX_OMP_STACK_BYTES ? too_big(var, v) : NULL;
}
static const char *check_kmp_stacksize(const char *var, const char *v) { return check_stack(var, v, 1); }
static const char *check_gomp_stacksize(const char *var, const char *v) { return check_stack(var, v, 1024); }

/* KMP_STACKOFFSET: bytes skipped at the top of each thread's stack; 1 GiB ran,
 * 1536M and 2G aborted as above, 99999999999999999999 crashed (SIGSEGV). */
static const char *check_stackoffset(const char *var, const char *v) {
  unsigned long long b;
  if (!libomp_size(v, 1, &b) || b <= PP_MAX_OMP_STACK_BYTES) return NULL;
  snprintf(why, sizeof why, "is more than %llu MiB (the OpenMP runtime could abort)",
           PP_MAX_OMP_STACK_BYTES >> 20);
  return bad(var, v, why);
}

/* KMP_ALIGN_ALLOC: libomp's allocator asserts an alignment below 32 KiB and a
 * power of two (32768 and 1T: "alignment < 32 * 1024"; 100 and 32767:
 * "addr_aligned % alignment == 0", SIGABRT). Below 64 it takes 64. */
static const char *check_align_alloc(const char *var, const char *v) {
  unsigned long long b;
  if (!libomp_size(v, 1, &b) || b < 64) return NULL;
  if (b >= 32768) return bad(var, v, "is 32 KiB or more (libomp's allocator asserts less and aborts)");
  if (b & (b - 1)) return bad(var, v, "is not a power of two (libomp's allocator asserts one and aborts)");
  return NULL;
}

/* OMP_PLACES, OMP_PROC_BIND, KMP_AFFINITY, KMP_HIDDEN_HELPER_AFFINITY,
 * KMP_BLOCKTIME: libomp reads their numbers into an int without an overflow
 * check and asserts the result is not negative: any number above INT_MAX
 * aborted ("0,2147483648", "threads(2147483648)", "2147483648us", ...:
 * "Assertion failure at kmp_settings.cpp"). Their syntax is libomp's to judge. */
static const char *check_numbers(const char *var, const char *v) {
  for (const char *s = v; *s;) {
    if (!isdigit((unsigned char)*s)) {
      s++;
      continue;
    }
    const char *d = s;
    while (*d == '0') d++;
    const char *e = d;
    while (isdigit((unsigned char)*e)) e++;
    if (e - d > 10 || (e - d == 10 && strncmp(d, "2147483647", 10) > 0)) {
      snprintf(why, sizeof why, "holds the number %.*s, more than %d (libomp's parser overflows and aborts)",
               (int)(e - s > 40 ? 40 : e - s), s, INT_MAX);
      return bad(var, v, why);
    }
    s = e;
  }
  return NULL;
}

/* GOMP_CPU_AFFINITY: a list of CPUs N, ranges N-M, N-M:S and sets {N,...},
 * separated by blanks or commas (libomp's proc-id list). A valid list with
 * anything after it crashed libomp ("1x", "1T", "1e9": it frees the list with
 * the wrong allocator, "munmap_chunk(): invalid pointer", SIGABRT); numbers
 * above INT_MAX abort as above; other errors make it drop the affinity with a
 * warning. The whole value must be a valid list. */
static const char *proc_int(const char *s, long long *n) {
  if (!isdigit((unsigned char)*s)) return NULL;
  long long x = 0;
  while (isdigit((unsigned char)*s)) {
    x = x * 10 + (*s++ - '0');
    if (x > INT_MAX) return NULL;
  }
  *n = x;
  return s;
}
static const char *check_gomp_affinity(const char *var, const char *v) {
  static const char list[] = "is not a list of CPUs N, N-M, N-M:S or {N,...} separated by blanks or "
                             "commas (libomp aborted on some malformed lists)";
  const char *s = skip_blanks(v);
  if (!*s) return bad(var, v, list);
  while (*s) {
    long long a, b, stride = 1;
    if (*s == '{') {
      s = skip_blanks(s + 1);
      for (;;) {
        if (!(s = proc_int(s, &a))) return check_numbers(var, v) ? msg : bad(var, v, list);
        s = skip_blanks(s);
        if (*s == '}') break;
        if (*s == ',') s = skip_blanks(s + 1);
      }
      s++;
    } else {
      if (!(s = proc_int(s, &a))) return check_numbers(var, v) ? msg : bad(var, v, list);
      s = skip_blanks(s);
      if (*s == '-') {
        if (!(s = proc_int(skip_blanks(s + 1), &b))) return check_numbers(var, v) ? msg : bad(var, v, list);
        s = skip_blanks(s);
        if (*s == ':') {
          s = skip_blanks(s + 1);
          int neg = *s == '-';
          if (neg) s = skip_blanks(s + 1);
          if (!(s = proc_int(s, &stride))) return check_numbers(var, v) ? msg : bad(var, v, list);
          stride = neg ? -stride : stride;
        }
        if (stride == 0 || (stride > 0 ? a > b : a < b) || (b - a) / stride > 65536)
          return bad(var, v, "has a range whose stride is zero, points away from its end, or that "
                             "spans more than 65536 CPUs (libomp drops the affinity)");
      }
    }
    s = skip_blanks(s);
    if (*s == ',') s = skip_blanks(s + 1);
  }
  return NULL;
}

/* KMP_FORCE_REDUCTION: any value but critical, atomic or tree (any case) is
 * fatal to libomp ("OMP: Error #82: unknown method", SIGABRT). */
static const char *check_force_reduction(const char *var, const char *v) {
  static const char *const ok[] = {"critical", "atomic", "tree"};
  for (size_t i = 0; i < sizeof ok / sizeof *ok; i++)
    if (!strcasecmp(v, ok[i])) return NULL;
  return bad(var, v, "is not critical, atomic or tree (libomp aborts on any other reduction method)");
}

/* libomp's __kmp_str_to_int: digits (an int that wraps), an optional b, k or m,
 * then the sentinel or the end; -1 for another character, 0 after a unit
 * that is not at the end. */
static long long kmp_str_to_int(const char *s, char sentinel) {
  unsigned int r = 0;
  while (*s >= '0' && *s <= '9') r = r * 10u + (unsigned)(*s++ - '0');
  int result = (int)r, factor = 1;
  switch (*s) {
  case '\0': break;
  case 'b': case 'B': s++; break;
  case 'k': case 'K': s++, factor = 1024; break;
  case 'm': case 'M': s++, factor = 1024 * 1024; break;
  default:
    if (*s != sentinel) return -1;
    s = "";
  }
  result = result > INT_MAX / factor ? INT_MAX : (int)((unsigned)result * (unsigned)factor);
  return *s ? 0 : result;
}

/* KMP_FORKJOIN_BARRIER: "gather[,release]" branch bits. libomp takes a value
 * that reads as 0 and then asserts non-zero bits in the fork/join barrier:
 * "0", "", "0,1", "1,0", "1,", "4294967296" aborted (kmp_barrier.cpp).
 * (The plain and reduction barriers run with 0.) */
static const char *check_forkjoin_barrier(const char *var, const char *v) {
  const char *comma = strchr(v, ',');
  if (kmp_str_to_int(v, ',') == 0 || (comma && kmp_str_to_int(comma + 1, '\0') == 0))
    return bad(var, v, "sets 0 branch bits (libomp asserts at least 1 and aborts)");
  return NULL;
}

/* KMP_ADAPTIVE_LOCK_PROPS, KMP_SPIN_BACKOFF_PARAMS: an empty or blank value
 * fails libomp's assertion "total > 0" (SIGABRT); others it parses or ignores. */
static const char *check_not_blank(const char *var, const char *v) {
  return *skip_blanks(v) ? NULL : bad(var, v, "is empty (libomp asserts a value and aborts)");
}

/* KMP_HOT_TEAMS_MAX_LEVEL: libomp allocates for every level at start-up:
 * 10^8 took 1.8 s, 2^30 ran past 20 s, 2^31-1 aborted ("Out of heap memory").
 * No run nests teams more than a few levels deep. */
#define PP_MAX_HOT_TEAMS_LEVEL 65536
static const char *check_hot_teams(const char *var, const char *v) {
  unsigned long long n;
  const char *s = read_uint(v, &n);
  const char *d = skip_blanks(v);
  if (!s && !isdigit((unsigned char)*d)) return NULL; /* not a number: libomp warns, ignores it */
  if (s && n <= PP_MAX_HOT_TEAMS_LEVEL) return NULL;
  snprintf(why, sizeof why, "is more than %d levels (libomp allocates each at start-up: it aborted or hung)",
           PP_MAX_HOT_TEAMS_LEVEL);
  return bad(var, v, why);
}

/* OMP_TOOL_VERBOSE_INIT: disabled, stdout or stderr (any case); another value
 * is a file that libomp and libomptarget each open and close: the run crashed
 * (SIGSEGV or SIGABRT) in 3 of 10 tries, and always where the file cannot be
 * opened. */
static const char *check_tool_verbose(const char *var, const char *v) {
  if (!*v || !strcasecmp(v, "disabled") || !strcasecmp(v, "stdout") || !strcasecmp(v, "stderr")) return NULL;
  return bad(var, v, "names a file, which libomp and libomptarget both write and close (runs crashed); "
                     "use stderr, stdout or disabled");
}

/* The kind of an existing path that is not a regular file, else NULL. */
static const char *not_regular(const char *path) {
  struct stat st;
  if (stat(path, &st) != 0 || S_ISREG(st.st_mode)) return NULL;
  return S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISDIR(st.st_mode) ? "a folder" : S_ISSOCK(st.st_mode) ? "a socket"
                                                                             : "a device";
}

/* OMP_TOOL_LIBRARIES: ':'-separated libraries libomp loads; a FIFO among
 * them blocked the run in dlopen (it waits for a writer). */
static const char *check_tool_libraries(const char *var, const char *v) {
  char path[4096];
  for (const char *p = v; *p;) {
    size_t n = strcspn(p, ":");
    if (n && n < sizeof path) {
      memcpy(path, p, n);
      path[n] = '\0';
      const char *kind = not_regular(path);
      if (kind) {
        snprintf(why, sizeof why, "names %.60s, %s: loading it would block or fail (a library is a regular file)",
                 path, kind);
        return bad(var, v, why);
      }
    }
    p += n + (p[n] == ':');
  }
  return NULL;
}

/* LIBOMPTARGET_PROFILE: the file libomptarget writes its time profile to at
 * exit; a FIFO blocked the run there. A regular file or a new path. */
static const char *check_output_file(const char *var, const char *v) {
  const char *kind = not_regular(v);
  if (!kind) return NULL;
  snprintf(why, sizeof why, "is %s (libomptarget writes it at exit and would block or fail): "
                            "a regular file or a new path", kind);
  return bad(var, v, why);
}

/* KMP_CPUINFO_FILE: libomp reads it as /proc/cpuinfo whatever the topology
 * method: a path it cannot open, or a file with no "processor" line, is fatal
 * (SIGABRT); /dev/zero and a FIFO hung it. A readable regular file with a
 * "processor" line at a line's start (/proc/cpuinfo's size is 0: read, not
 * sized). */
static const char *check_cpuinfo_file(const char *var, const char *v) {
  int fd = open(v, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    snprintf(why, sizeof why, "cannot be opened: %s (libomp aborts)", strerror(errno));
    return bad(var, v, why);
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return bad(var, v, "is not a regular file (libomp reads it to its end: it hung on /dev/zero and a FIFO)");
  }
  static const char want[] = "processor";
  char buf[4096];
  size_t total = 0, col = 0, match = 0; /* the line's column; how much of want it starts with */
  int found = 0;
  ssize_t r;
  while (!found && total < (1u << 20) && (r = read(fd, buf, sizeof buf)) > 0) {
    total += (size_t)r;
    for (ssize_t i = 0; i < r && !found; i++) {
      if (buf[i] == '\n') {
        col = match = 0;
        continue;
      }
      if (col++ == match && buf[i] == want[match]) found = ++match == sizeof want - 1;
    }
  }
  close(fd);
  return found ? NULL : bad(var, v, "has no 'processor' line in its first MiB (libomp aborts: cpuinfo file invalid)");
}

/* The integer std::stoi/std::stoul reads: blanks, a sign, digits (the rest is
 * ignored); 0 if there is none (std::invalid_argument), -1 if out of range
 * (std::out_of_range), 1 if fine. */
static int std_sto(const char *v, int is_unsigned) {
  const char *s = v;
  while (isspace((unsigned char)*s)) s++;
  int neg = *s == '-';
  if (*s == '+' || *s == '-') s++;
  if (!isdigit((unsigned char)*s)) return 0;
  while (*s == '0') s++;
  size_t n = 0;
  while (isdigit((unsigned char)s[n])) n++;
  const char *lim = is_unsigned ? "18446744073709551615" : neg ? "2147483648" : "2147483647";
  size_t ln = strlen(lim);
  return n < ln || (n == ln && strncmp(s, lim, n) <= 0) ? 1 : -1;
}

/* LIBOMPTARGET_INFO, LIBOMPTARGET_DEBUG: read with std::stoi, which throws on
 * anything but an int: "abc", "", "2147483648" aborted ("terminate called
 * after throwing an instance of 'std::invalid_argument'", SIGABRT). */
static const char *check_stoi(const char *var, const char *v) {
  int r = std_sto(v, 0);
  if (r == 1) return NULL;
  return bad(var, v, r ? "is out of int range (libomptarget's std::stoi throws and the run aborts)"
                       : "is not an integer (libomptarget's std::stoi throws and the run aborts)");
}

/* LIBOMPTARGET_MEMORY_MANAGER_THRESHOLD: std::stoul, when a GPU plugin makes
 * its memory manager (offload/plugins-nextgen; the CPU plugin has none, so
 * this is from the source, not seen here). */
static const char *check_stoul(const char *var, const char *v) {
  int r = std_sto(v, 1);
  if (r == 1) return NULL;
  return bad(var, v, r ? "is beyond an unsigned long (libomptarget's std::stoul throws and the run aborts)"
                       : "is not an integer (libomptarget's std::stoul throws and the run aborts)");
}

/* The table: every variable checked, in the order checked. */
static const struct omp_rule {
  const char *name;
  const char *(*check)(const char *var, const char *value);
} rules[] = {
    {"OMP_NUM_THREADS", check_num_threads},
    {"OMP_STACKSIZE", check_omp_stacksize},
    {"OMP_PLACES", check_numbers},
    {"OMP_PROC_BIND", check_numbers},
    {"OMP_TOOL_LIBRARIES", check_tool_libraries},
    {"OMP_TOOL_VERBOSE_INIT", check_tool_verbose},
    {"KMP_STACKSIZE", check_kmp_stacksize},
    {"GOMP_STACKSIZE", check_gomp_stacksize},
    {"KMP_STACKOFFSET", check_stackoffset},
    {"KMP_ALIGN_ALLOC", check_align_alloc},
    {"KMP_AFFINITY", check_numbers},
    {"KMP_HIDDEN_HELPER_AFFINITY", check_numbers},
    {"GOMP_CPU_AFFINITY", check_gomp_affinity},
    {"KMP_BLOCKTIME", check_numbers},
    {"KMP_FORCE_REDUCTION", check_force_reduction},
    {"KMP_FORKJOIN_BARRIER", check_forkjoin_barrier},
    {"KMP_ADAPTIVE_LOCK_PROPS", check_not_blank},
    {"KMP_SPIN_BACKOFF_PARAMS", check_not_blank},
    {"KMP_HOT_TEAMS_MAX_LEVEL", check_hot_teams},
    {"KMP_CPUINFO_FILE", check_cpuinfo_file},
    {"LIBOMPTARGET_INFO", check_stoi},
    {"LIBOMPTARGET_DEBUG", check_stoi},
    {"LIBOMPTARGET_MEMORY_MANAGER_THRESHOLD", check_stoul},
    {"LIBOMPTARGET_PROFILE", check_output_file},
};
#define NRULES (sizeof rules / sizeof *rules)

/* The first problem, with values[i] the value of rules[i] (NULL: unset). */
static const char *check(const char *const *values) {
  for (size_t i = 0; i < NRULES; i++) {
    const char *err = values[i] ? rules[i].check(rules[i].name, values[i]) : NULL;
    if (err) return err;
  }
  return NULL;
}

const char *pp_omp_env_check(void) {
  const char *values[NRULES];
  for (size_t i = 0; i < NRULES; i++) values[i] = getenv(rules[i].name);
  const char *err = check(values); /* the message is a copy (msg) */
  /* The run stops on err, but a runtime already loaded reads its variables again on the
   * way out (libomptarget's deinit throws on LIBOMPTARGET_INFO='abc'): none reaches it. */
  if (err)
    for (size_t i = 0; i < NRULES; i++) unsetenv(rules[i].name);
  return err;
}

const char *pp_omp_env_names(char *buf, size_t cap) {
  size_t len = 0, line = 0; /* line: where the current line starts */
  buf[0] = '\0';
  for (size_t i = 0; i < NRULES && len < cap; i++) {
    const int wrap = i && len - line + strlen(rules[i].name) + 2 > 86;
    if (wrap) line = len + 2;
    len += (size_t)snprintf(buf + len, cap - len, "%s%s%s", i ? "," : "", !i ? "  " : wrap ? "\n  " : " ",
                            rules[i].name);
  }
  return buf;
}

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
  const char *values[NRULES] = {0};
  for (char **e = envp; e && *e; e++)
    for (size_t i = 0; i < NRULES; i++) {
      size_t n = strlen(rules[i].name);
      if (!strncmp(*e, rules[i].name, n) && (*e)[n] == '=') values[i] = *e + n + 1;
    }
  const char *err = check(values);
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
