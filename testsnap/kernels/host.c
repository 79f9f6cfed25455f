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
#include "testsnap.h"

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

static void *prepare(const snap_data *d, const snap_variant *v, char *why, size_t len) {
  (void)v, (void)why, (void)len; /* variants are GPU mappings: the host has one form */
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
  const snap_tables *t = &d->t;
  const int nu = t->idxu_max;
#pragma omp parallel for schedule(static)
  for (int i = 0; i < d->natoms; i++) {
    double *ur = w->ur + (size_t)i * nu, *ui = w->ui + (size_t)i * nu;
    snap_c *u = w->scratch + (size_t)thread_id() * nu * 4;
    memset(ur, 0, sizeof(double) * nu), memset(ui, 0, sizeof(double) * nu);
    for (int j = 0; j <= t->twojmax; j++)
      for (int ma = 0; ma <= j; ma++) ur[snap_uidx(j, ma, ma)] = d->wself;
    for (int jj = 0; jj < d->nneigh[i]; jj++) {
      const snap_ck c = snap_ck_of(d, d->rij + ((size_t)i * d->nmax + jj) * 3);
      snap_u_all(t, &c, u);
      for (int e = 0; e < nu; e++) ur[e] += c.sfac * u[e].r, ui[e] += c.sfac * u[e].i;
    }
  }
}

static void compute_yi(const snap_data *d, void *p) {
  work *w = p;
  const snap_tables *t = &d->t;
  const int nu = t->idxu_max;
#pragma omp parallel for schedule(static)
  for (int i = 0; i < d->natoms; i++) {
    const double *ur = w->ur + (size_t)i * nu, *ui = w->ui + (size_t)i * nu;
    double *yr = w->yr + (size_t)i * nu, *yi = w->yi + (size_t)i * nu;
    memset(yr, 0, sizeof(double) * nu), memset(yi, 0, sizeof(double) * nu);
    for (int jjz = 0; jjz < t->idxz_max; jjz++) {
      const snap_c z = snap_z_elem(t, jjz, ur, ui, 1);
      const int e = t->idxz[jjz].jju;
      yr[e] += t->zbeta[jjz] * z.r;
      yi[e] += t->zbeta[jjz] * z.i;
    }
  }
}

static void compute_deidrj(const snap_data *d, void *p) {
  work *w = p;
  const snap_tables *t = &d->t;
  const int nu = t->idxu_max;
  const snap_c zero = {0.0, 0.0}, zero3[3] = {{0.0, 0.0}, {0.0, 0.0}, {0.0, 0.0}};
#pragma omp parallel for schedule(static)
  for (int i = 0; i < d->natoms; i++) {
    const double *yr = w->yr + (size_t)i * nu, *yi = w->yi + (size_t)i * nu;
    snap_c *u = w->scratch + (size_t)thread_id() * nu * 4, *du = u + nu; /* du[e*3 + k] */
    for (int jj = 0; jj < d->nneigh[i]; jj++) {
      const size_t pr = (size_t)i * d->nmax + jj;
      const snap_dck g = snap_dck_of(d, d->rij + pr * 3);
      double acc[3] = {0.0, 0.0, 0.0};
      u[0].r = 1.0, u[0].i = 0.0;
      du[0] = du[1] = du[2] = zero;
      for (int j = 1; j <= t->twojmax; j++) {
        for (int mb = 0; 2 * mb <= j; mb++)
          for (int ma = 0; ma <= j; ma++) {
            const int ea = ma < j ? snap_uidx(j - 1, ma, mb) : -1;
            const int eb = ma > 0 ? snap_uidx(j - 1, ma - 1, mb) : -1;
            const int e = snap_uidx(j, ma, mb);
            u[e] = snap_du_step(t, &g, j, ma, mb, ea >= 0 ? u[ea] : zero, ea >= 0 ? du + 3 * ea : zero3,
                                eb >= 0 ? u[eb] : zero, eb >= 0 ? du + 3 * eb : zero3, du + 3 * e);
          }
        for (int mb = j / 2 + 1; mb <= j; mb++)
          for (int ma = 0; ma <= j; ma++) {
            const int e = snap_uidx(j, ma, mb), s = snap_uidx(j, j - ma, j - mb);
            u[e] = snap_u_mirror(ma, mb, u[s]);
            for (int k = 0; k < 3; k++) du[3 * e + k] = snap_u_mirror(ma, mb, du[3 * s + k]);
          }
      }
      for (int j = 0; j <= t->twojmax; j++)
        for (int mb = 0; 2 * mb <= j; mb++)
          for (int ma = 0; ma <= j; ma++) {
            if (snap_half_weight(j, ma, mb) == 0.0) continue;
            const int e = snap_uidx(j, ma, mb);
            snap_c dus[3];
            snap_du_scale(&g, u[e], du + 3 * e, dus);
            const snap_c y = {yr[e], yi[e]};
            snap_dedr_term(j, ma, mb, dus, y, acc);
          }
      for (int k = 0; k < 3; k++) w->dedr[pr * 3 + k] = acc[k];
    }
  }
}

static void compute_forces(const snap_data *d, void *p) {
  work *w = p;
#pragma omp parallel for schedule(static)
  for (int a = 0; a < d->nall; a++) snap_force_gather(d, w->dedr, a, d->force + 3 * (size_t)a);
}

static void compute_energies(const snap_data *d, void *p) {
  work *w = p;
  const snap_tables *t = &d->t;
  const int nu = t->idxu_max;
#pragma omp parallel for schedule(static)
  for (int i = 0; i < d->natoms; i++) {
    const double *ur = w->ur + (size_t)i * nu, *ui = w->ui + (size_t)i * nu;
    double e = d->e0;
    for (int k = 0; k < t->idxb_max; k++) e += t->beta[k] * snap_b_elem(t, k, ur, ui, 1);
    d->energy[i] = e;
  }
}

static const snap_kernels kernels = {
    prepare, release, compute_ui, compute_yi, compute_deidrj, compute_forces, compute_energies,
    "OpenMP threads over atoms; U and dU of one neighbour in per-thread scratch; energies via B"};

const snap_kernels *snap_kernels_host(void) { return &kernels; }
