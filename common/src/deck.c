/* Input deck reader (pp/deck.h). The file comes through pp/input.h (a
 * regular file of bounded size, UTF-8 text, bounded lines), so no input (a
 * FIFO, /dev/zero, a directory, a huge file) can hang or exhaust the reader. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pp/cli.h"
#include "pp/deck.h"
#include "pp/input.h"

#define DECK_KEY_MAX 64

typedef struct deck_entry {
  const char *key, *value; /* into the deck's text */
  int line;
} deck_entry;

struct pp_deck {
  char *app, *path, *text;
  deck_entry *e; /* in file order */
  int *sorted;   /* entry indices by key, then line */
  int n;
};

static char *copy_str(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

static int valid_key(const char *k) {
  if (!(isalpha((unsigned char)*k) || *k == '_')) return 0;
  for (k++; *k; k++)
    if (!(isalnum((unsigned char)*k) || *k == '_' || *k == '.' || *k == '-')) return 0;
  return 1;
}

static char *trim(char *s) {
  while (*s == ' ' || *s == '\t') s++;
  char *end = s + strlen(s);
  while (end > s && (end[-1] == ' ' || end[-1] == '\t')) *--end = '\0';
  return s;
}

/* Frees everything the reader holds, then reports; the message is
 * formatted first, as it may quote the deck's text. */
static void read_fail(const char *app, pp_deck *d, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4), noreturn))
#endif
    ;
static void read_fail(const char *app, pp_deck *d, const char *fmt, ...) {
  char msg[2048]; /* only the message is cut, never a path used to open a file */
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  pp_deck_free(d);
  pp_usage_error(app, "%s", msg);
}

static const pp_deck *sort_deck; /* qsort has no context argument */
static int cmp_key(const void *a, const void *b) {
  const deck_entry *x = &sort_deck->e[*(const int *)a], *y = &sort_deck->e[*(const int *)b];
  int c = strcmp(x->key, y->key);
  return c ? c : (x->line > y->line) - (x->line < y->line);
}

pp_deck *pp_deck_read(const char *app, const char *path) {
  static const pp_input_rules rules = {"input deck", "a deck", PP_DECK_MAX_BYTES, PP_DECK_LINE_MAX,
                                       PP_DECK_MAX_LINES, 1};
  char *text = pp_input_read_all(app, path, &rules, NULL); /* first: nothing else to free if it refuses */
  pp_deck *d = calloc(1, sizeof *d);
  if (d) d->text = text;
  else free(text);
  if (!d || !(d->app = copy_str(app)) || !(d->path = copy_str(path)))
    read_fail(app, d, "cannot read input deck '%s': out of memory", path);
  path = d->path;
  char *s = d->text;
  int cap = 0, line = 0;
  while (*s) {
    char *nl = strchr(s, '\n'); /* every line ends with one */
    *nl = '\0';
    ++line;
    char *hash = strchr(s, '#');
    if (hash) *hash = '\0';
    char *body = trim(s);
    s = nl + 1;
    if (!*body) continue;
    char *eq = strchr(body, '=');
    if (!eq) read_fail(app, d, "%s:%d: expected 'key = value', found '%s'", path, line, body);
    *eq = '\0';
    char *key = trim(body), *val = trim(eq + 1);
    if (!valid_key(key) || strlen(key) >= DECK_KEY_MAX)
      read_fail(app, d, "%s:%d: '%s' is not a valid key", path, line, key);
    if (!*val) read_fail(app, d, "%s:%d: '%s' has no value", path, line, key);
    if (d->n == PP_DECK_MAX_KEYS)
      read_fail(app, d, "%s:%d: more than %d keys; a deck has at most that many", path, line,
                     PP_DECK_MAX_KEYS);
    if (d->n == cap) {
      cap = cap ? 2 * cap : 16;
      deck_entry *e = realloc(d->e, sizeof *e * (size_t)cap);
      if (!e) read_fail(app, d, "cannot read input deck '%s': out of memory", path);
      d->e = e;
    }
    d->e[d->n++] = (deck_entry){key, val, line};
  }
  /* Duplicates, in O(n log n): sort by key; report the earliest repeat. */
  d->sorted = malloc(sizeof *d->sorted * (size_t)(d->n ? d->n : 1));
  if (!d->sorted) read_fail(app, d, "cannot read input deck '%s': out of memory", path);
  for (int i = 0; i < d->n; i++) d->sorted[i] = i;
  sort_deck = d;
  qsort(d->sorted, (size_t)d->n, sizeof *d->sorted, cmp_key);
  const deck_entry *first = NULL, *again = NULL;
  for (int i = 1, run = 0; i < d->n; i++) {
    const deck_entry *b = &d->e[d->sorted[i]];
    if (strcmp(d->e[d->sorted[i - 1]].key, b->key)) { run = i; continue; }
    if (!again || b->line < again->line) again = b, first = &d->e[d->sorted[run]];
  }
  if (again)
    read_fail(app, d, "%s:%d: '%s' is set again (first on line %d)", path, again->line, again->key,
                   first->line);
  return d;
}

