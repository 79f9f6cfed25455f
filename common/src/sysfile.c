/* Regular files only, opened without blocking (pp/sysfile.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "pp/sysfile.h"

FILE *pp_sysfile_open(const char *path) {
  int fd;
  /* O_NONBLOCK: opening a FIFO with no writer would wait forever */
  while ((fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)) < 0 && errno == EINTR) {}
  if (fd < 0) return NULL;
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    const int err = errno && !S_ISREG(st.st_mode) ? EINVAL : errno;
    close(fd);
    errno = err ? err : EINVAL;
    return NULL;
  }
  /* a regular file's reads never block; blocking mode back for stdio */
  const int fl = fcntl(fd, F_GETFL);
  if (fl >= 0) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
  FILE *f = fdopen(fd, "r");
  if (!f) {
    const int err = errno;
    close(fd);
    errno = err;
  }
  return f;
}

const char *pp_sysfile_error(int err) { return err == EINVAL ? "not a regular file" : strerror(err); }
