/* testsnap, host model: plain C + OpenMP threads over atoms (and over force
 * atoms), the reference the other models are checked against. The order
 * of every sum is LAMMPS's (neighbours in list order; Z, B in index order),
 * and energies go through the bispectrum B (compute_zi/compute_bi), not
 * through Y, so energies check U and Z independently of Y. */
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "snap_math.h"

typedef struct work {
  double *ur, *ui;     /* [natoms * idxu_max] U_i */
  double *yr, *yi;     /* [natoms * idxu_max] Y_i (half used) */
  double *dedr;        /* [natoms * nmax * 3] dE_i/dr_j */
  snap_c *scratch;     /* per thread: U and dU of one neighbour, [idxu_max * 4] */
  int nthreads;
} work;

static int max_threads(void) {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}
static int thread_id(void) {
#ifdef _OPENMP
  return omp_get_thread_num();
#else
  return 0;
#endif
}

static void release(void *p) {
  work *w = p;
  if (!w) return;
  free(w->ur), free(w->ui), free(w->yr), free(w->yi), free(w->dedr), free(w->scratch);
  free(w);
}

/* Variants are GPU mappings: the host has one form, whatever is asked. */
static int check(const snap_data *d, const snap_variant *v, char *why, size_t len) {
  (void)d, (void)v, (void)why, (void)len;
  return 0;
}

static void *prepare(const snap_data *d, const snap_variant *v, char *why, size_t len) {
  (void)v, (void)why, (void)len;
  work *w = calloc(1, sizeof *w);
  if (!w) return NULL;
  const size_t nu = (size_t)d->natoms * d->t.idxu_max;
  w->nthreads = max_threads();
  w->ur = malloc(nu * sizeof(double)), w->ui = malloc(nu * sizeof(double));
  w->yr = malloc(nu * sizeof(double)), w->yi = malloc(nu * sizeof(double));
  w->dedr = malloc((size_t)d->natoms * d->nmax * 3 * sizeof(double) + 1);
  w->scratch = malloc((size_t)w->nthreads * d->t.idxu_max * 4 * sizeof(snap_c));
  if (!w->ur || !w->ui || !w->yr || !w->yi || !w->dedr || !w->scratch) return release(w), NULL;
  return w;
}

static void compute_ui(const snap_data *d, void *p) {
  work *w = p;
  const size_t nu = (size_t)d->t.idxu_max;
#pragma omp parallel for schedule(static)
  for (int i = 0; i < d->natoms; i++)
    snap_atom_ui(d, i, w->ur + i * nu, w->ui + i * nu, 1, w->scratch + (size_t)thread_id() * nu * 4);
}

static void compute_yi(const snap_data *d, void *p) {
  work *w = p;
  const size_t nu = (size_t)d->t.idxu_max;
#pragma omp parallel for schedule(static)
  for (int i = 0; i < d->natoms; i++) snap_atom_yi(d, w->ur + i * nu, w->ui + i * nu, w->yr + i * nu, w->yi + i * nu, 1);
}

static void compute_deidrj(const snap_data *d, void *p) {
  work *w = p;
  const size_t nu = (size_t)d->t.idxu_max;
#pragma omp parallel for schedule(static)
  for (int i = 0; i < d->natoms; i++) {
    snap_c *u = w->scratch + (size_t)thread_id() * nu * 4;
    for (int jj = 0; jj < d->nneigh[i]; jj++)
      snap_pair_dedr(d, i, jj, w->yr + i * nu, w->yi + i * nu, 1, u, u + nu,
                     w->dedr + ((size_t)i * d->nmax + jj) * 3);
  }
}

static void compute_forces(const snap_data *d, void *p) {
  work *w = p;
#pragma omp parallel for schedule(static)
  for (int a = 0; a < d->nall; a++) snap_force_gather(d, w->dedr, a, d->force + 3 * (size_t)a);
}

static void compute_energies(const snap_data *d, void *p) {
  work *w = p;
  const size_t nu = (size_t)d->t.idxu_max;
#pragma omp parallel for schedule(static)
  for (int i = 0; i < d->natoms; i++) d->energy[i] = snap_atom_energy_b(d, w->ur + i * nu, w->ui + i * nu, 1);
}

static const snap_kernels kernels = {
    .check = check,
    .prepare = prepare,
    .release = release,
    .compute_ui = compute_ui,
    .compute_yi = compute_yi,
    .compute_deidrj = compute_deidrj,
    .compute_forces = compute_forces,
    .compute_energies = compute_energies,
    .notes = "OpenMP threads over atoms; U and dU of one neighbour in per-thread scratch; energies via B",
};

const snap_kernels *snap_kernels_host(void) { return &kernels; }
