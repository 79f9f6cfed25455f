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

PP_EXTERN_C_END
#endif
