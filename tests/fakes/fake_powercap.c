/* fake_powercap DIR PKG_W DRAM_W RANGE_UJ UPDATE_MS -- COMMAND...
 * A powercap tree for tests: DIR/intel-rapl:0 (package-0, a long-term limit
 * of PKG_W), DIR/intel-rapl:0:0 (dram, a peak of 2 x DRAM_W) and
 * DIR/intel-rapl:0:1 (core, 1000 W: inside the package, must not be added).
 * Runs COMMAND with PP_POWERCAP_ROOT=DIR and the library fake_powercap_open
 * preloaded. Each energy_uj is a regular file, as in sysfs; whenever the
 * command opens one, the library first rewrites it (aside, then renamed)
 * with the domain's watts times the time since start as of the last update
 * (UPDATE_MS apart; 0: continuous), modulo RANGE_UJ + 1 (RAPL's counters
 * wrap so). Computing the value when it is read, not writing files on a
 * timer, keeps the planted power exact however busy the machine is.
 * Exits with COMMAND's status. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void put(const char *dir, const char *file, const char *text) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", dir, file);
  FILE *f = fopen(path, "w");
  if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
    fprintf(stderr, "fake_powercap: cannot write %s: %s\n", path, strerror(errno));
    exit(2);
  }
}

int main(int argc, char **argv) {
  if (argc < 8 || strcmp(argv[6], "--")) {
    fprintf(stderr, "usage: fake_powercap DIR PKG_W DRAM_W RANGE_UJ UPDATE_MS -- COMMAND...\n");
    return 2;
  }
  const char *root = argv[1];
  const double watts[3] = {atof(argv[2]), atof(argv[3]), 1000.0};
  static const char *const sub[3] = {"intel-rapl:0", "intel-rapl:0:0", "intel-rapl:0:1"};
  static const char *const names[3] = {"package-0\n", "dram\n", "core\n"};
  char dir[1024], text[64];
  mkdir(root, 0755);
  for (int d = 0; d < 3; d++) {
    snprintf(dir, sizeof dir, "%s/%s", root, sub[d]);
    mkdir(dir, 0755);
    put(dir, "name", names[d]);
    snprintf(text, sizeof text, "%s\n", argv[4]);
    put(dir, "max_energy_range_uj", text);
    put(dir, "energy_uj", "0\n");
    snprintf(text, sizeof text, "%.17g\n", watts[d]);
    put(dir, ".fake_watts", text); /* what the library gives this domain */
    if (d == 0) snprintf(text, sizeof text, "%.0f\n", watts[0] * 1e6), put(dir, "constraint_0_power_limit_uw", text);
    if (d == 1) snprintf(text, sizeof text, "%.0f\n", 2 * watts[1] * 1e6), put(dir, "constraint_0_max_power_uw", text);
  }
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  snprintf(text, sizeof text, "%.9f", ts.tv_sec + 1e-9 * ts.tv_nsec);
  setenv("FAKE_POWERCAP_T0", text, 1);
  setenv("FAKE_POWERCAP_ROOT", root, 1);
  setenv("FAKE_POWERCAP_RANGE", argv[4], 1);
  setenv("FAKE_POWERCAP_UPDATE_MS", argv[5], 1);
  setenv("PP_POWERCAP_ROOT", root, 1);
  /* the library beside this program; a sanitizer's runtime need not come first */
  char lib[1100];
  snprintf(lib, sizeof lib, "%s", argv[0]);
  char *slash = strrchr(lib, '/');
  snprintf(slash ? slash + 1 : lib, sizeof lib - (size_t)(slash ? slash + 1 - lib : 0), "libfake_powercap_open.so");
  const char *pre = getenv("LD_PRELOAD");
  char both[2300];
  snprintf(both, sizeof both, "%s%s%s", lib, pre && *pre ? ":" : "", pre && *pre ? pre : "");
  setenv("LD_PRELOAD", both, 1);
  const char *asan = getenv("ASAN_OPTIONS");
  char opts[1024];
  snprintf(opts, sizeof opts, "%s%sverify_asan_link_order=0", asan && *asan ? asan : "", asan && *asan ? ":" : "");
  setenv("ASAN_OPTIONS", opts, 1);
  pid_t pid = fork();
  if (pid == 0) {
    execvp(argv[7], argv + 7);
    fprintf(stderr, "fake_powercap: cannot run %s: %s\n", argv[7], strerror(errno));
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
