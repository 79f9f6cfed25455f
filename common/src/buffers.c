/* Buffers for setup and verify (pp/buffers.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pp/buffers.h"
#include "pp/mpi.h"

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
