/* XSBench's simulation data, generated bit for bit as XSBench 20 does: the
 * nuclide grids from one LCG stream (seed 42, six draws per point in point
 * order), each nuclide sorted by energy; the unionized grid (all energies
 * sorted) with its index grid, or the hash grid; the 12 materials with their
 * nuclide lists and concentrations (seed 1070^2). Work is parallel where the
 * result cannot depend on it (skip-ahead streams, independent nuclides). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "xsbench_like.h"
#ifdef _OPENMP
#include <omp.h>
#endif

/* H-M benchmark sizes: XL is sized for ~120 GB of data, XXL 2.1 times that. */
int xs_sizes_for(const char *name, long gridpoints, xs_sizes *out) {
  static const xs_sizes known[] = {
      {"small", 68, 11303}, {"large", 355, 11303}, {"XL", 355, 238847}, {"XXL", 355, 501578}};
  for (int i = 0; i < 4; i++)
    if (!strcasecmp(name, known[i].name)) {
      *out = known[i];
      if (gridpoints > 0) out->n_gridpoints = gridpoints;
      return 0;
    }
  return -1;
}

double xs_data_bytes(const xs_sizes *z, int grid, int hash_bins) {
  const double pts = (double)z->n_isotopes * (double)z->n_gridpoints;
  double b = pts * sizeof(xs_point) + 2.0 * XS_MATERIALS * 321 * 8;
  if (grid == XS_UNIONIZED) b += pts * sizeof(double) + pts * (double)z->n_isotopes * sizeof(int);
  if (grid == XS_HASH) b += (double)hash_bins * (double)z->n_isotopes * sizeof(int);
  return b;
}

const char *xs_grid_name(int grid) {
  return grid == XS_UNIONIZED ? "unionized" : grid == XS_NUCLIDE ? "nuclide" : "hash";
}

static const char *const variant_names[XS_VARIANT_COUNT] = {
    "baseline", "sampling", "material", "fuel", "sorted-material", "sorted-energy"};
static const int variant_ids[XS_VARIANT_COUNT] = {0, 1, 2, 3, 4, 6};
const char *xs_variant_name(int v) { return variant_names[v]; }
int xs_variant_kernel_id(int v) { return variant_ids[v]; }

static int by_energy(const void *a, const void *b) {
  double x = ((const xs_point *)a)->energy, y = ((const xs_point *)b)->energy;
  return (x > y) - (x < y);
}
static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Fuel (material 0) has 34 nuclides in H-M small, 321 in large: the small
 * list plus nuclides 68.. that only large has. */
#define XS_FUEL_SMALL 34
#define XS_FUEL_LARGE 321
static const int fuel_small[XS_FUEL_SMALL] = {58, 59, 60, 61, 40, 42, 43, 44, 45, 46, 1, 2,
                                              3,  7,  8,  9,  10, 29, 57, 47, 48, 0,  62, 15,
                                              33, 34, 52, 53, 54, 55, 56, 18, 23, 41};
static const int cladding[] = {63, 64, 65, 66, 67};
static const int water[] = {24, 41, 4, 5};
static const int rpv[] = {19, 20, 21, 22, 35, 36, 37, 38, 39, 25, 27, 28, 29, 30,
                          31, 32, 26, 49, 50, 51, 11, 12, 13, 14, 6,  16, 17};
static const int reflector[] = {24, 41, 4, 5, 19, 20, 21, 22, 35, 36, 37,
                                38, 39, 25, 49, 50, 51, 11, 12, 13, 14};
static const int assembly_end[] = {24, 41, 4, 5, 63, 64, 65, 66, 67};

static void make_materials(xs_problem *pb, long n_isotopes) {
  static const int *const lists[XS_MATERIALS] = {
      NULL, cladding, water, water, rpv, reflector, reflector, reflector, reflector, reflector,
      assembly_end, assembly_end};
  static const int lens[XS_MATERIALS] = {0, 5, 4, 4, 27, 21, 21, 21, 21, 21, 9, 9};
  int *num = pb->num_nucs_mem;
  num[0] = n_isotopes == 68 ? XS_FUEL_SMALL : XS_FUEL_LARGE;
  int maxn = num[0];
  for (int m = 1; m < XS_MATERIALS; m++) {
    num[m] = lens[m];
    if (num[m] > maxn) maxn = num[m];
  }
  int *mats = pb->mats_mem;
  double *concs = pb->concs_mem;
  memset(mats, 0, sizeof(int) * XS_MATERIALS * (size_t)maxn);
  memset(concs, 0, sizeof(double) * XS_MATERIALS * (size_t)maxn);
  for (int j = 0; j < num[0]; j++) mats[j] = j < XS_FUEL_SMALL ? fuel_small[j] : 68 + (j - XS_FUEL_SMALL);
  for (int m = 1; m < XS_MATERIALS; m++) memcpy(mats + m * maxn, lists[m], sizeof(int) * (size_t)lens[m]);
  uint64_t seed = XS_CONC_SEED;
  for (int m = 0; m < XS_MATERIALS; m++)
    for (int j = 0; j < num[m]; j++) concs[m * maxn + j] = pp_lcg_next(&seed);
  pb->d.max_num_nucs = maxn;
}

/* Unionized index grid: for each unionized energy and nuclide, the nuclide's
 * lower point, advanced at most one point per unionized energy and never past
 * the second-to-last (XSBench's rule). Nuclides are independent columns, a
 * contiguous range of them per thread, its state thread-local. Returns 0, or
 * -1 out of memory. */
