/* The report's writers, called by pp_report_finish on rank 0 once the rows
 * have their ratios and the ranks' provenance is gathered. */
#ifndef PP_REPORT_WRITERS_H
#define PP_REPORT_WRITERS_H
#include <stdio.h>
#include "pp/report.h"
PP_EXTERN_C_BEGIN

/* The text report: header (build, system, problem, devices), the table of
 * rows, the verdict line and the summary (report_text.c). */
void pp_report_print(const pp_report *r, FILE *f);
/* The result file (schema proxyport-result-1, validate/schema/), written
 * atomically (report_json.c). 0, or -1 when it cannot be written. */
int pp_report_write_json(const pp_report *r, const char *path);
/* One CSV row per result, written atomically (report_csv.c). 0, or -1. */
int pp_report_write_csv(const pp_report *r, const char *path);

PP_EXTERN_C_END
#endif
