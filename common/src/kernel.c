#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pp/fault.h"
#include "pp/kernel.h"
#include "pp/measure.h"
#include "pp/mpi.h"
#include "pp/validate.h"

int pp_kernel_bench(pp_session *s, pp_model m, const pp_kernel *k, void *ctx, long long n,
                    const char *variant) {
  const long long size = k->size > 0 ? k->size : n;
  const pp_measure spec = {k->name, k->unit, size, variant && *variant ? variant : NULL,
                           k->bytes ? k->bytes(size) : 0, k->flops ? k->flops(size) : 0,
                           k->work ? k->work(size) : 0, k->calls, PP_RANKS_REPLICATED, NULL, NULL};
  if (k->setup) k->setup(ctx);
  return pp_measure_run(s, m, &spec, k->run, ctx, k->verify)->valid;
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

void pp_check_mismatches(pp_row *row, size_t bad, size_t n) {
  row->valid = bad == 0;
  snprintf(row->check, sizeof row->check, "%zu of %zu elements differ (exact)", bad, n);
}

void pp_check_equal(pp_row *row, double got, double want) {
  row->valid = got == want;
  snprintf(row->check, sizeof row->check, "%.17g vs %.17g (exact)", got, want);
}

void pp_check_within(pp_row *row, const char *what, double err, double tol) {
  row->valid = pp_within(err, tol);
  snprintf(row->check, sizeof row->check, "%s %.3g <= %.3g", what, err, tol);
}

void *pp_host_alloc(const char *app, size_t bytes, const char *what) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p) {
    fprintf(stderr, "%s: cannot allocate %.1f MiB of host memory for %s\n", app,
            bytes / 1048576.0, what);
    fflush(stderr);
    pp_mpi_exit(3);
  }
  return p;
}

void pp_device_fill(const pp_device_ops *ops, void *d, const void *value, size_t elem,
                    size_t count) {
  enum { CHUNK = 1 << 20 }; /* bytes of host staging */
  size_t per = CHUNK / elem > 0 ? CHUNK / elem : 1;
  if (per > count) per = count;
  if (!count) return;
  char *h = pp_host_alloc("device fill", per * elem, "staging");
  for (size_t i = 0; i < per; i++) memcpy(h + i * elem, value, elem);
  for (size_t at = 0; at < count; at += per) {
    size_t k = count - at < per ? count - at : per;
    ops->to_device((char *)d + at * elem, h, k * elem);
  }
  free(h);
}

void pp_device_poison_d(const pp_device_ops *ops, double *d, size_t n) {
  double nan = NAN;
  pp_device_fill(ops, d, &nan, sizeof nan, n);
}

void pp_device_poison_f(const pp_device_ops *ops, float *d, size_t n) {
  float nan = NAN;
  pp_device_fill(ops, d, &nan, sizeof nan, n);
}