static int make_index_grid(const xs_data *d, int *index) {
  const long niso = d->n_isotopes, ngp = d->n_gridpoints;
  const long nu = (long)d->len_egrid;
  const double *egrid = d->egrid;
  const xs_point *g = d->nuclide_grid;
  int failed = 0;
#pragma omp parallel reduction(|| : failed)
  {
    int nt = 1, t = 0;
#ifdef _OPENMP
    nt = omp_get_num_threads(), t = omp_get_thread_num();
#endif
    long i0 = niso * t / nt, i1 = niso * (t + 1) / nt;
    long nloc = i1 - i0;
    long *low = calloc((size_t)(nloc > 0 ? nloc : 1), sizeof(long));
    double *high = malloc(sizeof(double) * (size_t)(nloc > 0 ? nloc : 1));
    failed = !low || !high;
    if (!failed) {
      for (long i = i0; i < i1; i++) high[i - i0] = g[i * ngp + 1].energy;
      for (long e = 0; e < nu; e++) {
        const double ue = egrid[e];
        for (long i = i0; i < i1; i++) {
          long *lo = &low[i - i0];
          if (!(ue < high[i - i0]) && *lo != ngp - 2) {
            (*lo)++;
            high[i - i0] = g[i * ngp + *lo + 1].energy;
          }
          index[e * niso + i] = (int)*lo;
        }
      }
    }
    free(low);
    free(high);
  }
  return failed ? -1 : 0;
}

int xs_problem_make(const xs_sizes *z, int grid, int hash_bins, xs_problem *pb) {
  memset(pb, 0, sizeof *pb);
  xs_data *d = &pb->d;
  const long niso = z->n_isotopes, ngp = z->n_gridpoints;
  const size_t npts = (size_t)niso * (size_t)ngp;
  d->n_isotopes = niso, d->n_gridpoints = ngp, d->grid = grid, d->hash_bins = hash_bins;

  pb->grid_mem = malloc(npts * sizeof(xs_point));
  pb->num_nucs_mem = malloc(sizeof(int) * XS_MATERIALS);
  pb->mats_mem = malloc(sizeof(int) * XS_MATERIALS * XS_FUEL_LARGE);
  pb->concs_mem = malloc(sizeof(double) * XS_MATERIALS * XS_FUEL_LARGE);
  if (!pb->grid_mem || !pb->num_nucs_mem || !pb->mats_mem || !pb->concs_mem) goto oom;
  xs_point *g = pb->grid_mem;
  /* one stream, six draws per point; nuclide i starts 6*i*ngp draws in */
#pragma omp parallel for schedule(dynamic, 1)
  for (long i = 0; i < niso; i++) {
    uint64_t seed = pp_lcg_skip(XS_GRID_SEED, 6ull * (uint64_t)i * (uint64_t)ngp);
    for (long k = i * ngp; k < (i + 1) * ngp; k++) {
      g[k].energy = pp_lcg_next(&seed);
      g[k].total = pp_lcg_next(&seed);
      g[k].elastic = pp_lcg_next(&seed);
      g[k].absorption = pp_lcg_next(&seed);
      g[k].fission = pp_lcg_next(&seed);
      g[k].nu_fission = pp_lcg_next(&seed);
    }
    qsort(g + i * ngp, (size_t)ngp, sizeof(xs_point), by_energy);
  }
  d->nuclide_grid = g;

  if (grid == XS_UNIONIZED) {
    pb->egrid_mem = malloc(npts * sizeof(double));
    pb->index_mem = malloc(npts * (size_t)niso * sizeof(int));
    if (!pb->egrid_mem || !pb->index_mem) goto oom;
#pragma omp parallel for schedule(static)
    for (size_t k = 0; k < npts; k++) pb->egrid_mem[k] = g[k].energy;
    qsort(pb->egrid_mem, npts, sizeof(double), by_value);
    d->egrid = pb->egrid_mem, d->len_egrid = npts;
    d->len_index = npts * (size_t)niso;
    if (make_index_grid(d, pb->index_mem) != 0) goto oom;
    d->index_grid = pb->index_mem;
  } else if (grid == XS_HASH) {
    d->len_index = (size_t)hash_bins * (size_t)niso;
    pb->index_mem = malloc(d->len_index * sizeof(int));
    if (!pb->index_mem) goto oom;
    const double du = 1.0 / hash_bins;
    int *index = pb->index_mem;
#pragma omp parallel for schedule(static)
    for (long e = 0; e < hash_bins; e++) {
      const double energy = e * du;
      for (long i = 0; i < niso; i++)
        index[e * niso + i] = (int)xs_search_nuclide(energy, g + i * ngp, 0, ngp - 1);
    }
    d->index_grid = index;
  }
  make_materials(pb, niso);
  d->num_nucs = pb->num_nucs_mem, d->mats = pb->mats_mem, d->concs = pb->concs_mem;
  return 0;
oom:
  xs_problem_free(pb);
  return -1;
}

void xs_problem_free(xs_problem *pb) {
  free(pb->grid_mem), free(pb->egrid_mem), free(pb->concs_mem);
  free(pb->index_mem), free(pb->num_nucs_mem), free(pb->mats_mem);
  memset(pb, 0, sizeof *pb);
}
