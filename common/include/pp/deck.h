/* Input decks: small UTF-8 text files of `key = value` lines. `#` starts a
 * comment (to the end of the line), blank lines are ignored, keys are
 * case-sensitive names ([A-Za-z_][A-Za-z0-9_.-]*), a key may appear once.
 * LF or CRLF line ends; a leading UTF-8 byte-order mark is skipped.
 * Refused: anything but a regular file (a directory, FIFO, device such as
 * /dev/zero), more than PP_DECK_MAX_BYTES bytes, PP_DECK_MAX_LINES lines or
 * PP_DECK_MAX_KEYS keys, a line over PP_DECK_LINE_MAX characters, a NUL or
 * other control byte (tab aside), a CR not before LF, bytes that are not
 * UTF-8. Every error (also a line without '=', a duplicate key, a missing
 * key, a value that is not a number or is out of range, an unknown key)
 * prints one message naming the file, the line and the value, with any
 * control byte shown as \xNN, and exits 2 (pp_usage_error). */
#ifndef PP_DECK_H
#define PP_DECK_H
#include "pp/portable.h"
PP_EXTERN_C_BEGIN

#define PP_DECK_MAX_BYTES (1 << 20)
#define PP_DECK_MAX_LINES 100000
#define PP_DECK_MAX_KEYS 10000
#define PP_DECK_LINE_MAX 1024

typedef struct pp_deck pp_deck;

/* Reads and parses `path`; `app` names the program in error messages. */
pp_deck *pp_deck_read(const char *app, const char *path);
void pp_deck_free(pp_deck *d);
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

/* Exits 2 naming the first key (in file order) that is not in the
 * NULL-terminated list `known`, with its file and line, and the nearest
 * known key when one is close, e.g.
 *   deck.deck:3: unknown key 'n' (did you mean 'N'?)
 * or the list of known keys otherwise (catches typos such as `n = 150`). */
void pp_deck_only(const pp_deck *d, const char *const *known);

PP_EXTERN_C_END
#endif
