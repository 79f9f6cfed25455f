/* Checked input files (pp/input.h): regular files only, bounded in size and
 * line length, read through a fixed buffer so that no input can hang the
 * reader or make it allocate more than the caller allows. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "pp/agree.h"
#include "pp/cli.h"
#include "pp/input.h"
#include "pp/runfiles.h"
#include "pp/json.h"

#define CHUNK 65536

struct pp_input {
  const char *app;
  char *path;
  pp_input_rules r;
  int fd;
  char *buf;       /* bytes read and not yet returned: [pos, len); buf[len] == '\0' */
  size_t cap, pos, len;
  int eof, line;
  long long size;  /* as fstat saw it */
  long long read;  /* bytes read so far */
  char *all;       /* pp_input_read_all's text, owned here until it is handed over */
  uint64_t digest; /* of the bytes read: ranks compare their inputs (pp/agree.h) */
};

static void input_free(pp_input *in) {
  if (!in) return;
  if (in->fd >= 0) close(in->fd);
  free(in->buf);
  free(in->path);
  free(in->all);
  free(in);
}

/* Frees the reader, then reports; the message is formatted first (it quotes
 * the path), and only the message is cut, never a path used to open a file. */
static void input_fail(pp_input *in, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3), noreturn))
#endif
    ;
