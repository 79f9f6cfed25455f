/* Ranks agree on what they run. Every rank records its command line and a
 * digest of every input file's bytes (pp/input.h records them); each
 * collective usage check (pp_usage_check_all) compares the records across
 * ranks, so ranks given different options or different inputs stop at
 * start-up with exit 2 and one line naming the first difference, instead of
 * hanging or failing inside MPI later. The one argument allowed to differ is
 * the value of --device (a per-rank binding). Without MPI: nothing to compare. */
#ifndef PP_AGREE_H
#define PP_AGREE_H
#include <stddef.h>
#include <stdint.h>
#include "pp/portable.h"
PP_EXTERN_C_BEGIN

/* Records argv[1..argc-1] (argv[0], the binary's path, may differ). */
void pp_agree_args(int argc, char **argv);
/* Records an input: `what` ("data file"), its path and the digest of its bytes. */
void pp_agree_input(const char *what, const char *path, uint64_t digest, long long bytes);
/* 64-bit FNV-1a over `n` bytes, continuing from `h` (start: PP_AGREE_DIGEST0). */
#define PP_AGREE_DIGEST0 0xcbf29ce484222325ull
uint64_t pp_agree_digest(uint64_t h, const void *bytes, size_t n);
/* Collective: NULL when every rank's record equals rank 0's, else this
 * rank's message (malloc'ed) naming the first difference, or NULL on the
 * ranks that agree with rank 0. */
char *pp_agree_check(void);

PP_EXTERN_C_END
#endif
