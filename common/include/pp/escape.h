/* Text for a terminal from untrusted bytes (file names, arguments, decks). */
#ifndef PP_ESCAPE_H
#define PP_ESCAPE_H
#include <stdio.h>
#include "pp/portable.h"
PP_EXTERN_C_BEGIN

/* Writes `s` with every byte a terminal could act on shown as \xNN: control
 * characters (newline and tab too), DEL, C1 controls and bytes that are not
 * UTF-8; so a hostile name can neither drive the terminal nor forge a line. */
void pp_fputs_escaped(FILE *f, const char *s);
/* "<app>: <message>" and a newline on stderr, the formatted message escaped
 * as above: for messages that name a user's path or fault at any point of
 * the run, as the start-up's usage errors do. */
void pp_error_line(const char *app, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

PP_EXTERN_C_END
#endif
