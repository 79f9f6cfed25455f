/* The one checked way every app reads an input file. pp_input_open refuses,
 * before reading a byte, anything but a regular file: a directory ("is a
 * directory"), a FIFO, a device such as /dev/zero, a socket (the open never
 * blocks: O_NONBLOCK, then fstat), and a file over the caller's size limit.
 * Lines come one at a time with a length limit; a NUL or other control byte
 * (tab aside), a CR not before LF, and, where asked, bytes that are not
 * UTF-8 are refused with the file and line. Every refusal is one line,
 * "<app>: <message>", exit 2 (pp_usage_error, so inside pp_usage_collective
 * it is this rank's verdict); the reader frees itself first. A leading UTF-8
 * byte-order mark is skipped; CRLF line ends are read as LF. */
#ifndef PP_INPUT_H
#define PP_INPUT_H
#include <stddef.h>
#include "pp/portable.h"
PP_EXTERN_C_BEGIN

typedef struct pp_input_rules {
  const char *what;     /* names the file in messages: "input deck", "data file" */
  const char *a_what;   /* the same in "<a_what> has at most N bytes": "a deck" */
  long long max_bytes;  /* larger files are refused */
  int max_line;         /* longer lines (bytes, line end not counted) are refused */
  int max_lines;        /* more lines are refused; 0: no limit */
  int utf8;             /* 1: bytes that are not UTF-8, and C1 controls, are refused too */
} pp_input_rules;

typedef struct pp_input pp_input;

/* Opens `path` for reading by `rules` (copied; `what` and `a_what` must
 * outlive the reader); `app` names the program in messages. */
pp_input *pp_input_open(const char *app, const char *path, const pp_input_rules *rules);
/* The next line, without its line end, NUL-terminated, valid until the next
 * call; NULL at the end of the file. */
char *pp_input_line(pp_input *in);
/* Number of the line pp_input_line returned last (1-based; 0 before the first). */
int pp_input_line_number(const pp_input *in);
void pp_input_close(pp_input *in);

/* The whole file through the same checks: its lines, each ended by '\n'
 * (CRLF read as LF, a BOM skipped), as one NUL-terminated string the caller
 * frees; *len (unless len is NULL) is its length. */
char *pp_input_read_all(const char *app, const char *path, const pp_input_rules *rules, size_t *len);

PP_EXTERN_C_END
#endif
