/* xsbench_like's event variants composed once from a model's primitives, the
 * scratch they run in, and the check of the model's sort (variants.c). */
#ifndef XS_VARIANTS_H
#define XS_VARIANTS_H
#include "pp/device.h"
#include "xsbench_like.h"

#define XS_SORTED_VARIANTS ((1u << XS_SORTED_MATERIAL) | (1u << XS_SORTED_ENERGY))

/* The scratch of up to n lookups for model k, through its device ops (exit 3
 * when it does not fit), and its release (the vendor sort's scratch too). */
void xs_work_alloc(xs_work *w, const pp_device_ops *o, const xs_kernels *k, long long n);
void xs_work_free(xs_work *w, const pp_device_ops *o);

/* One simulation of event variant v (xs_variant) over lookups [first,
 * first+n), n >= 1, in w: the sum of their verification values. Baseline
 * needs no scratch but the checksum's (a zeroed xs_work on host). */
unsigned long long xs_event(const xs_kernels *k, const xs_data *d, xs_work *w, int v, long long first,
                            long long n);

/* The model's sort alone, in w, on the keys of the first n lookups (at most
 * 100,003 unless `all`), over the bits sorted-energy sorts: sorted by them,
 * the same keys, every value still with its key. `all` (--sort-check) also
 * times it and prints the time. Writes "sort of N keys ok|WRONG" to why;
 * returns 1 when ok. */
int xs_check_sort(pp_model m, const pp_device_ops *o, const xs_kernels *k, xs_work *w, long long n,
                  int all, char *why, size_t len);
#endif