void pp_deck_free(pp_deck *d) {
  if (!d) return;
  free(d->app);
  free(d->path);
  free(d->text);
  free(d->e);
  free(d->sorted);
  free(d);
}

static const deck_entry *find(const pp_deck *d, const char *key) {
  int lo = 0, hi = d->n - 1;
  while (lo <= hi) { /* keys are unique: binary search over the sorted index */
    int mid = lo + (hi - lo) / 2;
    int c = strcmp(d->e[d->sorted[mid]].key, key);
    if (!c) return &d->e[d->sorted[mid]];
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return NULL;
}

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

/* Edit distance in half steps: changing only a letter's case costs 1, any
 * other insertion, deletion or substitution 2 (so 'n' is nearest to 'N'). */
static int distance(const char *a, const char *b) {
  int la = (int)strlen(a), lb = (int)strlen(b);
  int row[DECK_KEY_MAX + 1];
  if (lb > DECK_KEY_MAX) return 1 << 20;
  for (int j = 0; j <= lb; j++) row[j] = 2 * j;
  for (int i = 1; i <= la; i++) {
    int diag = row[0];
    row[0] = 2 * i;
    for (int j = 1; j <= lb; j++) {
      int ca = (unsigned char)a[i - 1], cb = (unsigned char)b[j - 1];
      int sub = ca == cb ? 0 : tolower(ca) == tolower(cb) ? 1 : 2;
      int best = diag + sub;
      if (row[j] + 2 < best) best = row[j] + 2;
      if (row[j - 1] + 2 < best) best = row[j - 1] + 2;
      diag = row[j];
      row[j] = best;
    }
  }
  return row[lb];
}

void pp_deck_only(const pp_deck *d, const char *const *known) {
  for (int i = 0; i < d->n; i++) {
    const deck_entry *e = &d->e[i];
    const char *const *k = known;
    while (*k && strcmp(*k, e->key)) k++;
    if (*k) continue;
    const char *near = NULL;
    int best = 0;
    for (k = known; *k; k++) {
      int dist = distance(e->key, *k);
      if (!near || dist < best) near = *k, best = dist;
    }
    /* a suggestion only when it is close: at most 1 + len/3 edits */
    if (near && best <= 2 * (1 + (int)strlen(e->key) / 3))
      pp_usage_error(d->app, "%s:%d: unknown key '%s' (did you mean '%s'?)", d->path, e->line, e->key,
                     near);
    char msg[2048]; /* the list of known keys, cut if it is very long */
    size_t n = 0;
    msg[0] = '\0';
    for (k = known; *k && n + 2 < sizeof msg; k++)
      n += (size_t)snprintf(msg + n, sizeof msg - n, "%s%s", k == known ? "" : ", ", *k);
    pp_usage_error(d->app, "%s:%d: unknown key '%s' (known keys: %s)", d->path, e->line, e->key,
                   *known ? msg : "none");
  }
}
