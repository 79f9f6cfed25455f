/* Input deck reader (pp/deck.h). Decks are tiny, so a flat array of entries
 * and linear look-ups are all that is needed. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pp/cli.h"
#include "pp/deck.h"

#define DECK_LINE_MAX 1024
#define DECK_KEY_MAX 64

typedef struct deck_entry {
  char key[DECK_KEY_MAX];
  char *value;
  int line;
} deck_entry;

struct pp_deck {
  char app[64];
  char path[1024];
  deck_entry *e;
  int n, cap;
};

static char *trim(char *s) {
  while (isspace((unsigned char)*s)) s++;
  char *end = s + strlen(s);
  while (end > s && isspace((unsigned char)end[-1])) *--end = '\0';
  return s;
}

static int valid_key(const char *k) {
  if (!(isalpha((unsigned char)*k) || *k == '_')) return 0;
  for (k++; *k; k++)
    if (!(isalnum((unsigned char)*k) || *k == '_' || *k == '.' || *k == '-')) return 0;
  return 1;
}

static const deck_entry *find(const pp_deck *d, const char *key) {
  for (int i = 0; i < d->n; i++)
    if (!strcmp(d->e[i].key, key)) return &d->e[i];
  return NULL;
}

pp_deck *pp_deck_read(const char *app, const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) pp_usage_error(app, "cannot open input deck '%s': %s", path, strerror(errno));
  pp_deck *d = calloc(1, sizeof *d);
  snprintf(d->app, sizeof d->app, "%s", app);
  snprintf(d->path, sizeof d->path, "%s", path);
  char buf[DECK_LINE_MAX + 2];
  for (int line = 1; fgets(buf, sizeof buf, f); line++) {
    size_t len = strlen(buf);
    if (len == sizeof buf - 1 && buf[len - 1] != '\n' && !feof(f))
      pp_usage_error(app, "%s:%d: line longer than %d characters", path, line, DECK_LINE_MAX);
    buf[strcspn(buf, "\r")] = '\0'; /* tolerate CRLF files */
    char *hash = strchr(buf, '#');
    if (hash) *hash = '\0';
    char *s = trim(buf);
    if (!*s) continue;
    char *eq = strchr(s, '=');
    if (!eq) pp_usage_error(app, "%s:%d: expected 'key = value', found '%s'", path, line, s);
    *eq = '\0';
    char *key = trim(s), *val = trim(eq + 1);
    if (!valid_key(key) || strlen(key) >= DECK_KEY_MAX)
      pp_usage_error(app, "%s:%d: '%s' is not a valid key", path, line, key);
    if (!*val) pp_usage_error(app, "%s:%d: '%s' has no value", path, line, key);
    const deck_entry *old = find(d, key);
    if (old) pp_usage_error(app, "%s:%d: '%s' is set again (first on line %d)", path, line, key, old->line);
    if (d->n == d->cap) {
      d->cap = d->cap ? 2 * d->cap : 16;
      d->e = realloc(d->e, sizeof *d->e * (size_t)d->cap);
    }
    deck_entry *e = &d->e[d->n++];
    snprintf(e->key, sizeof e->key, "%s", key);
    e->value = malloc(strlen(val) + 1);
    strcpy(e->value, val);
    e->line = line;
  }
  if (ferror(f)) pp_usage_error(app, "cannot read input deck '%s'", path);
  fclose(f);
  return d;
}

void pp_deck_free(pp_deck *d) {
  if (!d) return;
  for (int i = 0; i < d->n; i++) free(d->e[i].value);
  free(d->e);
  free(d);
}

const char *pp_deck_path(const pp_deck *d) { return d->path; }
int pp_deck_has(const pp_deck *d, const char *key) { return find(d, key) != NULL; }

static const deck_entry *need(const pp_deck *d, const char *key) {
  const deck_entry *e = find(d, key);
  if (!e) pp_usage_error(d->app, "%s: no '%s = ...' line in the input deck", d->path, key);
  return e;
}

static long long to_int(const pp_deck *d, const deck_entry *e, long long lo, long long hi) {
  char *end;
  errno = 0;
  long long v = strtoll(e->value, &end, 10);
  if (errno || end == e->value || *end)
    pp_usage_error(d->app, "%s:%d: %s = '%s' is not an integer", d->path, e->line, e->key, e->value);
  if (v < lo || v > hi)
    pp_usage_error(d->app, "%s:%d: %s = %lld is outside [%lld, %lld]", d->path, e->line, e->key, v,
                   lo, hi);
  return v;
}

static double to_double(const pp_deck *d, const deck_entry *e, double lo, double hi) {
  char *end;
  errno = 0;
  double v = strtod(e->value, &end);
  if (errno == ERANGE || end == e->value || *end || !isfinite(v))
    pp_usage_error(d->app, "%s:%d: %s = '%s' is not a finite number", d->path, e->line, e->key,
                   e->value);
  if (v < lo || v > hi)
    pp_usage_error(d->app, "%s:%d: %s = %g is outside [%g, %g]", d->path, e->line, e->key, v, lo, hi);
  return v;
}

long long pp_deck_int(const pp_deck *d, const char *key, long long lo, long long hi) {
  return to_int(d, need(d, key), lo, hi);
}
double pp_deck_double(const pp_deck *d, const char *key, double lo, double hi) {
  return to_double(d, need(d, key), lo, hi);
}
const char *pp_deck_string(const pp_deck *d, const char *key) { return need(d, key)->value; }

long long pp_deck_int_or(const pp_deck *d, const char *key, long long lo, long long hi,
                         long long def) {
  const deck_entry *e = find(d, key);
  return e ? to_int(d, e, lo, hi) : def;
}
double pp_deck_double_or(const pp_deck *d, const char *key, double lo, double hi, double def) {
  const deck_entry *e = find(d, key);
  return e ? to_double(d, e, lo, hi) : def;
}
const char *pp_deck_string_or(const pp_deck *d, const char *key, const char *def) {
  const deck_entry *e = find(d, key);
  return e ? e->value : def;
}

void pp_deck_only(const pp_deck *d, const char *const *known) {
  for (int i = 0; i < d->n; i++) {
    const char *const *k = known;
    while (*k && strcmp(*k, d->e[i].key)) k++;
    if (!*k) pp_usage_error(d->app, "%s:%d: unknown key '%s'", d->path, d->e[i].line, d->e[i].key);
  }
}
