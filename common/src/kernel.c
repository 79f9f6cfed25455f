/* The kernel-table adapter (pp/kernel.h): a pp_kernel becomes a pp_measure
 * row of the one measurement path. */
#include <stdio.h>
#include <string.h>
#include "pp/kernel.h"
#include "pp/measure.h"
#include "pp/report.h"

pp_measure pp_kernel_measure(const pp_kernel *k, long long n, const char *variant) {
  const long long size = k->size > 0 ? k->size : n;
  const pp_measure spec = {.name = k->name,
                           .unit = k->unit,
                           .size = size,
                           .variant = variant && *variant ? variant : NULL,
                           .bytes = k->bytes ? k->bytes(size) : 0,
                           .flops = k->flops ? k->flops(size) : 0,
                           .work = k->work ? k->work(size) : 0,
                           .calls = k->calls,
                           .ranks = PP_RANKS_REPLICATED};
  return spec;
}

int pp_kernel_bench(pp_session *s, pp_model m, const pp_kernel *k, void *ctx, long long n,
                    const char *variant) {
  const pp_measure spec = pp_kernel_measure(k, n, variant);
  if (k->setup) k->setup(ctx);
  return (int)(pp_measure_run(s, m, &spec, k->run, ctx, k->verify) - pp_report_row(s->report, 0));
}

const char *pp_kernel_select(const char *list, const pp_kernel *table, int count,
                             uint64_t *mask) {
  static char msg[96];
  *mask = 0;
  for (const char *p = list; *p;) {
    size_t len = strcspn(p, ",");
    if (len == 0) return "empty name in the kernel list";
    if (len == 3 && !strncmp(p, "all", 3)) {
      *mask |= count >= 64 ? ~0ull : (1ull << count) - 1;
    } else {
      int i = 0;
      while (i < count && !(strlen(table[i].name) == len && !strncmp(p, table[i].name, len))) i++;
      if (i == count) {
        snprintf(msg, sizeof msg, "unknown kernel '%.*s'", len > 40 ? 40 : (int)len, p);
        return msg;
      }
      *mask |= 1ull << i;
    }
    p += len;
    if (*p == ',' && !*++p) return "empty name in the kernel list";
  }
  return *mask ? NULL : "empty kernel list";
}

void pp_kernel_help(char *buf, size_t len, const pp_kernel *table, int count) {
  size_t used = 0;
  if (len) buf[0] = '\0';
  for (int i = 0; i < count && used < len; i++) {
    int w = snprintf(buf + used, len - used, "  %-16s %s\n", table[i].name,
                     table[i].help ? table[i].help : "");
    if (w < 0) break;
    used += (size_t)w;
  }
}
