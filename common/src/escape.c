/* Escaped terminal text (pp/escape.h). */
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
