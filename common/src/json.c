#include <math.h>
#include "pp/json.h"

static void sep(pp_json *j, const char *key) {
  if (!j->first[j->depth]) fputc(',', j->f);
  j->first[j->depth] = 0;
  fputc('\n', j->f);
  for (int i = 0; i < j->depth; i++) fputs("  ", j->f);
  if (key) fprintf(j->f, "\"%s\": ", key);
}

static void open_(pp_json *j, const char *key, char c) {
  sep(j, key);
  fputc(c, j->f);
  j->first[++j->depth] = 1;
}

static void close_(pp_json *j, char c) {
  int empty = j->first[j->depth];
  j->depth--;
  if (!empty) {
    fputc('\n', j->f);
    for (int i = 0; i < j->depth; i++) fputs("  ", j->f);
  }
  fputc(c, j->f);
}

void pp_json_begin(pp_json *j, FILE *f) {
  j->f = f;
  j->depth = 0;
  j->first[0] = 1;
  fputc('{', f);
  j->first[++j->depth] = 1;
}

void pp_json_end(pp_json *j) {
  close_(j, '}');
  fputc('\n', j->f);
}

void pp_json_obj(pp_json *j, const char *key) { open_(j, key, '{'); }
void pp_json_obj_end(pp_json *j) { close_(j, '}'); }
void pp_json_arr(pp_json *j, const char *key) { open_(j, key, '['); }
void pp_json_arr_end(pp_json *j) { close_(j, ']'); }

void pp_json_str(pp_json *j, const char *key, const char *v) {
  sep(j, key);
  if (!v) { fputs("null", j->f); return; }
  fputc('"', j->f);
  for (const unsigned char *p = (const unsigned char *)v; *p;) {
    int n = pp_utf8_len(p);
    if (n == 0) fputs("\\ufffd", j->f), n = 1; /* not UTF-8: the replacement character */
    else if (*p == '"' || *p == '\\') fprintf(j->f, "\\%c", *p);
    else if (*p < 0x20 || *p == 0x7f) fprintf(j->f, "\\u%04x", *p);
    else fwrite(p, 1, (size_t)n, j->f);
    p += n;
  }
  fputc('"', j->f);
}

void pp_json_num(pp_json *j, const char *key, double v) {
  sep(j, key);
  if (isfinite(v)) fprintf(j->f, "%.17g", v);
  else fputs("null", j->f);
}

void pp_json_int(pp_json *j, const char *key, long long v) {
  sep(j, key);
  fprintf(j->f, "%lld", v);
}

void pp_json_bool(pp_json *j, const char *key, int v) {
  sep(j, key);
  fputs(v ? "true" : "false", j->f);
}

int pp_utf8_len(const unsigned char *p) {
  unsigned c = p[0];
  int n = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
  if (n <= 1) return n;
  for (int i = 1; i < n; i++)
    if ((p[i] & 0xc0) != 0x80) return 0;
  /* no overlong forms, no surrogates, nothing above U+10FFFF */
  if ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] > 0x9f) || (c == 0xf0 && p[1] < 0x90) ||
      (c == 0xf4 && p[1] > 0x8f))
    return 0;
  return n;
}

void pp_json_num_array(pp_json *j, const char *key, const double *v, int n) {
  sep(j, key);
  fputc('[', j->f);
  for (int i = 0; i < n; i++) {
    if (i) fputs(", ", j->f);
    if (isfinite(v[i])) fprintf(j->f, "%.17g", v[i]);
    else fputs("null", j->f);
  }
  fputc(']', j->f);
}
