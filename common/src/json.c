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
  for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
    if (*p == '"' || *p == '\\') fprintf(j->f, "\\%c", *p);
    else if (*p < 0x20) fprintf(j->f, "\\u%04x", *p);
    else fputc(*p, j->f);
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
