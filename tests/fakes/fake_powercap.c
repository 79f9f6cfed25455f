/* fake_powercap DIR PKG_W DRAM_W RANGE_UJ UPDATE_MS -- COMMAND...
 * A powercap tree for tests: DIR/intel-rapl:0 (package-0, a long-term limit
 * of PKG_W), DIR/intel-rapl:0:0 (dram, a peak of 2 x DRAM_W) and
 * DIR/intel-rapl:0:1 (core, 1000 W: inside the package, must not be added).
 * Runs COMMAND with PP_POWERCAP_ROOT=DIR. Each energy_uj is a FIFO served by
 * a thread: every open and read gets the domain's watts times the time since
 * start, as of the last update (UPDATE_MS apart; 0: continuous), modulo
 * RANGE_UJ + 1 (RAPL's counters wrap so). Computing the value when it is
 * read, not writing files on a timer, keeps the planted power exact however
 * busy the machine is. One reading process at a time (the meter elects one
 * reader per node). Exits with COMMAND's status. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double t0, update_s;
static unsigned long long range;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static void put(const char *dir, const char *file, const char *text) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", dir, file);
  FILE *f = fopen(path, "w");
  if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
    fprintf(stderr, "fake_powercap: cannot write %s: %s\n", path, strerror(errno));
    exit(2);
  }
}

typedef struct domain {
  char fifo[1100];
  double watts;
} domain;

/* One FIFO, held open read-write here so that a reader's open never blocks
 * and its read waits for data: each time a reader opens it (inotify), one
 * value computed then is written, which that reader's read returns. */
static void *serve(void *arg) {
  const domain *d = arg;
  char text[64], ev[4096];
  int fd = open(d->fifo, O_RDWR);
  int ino = inotify_init();
  if (fd < 0 || ino < 0 || inotify_add_watch(ino, d->fifo, IN_OPEN) < 0) {
    fprintf(stderr, "fake_powercap: cannot serve %s: %s\n", d->fifo, strerror(errno));
    exit(2);
  }
  for (;;) {
    ssize_t n = read(ino, ev, sizeof ev);
    for (ssize_t off = 0; off < n;) {
      const struct inotify_event *e = (const struct inotify_event *)(ev + off);
      off += (ssize_t)(sizeof *e + e->len);
      if (!(e->mask & IN_OPEN)) continue;
      double t = now() - t0;
      if (update_s > 0) t = (double)(long long)(t / update_s) * update_s;
      int k = snprintf(text, sizeof text, "%llu\n", (unsigned long long)(d->watts * t * 1e6) % (range + 1));
      if (write(fd, text, (size_t)k) != k) fprintf(stderr, "fake_powercap: short write to %s\n", d->fifo);
    }
  }
  return NULL;
}

int main(int argc, char **argv) {
  if (argc < 8 || strcmp(argv[6], "--")) {
    fprintf(stderr, "usage: fake_powercap DIR PKG_W DRAM_W RANGE_UJ UPDATE_MS -- COMMAND...\n");
    return 2;
  }
  signal(SIGPIPE, SIG_IGN);
  const char *root = argv[1];
  static domain dom[3];
  const double watts[3] = {atof(argv[2]), atof(argv[3]), 1000.0};
  range = strtoull(argv[4], NULL, 10);
  update_s = atof(argv[5]) * 1e-3;
  static const char *const sub[3] = {"intel-rapl:0", "intel-rapl:0:0", "intel-rapl:0:1"};
  static const char *const names[3] = {"package-0\n", "dram\n", "core\n"};
  char dir[1024], text[64];
  mkdir(root, 0755);
  for (int d = 0; d < 3; d++) {
    snprintf(dir, sizeof dir, "%s/%s", root, sub[d]);
    mkdir(dir, 0755);
    put(dir, "name", names[d]);
    snprintf(text, sizeof text, "%llu\n", range);
    put(dir, "max_energy_range_uj", text);
    snprintf(dom[d].fifo, sizeof dom[d].fifo, "%s/energy_uj", dir);
    unlink(dom[d].fifo);
    if (mkfifo(dom[d].fifo, 0644) != 0) {
      fprintf(stderr, "fake_powercap: mkfifo %s: %s\n", dom[d].fifo, strerror(errno));
      return 2;
    }
    dom[d].watts = watts[d];
    if (d == 0) snprintf(text, sizeof text, "%.0f\n", watts[0] * 1e6), put(dir, "constraint_0_power_limit_uw", text);
    if (d == 1) snprintf(text, sizeof text, "%.0f\n", 2 * watts[1] * 1e6), put(dir, "constraint_0_max_power_uw", text);
  }
  setenv("PP_POWERCAP_ROOT", root, 1);
  t0 = now();
  pthread_t th;
  for (int d = 0; d < 3; d++) pthread_create(&th, NULL, serve, &dom[d]);
  struct timespec settle = {0, 50000000L}; /* the watches are in place before the command reads */
  nanosleep(&settle, NULL);
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
