/* A minimal streaming JSON writer (enough for result files). */
#ifndef PP_JSON_H
#define PP_JSON_H
#include <stdio.h>
#include "pp/portable.h"
PP_EXTERN_C_BEGIN

typedef struct pp_json {
  FILE *f;
  int depth;
  int first[32]; /* per nesting level: no comma needed yet */
} pp_json;

void pp_json_begin(pp_json *j, FILE *f);           /* opens the top object */
void pp_json_end(pp_json *j);                      /* closes it, newline */
void pp_json_obj(pp_json *j, const char *key);     /* key NULL inside arrays */
void pp_json_obj_end(pp_json *j);
void pp_json_arr(pp_json *j, const char *key);
void pp_json_arr_end(pp_json *j);
/* NULL -> null. Control characters are escaped; bytes that are not UTF-8
 * (a non-UTF-8 file name, a string cut inside a character) become U+FFFD,
 * so the file is always valid JSON. */
void pp_json_str(pp_json *j, const char *key, const char *v);
void pp_json_num(pp_json *j, const char *key, double v);      /* NaN/inf -> null */
void pp_json_int(pp_json *j, const char *key, long long v);
void pp_json_bool(pp_json *j, const char *key, int v);
/* A number array on one line (raw samples). */
void pp_json_num_array(pp_json *j, const char *key, const double *v, int n);

/* Length of the UTF-8 character at p (1-4), or 0 if p does not start a
 * valid, shortest-form character (stray continuation byte, overlong form,
 * surrogate, above U+10FFFF, cut short). */
int pp_utf8_len(const unsigned char *p);

PP_EXTERN_C_END
#endif
