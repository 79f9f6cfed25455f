/* Preloaded by fake_powercap (see there): open() of an energy_uj file under
 * FAKE_POWERCAP_ROOT first rewrites it with the domain's counter now (watts
 * from its .fake_watts, since FAKE_POWERCAP_T0, in steps of
 * FAKE_POWERCAP_UPDATE_MS, modulo FAKE_POWERCAP_RANGE + 1), written aside
 * and renamed so that a reader never sees half a number. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int (*real_open)(const char *, int, ...);

static void refresh(const char *path) {
  const char *root = getenv("FAKE_POWERCAP_ROOT");
  const size_t rl = root ? strlen(root) : 0, pl = strlen(path);
  if (!rl || strncmp(path, root, rl) || pl < 10 || strcmp(path + pl - 10, "/energy_uj")) return;
  char dir[1100], file[1200], tmp[1200], text[64];
  snprintf(dir, sizeof dir, "%.*s", (int)(pl - 10), path);
  snprintf(file, sizeof file, "%s/.fake_watts", dir);
  int fd = real_open(file, O_RDONLY);
  if (fd < 0) return;
  ssize_t n = read(fd, text, sizeof text - 1);
  close(fd);
  if (n <= 0) return;
  text[n] = 0;
  const double watts = atof(text);
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  double t = ts.tv_sec + 1e-9 * ts.tv_nsec - atof(getenv("FAKE_POWERCAP_T0") ? getenv("FAKE_POWERCAP_T0") : "0");
  const double step = atof(getenv("FAKE_POWERCAP_UPDATE_MS") ? getenv("FAKE_POWERCAP_UPDATE_MS") : "0") * 1e-3;
  if (step > 0) t = (double)(long long)(t / step) * step;
  const unsigned long long range = strtoull(getenv("FAKE_POWERCAP_RANGE") ? getenv("FAKE_POWERCAP_RANGE") : "0", NULL, 10);
  const int k = snprintf(text, sizeof text, "%llu\n", (unsigned long long)(watts * t * 1e6) % (range + 1));
  /* one name per thread: the meter's threads open these files at once */
  snprintf(tmp, sizeof tmp, "%s/.energy_uj.%ld", dir, (long)syscall(SYS_gettid));
  fd = real_open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return;
  const int ok = write(fd, text, (size_t)k) == k;
  close(fd);
  if (ok) rename(tmp, path);
}

int open(const char *path, int flags, ...) {
  if (!real_open) real_open = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
  mode_t mode = 0;
  if (flags & O_CREAT) {
    va_list ap;
    va_start(ap, flags);
    mode = (mode_t)va_arg(ap, int);
    va_end(ap);
  }
  refresh(path);
  return real_open(path, flags, mode);
}