static void input_fail(pp_input *in, const char *fmt, ...) {
  char msg[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  const char *app = in->app;
  input_free(in);
  pp_usage_error(app, "%s", msg);
}

pp_input *pp_input_open(const char *app, const char *path, const pp_input_rules *rules) {
  pp_input *in = calloc(1, sizeof *in);
  if (!in) pp_usage_error(app, "cannot read %s '%s': out of memory", rules->what, path);
  in->app = app;
  in->r = *rules;
  in->fd = -1;
  in->cap = (size_t)rules->max_line + 2 + CHUNK; /* a whole line and its CR LF, and room to read */
  if (!(in->path = malloc(strlen(path) + 1)) || !(in->buf = malloc(in->cap + 1)))
    input_fail(in, "cannot read %s '%s': out of memory", rules->what, path);
  strcpy(in->path, path);
  in->buf[0] = '\0';
  /* O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below. */
  in->fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
  if (in->fd < 0) {
    const int e = errno;
    input_fail(in, "cannot open %s '%s': %s", rules->what, path, strerror(e));
  }
  struct stat st;
  if (fstat(in->fd, &st) != 0) {
    const int e = errno;
    input_fail(in, "cannot read %s '%s': %s", rules->what, path, strerror(e));
  }
  if (S_ISDIR(st.st_mode)) input_fail(in, "%s '%s' is a directory", rules->what, path);
  if (!S_ISREG(st.st_mode))
    input_fail(in, "%s '%s' is not a regular file (a device, FIFO or socket)", rules->what, path);
  if (st.st_size > rules->max_bytes)
    input_fail(in, "%s '%s' has %lld bytes; %s has at most %lld", rules->what, path, (long long)st.st_size,
               rules->a_what, rules->max_bytes);
  char *clash = pp_runfiles_input(rules->what, path, &st); /* never also an output of the run */
  if (clash) {
    input_free(in);
    pp_usage_error(app, "%s", clash);
  }
  in->size = st.st_size;
  in->digest = PP_AGREE_DIGEST0;
  return in;
}

/* Text: no NUL, no control byte but tab, no CR (one before LF is gone by
 * now); with rules.utf8 also UTF-8 only, no C1 control. A line cut short by
 * the buffer (`whole` 0) is checked for control bytes only: a character may
 * continue past the cut. */
static void check_bytes(pp_input *in, const char *s, size_t n, int line, int whole) {
  const unsigned char *p = (const unsigned char *)s;
  for (size_t i = 0; i < n;) {
    const unsigned c = p[i];
    if (c == '\r') input_fail(in, "%s:%d: carriage return (\\r) not followed by a newline", in->path, line);
    if (c == 0) input_fail(in, "%s:%d: NUL byte (\\x00): not a text file", in->path, line);
    if ((c < 0x20 && c != '\t') || c == 0x7f)
      input_fail(in, "%s:%d: control character \\x%02x", in->path, line, c);
    if (c < 0x80 || !in->r.utf8 || !whole) {
      i++;
      continue;
    }
    const int k = pp_utf8_len(p + i);
    if (k == 0) input_fail(in, "%s:%d: byte \\x%02x is not UTF-8 text", in->path, line, c);
    if (k == 2 && c == 0xc2 && p[i + 1] < 0xa0) /* C1 controls, e.g. U+009B (CSI) */
      input_fail(in, "%s:%d: control character U+%04X", in->path, line, p[i + 1]);
    i += (size_t)k;
  }
}

/* Reads more bytes after the unreturned ones; sets eof at the end. */
static void fill(pp_input *in) {
  if (in->pos) {
    memmove(in->buf, in->buf + in->pos, in->len - in->pos);
    in->len -= in->pos, in->pos = 0;
  }
  ssize_t got;
  do got = read(in->fd, in->buf + in->len, in->cap - in->len);
  while (got < 0 && errno == EINTR);
  if (got < 0) {
    const int e = errno;
    input_fail(in, "cannot read %s '%s': %s", in->r.what, in->path, strerror(e));
  }
  in->digest = pp_agree_digest(in->digest, in->buf + in->len, (size_t)got);
  in->len += (size_t)got;
  in->buf[in->len] = '\0';
  in->read += got;
  if (got == 0) in->eof = 1;
  if (in->read > in->r.max_bytes) input_fail(in, "%s '%s' changed while it was read", in->r.what, in->path);
}

char *pp_input_line(pp_input *in) {
  for (;;) {
    char *start = in->buf + in->pos;
    const size_t avail = in->len - in->pos;
    char *nl = memchr(start, '\n', avail);
    if (nl || (in->eof && avail)) {
      size_t n = nl ? (size_t)(nl - start) : avail;
      in->pos += n + (nl != NULL);
      start[n] = '\0';
      if (nl && n && start[n - 1] == '\r') start[--n] = '\0'; /* CRLF */
      if (++in->line > in->r.max_lines && in->r.max_lines)
        input_fail(in, "%s: more than %d lines; %s has at most that many", in->path, in->r.max_lines, in->r.a_what);
      if (in->line == 1 && !strncmp(start, "\xEF\xBB\xBF", 3)) start += 3, n -= 3; /* a UTF-8 byte-order mark */
      check_bytes(in, start, n, in->line, 1);
      if (n > (size_t)in->r.max_line)
        input_fail(in, "%s:%d: line longer than %d characters", in->path, in->line, in->r.max_line);
      return start;
    }
    if (in->eof) return NULL;
    if (avail > (size_t)in->r.max_line + 1) { /* no line end within a line's length (and a CR) */
      check_bytes(in, start, avail, in->line + 1, 0);
      input_fail(in, "%s:%d: line longer than %d characters", in->path, in->line + 1, in->r.max_line);
    }
    fill(in);
  }
}

int pp_input_line_number(const pp_input *in) { return in->line; }

void pp_input_close(pp_input *in) {
  if (in) pp_agree_input(in->r.what, in->path, in->digest, in->read);
  input_free(in);
}

char *pp_input_read_all(const char *app, const char *path, const pp_input_rules *rules, size_t *len) {
  pp_input *in = pp_input_open(app, path, rules);
  size_t cap = (size_t)in->size + 2, n = 0; /* LF for CRLF and a skipped BOM only shrink it */
  if (!(in->all = malloc(cap))) input_fail(in, "cannot read %s '%s': out of memory", rules->what, path);
  for (const char *l; (l = pp_input_line(in));) {
    const size_t k = strlen(l);
    if (n + k + 2 > cap) { /* the file grew while it was read */
      char *more = realloc(in->all, 2 * (n + k + 2));
      if (!more) input_fail(in, "cannot read %s '%s': out of memory", rules->what, path);
      in->all = more, cap = 2 * (n + k + 2);
    }
    memcpy(in->all + n, l, k);
    n += k;
    in->all[n++] = '\n';
  }
  in->all[n] = '\0';
  char *text = in->all;
  in->all = NULL;
  pp_input_close(in);
  if (len) *len = n;
  return text;
}
