#include <stdlib.h>
#include <string.h>
#include "pp/ceiling.h"
#include "pp/stats.h"

double pp_measure_copy_gbs(const pp_device_ops *ops, size_t bytes, int samples) {
  /* Fill the source with non-zero data: zero pages can be faster than real data. */
  size_t n = bytes / sizeof(double);
  bytes = n * sizeof(double);
  double *h = malloc(bytes);
  if (!h) return 0;
  for (size_t i = 0; i < n; i++) h[i] = (double)(i % 1021) + 0.5;
  void *src = pp_device_upload(ops, h, bytes);
  void *dst = ops->alloc(bytes);
  free(h);
  for (int w = 0; w < 2; w++) ops->copy(dst, src, bytes);
  ops->sync();
  double *t = malloc(sizeof *t * (size_t)samples);
  for (int s = 0; s < samples; s++) {
    ops->timer_start();
    ops->copy(dst, src, bytes);
    t[s] = ops->timer_stop();
  }
  double gbs = 2.0 * (double)bytes / pp_median(t, samples) / 1e9; /* read + write */
  free(t);
  ops->free(src);
  ops->free(dst);
  return gbs;
}
