/* Input decks: small text files of `key = value` lines. `#` starts a comment
 * (to the end of the line), blank lines are ignored, keys are case-sensitive
 * names ([A-Za-z_][A-Za-z0-9_.-]*), a key may appear once. Every error
 * (absent or unreadable file, a line without '=', a duplicate key, a missing
 * key, a value that is not a number or is out of range) prints one message
 * naming the file, the line and the value, and exits 2 (pp_usage_error). */
#ifndef PP_DECK_H
#define PP_DECK_H
#include "pp/portable.h"
PP_EXTERN_C_BEGIN

typedef struct pp_deck pp_deck;

/* Reads and parses `path`; `app` names the program in error messages. */
pp_deck *pp_deck_read(const char *app, const char *path);
void pp_deck_free(pp_deck *d);
const char *pp_deck_path(const pp_deck *d);
/* 1 if the deck sets `key`. */
int pp_deck_has(const pp_deck *d, const char *key);

/* Required values (exit 2 when the key is missing or the value is bad). */
long long pp_deck_int(const pp_deck *d, const char *key, long long lo, long long hi);
double pp_deck_double(const pp_deck *d, const char *key, double lo, double hi);
const char *pp_deck_string(const pp_deck *d, const char *key);
/* Optional values: `def` when the key is absent; a bad value still exits 2. */
long long pp_deck_int_or(const pp_deck *d, const char *key, long long lo, long long hi,
                         long long def);
double pp_deck_double_or(const pp_deck *d, const char *key, double lo, double hi, double def);
const char *pp_deck_string_or(const pp_deck *d, const char *key, const char *def);

/* Exits 2 naming the first key that is not in the NULL-terminated list
 * `known` (catches typos such as `n = 150` for `N = 150`). */
void pp_deck_only(const pp_deck *d, const char *const *known);

PP_EXTERN_C_END
#endif
