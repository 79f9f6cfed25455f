/* Result files through an exclusive temporary file and a rename (pp/outfile.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "pp/outfile.h"

/* "<dir>/.<name>.tmp-XXXXXX": in the target's directory, so the rename stays
 * on one file system. At most 100 bytes of the name are used, so the
 * temporary name stays within NAME_MAX; it is unique by mkstemp anyway. */
static char *temp_name(const char *path) {
  const char *slash = strrchr(path, '/');
  size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
  const char *base = slash ? slash + 1 : path;
  size_t baselen = strlen(base);
  if (baselen > 100) baselen = 100;
  char *t = malloc(dirlen + baselen + 16);
  if (!t) return NULL;
  memcpy(t, path, dirlen);
  t[dirlen] = '.';
  memcpy(t + dirlen + 1, base, baselen);
  strcpy(t + dirlen + 1 + baselen, ".tmp-XXXXXX");
  return t;
}

/* Only a regular file, or a name not yet taken, is a target: the content is
 * renamed over it, so the target itself is never opened (a FIFO without a
 * reader would block the run forever) and a device or a symlink to one is
 * never written through. stat follows symlinks, so a symlink to a device
 * is refused as the device. */
static const char *target_problem(const char *path) {
  size_t n = strlen(path);
  if (n == 0) return "is an empty file name";
  if (path[n - 1] == '/') return "is a directory";
  struct stat st;
  if (stat(path, &st) == 0) {
    if (S_ISDIR(st.st_mode)) return "is a directory";
    if (S_ISFIFO(st.st_mode)) return "is a FIFO (an output is a regular file or a new path)";
    if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) return "is a device (an output is a regular file or a new path)";
    if (!S_ISREG(st.st_mode)) return "is neither a regular file nor a new path";
  } else if (errno == ENAMETOOLONG || errno == ELOOP || errno == ENOTDIR || errno == EACCES) {
    return strerror(errno);
  }
  return NULL;
}

static int open_temp(pp_outfile *o, const char *path);
int pp_outfile_open(pp_outfile *o, const char *path) {
  if (open_temp(o, path) == 0) return 0;
  const int e = errno;
  pp_outfiles_failed(); /* an output of the run cannot be written */
  errno = e;
  return -1;
}

static int open_temp(pp_outfile *o, const char *path) {
  o->f = NULL;
  o->tmp = NULL;
  o->path = NULL;
  const char *bad = target_problem(path);
  if (bad) {
    errno = EINVAL;
    return -1;
  }
  o->tmp = temp_name(path);
  o->path = malloc(strlen(path) + 1);
  if (!o->tmp || !o->path) goto fail;
  strcpy(o->path, path);
  int fd = mkstemp(o->tmp); /* O_CREAT|O_EXCL: never an existing file or symlink */
  if (fd < 0) goto fail;
  mode_t mask = umask(0); /* mkstemp makes 0600; a result file gets the usual mode */
  umask(mask);
  if (fchmod(fd, 0666 & ~mask) != 0 || !(o->f = fdopen(fd, "w"))) {
    int e = errno;
    close(fd);
    unlink(o->tmp);
    errno = e;
    goto fail;
  }
  return 0;
fail:;
  int e = errno;
  free(o->tmp);
  free(o->path);
  o->tmp = o->path = NULL;
  errno = e;
  return -1;
}

void pp_outfile_abort(pp_outfile *o) {
  if (o->f) fclose(o->f);
  if (o->tmp) unlink(o->tmp);
  free(o->tmp);
  free(o->path);
  o->f = NULL;
  o->tmp = o->path = NULL;
}

int pp_outfile_commit(pp_outfile *o) {
  if (!o->f) return -1;
  int ok = !ferror(o->f) && fflush(o->f) == 0 && (!o->tmp || fsync(fileno(o->f)) == 0);
  ok = fclose(o->f) == 0 && ok;
  o->f = NULL;
  if (ok && rename(o->tmp, o->path) == 0) { /* atomic: the old or the new file, never half */
    free(o->tmp);
    o->tmp = NULL;
    pp_outfile_abort(o);
    return 0;
  }
  int e = errno;
  pp_outfile_abort(o);
  errno = e;
  return -1;
}

const char *pp_outfile_check(const char *path) {
  static char msg[160];
  const char *bad = target_problem(path);
  if (bad) return bad;
  pp_outfile o;
  if (open_temp(&o, path) != 0) { /* a check: no output of the run has failed */
    snprintf(msg, sizeof msg, "%s", strerror(errno));
    return msg;
  }
  pp_outfile_abort(&o);
  return NULL;
}

/* ---- a run's outputs: all of them, or none ----------------------------------------- */
static struct staged {
  char *tmp, *path;
} *staged;
static int nstaged, failed;

void pp_outfiles_failed(void) { failed = 1; }

int pp_outfile_stage(pp_outfile *o) {
  if (!o->f) return pp_outfiles_failed(), -1;
  int ok = !ferror(o->f) && fflush(o->f) == 0 && fsync(fileno(o->f)) == 0;
  ok = fclose(o->f) == 0 && ok;
  o->f = NULL;
  struct staged *more = ok ? realloc(staged, sizeof *staged * (size_t)(nstaged + 1)) : NULL;
  if (!more) {
    const int e = ok ? ENOMEM : errno;
    pp_outfile_abort(o);
    pp_outfiles_failed();
    errno = e;
    return -1;
  }
  staged = more;
  staged[nstaged].tmp = o->tmp, staged[nstaged].path = o->path, nstaged++;
  o->tmp = o->path = NULL; /* now the run's: published or removed at the end */
  return 0;
}

int pp_outfiles_publish(void) {
  int rc = failed ? 1 : 0, e = 0;
  for (int i = 0; i < nstaged; i++) {
    if (!failed && rename(staged[i].tmp, staged[i].path) != 0) {
      if (!e) e = errno;
      rc = -1;
    }
    if (failed || rc) unlink(staged[i].tmp);
    free(staged[i].tmp), free(staged[i].path);
  }
  free(staged);
  staged = NULL;
  nstaged = 0;
  if (e) errno = e;
  return rc;
}
