/* Escaped terminal text (pp/escape.h). */
#include <stdarg.h>
#include <stdlib.h>
#include "pp/escape.h"
#include "pp/json.h"

void pp_fputs_escaped(FILE *f, const char *s) {
  const unsigned char *p = (const unsigned char *)s;
  while (*p) {
    int n = pp_utf8_len(p);
    if (n == 1 && *p >= 0x20 && *p != 0x7f) fputc(*p, f);
    else if (n >= 2 && !(n == 2 && p[0] == 0xc2 && p[1] < 0xa0)) fwrite(p, 1, (size_t)n, f);
    else {
      fprintf(f, "\\x%02x", *p);
      n = 1;
    }
    p += n;
  }
}

void pp_error_line(const char *app, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *msg = n >= 0 ? malloc((size_t)n + 1) : NULL;
  fprintf(stderr, "%s: ", app);
  if (msg) {
    va_start(ap, fmt);
    vsnprintf(msg, (size_t)n + 1, fmt, ap);
    va_end(ap);
    pp_fputs_escaped(stderr, msg);
    free(msg);
  } else {
    pp_fputs_escaped(stderr, fmt); /* out of memory: the message without its values */
  }
  fputc('\n', stderr);
  fflush(stderr);
}
