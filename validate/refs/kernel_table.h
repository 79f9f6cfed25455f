/* Per-name kernel time totals (count, sum, min, max in ns) and the file the
 * peers step reads (validate/pptools/peers/kerneltime.py parses it):
 *   # pp-kernel-time 1: count total_ns min_ns max_ns name
 *   <count> <total_ns> <min_ns> <max_ns> <name>      one line per kernel name
 *   # dropped <n>                                    records CUPTI lost
 *   # error <text>                                   only when CUPTI failed
 *   # end                                            written last: a complete file
 * Kept apart from the CUPTI glue (kernel_time.c) so that a CPU test can drive it. */
#ifndef PP_KERNEL_TABLE_H
#define PP_KERNEL_TABLE_H
#include <stdint.h>

/* Adds one kernel of `ns` nanoseconds under `name` (copied); thread-safe.
 * Returns 0, or -1 when out of memory (then counted as dropped). */
int kt_add(const char *name, uint64_t ns);
/* Counts records lost elsewhere (CUPTI's dropped records). */
void kt_dropped(uint64_t n);
/* Keeps the first CUPTI failure's text for the file's "# error" line. */
void kt_error(const char *what);
/* Writes the file to path (through path.tmp and a rename: a reader never
 * sees half a file), except that an empty table (no kernel, nothing dropped,
 * no error) leaves a file already there alone: another process of the run
 * (Open MPI's orted) wrote or will write the real one. Returns 0, or -1 with
 * errno set. */
int kt_write(const char *path);
#endif
