/* Result files written so that a crash, a kill or a full disk never leaves a
 * wrong or partial file under the requested name: the content goes to a
 * fresh temporary file in the target's directory (created exclusively by
 * mkstemp, so no existing file or symlink is ever opened), which is renamed
 * over the target once complete, and removed on every error path. Paths are
 * never copied into fixed buffers or truncated. A killed run may leave a
 * temporary file ".<name>.tmp-XXXXXX" beside the target. The target must be
 * a regular file or a new path: a FIFO, a device, a directory, a socket or a
 * symlink to one is refused, so no open can block (a FIFO without a reader)
 * and nothing is written through to a device. */
#ifndef PP_OUTFILE_H
#define PP_OUTFILE_H
#include <stdio.h>
#include "pp/portable.h"
PP_EXTERN_C_BEGIN

typedef struct pp_outfile {
  FILE *f;    /* write the content here */
  char *path; /* the target */
  char *tmp;  /* the temporary file */
} pp_outfile;

/* Can `path` be written as a result file? Refuses a directory, a FIFO, a
 * device, a socket (or a symlink to one), a missing or unwritable directory,
 * a name too long.
 * Tries by creating and removing a temporary file. Returns NULL, or a
 * message (static storage) such as "is a directory". */
const char *pp_outfile_check(const char *path);

/* Creates the temporary file for `path`. 0, or -1 with errno set. */
int pp_outfile_open(pp_outfile *o, const char *path);
/* Completes the file: checks for write errors, flushes to disk, renames it
 * over the target. 0, or -1 (the temporary file is removed). */
int pp_outfile_commit(pp_outfile *o);
/* Gives up: closes and removes the temporary file. */
void pp_outfile_abort(pp_outfile *o);

/* ---- a run's outputs: all of them, or none -------------------------------------- */
/* The exit code of a run whose outputs could not be written (none was):
 * not a failed validation (1), not a usage error (2), not a device error (3). */
#define PP_EXIT_OUTPUT 4
/* Completes the file as pp_outfile_commit does but keeps it aside: it
 * replaces its target only at pp_outfiles_publish. 0, or -1 with errno (the
 * temporary file removed, and the run's outputs marked failed). */
int pp_outfile_stage(pp_outfile *o);
/* An output of the run could not be written (its writer says why). */
void pp_outfiles_failed(void);
/* Renames every staged file over its target, or, where an output failed,
 * removes them all: 0; 1, nothing published: an output failed (its writer
 * said why); -1, a rename failed (errno). */
int pp_outfiles_publish(void);

PP_EXTERN_C_END
#endif
